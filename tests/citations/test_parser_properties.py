"""Property-based: the parser never crashes and every span points at its raw text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from citations.domain.parser import parse_citations

TOKENS = [
    "§",
    "§§",
    "Art.",
    "Artikel",
    "Article",
    "Abs.",
    "Absatz",
    "UAbs.",
    "S.",
    "Satz",
    "Hs.",
    "Nr.",
    "lit.",
    "Buchst.",
    "Alt.",
    "ff.",
    "f.",
    "bis",
    "to",
    "und",
    "and",
    "oder",
    ",",
    ";",
    "i.V.m.",
    "iVm",
    "(",
    ")",
    "(1)",
    "(a)",
    "(iv)",
    "I",
    "II",
    "IV",
    "Erwägungsgrund",
    "ErwG",
    "EG",
    "recital",
    "Anhang",
    "Annex",
    "III",
    "point",
    "points",
    "of",
    "the",
    "first",
    "subparagraph",
    "sentence",
    "DSGVO",
    "DS-GVO",
    "GDPR",
    "KI-VO",
    "AI Act",
    "DORA",
    "BGB",
    "ZPO",
    "TMG",
    "dieser Verordnung",
    "this Regulation",
    "Verordnung (EU) 2016/679",
    "Richtlinie 95/46/EG",
    "1",
    "2",
    "6",
    "44",
    "286",
    "1823",
    "241a",
    "a",
    "f",
    "12.03.2024",
    "280,00",
    "\n",
    "\n\n",
    "\u00a0",
    "-",
    "–",
    "Abschnitt",
    "A",
    "Section",
]
token_text = st.lists(st.sampled_from(TOKENS), max_size=40).map(
    lambda parts: " ".join(parts)
)
glued_text = st.lists(st.sampled_from(TOKENS), max_size=40).map("".join)


def _check(text: str) -> None:
    found = parse_citations(text)
    previous_end = 0
    for c in found:
        assert 0 <= c.start < c.end <= len(text)
        assert text[c.start : c.end] == c.raw
        assert c.start >= previous_end
        previous_end = c.end
        assert c.levels
        # the canonical id, when there is one, names the instrument's prefix
        if c.canonical is not None:
            assert c.instrument is not None
            assert c.canonical.startswith(c.instrument.prefix + "/")
        assert set(c.parts) <= {
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
        }


@settings(max_examples=600, deadline=None)
@given(token_text)
def test_parser_never_crashes_and_spans_match_on_legal_token_soup(text: str) -> None:
    _check(text)


@settings(max_examples=300, deadline=None)
@given(glued_text)
def test_parser_never_crashes_on_glued_tokens(text: str) -> None:
    _check(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_parser_never_crashes_on_arbitrary_unicode(text: str) -> None:
    _check(text)
