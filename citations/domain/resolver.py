"""Resolve a parsed citation inside one pinned version's provision tree.

Pure: :func:`version_choice` picks the version (by date and language) from
the pinned versions' validity spans, and the caller hands over its
:class:`ProvisionIndex`. A date before the earliest pinned version is not a
miss: the earliest later version is named instead, and a citation found there
is ``unpinned_at_date`` (the provision exists, its wording at the asked date
is not verified) — never ``resolved``.

Exact path matches only — a substring is never a match (§ 823 does not find
§ 1823) — with one documented relaxation: a citation may
leave out a subparagraph or an annex part ("Art. 6 Abs. 1 lit. f" finds the
point in the first subparagraph); if that leaves more than one candidate the
answer is ``ambiguous``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Literal

from citations.domain.instruments import InstrumentInfo
from citations.domain.parser import Citation

Status = Literal[
    "resolved",
    "unpinned_at_date",
    "not_found",
    "bad_unit",
    "ambiguous",
    "not_checked",
]
STATUSES: tuple[str, ...] = (
    "resolved",
    "unpinned_at_date",
    "not_found",
    "bad_unit",
    "ambiguous",
    "not_checked",
)

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


# a sentence ends after a word (not after a list number "1." or "Abs.")
# before a capital
_SENTENCE_BREAK = re.compile(r"(?<=[a-zäöüß)][a-zäöüß)])[.!?]\s+(?=[A-ZÄÖÜ])")


def _sentences_around_list(text: str) -> int:
    """How many sentences a unit with a list has, the list inside its
    sentence."""
    return len(_SENTENCE_BREAK.findall(text)) + 1


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
    the reason. (Hot path of every check: plain string paths, an exact
    dictionary hit first.)"""
    by_path = index.by_path
    base = ""  # the path of the unit found so far
    found: ProvisionRef | None = None
    note: str | None = None
    last_kind = ""
    for kind, value in citation.levels:
        if kind == "half" or kind == "alt":
            continue
        last_kind = kind
        path = f"{base}/{kind}/{value}" if base else f"{kind}/{value}"
        exact = by_path.get(path)
        hits = [exact] if exact is not None else index.find(path)
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
            elif index.find(f"{found.path}/point/1"):
                # "Article 3(70) AI Act": a definition article's points end
                # before 70; the answer names the point, not a paragraph
                return Outcome(
                    "not_found",
                    f"no_such_point_for_paragraph: point {value} ({found.path} "
                    f"has no numbered paragraphs; ({value}) is read as its point)",
                )
        if (
            not hits
            and kind == "sent"
            and found is not None
            and index.find(f"{found.path}/point/1")
            and int(value) <= _sentences_around_list(found.text)
        ):
            # "§ 520 Abs. 3 S. 2 Nr. 2 ZPO": a unit divided into numbered
            # items is not split into sentences in the corpus; its text has
            # that many sentences (a list counts as part of its sentence)
            note = f"sentence_of_listed_unit: {found.path} sentence {value}"
            continue
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
                continue
        if not hits:
            return Outcome("not_found", _describe(kind, value))
        if len(hits) > 1:
            paths = tuple(h.path for h in hits)
            return Outcome(
                "ambiguous", "candidates: " + ", ".join(paths), candidates=paths
            )
        found = hits[0]
        base = found.path
        if found.repealed:
            return Outcome("not_found", f"repealed: {kind} {value}", provision=found)
    assert found is not None
    if citation.range_end is not None:
        parent = base.rsplit("/", 1)[0]
        if not index.find(f"{parent}/{citation.range_end}"):
            return Outcome(
                "not_found",
                _describe(last_kind, citation.range_end) + " (end of range)",
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


# --- which pinned version answers a date ---


@dataclass(frozen=True, slots=True)
class VersionSpan:
    """A pinned version's validity: from ``valid_from`` to ``valid_to``
    (inclusive; None while no later version is pinned). ``key`` is the
    caller's handle (the database id)."""

    key: int
    language: str
    valid_from: date
    valid_to: date | None = None

    def covers(self, at: date) -> bool:
        return self.valid_from <= at and (self.valid_to is None or at <= self.valid_to)


@dataclass(frozen=True, slots=True)
class VersionChoice:
    """``valid`` answers the date; if none does because the date is before
    every pinned version, ``later`` is the earliest version after it (its text
    may be shown, never as the law in force at the date)."""

    valid: VersionSpan | None
    later: VersionSpan | None = None


def validity_spans(
    starts: Iterable[tuple[int, str, date]],
) -> list[VersionSpan]:
    """Spans from (key, language, valid_from): each version is valid until the
    day before the next one of the same language starts."""
    by_language: dict[str, list[tuple[date, int]]] = {}
    for key, language, valid_from in starts:
        by_language.setdefault(language, []).append((valid_from, key))
    spans = []
    for language, rows in by_language.items():
        rows.sort()
        for (valid_from, key), following in zip(rows, [*rows[1:], None], strict=True):
            valid_to = None
            if following is not None:
                valid_to = date.fromordinal(following[0].toordinal() - 1)
            spans.append(VersionSpan(key, language, valid_from, valid_to))
    return spans


def version_choice(
    spans: Sequence[VersionSpan], *, at: date, language: str
) -> VersionChoice:
    """The version valid at ``at``: the latest starting on or before it, in
    ``language`` if there is one, else in another language. Before every
    pinned version: the earliest one (in ``language`` if possible) as
    ``later``."""
    valid = [s for s in spans if s.valid_from <= at]
    if valid:
        valid.sort(key=lambda s: s.valid_from, reverse=True)
        same = [s for s in valid if s.language == language]
        return VersionChoice(same[0] if same else valid[0])
    if not spans:
        return VersionChoice(None)
    ordered = sorted(spans, key=lambda s: (s.language != language, s.valid_from))
    return VersionChoice(None, later=ordered[0])
