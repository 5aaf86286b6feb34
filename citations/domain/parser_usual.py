"""The parser's reading of a § or an article written as usual, in one match.

Most citations are one unit with its subdivisions in their usual order and
an ordinary word or nothing that continues the chain after them ("Artikel 6
Absatz 1 gilt", "§ 286 Abs. 2 S. 1 genannten", "Article 6(1)(a) shall",
"Artikel 21 und der"). ``_USUAL_SEC`` and ``_USUAL_ART`` read such a unit in
one match where the parser's steps (``_numbered``, ``_tail``, the end checks
of ``_item_and_list``) would take one each; the steps read everything else.
``parser_reference`` keeps ``_numbered`` without this, and the equality tests
hold both to the same citations.
"""

from __future__ import annotations

import re

from citations.domain.citation import Citation, _Item, citation_new
from citations.domain.instruments import InstrumentInfo
from citations.domain.parser_tail import paren_kind, point_kind
from citations.domain.patterns import (
    _USUAL_ART_UNIT,
    _USUAL_BARE,
    _USUAL_SEC_UNIT,
    _lit_value,
)

_NONE: frozenset[str] = frozenset()
# a chain's last unit as a bare "Abs. 2" after it reads it: top level, its
# value, the counts of German and English words, the act
_Unit = tuple[str, str, int, int, InstrumentInfo | None]
# a usual unit's match, its top level, its counts of German and English words
_Usual = tuple[re.Match[str], str, int, int]
# the last group of a usual unit's match where the chain ends after it
_USUAL_ENDS = frozenset({"quick", "quick_end", "nothing"})
# the groups of the usual patterns, in the order ``usual_levels`` reads them
_GROUPS = (
    "num",
    "quick",
    "p1",
    "p2",
    "p3",
    "abs",
    "uabs",
    "satz",
    "nr",
    "lit",
    "quick_end",
    "nothing",
)


def usual_levels(
    um: re.Match[str], top: str
) -> tuple[dict[str, str], int, list[str], str | None, bool]:
    """The levels a usual unit's match states, the number of German
    subdivision words in it, the levels written in brackets, the level a
    "lit." gave (or None), and whether the chain ends after it."""
    num, quick, p1, p2, p3, para, subpara, sent, point, lit, end, nothing = um.group(
        *_GROUPS
    )
    levels = {top: num.replace(" ", "")}
    if quick is not None:
        return levels, 0, [], None, True
    # the levels come in their usual order, each deeper than the one before:
    # the checks of ``_set`` pass for every one of them
    ends = end is not None or nothing is not None
    if p1 is None:
        german, lit_kind = _german_levels(levels, para, subpara, sent, point, lit)
        return levels, german, [], lit_kind, ends
    bracketed = []
    for value in (p1, p2, p3):
        if value is None:
            break
        kind = paren_kind(levels, value)
        if kind is None:  # never after an article or a §
            raise AssertionError(value)
        levels[kind] = value
        bracketed.append(kind)
    return levels, 0, bracketed, None, ends


def _german_levels(
    levels: dict[str, str],
    para: str | None,
    subpara: str | None,
    sent: str | None,
    point: str | None,
    lit: str | None,
) -> tuple[int, str | None]:
    """Add "Abs. 1 UAbs. 2 S. 3 Nr. 4 lit. a" (each optional) to ``levels``:
    the number of them, and the level the "lit." gave (or None)."""
    german = 0
    lit_kind = None
    if para is not None:
        levels["para"] = para
        german += 1
    if subpara is not None:
        levels["subpara"] = subpara
        german += 1
    if sent is not None:
        levels["sent"] = sent
        german += 1
    if point is not None:
        levels[point_kind(levels)] = point
        german += 1
    if lit is not None:
        lit_kind = point_kind(levels)
        levels[lit_kind] = _lit_value(lit)
        german += 1
    return german, lit_kind


