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
from collections.abc import Iterator
from dataclasses import replace

from citations.domain.citation import (
    _ORDINALS,
    LEVEL_ORDER,
    Citation,
    Lang,
    _Item,
    citation_new,
    in_level_order,
)
from citations.domain.instruments import (
    InstrumentInfo,
    instrument_by_alias,
    law_lookup,
    static_alias,
    unknown_statute,
)
from citations.domain.parser_input import (
    _HTML_HINT,
    _candidates,
    _same_length_plain,
)
from citations.domain.parser_tail import _TailMixin
from citations.domain.parser_usual import _USUAL_ENDS, _Unit, _UsualMixin
from citations.domain.patterns import (
    _ABBR_IN_BRACKETS,
    _ABBR_SHAPE,
    _ANNEX_NUMBER,
    _BOOK_AFTER,
    _CONTEXT_WINDOW,
    _EN_ALIASES,
    _EU_MENTION,
    _EU_MENTION_FIRST,
    _INSTRUMENT,
    _INSTRUMENT_START,
    _JOIN,
    _KEYWORD_CONTINUATIONS,
    _LATER_ACT,
    _LIST_SEP,
    _NUMBER,
    _PAREN_VALUE,
    _QUICK_END,
    _REC_NUMBER,
    _REV_ANNEX,
    _REV_OF,
    _SEC_NUMBER,
    _TAIL,
    _TAIL_KIND,
    _TRIGGER,
    _USUAL_ART,
    _USUAL_SEC,
    _eu_from_match,
)

__all__ = ["Citation", "Lang", "parse_citations"]


