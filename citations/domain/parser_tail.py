"""The parser's reading of what follows a number: subdivisions and lists.

"Abs. 2 S. 1 Nr. 3", "(1)(a)", "III 1", ranges ("§§ 280 bis 283"), ``ff.``
and lists ("Abs. 1, 2", "lit. a und b", "§§ 280, 286").
"""

from __future__ import annotations

import re

from citations.domain.citation import _ORDINALS, LEVEL_ORDER, _Item, roman_to_int
from citations.domain.instruments import InstrumentInfo, instrument_by_alias
from citations.domain.patterns import (
    _ACCEPT_END,
    _ANLAGE_NUMBER,
    _ANLAGE_TO,
    _ANNEX_NUMBER,
    _BARE_VALUE,
    _DIGITS,
    _FOLLOWING_OR_RANGE,
    _LIST_SEP,
    _NOTHING_FOLLOWS,
    _PAREN_VALUE,
    _QUICK_END,
    _ROMAN_PARA,
    _ROMAN_SENT,
    _TAIL,
    _VV,
    _VV_NO,
    _lit_value,
)

_LIST_LEVELS = frozenset({"point", "subpoint"})


def _leading_int(value: str) -> int:
    m = _DIGITS.match(value)
    return int(m.group()) if m else 0


def paren_kind(levels: dict[str, str], value: str) -> str | None:
    """What a bracketed value after ``levels`` is: "(1)" after an article
    its paragraph, "(a)" the next point level down."""
    top = next(iter(levels))
    if top in ("recital",):
        return None
    if top == "annex":
        order = ("point", "subpoint", "subsubpoint")
    elif value[0].isdigit() and "para" not in levels and "point" not in levels:
        return "para"
    else:
        order = ("point", "subpoint", "subsubpoint")
    for kind in order:
        if kind not in levels:
            return kind
    return None


def point_kind(levels: dict[str, str]) -> str:
    """What "Nr. 1", "lit. a", "point (b)" are after ``levels``: a point, or
    a subpoint of the point already there."""
    return "subpoint" if "point" in levels else "point"


