"""Resolve a parsed citation inside one pinned version's provision tree.

Pure: the caller picks the version (by date and language) and hands over its
:class:`ProvisionIndex`. Exact path matches only — a substring is never a match
(§ 823 does not find § 1823) — with one documented relaxation: a citation may
leave out a subparagraph or an annex part ("Art. 6 Abs. 1 lit. f" finds the
point in the first subparagraph); if that leaves more than one candidate the
answer is ``ambiguous``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from citations.domain.instruments import InstrumentInfo
from citations.domain.parser import Citation

Status = Literal["resolved", "not_found", "bad_unit", "ambiguous", "not_checked"]

_OPTIONAL = re.compile(r"(?:subpara|part)/[^/]+/")

UNIT_WORDS: dict[str, str] = {
    "art": "article",
    "sec": "section",
    "asec": "section",
    "para": "paragraph",
    "subpara": "subparagraph",
    "sent": "sentence",
    "half": "half_sentence",
    "point": "point",
    "subpoint": "subpoint",
    "subsubpoint": "subsubpoint",
    "recital": "recital",
    "annex": "annex",
    "part": "annex_part",
}


def lookup_key(path: str) -> str:
    """The path without the levels a citation may leave out (not the last one)."""
    return _OPTIONAL.sub("", path)


@dataclass(frozen=True, slots=True)
class ProvisionRef:
    path: str
    kind: str
    label: str
    text: str
    heading: str = ""
    repealed: bool = False


@dataclass(slots=True)
class ProvisionIndex:
    """All provisions of one version, by exact path and by lookup key."""

    by_path: dict[str, ProvisionRef] = field(default_factory=dict)
    by_key: dict[str, list[ProvisionRef]] = field(default_factory=dict)
    with_paragraphs: set[str] = field(default_factory=set)

    @classmethod
    def build(cls, refs: Iterable[ProvisionRef]) -> ProvisionIndex:
        index = cls()
        for ref in refs:
            index.by_path[ref.path] = ref
            index.by_key.setdefault(lookup_key(ref.path), []).append(ref)
            if ref.kind == "para":
                index.with_paragraphs.add(ref.path.rsplit("/", 2)[0])
        return index

    def find(self, path: str) -> list[ProvisionRef]:
        exact = self.by_path.get(path)
        if exact is not None:
            return [exact]
        return list(self.by_key.get(lookup_key(path), ()))


@dataclass(frozen=True, slots=True)
class Outcome:
    status: Status
    reason: str | None = None
    provision: ProvisionRef | None = None
    candidates: tuple[str, ...] = ()


def unit_mismatch(citation: Citation, instrument: InstrumentInfo) -> str | None:
    """ "§ 44 DSGVO": the GDPR has articles, not §§ (and the BGB no articles)."""
    top = citation.top
    if top == "sec" and instrument.unit == "article":
        return f"wrong_unit: {instrument.ident} is divided into articles, not §§"
    if top == "art" and instrument.unit == "section":
        return f"wrong_unit: {instrument.ident} is divided into §§, not articles"
    # a German statute has Anlagen (annex/1: "Nr. 2300 VV RVG"), no recitals
    if top == "recital" and instrument.kind == "de_statute":
        return f"wrong_unit: {instrument.ident} has no {UNIT_WORDS[top]}s"
    return None


def _describe(kind: str, value: str) -> str:
    return f"no_such_{UNIT_WORDS.get(kind, kind)}: {kind} {value}"


def resolve_in_index(citation: Citation, index: ProvisionIndex) -> Outcome:
    """Walk the citation's levels down the tree; the first missing level names
    the reason."""
    structural = [(k, v) for k, v in citation.levels if k not in ("half", "alt")]
    segments: list[str] = []
    found: ProvisionRef | None = None
    note: str | None = None
    for kind, value in structural:
        segments.append(f"{kind}/{value}")
        path = "/".join(segments)
        hits = index.find(path)
        # "Article 4(1) GDPR": an article without numbered paragraphs is cited
        # by its points in the parenthesised form.
        if (
            not hits
            and kind == "para"
            and "para" in citation.parenthesised
            and found is not None
            and found.path not in index.with_paragraphs
        ):
            hits = index.find(f"{found.path}/point/{value}")
            if hits:
                note = (
                    f"paragraph_read_as_point: {found.path} has no numbered "
                    f"paragraphs; ({value}) is its point {value}"
                )
        if not hits and kind == "sent" and found is not None:
            # "Art. 17 Abs. 3 S. 1 lit. b DSGVO": German writers call an EU
            # act's subparagraph "Satz"; and Satz 1 of a one-sentence unit is
            # the unit itself
            hits = index.find(f"{found.path}/subpara/{value}")
            if hits:
                note = f"sentence_read_as_subparagraph: {found.path} subpara {value}"
            elif value == "1" and not (
                index.find(f"{found.path}/sent/2")
                or index.find(f"{found.path}/subpara/2")
            ):
                note = f"single_sentence: {found.path} is one sentence"
                segments = found.path.split("/")
                continue
        if not hits:
            return Outcome("not_found", _describe(kind, value))
        if len(hits) > 1:
            paths = tuple(h.path for h in hits)
            return Outcome(
                "ambiguous", "candidates: " + ", ".join(paths), candidates=paths
            )
        found = hits[0]
        segments = found.path.split("/")
        if found.repealed:
            return Outcome("not_found", f"repealed: {kind} {value}", provision=found)
    assert found is not None
    if citation.range_end is not None:
        end_segments = segments[:-1] + [citation.range_end]
        if not index.find("/".join(end_segments)):
            kind = structural[-1][0]
            return Outcome(
                "not_found",
                _describe(kind, citation.range_end) + " (end of range)",
            )
    levels = dict(citation.levels)
    half = levels.get("half")
    if half is not None:
        pieces = [p for p in found.text.split(";") if p.strip()]
        n = int(half)
        if n > len(pieces) or n < 1:
            return Outcome("not_found", _describe("half", half), provision=found)
        return Outcome(
            "resolved",
            None,
            provision=ProvisionRef(
                path=found.path + f"/half/{half}",
                kind="half",
                label=half,
                text=pieces[n - 1].strip(),
            ),
        )
    if "alt" in levels:
        return Outcome(
            "resolved",
            "alternative_not_a_unit: the enclosing provision was checked",
            provision=found,
        )
    return Outcome("resolved", note, provision=found)