class _Parser(_UsualMixin, _TailMixin):
    def __init__(self, text: str, default_instrument: InstrumentInfo | None) -> None:
        self.text = text
        self.default = default_instrument
        self.results: list[Citation] = []
        self.last_eu: InstrumentInfo | None = None
        # where the last chain ended, and its last unit as a bare "Abs. 2"
        # after it reads it: top level, its value, language counts, act
        self.last_end = 0
        self.last_unit: _Unit | None = None
        self._eu_scanned = 0
        self._eu_named: InstrumentInfo | None = None
        self.group = 0

    # -- entry point --
    def run(self) -> list[Citation]:
        pos = 0
        text = self.text
        # Candidate places first (``_candidates``); the full trigger is matched
        # only there.
        results = self.results
        for start in self._places():
            if start < pos:
                continue
            usual = self._usual_head(start)
            if usual is not None:
                # "Artikel 6 Absatz 1 gilt": the unit in one match, and where
                # the chain ends there, straight to its citation
                if usual[0].lastgroup in _USUAL_ENDS:
                    citation = self._usual_citation(start, *usual)
                    results.append(citation)
                    pos = citation.end
                    continue
                items = self._chain_from(self._usual_item(start, *usual))
            else:
                m = _TRIGGER.match(text, start)
                if m is None:
                    continue
                items = self._chain(m)
            if not items:
                continue
            pos = items[-1].end
            batch = -1
            for item in items:
                if item.batch != batch:
                    # "§§ 280, 288 BGB und § 433 BGB": one group per instrument
                    self.group += 1
                    batch = item.batch
                results.append(self._freeze(item))
            last = items[-1]
            top = next(iter(last.levels))
            self.last_end = last.end
            self.last_unit = (
                top,
                last.levels[top],
                last.lang_de,
                last.lang_en,
                last.instrument,
            )
        if self.default is None:
            self._bind_in_sentence()
        return self.results

    def _places(self) -> list[int]:
        return _candidates(self.text)

    def _bind_in_sentence(self) -> None:
        """A unit that names no act takes the act of the nearest citation of
        the same sentence that does, before it ("Art. 6 Abs. 1 DSGVO ...;
        ergänzend Erwägungsgrund 47", "das AGG endet mit § 33") or else after
        it ("Article 53(1)(c) and ... Article 53(1)(d) of the AI Act"), if its
        kind of unit fits that act. A unit followed by a name of its own
        ("Art. 4 der Geschäftsordnung") never does. Linear: at most one look
        at the gap between each two neighbouring citations, and only where an
        act is carried across it."""
        results = self.results
        bound = sum(1 for c in results if c.instrument is not None)
        if bound == 0 or bound == len(results):
            return
        text = self.text
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

    # -- a chain: items joined by lists and i.V.m., sharing a trailing instrument --
    def _chain(self, m: re.Match[str]) -> list[_Item]:
        return self._chain_from(self._head(m))

    def _chain_from(self, items: list[_Item]) -> list[_Item]:
        """The chain that starts with the items of its first head."""
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
                batch = done[-1].batch + 1 if done else 0
                for it in pending:
                    it.batch = batch
                done.extend(pending)
                pending = []
                pos = end
            jm = _JOIN.match(self.text, pos)
            if jm is None:
                break
            tm = _TRIGGER.match(self.text, jm.end())
            last = (pending or done)[-1]
            if tm is None and last.plural and not pending and done:
                # "§§ 167 Abs. 2 VwGO, 708 Nr. 11, 711 ZPO": the list goes on
                cont = self._plural_more(last, jm.end())
                if cont:
                    pending.extend(cont)
                    continue
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
            named = done[-1].instrument if done else None
            for it in pending:
                if (
                    named is not None
                    and named.kind.startswith("eu_")
                    and "recital" in it.levels
                ):
                    # "(Art. 7 Abs. 4 DSGVO, ErwG 43)": a recital of that act
                    it.instrument = named
                    it.instrument_source = "context"
                    continue
                self._bind_without_instrument(it)
            done.extend(pending)
        return done

    def _plural_more(self, last: _Item, pos: int) -> list[_Item]:
        nm = _SEC_NUMBER.match(self.text, pos)
        top = next(iter(last.levels))
        if nm is None or top not in ("sec", "art"):
            return []
        item = _Item(
            start=pos,
            end=nm.end(),
            levels={top: nm.group(1).replace(" ", "")},
            stated={top},
            lang_de=1,
            plural=True,
            tops=2,
        )
        self._tail(item, roman_ok=False)
        if not self._accept_end(item.end):
            return []
        return [item, *self._list_rest(item)]

    def _bind_without_instrument(self, item: _Item) -> None:
        if item.instrument is not None:
            return
        before = self._act_before(item.start)
        if before is not None:
            item.instrument = before
            item.instrument_source = "stated"
            return
        if "annex" in item.levels and (later := self._act_later(item.end)):
            item.instrument = later
            item.instrument_source = "context"
            return
        if self.default is not None:
            item.instrument = self.default
            item.instrument_source = "default"

    def _act_before(self, start: int) -> InstrumentInfo | None:
        """ "DSGVO, Art. 15 Abs. 3", "DORA Article 19(1)": the act right before
        the unit, unless it belongs to the citation before."""
        begin = max(self.last_end, start - 70)
        if begin >= start:
            return None
        # cheap rejection: an act's name ends with a letter or digit, right
        # before the unit (after a space or comma) ...
        tail = self.text[begin:start].rstrip(" ,\t\n\xa0")
        if not tail or not tail[-1].isalnum():
            return None
        # ... and its last word is capitalised ("DSGVO", "Act"; not "gemäß")
        if not tail.rsplit(None, 1)[-1].lstrip('([„"“')[:1].isupper():
            return None
        # "(AI Act Article 50(3))": an opening bracket is no part of the name
        words = [w.lstrip('([„"“') for w in tail.split()]
        # the static registry's names only (an ordinary word never binds)
        for n in range(min(4, len(words)), 0, -1):
            info = static_alias(" ".join(words[-n:]))
            if info is not None:
                return info
        return None

    def _act_later(self, end: int) -> InstrumentInfo | None:
        """ "Annex III point 5 ... under the AI Act": an EU act named (by its
        name, "under/of/in the ...") later in the same sentence."""
        stop = self.text.find(". ", end)
        stop = len(self.text) if stop == -1 else min(stop, end + 300)
        for m in _LATER_ACT.finditer(self.text, end, stop):
            info = instrument_by_alias(re.sub(r"\s+", " ", m.group("alias")))
            if info is not None and info.kind.startswith("eu_"):
                return info
        return None

    # -- heads --
    def _head(self, m: re.Match[str]) -> list[_Item]:
        kind = m.lastgroup
        if kind == "sec":
            word = m.group("sec")
            if word[0] == "§":
                return self._numbered(m, "sec", de=1)
            if word[0] in "Ss":
                return self._english_section(m)
            return self._spelled_section(m)
        if kind == "anl":
            return self._anlage(m)
        if kind == "vv":
            return self._vv(m)
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
        plural = m.group(m.lastgroup or 0) in _PLURAL_WORDS
        if not plural:
            um = (_USUAL_SEC if top == "sec" else _USUAL_ART).match(self.text, m.end())
            if um is not None:
                return self._usual_item(m.start(), um, top, de, en)
        nm = (_SEC_NUMBER if top == "sec" else _NUMBER).match(self.text, m.end())
        if nm is None:
            return []
        item = _Item(
            start=m.start(),
            end=nm.end(),
            levels={top: nm.group(1).replace(" ", "")},
            stated={top},
            lang_de=de,
            lang_en=en,
            plural=plural,
        )
        if not item.plural and _QUICK_END.match(self.text, item.end):
            # "Article 6 shall", "§ 286 genannten": nothing can follow
            item.quick = True
            return [item]
        return self._item_and_list(item, roman_ok=True)

    def _spelled_section(self, m: re.Match[str]) -> list[_Item]:
        """ "Paragraf 280 Absatz 1 BGB": only with a statute or an Absatz (the
        English "Paragraph 286 of the letter" is no citation)."""
        items = self._numbered(m, "sec", de=1)
        if not items:
            return []
        if "para" in items[0].levels or self._instrument(items[-1].end) is not None:
            return items
        return []

    def _english_section(self, m: re.Match[str]) -> list[_Item]:
        """ "section 87(1) no. 6 BetrVG", "Sec. 280(1) of the German Civil Code
        (BGB)": a German statute's § cited in English; only with a German
        statute named after it ("section 3 of the Terms" is no citation)."""
        items = self._numbered(m, "sec", en=1)
        if not items:
            return []
        inst = self._instrument(items[-1].end)
        if inst is None or inst[0] is None or not inst[0].kind.startswith("de_"):
            return []
        return items

    def _recital(self, m: re.Match[str]) -> list[_Item]:
        word = m.group("rec")
        nm = _REC_NUMBER.match(self.text, m.end())
        if nm is None:
            return []
        en = word.lower().startswith("recital")
        item = _Item(
            start=m.start(),
            end=nm.end(),
            levels={"recital": nm.group(2)},
            stated={"recital"},
            lang_de=int(not en),
            lang_en=int(en),
        )
        items = self._item_and_list(item, roman_ok=False)
        if word == "EG" and self._instrument(items[-1].end) is None:
            return []  # "EG 47" is a recital only with an instrument after it
        for it in items:
            # "ErwG 146 S. 3": a recital is cited whole; its sentence number
            # is a pinpoint inside it, no unit of the corpus
            if it.levels.pop("sent", None) is not None:
                it.stated.discard("sent")
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
        if word.startswith("point") and word[-1] != "(":
            return self._reverse_annex(m)
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

    def _reverse_annex(self, m: re.Match[str]) -> list[_Item]:
        """ "point 5(b) of Annex III": an annex point cited before its annex."""
        rm = _REV_ANNEX.match(self.text, m.end())
        if rm is None:
            return []
        levels = {"annex": rm.group("annex"), "point": rm.group("point")}
        if rm.group("sub"):
            levels["subpoint"] = rm.group("sub")
        item = _Item(
            start=m.start(),
            end=rm.end(),
            levels=levels,
            stated=set(levels),
            lang_en=1,
        )
        return [item]

    def _bare(self, m: re.Match[str]) -> list[_Item]:
        """A bare "Abs. 2" binds to the citation just before it."""
        prev = self.last_unit
        prev_end = self.last_end
        if prev is None or prev_end > m.start():
            return []
        if (
            m.start() - prev_end > 300
            or self.text.find("\n\n", prev_end, m.start()) != -1
        ):
            return []
        top, value, lang_de, lang_en, instrument = prev
        if top not in ("art", "sec"):
            return []
        item = _Item(
            start=m.start(),
            end=m.start(),
            levels={top: value},
            stated=set(),
            lang_de=lang_de,
            lang_en=lang_en,
            instrument=instrument,
            instrument_source="context" if instrument else None,
            context_bound=True,
        )
        usual = self._usual_bare(item)
        if usual is not None:
            return usual
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
            bm = _BOOK_AFTER.match(self.text, im.end())
            if bm is not None:
                # "SGB X", "SGB 10": the book of a code
                book = instrument_by_alias(f"{alias} {bm.group(1)}")
                if book is not None:
                    return book, "stated", bm.end(), "de"
            if info.kind.startswith("eu_"):
                self.last_eu = info
            lang2: Lang | None = "en" if alias.casefold() in _EN_ALIASES else None
            if lang2 is None and alias != "DORA":
                lang2 = "de"
            end = im.end()
            am = _ABBR_IN_BRACKETS.match(self.text, end)
            if am is not None and instrument_by_alias(am.group(1)) is info:
                end = am.end()
            return info, "stated", end, lang2
        if im.group("eukind") is not None:
            info = _eu_from_match(im)
            self.last_eu = info
            en = im.group("eukind") in ("Regulation", "Directive")
            return info, "stated", im.end(), "en" if en else "de"
        abbr = im.group("abbr")
        if abbr is not None:
            book_no = im.group("book")
            if book_no is not None:
                info = instrument_by_alias(f"{abbr} {book_no}")
                if info is not None:
                    return info, "stated", im.end(), "de"
            end = im.end("abbr")
            info = law_lookup(abbr) or instrument_by_alias(abbr)
            if info is not None:
                return info, "stated", end, "de"
            if _ABBR_SHAPE.fullmatch(abbr):
                return unknown_statute(abbr), "stated", end, "de"
        return None

    def _last_eu_mention(self, pos: int) -> InstrumentInfo | None:
        """The EU act named last before ``pos`` ("die Verordnung (EU) 2016/679
        ... dieser Verordnung"), in a citation or in plain prose. Scans each
        part of the text once, and only the last few thousand characters before
        ``pos`` (earlier acts are still known from the citations that named
        them)."""
        begin = max(self._eu_scanned, pos - _CONTEXT_WINDOW)
        for m in self._eu_mentions(begin, pos):
            if m.group("alias") is not None:
                info = instrument_by_alias(re.sub(r"\s+", " ", m.group("alias")))
                if info is not None and info.kind.startswith("eu_"):
                    self._eu_named = info
            else:
                self._eu_named = _eu_from_match(m)
        self._eu_scanned = max(self._eu_scanned, pos)
        return self._eu_named or self.last_eu

    def _eu_mentions(self, begin: int, end: int) -> Iterator[re.Match[str]]:
        """What ``_EU_MENTION.finditer(text, begin, end)`` finds, by matching
        only where a mention can start (``_EU_MENTION_FIRST``): leftmost first,
        no overlap, the same ``endpos``."""
        text = self.text
        match = _EU_MENTION.match
        resume = begin
        for first in _EU_MENTION_FIRST.finditer(text, begin, end):
            at = first.start()
            if at < resume:
                continue
            m = match(text, at, end)
            if m is not None:
                yield m
                resume = m.end()

    # -- output --
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
        # trailing whitespace/punctuation never belongs to the span
        while end > start and self.text[end - 1] in " \t\n\xa0,":
            end -= 1
        return citation_new(
            start,
            end,
            self.text[start:end],
            levels,
            frozenset(item.stated),
            item.instrument,
            item.instrument_source,
            lang,
            item.range_end,
            item.following,
            item.context_bound,
            frozenset(item.paren_kinds) if item.paren_kinds else _NONE,
            self.group,
        )