class _UsualMixin:
    """The usual units of :class:`citations.domain.parser._Parser`."""

    text: str
    default: InstrumentInfo | None
    group: int
    last_end: int
    last_unit: _Unit | None

    def _act_before(self, start: int) -> InstrumentInfo | None:
        raise NotImplementedError

    def _usual_item(
        self, start: int, um: re.Match[str], top: str, de: int, en: int
    ) -> list[_Item]:
        """What ``_numbered`` gives for a usual unit (``_USUAL_SEC``,
        ``_USUAL_ART`` matched after the trigger's word): the item, and the
        items of a list that follows it where the chain does not end."""
        levels, german, bracketed, lit_kind, ends = usual_levels(um, top)
        item = _Item(
            start=start,
            end=um.end(),
            levels=levels,
            stated=set(levels),
            lang_de=de + german,
            lang_en=en,
            paren_kinds=bracketed,
            quick=ends,
        )
        if lit_kind is not None:
            item.lit_kinds.add(lit_kind)
        if ends:
            return [item]
        return [item, *self._list_rest(item)]

    def _list_rest(self, item: _Item) -> list[_Item]:
        raise NotImplementedError

    def _usual_bare(self, item: _Item) -> list[_Item] | None:
        """What ``_item_and_list`` gives for the bare "Absatz 2 Satz 1" that
        ``item`` (the unit it binds to, nothing stated yet) starts with, where
        its subdivisions are the usual German ones (``_USUAL_BARE``); None
        where they are not (the steps read it then)."""
        um = _USUAL_BARE.match(self.text, item.start)
        if um is None:
            return None
        para, subpara, sent, point, lit, end, nothing = um.group(
            "abs", "uabs", "satz", "nr", "lit", "quick_end", "nothing"
        )
        levels = item.levels
        german, lit_kind = _german_levels(levels, para, subpara, sent, point, lit)
        if not german:
            return None
        item.stated.update(kind for kind in levels if kind != next(iter(levels)))
        item.lang_de += german
        item.end = um.end()
        if lit_kind is not None:
            item.lit_kinds.add(lit_kind)
        if end is not None or nothing is not None:
            item.quick = True
            return [item]
        return [item, *self._list_rest(item)]

    def _usual_head(self, start: int) -> _Usual | None:
        """A § or an article written as usual, read from the trigger's word
        at ``start`` on (``_USUAL_SEC_UNIT``, ``_USUAL_ART_UNIT``): its match,
        top level and counts of German and English words; None where the
        trigger is another or the unit is not written so."""
        text = self.text
        first = text[start]
        if first == "§":
            um = _USUAL_SEC_UNIT.match(text, start)
            return None if um is None else (um, "sec", 1, 0)
        if first != "A" or not text.startswith("Art", start):
            return None
        um = _USUAL_ART_UNIT.match(text, start)
        if um is None:
            return None
        word = um.group("word")
        return um, "art", int(word == "Artikel"), int(word == "Article")

    def _usual_citation(
        self, start: int, um: re.Match[str], top: str, de: int, en: int
    ) -> Citation:
        """The citation of a chain of one usual unit that ends after it
        (``um.lastgroup`` in ``_USUAL_ENDS``); its act is the one named right
        before it, or the default."""
        levels, german, bracketed, _, _ = usual_levels(um, top)
        text = self.text
        instrument = self._act_before(start)
        if instrument is not None:
            source: str | None = "stated"
        elif self.default is not None:
            instrument, source = self.default, "default"
        else:
            source = None
        end = um.end()
        de += german
        self.group += 1
        self.last_end = end
        self.last_unit = (top, levels[top], de, en, instrument)
        return citation_new(
            start,
            end,
            text[start:end],
            tuple(levels.items()),
            frozenset(levels),
            instrument,
            source,
            "en" if en > de else "de",
            None,
            None,
            False,
            frozenset(bracketed) if bracketed else _NONE,
            self.group,
        )
