"""Find legal citations in running German and English text.

One pass of a compiled trigger regex finds where a citation may start (``§``,
``Art.``, ``Artikel``, ``Article``, ``Erwägungsgrund``, ``recital``, ``Anhang``,
``Annex``, ``point (x) of``, a bare ``Abs.`` after a citation); from there a
small hand-written parser reads numbers, subdivisions, lists, ranges, ``ff.``,
``i.V.m.`` chains and the instrument, each step an anchored ``re.match``.

What the parser promises:

- ``text[c.start:c.end] == c.raw`` for every citation, and spans never overlap;
- ``parts`` holds only what the text states (the instrument may come from the
  group, "dieser Verordnung" or the caller's default and says so in
  ``instrument_source``); ``levels`` is the bound path used for resolution;
- lists become separate citations, a range stays one.
"""

from __future__ import annotations

import re
from dataclasses import replace

from citations.domain.citation import (
    _ORDINALS,
    LEVEL_ORDER,
    Citation,
    Lang,
    _Item,
)
from citations.domain.instruments import (
    InstrumentInfo,
    instrument_by_alias,
    unknown_statute,
)
from citations.domain.parser_tail import _TailMixin
from citations.domain.patterns import (
    _ANNEX_NUMBER,
    _CANDIDATE,
    _CONTEXT_WINDOW,
    _EN_ALIASES,
    _EU_MENTION,
    _INSTRUMENT,
    _INSTRUMENT_START,
    _JOIN,
    _KEYWORD_CONTINUATIONS,
    _LIST_SEP,
    _NUMBER,
    _ORDINAL_BEFORE,
    _PAREN_VALUE,
    _QUICK_END,
    _REC_NUMBER,
    _REV_OF,
    _TAIL,
    _TAIL_KIND,
    _TRIGGER,
    _eu_from_match,
)

__all__ = ["Citation", "Lang", "parse_citations", "with_instrument"]


