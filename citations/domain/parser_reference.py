"""The parser's steps as first written, before they were made faster.

:class:`_ReferenceParser` is :class:`citations.domain.parser._Parser` with
each step that has a faster form replaced by its original, plainer one. It is
not used in production; the equality tests
(``tests/citations/test_parser_fast_paths.py``) hold the parser to giving
exactly what this one gives, on the labelled sets, slices of the corpus and
generated text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from citations.domain.citation import Citation
from citations.domain.instruments import InstrumentInfo, static_alias
from citations.domain.parser import _Parser
from citations.domain.parser_input import (
    _HTML_HINT,
    _same_length_plain,
)
from citations.domain.patterns import _EU_MENTION


class _ReferenceParser(_Parser):
    def _eu_mentions(self, begin: int, end: int) -> Iterator[re.Match[str]]:
        return _EU_MENTION.finditer(self.text, begin, end)

    def _act_before(self, start: int) -> InstrumentInfo | None:
        floor = self.last_item.end if self.last_item is not None else 0
        begin = max(floor, start - 70)
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


def parse_citations_reference(
    text: str, *, default_instrument: InstrumentInfo | None = None
) -> list[Citation]:
    """:func:`citations.domain.parser.parse_citations` by the reference steps."""
    if ("&" not in text and "<" not in text) or _HTML_HINT.search(text) is None:
        return _ReferenceParser(text, default_instrument).run()
    plain = _same_length_plain(text)
    found = _ReferenceParser(plain, default_instrument).run()
    return [replace(c, raw=text[c.start : c.end]) for c in found]
