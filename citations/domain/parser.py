"""Find legal citations in running German and English text.

One pass of a compiled trigger regex finds where a citation may start (``§``,
``Art.``, ``Artikel``, ``Article``, ``Erwägungsgrund``, ``recital``, ``Anhang``,
``Annex``, ``point (x) of``, a bare ``Abs.`` after a citation); from there a
small hand-written parser reads numbers, subdivisions, lists, ranges, ``ff.``,
``i.V.m.`` chains and the instrument, each step an anchored ``re.match``. A §
or article written as usual is read in one match (``parser_usual``); the
steps read everything else.

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
from types import ModuleType

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
)
from citations.domain.parser_compiled import compiled_parser
from citations.domain.parser_input import (
    _HTML_HINT,
    _candidates,
    _same_length_plain,
)
from citations.domain.parser_instrument import _InstrumentMixin
from citations.domain.parser_sentence import bind_in_sentence
from citations.domain.parser_tail import _TailMixin
from citations.domain.parser_usual import _USUAL_ENDS, _Unit, _UsualMixin
from citations.domain.patterns import (
    _ANNEX_NUMBER,
    _JOIN,
    _KEYWORD_CONTINUATIONS,
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
)

__all__ = ["Citation", "Lang", "parse_citations"]


class _Parser(_InstrumentMixin, _UsualMixin, _TailMixin):
    def __init__(self, text: str, default_instrument: InstrumentInfo | None) -> None:
        self.text = text
        self.default = default_instrument
        self.results: list[Citation] = []
        # candidates before it lie inside a citation already read
        self.pos = 0
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
        """Every citation of the text, by the Python steps."""
        # Candidate places first (``_candidates``); the full trigger is matched
        # only there.
        for start in self._places():
            if start >= self.pos:
                self._read_at(start)
        if self.default is None:
            self._bind_in_sentence()
        return self.results

    def run_compiled(self, compiled: ModuleType) -> list[Citation]:
        """The same citations, the compiled reader (``parser_compiled``)
        reading every candidate it can and these steps the others: it stops
        at a candidate it hands over, with this parser's state as the steps
        would have left it, and goes on after it."""
        # a tuple: advance() reads it as it is, a list it would copy first
        places = tuple(compiled.candidates(self.text))
        n = len(places)
        i = compiled.advance(self, places, 0)
        while i < n:
            self._read_at(places[i])
            i = compiled.advance(self, places, i + 1)
        if self.default is None:
            self._bind_in_sentence()
        return self.results

    def _read_at(self, start: int) -> None:
        """The chain that starts at the candidate place ``start``, if any:
        its citations, and the state the next candidate reads."""
        text = self.text
        results = self.results
        usual = self._usual_head(start)
        if usual is not None:
            # "Artikel 6 Absatz 1 gilt": the unit in one match, and where
            # the chain ends there, straight to its citation
            if usual[0].lastgroup in _USUAL_ENDS:
                citation = self._usual_citation(start, *usual)
                results.append(citation)
                self.pos = citation.end
                return
            items = self._chain_from(self._usual_item(start, *usual))
        else:
            m = _TRIGGER.match(text, start)
            if m is None:
                return
            items = self._chain(m)
        if not items:
            return
        self.pos = items[-1].end
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

    def _places(self) -> list[int]:
        return _candidates(self.text)

    def _bind_in_sentence(self) -> None:
        bind_in_sentence(self.text, self.results)

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
        return _parse(text, default_instrument)
    plain = _same_length_plain(text)
    found = _parse(plain, default_instrument)
    return [replace(c, raw=text[c.start : c.end]) for c in found]


def _parse(text: str, default_instrument: InstrumentInfo | None) -> list[Citation]:
    parser = _Parser(text, default_instrument)
    compiled = compiled_parser()
    return parser.run() if compiled is None else parser.run_compiled(compiled)