class _Parser(_TailMixin):
    def __init__(self, text: str, default_instrument: InstrumentInfo | None) -> None:
        self.text = text
        self.default = default_instrument
        self.results: list[Citation] = []
        self.last_eu: InstrumentInfo | None = None
        self.last_item: _Item | None = None
        self._eu_scanned = 0
        self._eu_named: InstrumentInfo | None = None

    # -- entry point --
    def run(self) -> list[Citation]:
        pos = 0
        text = self.text
        # A literal prefilter finds candidate positions fast (sre scans literal
        # alternations quickly); the full trigger is matched only there.
        for cm in _CANDIDATE.finditer(text):
            start = cm.start()
            literal = cm.group()
            if literal == "ecital":
                start -= 1
            elif literal == "subparagraph":
                om = _ORDINAL_BEFORE.search(text, max(0, start - 12), start)
                if om is None:
                    continue
                start = om.start()
            if start < pos:
                continue
            m = _TRIGGER.match(text, start)
            if m is None:
                continue
            items = self._chain(m)
            if not items:
                continue
            pos = items[-1].end
            for item in items:
                self.results.append(self._freeze(item))
            self.last_item = items[-1]
        return self.results

    # -- a chain: items joined by lists and i.V.m., sharing a trailing instrument --
    def _chain(self, m: re.Match[str]) -> list[_Item]:
        items = self._head(m)
        if not items:
            return []
        if len(items) == 1 and items[0].quick:
            self._bind_without_instrument(items[0])
            return items
        done: list[_Item] = []
        pending = list(items)
        while True:
            pos = pending[-1].end if pending else done[-1].end
            inst = self._instrument(pos) if pending else None
            if inst is not None:
                info, source, end, lang = inst
                for it in pending:
                    it.instrument = info
                    it.instrument_source = source
                    if lang == "en":
                        it.lang_en += 1
                    elif lang == "de":
                        it.lang_de += 1
                pending[-1].end = end
                done.extend(pending)
                pending = []
                pos = end
            jm = _JOIN.match(self.text, pos)
            if jm is None:
                break
            tm = _TRIGGER.match(self.text, jm.end())
            if tm is None or tm.lastgroup == "bare":
                # a joiner followed by a subdivision keyword continues the last item
                prev = (pending or done)[-1]
                more = self._keyword_item(prev, jm.end())
                if more is None:
                    break
                pending.extend(more)
                continue
            prev_top = next(iter((pending or done)[-1].levels))
            if (tm.lastgroup == "sec") != (prev_top == "sec"):
                # "Erwägungsgrund 60, § 91 ZPO": a § and an article/recital
                # never share one trailing instrument
                break
            more = self._head(tm)
            if not more:
                break
            pending.extend(more)
        if pending:
            for it in pending:
                self._bind_without_instrument(it)
            done.extend(pending)
        return done

    def _bind_without_instrument(self, item: _Item) -> None:
        if item.instrument is not None:
            return
        if self.default is not None:
            item.instrument = self.default
            item.instrument_source = "default"

    # -- heads --
    def _head(self, m: re.Match[str]) -> list[_Item]:
        kind = m.lastgroup
        if kind == "sec":
            return self._numbered(m, "sec", de=1)
        if kind == "art":
            word = m.group("art")
            if word == "Art" and not self._art_without_dot_ok(m.end()):
                return []
            en = word.startswith("Article")
            de = word.startswith("Artikel")
            return self._numbered(m, "art", de=int(de), en=int(en))
        if kind == "rec":
            return self._recital(m)
        if kind == "anx":
            return self._annex(m)
        if kind == "rev":
            return self._reverse(m)
        if kind == "bare":
            return self._bare(m)
        return []

    def _art_without_dot_ok(self, pos: int) -> bool:
        nm = _NUMBER.match(self.text, pos)
        if nm is None:
            return False
        after = nm.end()
        return bool(
            _TAIL.match(self.text, after) or self._instrument(after) is not None
        )

    def _numbered(
        self, m: re.Match[str], top: str, *, de: int = 0, en: int = 0
    ) -> list[_Item]:
        nm = _NUMBER.match(self.text, m.end())
        if nm is None:
            return []
        item = _Item(
            start=m.start(),
            end=nm.end(),
            levels={top: nm.group(1)},
            stated={top},
            lang_de=de,
            lang_en=en,
        )
        if _QUICK_END.match(self.text, item.end):
            # "Article 6 shall", "§ 286 genannten": nothing can follow
            item.quick = True
            return [item]
        return self._item_and_list(item, roman_ok=True)

    def _recital(self, m: re.Match[str]) -> list[_Item]:
        word = m.group("rec")
        nm = _REC_NUMBER.match(self.text, m.end())
        if nm is None:
            return []
        en = word.lower().startswith("recital")
        item = _Item(
            start=m.start(),
            end=nm.end(),
            levels={"recital": nm.group(1)},
            stated={"recital"},
            lang_de=int(not en),
            lang_en=int(en),
        )
        items = self._item_and_list(item, roman_ok=False)
        if word == "EG" and self._instrument(items[-1].end) is None:
            return []  # "EG 47" is a recital only with an instrument after it
        return items

    def _annex(self, m: re.Match[str]) -> list[_Item]:
        word = m.group("anx")
        nm = _ANNEX_NUMBER.match(self.text, m.end())
        if nm is None:
            return []
        en = word.lower().startswith("annex")
        item = _Item(
            start=m.start(),
            end=nm.end(),
            levels={"annex": nm.group(1).upper()},
            stated={"annex"},
            lang_de=int(not en),
            lang_en=int(en),
        )
        return self._item_and_list(item, roman_ok=False)

    def _reverse(self, m: re.Match[str]) -> list[_Item]:
        """English "point (f) of Article 6(1)", "second subparagraph of Article 5"."""
        text = self.text
        pre: list[tuple[str, str, int, int]] = []
        word = m.group("rev")
        if word.startswith("point"):
            pos = m.start() + len(word) - 1
            while True:
                pm = _PAREN_VALUE.match(text, pos)
                if pm is None:
                    break
                pre.append(("point", pm.group(1), pm.start(1) - 1, pm.end()))
                pos = pm.end()
                sm = _LIST_SEP.match(text, pos)
                if sm is None or _PAREN_VALUE.match(text, sm.end()) is None:
                    break
                pos = sm.end()
            om = _REV_OF.match(text, pos)
            if om is None or not pre:
                return []
            pos = om.end()
        else:
            value = _ORDINALS.get(word.split()[0])
            if value is None:
                return []
            pre.append(("subpara", str(value), m.start(), m.end()))
            pos = m.end()
        am = _TRIGGER.match(text, pos)
        if am is None or am.lastgroup != "art":
            return []
        heads = self._numbered(am, "art", en=1)
        if not heads:
            return []
        base = heads[0]
        out: list[_Item] = []
        for i, (kind, label, p_start, p_end) in enumerate(pre):
            item = _Item(
                start=m.start() if i == 0 else p_start,
                end=base.end if i == len(pre) - 1 else p_end,
                levels=dict(base.levels),
                stated=set(base.stated),
                lang_en=1,
            )
            if kind not in item.levels:
                item.levels[kind] = label
                item.stated.add(kind)
            out.append(item)
        return out

    def _bare(self, m: re.Match[str]) -> list[_Item]:
        """A bare "Abs. 2" binds to the citation just before it."""
        prev = self.last_item
        if prev is None or prev.end > m.start():
            return []
        gap = self.text[prev.end : m.start()]
        if len(gap) > 300 or "\n\n" in gap:
            return []
        top = next(iter(prev.levels))
        if top not in ("art", "sec"):
            return []
        item = _Item(
            start=m.start(),
            end=m.start(),
            levels={top: prev.levels[top]},
            stated=set(),
            lang_de=prev.lang_de,
            lang_en=prev.lang_en,
            instrument=prev.instrument,
            instrument_source="context" if prev.instrument else None,
            context_bound=True,
        )
        tm = _TAIL.match(self.text, m.start())
        if tm is None:
            word = m.group("bare")
            if not word.startswith("paragraph"):
                return []
            nm = _NUMBER.match(self.text, m.end())
            if nm is None:
                return []
            item.levels["para"] = nm.group(1)
            item.stated.add("para")
            item.end = nm.end()
            item.lang_en += 1
        return self._item_and_list(item, roman_ok=False)

    def _keyword_item(self, prev: _Item, pos: int) -> list[_Item] | None:
        """After a joiner: "Abs. 2", "lit. b" continue the previous item's parents."""
        tm = _TAIL.match(self.text, pos)
        if tm is None or tm.lastgroup not in _KEYWORD_CONTINUATIONS:
            return None
        kind = _TAIL_KIND[tm.lastgroup]
        if kind == "point" and "point" in prev.levels and tm.lastgroup == "lit":
            kind = "point" if "point" in prev.lit_kinds else "subpoint"
        if not any(LEVEL_ORDER[k] < LEVEL_ORDER[kind] for k in prev.levels):
            return None
        new = prev.inherit(kind, pos)
        new.instrument = prev.instrument
        new.instrument_source = "context" if prev.instrument else None
        self._tail(new, roman_ok=False)
        if new.end == pos or not self._accept_end(new.end):
            return None
        return [new, *self._list_rest(new)]

    def _list_rest(self, item: _Item) -> list[_Item]:
        items = [item]
        while True:
            nxt = self._list_next(items[-1])
            if nxt is None:
                return items[1:]
            items.append(nxt)

    # -- instruments --
    def _instrument(
        self, pos: int
    ) -> tuple[InstrumentInfo | None, str, int, Lang | None] | None:
        if _INSTRUMENT_START.match(self.text, pos) is None:
            return None  # cheap rejection before the long alias alternation
        im = _INSTRUMENT.match(self.text, pos)
        if im is None:
            return None
        if im.group("ctx") is not None:
            bound = self._last_eu_mention(pos) or self.default
            lang: Lang = "en" if im.group("ctx")[0] in "tT" else "de"
            return bound, "context", im.end(), lang
        alias = im.group("alias")
        if alias is not None:
            info = instrument_by_alias(re.sub(r"\s+", " ", alias))
            if info is None:
                return None
            if info.kind.startswith("eu_"):
                self.last_eu = info
            lang2: Lang | None = "en" if alias.casefold() in _EN_ALIASES else None
            if lang2 is None and alias != "DORA":
                lang2 = "de"
            return info, "stated", im.end(), lang2
        if im.group("eukind") is not None:
            info = _eu_from_match(im)
            self.last_eu = info
            en = im.group("eukind") in ("Regulation", "Directive")
            return info, "stated", im.end(), "en" if en else "de"
        abbr = im.group("abbr")
        if abbr is not None:
            return unknown_statute(abbr), "stated", im.end(), "de"
        return None

    def _last_eu_mention(self, pos: int) -> InstrumentInfo | None:
        """The EU act named last before ``pos`` ("die Verordnung (EU) 2016/679
        ... dieser Verordnung"), in a citation or in plain prose. Scans each
        part of the text once, and only the last few thousand characters before
        ``pos`` (earlier acts are still known from the citations that named
        them)."""
        begin = max(self._eu_scanned, pos - _CONTEXT_WINDOW)
        for m in _EU_MENTION.finditer(self.text, begin, pos):
            if m.group("alias") is not None:
                info = instrument_by_alias(re.sub(r"\s+", " ", m.group("alias")))
                if info is not None and info.kind.startswith("eu_"):
                    self._eu_named = info
            else:
                self._eu_named = _eu_from_match(m)
        self._eu_scanned = max(self._eu_scanned, pos)
        return self._eu_named or self.last_eu

    # -- output --
    def _freeze(self, item: _Item) -> Citation:
        levels = tuple(item.levels.items())
        if len(levels) > 1 and any(
            LEVEL_ORDER[a[0]] > LEVEL_ORDER[b[0]]
            for a, b in zip(levels, levels[1:], strict=False)
        ):
            levels = tuple(sorted(levels, key=lambda kv: LEVEL_ORDER[kv[0]]))
        if item.instrument is not None and item.instrument_source is None:
            item.instrument_source = "stated"
        lang: Lang = "en" if item.lang_en > item.lang_de else "de"
        start = item.start
        end = item.end
        # trailing whitespace/punctuation never belongs to the span
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
            parenthesised=frozenset(item.paren_kinds),
        )


def parse_citations(
    text: str, *, default_instrument: InstrumentInfo | None = None
) -> list[Citation]:
    """Every citation in ``text``, in order, with non-overlapping spans."""
    return _Parser(text, default_instrument).run()


def with_instrument(citation: Citation, instrument: InstrumentInfo) -> Citation:
    return replace(citation, instrument=instrument, instrument_source="default")