_NONE: frozenset[str] = frozenset()
# what names the thing a unit belongs to when it is no act: "Art. 4 der
# Geschäftsordnung", "§ 5 des Mietvertrags", "Article 5 of the Agreement"
_OWN_NAME = re.compile(r"\s*,?\s*(?:der|des|dem|of\s+the|of|to\s+the)\s+[A-ZÄÖÜ]")
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


def _rank(level: tuple[str, str], before: tuple[tuple[str, str], ...]) -> float:
    """A level's place in the path; a sentence written after a numbered item
    ("Nr. 1 S. 1") is that item's sentence, just below it."""
    kind = level[0]
    if kind == "sent" and before and before[-1][0] in ("point", "subpoint"):
        return LEVEL_ORDER[before[-1][0]] + 0.5
    return LEVEL_ORDER[kind]


_PLURAL_WORDS = frozenset(
    {"§§", "Artt.", "Paragrafen", "Paragraphen", "sections", "Sections", "Secs."}
)


def parse_citations(
    text: str, *, default_instrument: InstrumentInfo | None = None
) -> list[Citation]:
    """Every citation in ``text``, in order, with non-overlapping spans.

    Spans point into ``text`` as given, also when it holds HTML (entities and
    tags are read as what they stand for, offsets are kept)."""
    if ("&" not in text and "<" not in text) or _HTML_HINT.search(text) is None:
        return _Parser(text, default_instrument).run()
    plain = _same_length_plain(text)
    found = _Parser(plain, default_instrument).run()
    return [replace(c, raw=text[c.start : c.end]) for c in found]
