"""The parser's steps as first written, before they were made faster.

:class:`_ReferenceParser` is :class:`citations.domain.parser._Parser` with
each step that has a faster form replaced by its original, plainer one
(``_TAIL``, which the other steps use too, is held to ``_TAIL_PLAIN`` by its
own test): the plain listing of the candidate literals, every unit read by
the steps (no usual unit in one match, no look for the chain's end), the act
before a unit by a loop, ``Citation`` by its ``__init__``, the sentence
binding looking at every gap. It is not used in production; the equality tests
(``tests/citations/test_parser_fast_paths.py``) hold the parser to giving
exactly what this one gives, on the labelled sets, slices of the corpus and
generated text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from citations.domain.citation import (
    Citation,
    Lang,
    _Item,
    in_level_order,
    roman_to_int,
)
from citations.domain.instruments import InstrumentInfo, static_alias
from citations.domain.parser import _NONE, _PLURAL_WORDS, _Parser, _rank
from citations.domain.parser_input import (
    _HTML_HINT,
    _same_length_plain,
)
from citations.domain.parser_sentence import _OWN_NAME, _fits, _sentence_ends
from citations.domain.patterns import (
    _EU_MENTION,
    _FOLLOWING,
    _NUMBER,
    _ORDINAL_BEFORE,
    _QUICK_END,
    _RANGE,
    _ROMAN_PARA,
    _ROMAN_SENT,
    _SEC_NUMBER,
    _TAIL_PLAIN,
    _VV_BEFORE,
)

# The literals one of which starts every citation, one scan each; kind: where
# the citation starts relative to the literal.
_LITERAL_SCANS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("at", re.compile("§")),
    ("at", re.compile("Art|Anh|Annex|Abs|Anlage")),
    ("at", re.compile("ANNEX")),
    ("at", re.compile("Erw|EG")),
    ("before", re.compile("ecital")),  # "Recital", "recital"
    ("before", re.compile("ection")),  # "Section", "section"
    ("at", re.compile("Sec")),
    ("at", re.compile("point")),
    ("ordinal", re.compile("subparagraph")),
    ("at", re.compile("UAbs|Unterabs")),
    ("at", re.compile("paragraph")),
    ("at", re.compile("Paragra")),
    ("vv", re.compile("VV|Vergütungsverzeichnis")),
)


def _candidates_reference(text: str) -> list[int]:
    """Every place where one of the literals occurs (see ``_candidates``)."""
    places: list[int] = []
    for kind, pattern in _LITERAL_SCANS:
        if kind == "at":
            places.extend([m.start() for m in pattern.finditer(text)])
        elif kind == "before":
            places.extend([m.start() - 1 for m in pattern.finditer(text, 1)])
        elif kind == "ordinal":
            # "second subparagraph of Article 5" starts at its ordinal
            for m in pattern.finditer(text):
                om = _ORDINAL_BEFORE.search(text, max(0, m.start() - 12), m.start())
                if om is not None:
                    places.append(om.start())
        else:
            # "Nr. 2300 VV RVG" starts before the "VV" that finds it
            for m in pattern.finditer(text):
                places.extend(
                    vm.start()
                    for vm in _VV_BEFORE.finditer(
                        text, max(0, m.start() - 60), m.start()
                    )
                )
    return sorted(set(places))


class _ReferenceParser(_Parser):
    def _places(self) -> list[int]:
        return _candidates_reference(self.text)

    def _eu_mentions(self, begin: int, end: int) -> Iterator[re.Match[str]]:
        return _EU_MENTION.finditer(self.text, begin, end)

    def _act_before(self, start: int) -> InstrumentInfo | None:
        begin = max(self.last_end, start - 70)
        if begin >= start:
            return None
        text = self.text
        i = start - 1
        while i >= begin and text[i] in " ,\t\n\xa0":
            i -= 1
        if i < begin or not text[i].isalnum():
            return None
        j = i
        while j > begin and not text[j - 1].isspace():
            j -= 1
        if not text[j : i + 1].lstrip('([„"“')[:1].isupper():
            return None
        tail = text[begin : i + 1]
        if not tail or not tail[-1].isalnum():
            return None
        words = [w.lstrip('([„"“') for w in tail.split()]
        if not words or not words[-1][:1].isupper():
            return None
        for n in range(min(4, len(words)), 0, -1):
            info = static_alias(" ".join(words[-n:]))
            if info is not None:
                return info
        return None

    def _bind_in_sentence(self) -> None:
        results = self.results
        bound = sum(1 for c in results if c.instrument is not None)
        if bound == 0 or bound == len(results):
            return
        text = self.text
        n = len(results)
        breaks = [
            _sentence_ends(text, results[k].end, results[k + 1].start)
            for k in range(n - 1)
        ]
        before: list[InstrumentInfo | None] = [None] * n
        current: InstrumentInfo | None = None
        for k in range(n):
            if k and breaks[k - 1]:
                current = None
            before[k] = current
            if results[k].instrument is not None:
                current = results[k].instrument
        current = None
        for k in range(n - 1, -1, -1):
            if k < n - 1 and breaks[k]:
                current = None
            c = results[k]
            if c.instrument is not None:
                current = c.instrument
                continue
            info = before[k] or current
            if info is None or not _fits(c, info) or _OWN_NAME.match(text, c.end):
                continue
            results[k] = replace(c, instrument=info, instrument_source="context")

    def _usual_head(self, start: int) -> None:
        return None  # every unit is read by the steps

    def _usual_bare(self, item: _Item) -> None:
        return None

    def _numbered(
        self, m: re.Match[str], top: str, *, de: int = 0, en: int = 0
    ) -> list[_Item]:
        nm = (_SEC_NUMBER if top == "sec" else _NUMBER).match(self.text, m.end())
        if nm is None:
            return []
        word = m.group(m.lastgroup or 0)
        item = _Item(
            start=m.start(),
            end=nm.end(),
            levels={top: nm.group(1).replace(" ", "")},
            stated={top},
            lang_de=de,
            lang_en=en,
            plural=word in _PLURAL_WORDS,
        )
        if not item.plural and _QUICK_END.match(self.text, item.end):
            item.quick = True
            return [item]
        return self._item_and_list(item, roman_ok=True)

    def _item_and_list(self, item: _Item, *, roman_ok: bool) -> list[_Item]:
        self._tail(item, roman_ok=roman_ok)
        if not item.plural and _QUICK_END.match(self.text, item.end):
            item.quick = True
            return [item]
        items = [item]
        while True:
            last = items[-1]
            nxt = self._list_next(last)
            if nxt is None:
                break
            items.append(nxt)
        return items

    def _tail(self, item: _Item, *, roman_ok: bool) -> None:
        text = self.text
        pos = item.end
        if roman_ok:
            rm = _ROMAN_PARA.match(text, pos)
            if rm is not None and "para" not in item.levels:
                item.levels["para"] = str(roman_to_int(rm.group(1)))
                item.stated.add("para")
                pos = rm.end()
                item.lang_de += 1
                sm = _ROMAN_SENT.match(text, pos)
                if sm is not None and self._accept_end(sm.end()):
                    item.levels["sent"] = sm.group(1)
                    item.stated.add("sent")
                    pos = sm.end()
        while True:
            tm = _TAIL_PLAIN.match(text, pos)
            if tm is None:
                break
            if not self._apply_tail(item, tm):
                break
            pos = tm.end()
        fm = _FOLLOWING.match(text, pos)
        if fm is not None and item.range_end is None:
            item.following = fm.group(1) or "ff"
            pos = fm.end()
        else:
            rg = _RANGE.match(text, pos)
            if rg is not None:
                kind, value = item.deepest()
                vm = self._value_for(kind, rg.end())
                if vm is not None and self._range_ok(kind, value, vm[0]):
                    item.range_end = vm[0]
                    pos = vm[1]
        item.end = pos

    def _freeze(self, item: _Item) -> Citation:
        levels = tuple(item.levels.items())
        if (
            len(levels) > 1
            and not in_level_order(item.levels)
            and any(
                _rank(a, levels[:i]) > _rank(b, levels[: i + 1])
                for i, (a, b) in enumerate(zip(levels, levels[1:], strict=False))
            )
        ):
            levels = tuple(
                sorted(levels, key=lambda kv: _rank(kv, levels[: levels.index(kv)]))
            )
        if item.instrument is not None and item.instrument_source is None:
            item.instrument_source = "stated"
        lang: Lang = "en" if item.lang_en > item.lang_de else "de"
        start = item.start
        end = item.end
        while end > start and self.text[end - 1] in " \t\n\xa0,":
            end -= 1
        return Citation(
            start=start,
            end=end,
            raw=self.text[start:end],
            levels=levels,
            stated=frozenset(item.stated),
            instrument=item.instrument,
            instrument_source=item.instrument_source,
            lang=lang,
            range_end=item.range_end,
            following=item.following,
            context_bound=item.context_bound,
            parenthesised=frozenset(item.paren_kinds) if item.paren_kinds else _NONE,
            group=self.group,
        )


def parse_citations_reference(
    text: str, *, default_instrument: InstrumentInfo | None = None
) -> list[Citation]:
    """:func:`citations.domain.parser.parse_citations` by the reference steps."""
    if ("&" not in text and "<" not in text) or _HTML_HINT.search(text) is None:
        return _ReferenceParser(text, default_instrument).run()
    plain = _same_length_plain(text)
    found = _ReferenceParser(plain, default_instrument).run()
    return [replace(c, raw=text[c.start : c.end]) for c in found]
