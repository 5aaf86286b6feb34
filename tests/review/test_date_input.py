"""The value editor's date input (issue 14): a German page takes and shows
TT.MM.JJJJ, an English page MM/DD/YYYY; both take ISO; a typed day that is no
calendar day is refused with its own code, anything else by the schema."""

from __future__ import annotations

import pytest
from django.utils import translation

from ontology.domain.values import FactValueInvalid
from review.forms import date_for_input, date_input_to_iso


@pytest.mark.parametrize(
    ("typed", "iso"),
    [
        ("05.05.2026", "2026-05-05"),
        ("5.5.2026", "2026-05-05"),
        (" 31.12.2026 ", "2026-12-31"),
        ("2026-05-08", "2026-05-08"),
        ("05/08/2026", "05/08/2026"),  # no US form on a German page
        ("morgen", "morgen"),  # left for the schema to refuse
    ],
)
def test_a_german_page_reads_tt_mm_jjjj_and_iso(typed: str, iso: str) -> None:
    with translation.override("de"):
        assert date_input_to_iso(typed) == iso


def test_an_english_page_reads_the_us_form_month_first() -> None:
    with translation.override("en"):
        assert date_input_to_iso("05/08/2026") == "2026-05-08"
        assert date_input_to_iso("2026-05-08") == "2026-05-08"


def test_a_typed_day_that_is_no_calendar_day_is_refused_with_its_code() -> None:
    with translation.override("de"), pytest.raises(FactValueInvalid) as caught:
        date_input_to_iso("31.02.2026", field="deadline")
    assert caught.value.code == "date_not_calendar"
    assert caught.value.field == "deadline"
    assert caught.value.params == {"value": "31.02.2026"}


def test_a_stored_date_shows_german_on_a_german_page_and_iso_on_an_english_one() -> (
    None
):
    with translation.override("de"):
        assert date_for_input("2026-05-05") == "05.05.2026"
        assert date_for_input("kaputt") == "kaputt"
    with translation.override("en"):
        assert date_for_input("2026-05-05") == "2026-05-05"
