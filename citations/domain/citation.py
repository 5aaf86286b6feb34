"""What the parser finds: a :class:`Citation` and its level vocabulary.

``levels`` is the ordered path of a citation (``art`` → ``para`` → ``point``);
``LEVEL_ORDER`` ranks the levels so that a subdivision can only go deeper.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Literal

from citations.domain.instruments import InstrumentInfo

Lang = Literal["de", "en"]

# Hierarchy of levels: the order of the canonical path.
LEVEL_ORDER: dict[str, int] = {
    "art": 0,
    "sec": 0,
    "recital": 0,
    "annex": 0,
    "part": 1,
    "asec": 1,
    "para": 2,
    "subpara": 3,
    "sent": 4,
    "half": 5,
    "point": 6,
    "subpoint": 7,
    "subsubpoint": 8,
    "alt": 9,
}
TOP_LEVELS = ("art", "sec", "recital", "annex")
PART_KEYS: dict[str, str] = {
    "art": "article",
    "sec": "section",
    "asec": "section",
    "para": "paragraph",
    "subpara": "subparagraph",
    "sent": "sentence",
    "point": "point",
    "subpoint": "subpoint",
    "alt": "alternative",
    "recital": "recital",
    "annex": "annex",
}
PARTS_ORDER = (
    "instrument",
    "article",
    "section",
    "paragraph",
    "subparagraph",
    "sentence",
    "point",
    "subpoint",
    "alternative",
    "recital",
    "annex",
    "range_end",
    "following",
)

_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "erster": 1,
    "zweiter": 2,
    "dritter": 3,
    "vierter": 4,
}


def in_level_order(levels: dict[str, str]) -> bool:
    """Whether ``levels`` go strictly deeper (a sentence of a numbered item,
    "Nr. 1 S. 1", does not)."""
    previous = -1
    for k in levels:
        rank = LEVEL_ORDER[k]
        if rank <= previous:
            return False
        previous = rank
    return True


def roman_to_int(value: str) -> int:
    total = 0
    prev = 0
    for ch in reversed(value.upper()):
        n = _ROMAN[ch]
        total = total - n if n < prev else total + n
        prev = max(prev, n)
    return total


@dataclass(frozen=True, slots=True)
class Citation:
    """One citation found in a text."""

    start: int
    end: int
    raw: str
    levels: tuple[tuple[str, str], ...]
    stated: frozenset[str]
    instrument: InstrumentInfo | None
    instrument_source: str | None
    lang: Lang
    range_end: str | None = None
    following: str | None = None
    context_bound: bool = False
    parenthesised: frozenset[str] = frozenset()
    # citations written as one ("§§ 280, 288 BGB") share a group number
    group: int = 0

    @property
    def top(self) -> str:
        return self.levels[0][0]

    @property
    def path(self) -> str:
        """The provision path inside the instrument, e.g. ``art/6/para/1``."""
        segs = [f"{k}/{v}" for k, v in self.levels]
        path = "/".join(segs)
        if self.range_end is not None:
            path += f"-{self.range_end}"
        if self.following is not None:
            path += self.following
        return path

    @property
    def canonical(self) -> str | None:
        if self.instrument is None:
            return None
        return f"{self.instrument.prefix}/{self.path}"

    @property
    def parts(self) -> dict[str, str | None]:
        values: dict[str, str | None] = {
            "instrument": self.instrument.ident if self.instrument else None
        }
        for kind, value in self.levels:
            key = PART_KEYS.get(kind)
            if key is not None and kind in self.stated:
                values[key] = value
        if self.range_end is not None:
            values["range_end"] = self.range_end
        if self.following is not None:
            values["following"] = self.following
        return {k: values[k] for k in PARTS_ORDER if k in values}


# ``Citation(...)`` runs the frozen dataclass's ``__init__``: one
# ``object.__setattr__`` call per field, ~3 µs, paid for every citation the
# parser finds. The parser builds it with the slots' own setters instead
# (~1 µs); a test holds both to the same value.
_NEW = object.__new__
(
    _SET_START,
    _SET_END,
    _SET_RAW,
    _SET_LEVELS,
    _SET_STATED,
    _SET_INSTRUMENT,
    _SET_INSTRUMENT_SOURCE,
    _SET_LANG,
    _SET_RANGE_END,
    _SET_FOLLOWING,
    _SET_CONTEXT_BOUND,
    _SET_PARENTHESISED,
    _SET_GROUP,
) = (Citation.__dict__[f.name].__set__ for f in fields(Citation))


def citation_new(
    start: int,
    end: int,
    raw: str,
    levels: tuple[tuple[str, str], ...],
    stated: frozenset[str],
    instrument: InstrumentInfo | None,
    instrument_source: str | None,
    lang: Lang,
    range_end: str | None,
    following: str | None,
    context_bound: bool,
    parenthesised: frozenset[str],
    group: int,
) -> Citation:
    """``Citation(...)`` with every field given, in field order."""
    c: Citation = _NEW(Citation)
    _SET_START(c, start)
    _SET_END(c, end)
    _SET_RAW(c, raw)
    _SET_LEVELS(c, levels)
    _SET_STATED(c, stated)
    _SET_INSTRUMENT(c, instrument)
    _SET_INSTRUMENT_SOURCE(c, instrument_source)
    _SET_LANG(c, lang)
    _SET_RANGE_END(c, range_end)
    _SET_FOLLOWING(c, following)
    _SET_CONTEXT_BOUND(c, context_bound)
    _SET_PARENTHESISED(c, parenthesised)
    _SET_GROUP(c, group)
    return c


@dataclass(slots=True)
class _Item:
    start: int
    end: int
    levels: dict[str, str]
    stated: set[str]
    lang_de: int = 0
    lang_en: int = 0
    paren_kinds: list[str] = field(default_factory=list)
    lit_kinds: set[str] = field(default_factory=set)
    range_end: str | None = None
    following: str | None = None
    instrument: InstrumentInfo | None = None
    instrument_source: str | None = None
    context_bound: bool = False
    quick: bool = False
    # "§§ 1, 2 ...": a list of units, whose bare numbers are units too
    plural: bool = False
    tops: int = 1
    # which run of the chain bound to one trailing instrument the item is in
    batch: int = 0

    def deepest(self) -> tuple[str, str]:
        last = next(reversed(self.levels))
        if last == "sent" and len(self.levels) > 2 and not in_level_order(self.levels):
            return last, self.levels[last]  # "Nr. 1 S. 1": the sentence
        kind = max(self.levels, key=lambda k: LEVEL_ORDER[k])
        return kind, self.levels[kind]

    def inherit(self, below: str, start: int) -> _Item:
        """A new list item sharing every level above ``below``."""
        if (
            below in self.levels
            and "sent" in self.levels
            and not in_level_order(self.levels)
        ):
            # "Nr. 1 S. 1 und 2": the levels written before ``below``
            keys = list(self.levels)
            levels = {k: self.levels[k] for k in keys[: keys.index(below)]}
        else:
            rank = LEVEL_ORDER[below]
            levels = {k: v for k, v in self.levels.items() if LEVEL_ORDER[k] < rank}
        stated = {k for k in self.stated if k in levels}
        return _Item(
            start=start,
            end=start,
            levels=levels,
            stated=stated,
            lang_de=self.lang_de,
            lang_en=self.lang_en,
            paren_kinds=[k for k in self.paren_kinds if k in levels],
            lit_kinds={k for k in self.lit_kinds if k in levels},
            context_bound=self.context_bound,
            plural=self.plural,
            tops=self.tops,
        )
