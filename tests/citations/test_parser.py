"""The parser over hundreds of surface forms (pure; no database)."""

from __future__ import annotations

import pytest

from citations.domain.instruments import BY_KEY
from citations.domain.parser import parse_citations
from tests.citations.surface_forms import ALL_POSITIVE, NEGATIVE


def test_the_surface_form_set_has_hundreds_of_cases() -> None:
    assert len(ALL_POSITIVE) + len(NEGATIVE) >= 300


@pytest.mark.parametrize(("text", "expected"), ALL_POSITIVE, ids=lambda v: str(v)[:60])
def test_citation_is_found_with_span_and_canonical_id(
    text: str, expected: list[tuple[str, str | None]]
) -> None:
    found = parse_citations(text)
    assert [(c.raw, c.canonical) for c in found] == expected
    for c in found:
        assert text[c.start : c.end] == c.raw


@pytest.mark.parametrize("text", NEGATIVE)
def test_text_without_citation_yields_nothing(text: str) -> None:
    assert parse_citations(text) == []


def test_parts_hold_only_what_the_text_states() -> None:
    (c,) = parse_citations("Art. 9 Abs. 2 lit. a KI-VO")
    assert c.parts == {
        "instrument": "32024R1689",
        "article": "9",
        "paragraph": "2",
        "point": "a",
    }
    (c,) = parse_citations("§§ 433 ff. BGB")
    assert c.parts == {"instrument": "BGB", "section": "433", "following": "ff"}
    (c,) = parse_citations("Art. 12 bis 23 DSGVO")
    assert c.parts == {"instrument": "32016R0679", "article": "12", "range_end": "23"}
    (c,) = parse_citations("Erwägungsgrund 60")
    assert c.parts == {"instrument": None, "recital": "60"}
    (c,) = parse_citations("Anhang III Nr. 1 Buchst. a KI-VO")
    assert c.parts == {
        "instrument": "32024R1689",
        "point": "1",
        "subpoint": "a",
        "annex": "III",
    }
    (c,) = parse_citations("§ 280 Abs. 1 S. 1 Alt. 2 BGB")
    assert c.parts["alternative"] == "2"
    assert c.parts["sentence"] == "1"
    assert c.parts["section"] == "280"


def test_bare_paragraph_after_a_citation_states_only_the_paragraph() -> None:
    _, bare = parse_citations("Art. 6 Abs. 1 DSGVO. Abs. 2 regelt anderes.")
    assert bare.parts == {"instrument": "32016R0679", "paragraph": "2"}
    assert bare.context_bound
    assert bare.canonical == "eu/reg/2016/679/art/6/para/2"


def test_a_list_item_keeps_the_parents_stated_in_the_group() -> None:
    _, second, third = parse_citations("§§ 280 Abs. 1, 2, 286 BGB")
    assert second.parts == {"instrument": "BGB", "section": "280", "paragraph": "2"}
    assert third.parts == {"instrument": "BGB", "section": "286"}


def test_roman_paragraph_is_given_as_a_number() -> None:
    (c,) = parse_citations("Art. 6 I lit. f DSGVO")
    assert c.parts["paragraph"] == "1"


def test_default_instrument_binds_citations_that_name_none() -> None:
    (c,) = parse_citations("Art. 5 Abs. 1", default_instrument=BY_KEY["gdpr"])
    assert c.canonical == "eu/reg/2016/679/art/5/para/1"
    assert c.instrument_source == "default"
    (c,) = parse_citations("Art. 5 Abs. 1 KI-VO", default_instrument=BY_KEY["gdpr"])
    assert c.canonical == "eu/reg/2024/1689/art/5/para/1"


def test_language_follows_the_surface_form() -> None:
    (de,) = parse_citations("Art. 6 Abs. 1 DSGVO")
    (en,) = parse_citations("Article 6(1) GDPR")
    assert (de.lang, en.lang) == ("de", "en")


def test_spans_never_overlap_in_a_long_mixed_text() -> None:
    text = " ".join(t for t, _ in ALL_POSITIVE)
    found = parse_citations(text)
    assert len(found) > 250
    for a, b in zip(found, found[1:], strict=False):
        assert a.end <= b.start