class _TailMixin:
    """Tail and list steps of :class:`citations.domain.parser._Parser`."""

    text: str

    def _instrument(
        self, pos: int
    ) -> tuple[InstrumentInfo | None, str, int, str | None] | None:
        raise NotImplementedError

    # -- tail and lists --
    def _item_and_list(self, item: _Item, *, roman_ok: bool) -> list[_Item]:
        self._tail(item, roman_ok=roman_ok)
        end = item.end
        if (
            not item.plural and _QUICK_END.match(self.text, end)
        ) or _NOTHING_FOLLOWS.match(self.text, end):
            # "Artikel 6 Absatz 1 gilt": an ordinary word or closing
            # punctuation, so no list, instrument or joiner can follow;
            # "Artikel 21 und der": none that does continues the chain
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
            tm = _TAIL.match(text, pos)
            if tm is None:
                break
            if not self._apply_tail(item, tm):
                break
            pos = tm.end()
        am = _FOLLOWING_OR_RANGE.match(text, pos)
        if am is None:
            pass
        elif am.group("ff") is not None:
            if item.range_end is None:
                item.following = am.group("f") or "ff"
                pos = am.end()
        else:
            kind, value = item.deepest()
            vm = self._value_for(kind, am.end())
            if vm is not None and self._range_ok(kind, value, vm[0]):
                item.range_end = vm[0]
                pos = vm[1]
        item.end = pos

    def _range_ok(self, kind: str, start: str, end: str) -> bool:
        if kind == "annex":
            return roman_to_int(end) > roman_to_int(start)
        a = _DIGITS.match(start)
        b = _DIGITS.match(end)
        if a and b:
            return int(b.group()) >= int(a.group()) and end != start
        if a or b:
            return False
        return end > start

    def _value_for(self, kind: str, pos: int) -> tuple[str, int] | None:
        text = self.text
        if kind == "annex":
            am = _ANNEX_NUMBER.match(text, pos)
            return (am.group(1), am.end()) if am else None
        pm = _PAREN_VALUE.match(text, pos)
        if pm is not None:
            return pm.group(1), pm.end()
        vm = _BARE_VALUE.match(text, pos)
        if vm is None:
            return None
        if vm.group(1):
            return vm.group(1), vm.end()
        return vm.group(2), vm.end()

    def _apply_tail(self, item: _Item, tm: re.Match[str]) -> bool:
        group = tm.lastgroup or ""
        if group in ("hs", "enpoint"):
            value = tm.group("v_" + group) or tm.group(f"v_{group}2")
        elif group in ("ensub", "ensent"):
            ordinal = tm.group("o_" + group)
            value = str(_ORDINALS[ordinal]) if ordinal else tm.group("v_" + group)
        else:
            value = tm.group("v_" + group)
        return self._apply_level(item, group, value)

    def _apply_level(self, item: _Item, group: str, value: str) -> bool:
        """Add the subdivision that the ``_TAIL`` alternative ``group`` read,
        with its value; False where it cannot continue ``item``."""
        levels = item.levels
        if group == "paren":
            kind = self._paren_kind(item, value)
            if kind is None:
                return False
            item.paren_kinds.append(kind)
            return self._set(item, kind, value)
        if group == "abs":
            item.lang_de += 1
            return self._set(item, "para", value)
        if group == "uabs":
            item.lang_de += 1
            return self._set(item, "subpara", value)
        if group == "satz":
            item.lang_de += 1
            return self._set(item, "sent", value)
        if group == "hs":
            item.lang_de += 1
            return self._set(item, "half", value)
        if group == "asec":
            # "Art. 229 § 34 EGBGB": a § inside an article
            if next(iter(levels)) != "art":
                return False
            return self._set(item, "asec", value)
        if group == "nr":
            item.lang_de += 1
            kind = point_kind(levels)
            if (
                levels.get("annex") is None
                and kind == "subpoint"
                and "subpoint" in levels
            ):
                return False
            return self._set(item, kind, value)
        if group == "lit":
            item.lang_de += 1
            kind = point_kind(levels)
            item.lit_kinds.add(kind)
            return self._set(item, kind, _lit_value(value))
        if group == "letp":
            # "Art. 5 (1) a)": a bare "a)" only after a paragraph or point
            if "para" not in levels and "point" not in levels:
                return False
            kind = point_kind(levels)
            item.lit_kinds.add(kind)
            return self._set(item, kind, value)
        if group == "alt":
            item.lang_de += 1
            return self._set(item, "alt", value)
        if group == "part":
            if "annex" not in levels:
                return False
            return self._set(item, "part", value)
        if group == "enpoint":
            item.lang_en += 1
            kind = point_kind(levels)
            ok = self._set(item, kind, value)
            if ok:
                item.paren_kinds.append(kind)
            return ok
        if group == "ensub":
            item.lang_en += 1
            return self._set(item, "subpara", value)
        if group == "ensent":
            item.lang_en += 1
            return self._set(item, "sent", value)
        if group == "enpara":
            item.lang_en += 1
            return self._set(item, "para", value)
        return False

    def _paren_kind(self, item: _Item, value: str) -> str | None:
        return paren_kind(item.levels, value)

    def _set(self, item: _Item, kind: str, value: str) -> bool:
        if kind in item.levels:
            return False
        if kind == "sent" and next(reversed(item.levels)) in _LIST_LEVELS:
            # "§ 1 Abs. 1 Nr. 1 S. 1 UStG": a sentence of a numbered item
            # (the levels stay in the order of the text)
            item.levels[kind] = value
            item.stated.add(kind)
            return True
        deepest_rank = max(map(LEVEL_ORDER.__getitem__, item.levels))
        # "S. 1 Abs. 2": out of order means this is not a continuation
        if (
            LEVEL_ORDER[kind] <= deepest_rank
            and kind != "alt"
            and not (kind == "subpara" and "point" not in item.levels)
        ):
            return False
        item.levels[kind] = value
        item.stated.add(kind)
        return True

    def _list_next(self, last: _Item) -> _Item | None:
        """Continue a list: "Abs. 1, 2", "lit. a und b", "§§ 280, 286", "(a), (b)"."""
        text = self.text
        sm = _LIST_SEP.match(text, last.end)
        if sm is None:
            return None
        if ";" in sm.group() and not last.plural:
            return None  # "Article 47;9. A description": ";" lists only §§
        pos = sm.end()
        pm = _PAREN_VALUE.match(text, pos)
        if pm is not None and pos > last.end:
            value = pm.group(1)
            if "recital" in last.levels and value.isdigit():
                new = last.inherit("recital", pos)
                new.levels["recital"] = value
                new.stated.add("recital")
                new.end = pm.end()
                return new if self._accept_end(new.end) else None
            kind = self._paren_list_kind(last, value)
            if kind is None:
                return None
            new = last.inherit(kind, pos)
            new.levels[kind] = value
            new.stated.add(kind)
            new.paren_kinds.append(kind)
            new.end = pm.end()
            self._tail(new, roman_ok=False)
            return new if self._accept_end(new.end) else None
        vm = _BARE_VALUE.match(text, pos)
        if vm is None:
            return None
        deep_kind, deep_value = last.deepest()
        if vm.group(2):  # a letter: continues a lit./point list
            if deep_kind not in ("point", "subpoint") or not deep_value.isalpha():
                return None
            if deep_kind not in last.lit_kinds and deep_kind not in last.paren_kinds:
                return None
            new = last.inherit(deep_kind, pos)
            new.levels[deep_kind] = vm.group(2)
            new.stated.add(deep_kind)
            new.lit_kinds = set(last.lit_kinds)
            new.end = vm.end()
            # "lit. a), b)": the closing bracket style of the list goes along
            if text[last.end - 1] == ")" and text[new.end : new.end + 1] == ")":
                new.end += 1
            return new if self._accept_end(new.end) else None
        value = vm.group(1)
        after = vm.end()
        top = next(iter(last.levels))
        followed_by_sub = bool(_TAIL.match(text, after))
        kind = top
        if (
            deep_kind != top
            # "§§ 1, 2 Abs. 2, 3", "§§ 9 Abs. 1, 10": in a list of §§ (whose
            # numbers ascend) a bare number after an Absatz that is above the
            # § before it is the next § ("§§ 280 Abs. 1, 2": an Absatz)
            and (last.tops < 2 or deep_kind != "para")
            and not (
                last.plural
                and deep_kind == "para"
                and _leading_int(value) > _leading_int(last.levels[top])
            )
            and not followed_by_sub
            and deep_value[:1].isdigit()
            and value[:1].isdigit()
            and int(_DIGITS.match(value).group())  # type: ignore[union-attr]
            <= 30
            and int(_DIGITS.match(value).group())  # type: ignore[union-attr]
            > int(_DIGITS.match(deep_value).group())  # type: ignore[union-attr]
        ):
            kind = deep_kind
        if kind == "annex":
            return None
        new = last.inherit(kind, pos)
        new.levels[kind] = value
        new.stated.add(kind)
        new.end = after
        if kind == top:
            new.paren_kinds = []
            new.lit_kinds = set()
            new.tops = last.tops + 1
            self._tail(new, roman_ok=top in ("art", "sec"))
        else:
            self._tail(new, roman_ok=False)
        # "§§ 10 und 20 entsprechend": in a list of §§ a number is a § whatever
        # word follows
        if not (last.plural and kind == top) and not self._accept_end(new.end):
            return None
        return new

    def _paren_list_kind(self, last: _Item, value: str) -> str | None:
        if not last.paren_kinds:
            return None
        for kind in reversed(last.paren_kinds):
            current = last.levels[kind]
            if current[:1].isdigit() == value[:1].isdigit():
                return kind
        return None

    def _accept_end(self, pos: int) -> bool:
        if pos >= len(self.text):
            return True
        if _ACCEPT_END.match(self.text, pos):
            return True
        return self._instrument(pos) is not None

    # -- German Anlagen (heads called by the parser) --
    def _anlage(self, m: re.Match[str]) -> list[_Item]:
        """ "Anlage 1 zu § 2 Abs. 2 RVG": an Anlage of a German statute; only
        with its statute named."""
        nm = _ANLAGE_NUMBER.match(self.text, m.end())
        if nm is None:
            return []
        end = nm.end()
        to = _ANLAGE_TO.match(self.text, end)
        if to is not None:
            end = to.end()
        inst = self._instrument(end)
        if inst is None or inst[0] is None or not inst[0].kind.startswith("de_"):
            return []
        item = _Item(
            start=m.start(),
            end=inst[2] if to is None else nm.end(),
            levels={"annex": nm.group(1)},
            stated={"annex"},
            lang_de=1,
            instrument=inst[0],
            instrument_source="stated",
        )
        if to is None:
            return [item]
        # "Anlage 2 zu § 13 Abs. 1 RVG" names the § too
        levels = {"sec": to.group("sec")}
        if to.group("para"):
            levels["para"] = to.group("para")
        section = _Item(
            start=to.start("to"),
            end=inst[2],
            levels=levels,
            stated=set(levels),
            lang_de=1,
            instrument=inst[0],
            instrument_source="stated",
        )
        return [item, section]

    def _vv(self, m: re.Match[str]) -> list[_Item]:
        """ "Nr. 2300 VV RVG": a number of the RVG's Vergütungsverzeichnis
        (Anlage 1 RVG); a list of numbers gives one citation each."""
        vm = _VV.match(self.text, m.end())
        if vm is None:
            return []
        rvg = instrument_by_alias("RVG")
        numbers = _VV_NO.findall(vm.group("nos"))
        spans = [x.span() for x in _VV_NO.finditer(vm.group("nos"))]
        offset = vm.start("nos")
        items = []
        for i, (number, (a, b)) in enumerate(zip(numbers, spans, strict=True)):
            last = i == len(numbers) - 1
            items.append(
                _Item(
                    start=m.start() if i == 0 else offset + a,
                    end=vm.end() if last else offset + b,
                    levels={"annex": "1", "point": number},
                    stated={"annex", "point"},
                    lang_de=1,
                    instrument=rvg,
                    instrument_source="stated",
                )
            )
        return items
