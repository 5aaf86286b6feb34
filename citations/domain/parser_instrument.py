"""The parser's reading of instruments: the act after a unit ("§ 280 BGB",
"Article 6 of Regulation (EU) 2016/679", "dieser Verordnung"), before it
("DSGVO, Art. 15") or later in its sentence ("Annex III ... of the AI Act")."""

from __future__ import annotations

import re
from collections.abc import Iterator

from citations.domain.citation import Lang, _Item
from citations.domain.instruments import (
    InstrumentInfo,
    instrument_by_alias,
    law_lookup,
    static_alias,
    unknown_statute,
)
from citations.domain.patterns import (
    _ABBR_IN_BRACKETS,
    _ABBR_SHAPE,
    _BOOK_AFTER,
    _CONTEXT_WINDOW,
    _EN_ALIASES,
    _EU_MENTION,
    _EU_MENTION_FIRST,
    _INSTRUMENT,
    _INSTRUMENT_START,
    _LATER_ACT,
    _eu_from_match,
)


class _InstrumentMixin:
    """Instrument steps of :class:`citations.domain.parser._Parser`."""

    text: str
    default: InstrumentInfo | None
    last_eu: InstrumentInfo | None
    last_end: int
    _eu_scanned: int
    _eu_named: InstrumentInfo | None

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
        return act_named_before(self.text, max(self.last_end, start - 70), start)

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


def act_named_before(text: str, begin: int, start: int) -> InstrumentInfo | None:
    """The act named in ``text[begin:start]`` right before the unit at
    ``start`` (the parser's ``_act_before``; the compiled reader calls it
    where its own cheap checks pass)."""
    if begin >= start:
        return None
    # cheap rejection: an act's name ends with a letter or digit, right
    # before the unit (after a space or comma) ...
    tail = text[begin:start].rstrip(" ,\t\n\xa0")
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
