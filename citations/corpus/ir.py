"""The intermediate form every corpus reader produces.

A reader turns one source file into a flat list of :class:`UnitIR` (a tree by
``parent`` path) and counts of its top-level units. Paths use the same segment
names as the parser's canonical identifiers (``art/6/para/1/point/f``,
``sec/286/para/2/point/3``, ``recital/47``, ``annex/III/point/1/subpoint/a``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(slots=True)
class UnitIR:
    path: str
    kind: str
    label: str
    text: str
    heading: str = ""
    repealed: bool = False

    @property
    def parent(self) -> str | None:
        segs = self.path.split("/")
        return "/".join(segs[:-2]) if len(segs) > 2 else None


@dataclass(frozen=True, slots=True)
class SourceMeta:
    """What a source file says about itself (German statutes: ``<jurabk>``,
    ``<amtabk>``, ``<langue>`` and the Standangabe)."""

    abbreviation: str = ""
    official_abbreviation: str | None = None
    title: str = ""
    stand: str = ""
    stand_date: str | None = None
    enacted: str | None = None
    pending_amendments: tuple[str, ...] = ()


@dataclass(slots=True)
class DocumentIR:
    units: list[UnitIR] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    meta: SourceMeta = field(default_factory=SourceMeta)

    def add(self, unit: UnitIR) -> None:
        """Add a unit; a path seen before (a second list in one paragraph with
        the same labels) keeps its first occurrence, a label that is not a
        number or letter (a dash item) is not addressable and is skipped."""
        if unit.path in self.seen or not _LABEL_OK.match(unit.label):
            return
        self.seen.add(unit.path)
        self.units.append(unit)

    def counts(self) -> dict[str, int]:
        tops: dict[str, int] = {}
        for u in self.units:
            if u.path.count("/") == 1:
                key = {
                    "art": "articles",
                    "sec": "sections",
                    "recital": "recitals",
                    "annex": "annexes",
                }[u.kind]
                if u.kind in ("sec", "art") and u.repealed and u.label.startswith("("):
                    continue
                tops[key] = tops.get(key, 0) + 1
        tops["units"] = len(self.units)
        return tops


_LABEL_OK = re.compile(r"^\(?[0-9A-Za-z]+\)?$")
_WS = re.compile(r"\s+")
_SPACE_AFTER_OPEN = re.compile(r"([(\[]) |\x00\s*")
_SPACE_BEFORE_CLOSE = re.compile(r" ([)\],.;:])|\s*\x01")


def clean(text: str) -> str:
    """Normalise whitespace (the German Formex files are pretty-printed, with
    line breaks inside mixed content). \x00/\x01 mark the inside of quotes."""
    text = _WS.sub(" ", text)
    text = _SPACE_AFTER_OPEN.sub(lambda m: m.group(1) or "", text)
    text = _SPACE_BEFORE_CLOSE.sub(lambda m: m.group(1) or "", text)
    return text.strip()


def label_of(raw: str) -> str:
    """ "(a)" → "a", "1." → "1", "a)" → "a", "(iv)" → "iv"."""
    return raw.strip().strip("().").strip(")").strip().lower()


_ABBREVIATIONS = frozenset(
    [
        "Abs",
        "Nr",
        "S",
        "Art",
        "Buchst",
        "bzw",
        "z",
        "B",
        "v",
        "d",
        "h",
        "i",
        "ff",
        "f",
        "u",
        "a",
        "vgl",
        "Ziff",
        "lit",
        "Ges",
        "Bek",
        "BGBl",
        "Hs",
        "Alt",
        "St",
        "etc",
        "ca",
        "gem",
        "No",
        "p",
        "e",
        "g",
        "Mio",
        "Prof",
        "Dr",
        "EUR",
        "Nrn",
        "Dez",
        "Jan",
        "Feb",
        "Okt",
        "Nov",
        "Sept",
        "Aug",
        "Rn",
        "Anh",
        "Unterabs",
        "UAbs",
        "Kap",
        "Tz",
        "Verf",
        "Einl",
    ]
)
_SENT_END = re.compile(r"[.!?]\s+(?=[A-ZÄÖÜ„\"(])")


def split_sentences(text: str) -> list[str]:
    """Sentences of a provision (German "Satz" counting: ";" does not end one)."""
    out: list[str] = []
    start = 0
    for m in _SENT_END.finditer(text):
        before = text[start : m.start()]
        word = re.search(r"([\wÄÖÜäöü]+)$", before)
        if word is not None and (
            word.group(1) in _ABBREVIATIONS or word.group(1).isdigit()
        ):
            continue
        if len(before.strip()) < 3:
            continue
        out.append(text[start : m.start() + 1].strip())
        start = m.end()
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return out


def add_sentences(doc: DocumentIR, base: str, text: str) -> None:
    sentences = split_sentences(text)
    if len(sentences) < 2:
        return
    for i, sentence in enumerate(sentences, 1):
        doc.add(UnitIR(f"{base}/sent/{i}", "sent", str(i), sentence))
