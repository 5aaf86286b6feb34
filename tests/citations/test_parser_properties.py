"""Property-based: the parser never crashes and every span points at its raw text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from citations.domain.parser import parse_citations
from citations.domain.resolver import ProvisionIndex, ProvisionRef, resolve_in_index

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
    # issue 15
    "Paragraf",
    "Nr",
    "Abs",
    "1. Halbsatz",
    "SGB",
    "X",
    "10",
    "VV",
    "RVG",
    "RVG-VV",
    "Nrn.",
    "2300",
    "7002",
    "Anlage",
    "zu",
    "EGBGB",
    "229",
    "letter",
    "para.",
    "DORA-Verordnung",
    "KWG",
    "UWG 2004",
    "VwGO",
    "des",
    "Verwaltungsverfahrensgesetzes",
    "&sect;",
    "&nbsp;",
    "&amp;",
    "&#167;",
    "<p>",
    "</p>",
    "<script>",
    "</script>",
    "<style>",
    "</style>",
    "<b",
    ">",
]
token_text = st.lists(st.sampled_from(TOKENS), max_size=40).map(
    lambda parts: " ".join(parts)
)
glued_text = st.lists(st.sampled_from(TOKENS), max_size=40).map("".join)


_REFS = [
    ProvisionRef(path, path.rsplit("/", 2)[-2], path.rsplit("/", 1)[-1], text)
    for path, text in (
        ("sec/280", "Verletzt der Schuldner eine Pflicht. Satz zwei."),
        ("sec/280/para/1", "Verletzt der Schuldner eine Pflicht; so nicht."),
        ("sec/280/para/1/sent/1", "Verletzt der Schuldner eine Pflicht."),
        ("art/6", "Processing"),
        ("art/6/para/1", "lawful"),
        ("art/6/para/1/subpara/1", "lawful"),
        ("art/6/para/1/subpara/1/point/f", "legitimate interests"),
        ("art/229", ""),
        ("art/229/asec/34", "Die §§ 286, 288"),
        ("annex/1", "Vergütungsverzeichnis"),
        ("annex/1/point/2300", "Geschäftsgebühr"),
        ("recital/43", "consent"),
        ("annex/III", "high-risk"),
        ("annex/III/point/5", "access"),
    )
]
_INDEX = ProvisionIndex.build(_REFS)


def _check(text: str) -> None:
    found = parse_citations(text)
    for c in found:
        # the resolver answers every parsed citation without raising
        outcome = resolve_in_index(c, _INDEX)
        assert outcome.status in ("resolved", "not_found", "ambiguous")
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
