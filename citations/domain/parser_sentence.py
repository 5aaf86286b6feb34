"""Binding a unit that names no act to the act of its sentence.

"Art. 6 Abs. 1 DSGVO ...; ergänzend Erwägungsgrund 47": after the parser has
read every citation of a text, a citation without an act takes the act of
the nearest citation of the same sentence that names one.
"""

from __future__ import annotations

import re
from dataclasses import replace

from citations.domain.citation import Citation
from citations.domain.instruments import InstrumentInfo
from citations.domain.patterns import _WS_COMMA


def bind_in_sentence(text: str, results: list[Citation]) -> None:
    """A unit that names no act takes the act of the nearest citation of
    the same sentence that does, before it ("Art. 6 Abs. 1 DSGVO ...;
    ergänzend Erwägungsgrund 47", "das AGG endet mit § 33") or else after
    it ("Article 53(1)(c) and ... Article 53(1)(d) of the AI Act"), if its
    kind of unit fits that act. A unit followed by a name of its own
    ("Art. 4 der Geschäftsordnung") never does. Linear: at most one look
    at the gap between each two neighbouring citations, and only where an
    act is carried across it."""
    bound = sum(1 for c in results if c.instrument is not None)
    if bound == 0 or bound == len(results):
        return
    n = len(results)
    # breaks[k]: whether a sentence ends between citation k and k + 1,
    # looked at when first needed
    breaks: list[bool | None] = [None] * (n - 1)

    def ends_after(k: int) -> bool:
        known = breaks[k]
        if known is None:
            known = breaks[k] = _sentence_ends(
                text, results[k].end, results[k + 1].start
            )
        return known

    before: list[InstrumentInfo | None] = [None] * n
    current: InstrumentInfo | None = None
    for k in range(n):
        if current is not None and k and ends_after(k - 1):
            current = None
        before[k] = current
        if results[k].instrument is not None:
            current = results[k].instrument
    current = None
    for k in range(n - 1, -1, -1):
        if current is not None and k < n - 1 and ends_after(k):
            current = None
        c = results[k]
        if c.instrument is not None:
            current = c.instrument
            continue
        info = before[k] or current
        if info is None or not _fits(c, info) or _OWN_NAME.match(text, c.end):
            continue
        results[k] = replace(c, instrument=info, instrument_source="context")


# what names the thing a unit belongs to when it is no act: "Art. 4 der
# Geschäftsordnung", "§ 5 des Mietvertrags", "Article 5 of the Agreement"
_OWN_NAME = re.compile(_WS_COMMA + r"(?:der|des|dem|of\s+the|of|to\s+the)\s+[A-ZÄÖÜ]")
# words that end with a period inside a sentence ("vgl. Art. 6", "gem. § 286")
_ABBREVIATIONS = frozenset(
    [
        "vgl",
        "gem",
        "bzw",
        "ggf",
        "insb",
        "usw",
        "sog",
        "zit",
        "ca",
        "etc",
        "art",
        "arts",
        "abs",
        "nr",
        "nrn",
        "rn",
        "rz",
        "urt",
        "beschl",
        "az",
        "aufl",
        "bd",
        "hs",
        "halbs",
        "lit",
        "buchst",
        "ziff",
        "anm",
        "kap",
        "var",
        "alt",
        "verf",
        "sec",
        "secs",
        "no",
        "nos",
        "para",
        "paras",
        "cf",
        "eg",
        "ie",
        "mwn",
        "zb",
        "ua",
        "dh",
        "iv",
        "vm",
    ]
)
_WORD_BEFORE = re.compile(r"(\w+)$")


def _sentence_ends(text: str, a: int, b: int) -> bool:
    """Whether a sentence ends between ``a`` and ``b``: a blank line, more
    than 600 characters, or ". " before a capital after a word that is no
    abbreviation."""
    if b - a > 600:
        return True
    if text.find("\n\n", a, b) != -1:
        return True
    for mark in ".!?":
        i = text.find(mark, a, b)
        while i != -1:
            j = i + 1
            if j < b and text[j].isspace():
                while j < b and text[j].isspace():
                    j += 1
                if j < len(text) and (text[j].isupper() or text[j] in '„"('):
                    wm = _WORD_BEFORE.search(text, max(a, i - 30), i)
                    word = wm.group(1) if wm else ""
                    if (
                        len(word) > 2
                        and not word.isdigit()
                        and word.lower() not in _ABBREVIATIONS
                    ):
                        return True
            i = text.find(mark, i + 1, b)
    return False


def _fits(c: Citation, info: InstrumentInfo) -> bool:
    """Whether the kind of unit can be one of ``info``'s."""
    top = c.top
    if top == "sec":
        return info.kind.startswith("de_") and info.unit != "article"
    if top == "art":
        return info.unit != "section"
    return info.kind.startswith("eu_")
