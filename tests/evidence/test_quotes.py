"""The one quote matcher, by example: what counts as the same quote, and the
span of the original text it returns."""

from __future__ import annotations

import pytest

from evidence.domain.quotes import (
    quote_normalise,
    quote_page_ranges,
    quote_span,
    quote_spans,
)

LETTER = (
    "Der Verzugs-\nschaden beträgt 1.000,00 EUR. Bitte per E-\nMail antworten.\n"
    "Verzugs- und Schadensersatz\u00a0behalten wir uns vor. Wir ﬁnden die "
    "Zahlungs\u00aderinnerung vom 05.05.2026 nicht; die Mahn\u00ad\nung kam an."
)


def _found(text: str, quote: str, **kwargs: bool) -> str | None:
    span = quote_span(text, quote, **kwargs)
    return None if span is None else text[span[0] : span[1]]


@pytest.mark.parametrize(
    ("quote", "original"),
    [
        ("Verzugsschaden beträgt", "Verzugs-\nschaden beträgt"),
        ("Verzugs-\nschaden", "Verzugs-\nschaden"),
        ("per E-Mail antworten", "per E-\nMail antworten"),
        (
            "Verzugs- und Schadensersatz behalten",
            "Verzugs- und Schadensersatz\u00a0behalten",
        ),
        ("Wir finden die", "Wir ﬁnden die"),
        (
            "Zahlungserinnerung vom 05.05.2026",
            "Zahlungs\u00aderinnerung vom 05.05.2026",
        ),
        ("Zahlungs\u00aderinnerung", "Zahlungs\u00aderinnerung"),
        ("Zahlung\u200bserinnerung", "Zahlungs\u00aderinnerung"),
        ("die Mahnung kam an.", "die Mahn\u00ad\nung kam an."),
        ("  beträgt\n1.000,00  EUR. ", "beträgt 1.000,00 EUR."),
        ("Verzugs-", "Verzugs-"),
        ("betra\u0308gt", "beträgt"),
    ],
)
def test_quote_is_found_at_its_span_of_the_original_text(
    quote: str, original: str
) -> None:
    assert _found(LETTER, quote) == original


@pytest.mark.parametrize(
    "quote",
    [
        "verzugsschaden",  # case differs: a quote is verbatim
        "Verzugs schaden",  # a space is no line-end hyphenation
        "Verzugsund Schadensersatz",  # a hyphen before a space is kept
        "per EMail",  # before a capital the hyphen belongs to the word
        "f",  # half of a ligature
        "beträgt 1.000,00 EURO",
        "",
        " \n ",
    ],
)
def test_what_is_not_the_same_quote_is_not_found(quote: str) -> None:
    assert quote_span(LETTER, quote) is None


def test_a_letter_is_not_found_inside_an_accented_one() -> None:
    assert quote_span("café", "cafe") is None
    assert quote_span("cafe\u0301", "café") == (0, 5)


def test_case_is_ignored_only_when_asked_with_unicode_case_folding() -> None:
    assert quote_span("STRASSE", "Straße") is None
    assert quote_span("STRASSE", "Straße", ignore_case=True) == (0, 7)
    assert _found(LETTER, "VERZUGSSCHADEN", ignore_case=True) == "Verzugs-\nschaden"


def test_every_occurrence_is_returned_in_order() -> None:
    assert quote_spans("EUR, EUR\nund EUR", "EUR") == [(0, 3), (5, 8), (13, 16)]


def test_normalisation_is_nfc_without_invisibles_ligatures_or_breaks() -> None:
    assert quote_normalise(" Verzugs-\nschaden\u00a0ﬁx\u200b\u00ad  u\u0308 ") == (
        "Verzugsschaden fix ü"
    )


def test_a_quote_across_a_page_break_lies_on_both_pages() -> None:
    page1, page2 = "Kopf\n\nunsere Rech\u00ad", "nung war zahlbar bis 26.04.2026.\n"
    chunk = "unsere Rech\u00ad\n\nnung war zahlbar bis 26.04.2026."
    spans = [
        {"page": 1, "start": 6, "end": len(page1)},
        {"page": 2, "start": 0, "end": len(page2) - 1},
    ]
    texts = {1: page1, 2: page2}
    ranges = quote_page_ranges(
        chunk_text=chunk, spans=spans, page_texts=texts, quote="Rechnung war"
    )
    assert [(r.page, texts[r.page][r.start : r.end]) for r in ranges] == [
        (1, "Rech\u00ad"),
        (2, "nung war"),
    ]
    [only] = quote_page_ranges(
        chunk_text=chunk, spans=spans, page_texts=texts, quote="zahlbar bis"
    )
    assert (only.page, page2[only.start : only.end]) == (2, "zahlbar bis")


def test_a_page_text_that_no_longer_aligns_is_searched_itself() -> None:
    [found] = quote_page_ranges(
        chunk_text="anderer Text",
        spans=[{"page": 3, "start": 0, "end": 20}],
        page_texts={3: "Die Zah\u00adlung kam."},
        quote="Zahlung",
    )
    assert (found.page, found.start, found.end) == (3, 4, 12)
    assert not quote_page_ranges(
        chunk_text="x", spans=[{"page": 3}], page_texts={3: "y"}, quote="z"
    )
