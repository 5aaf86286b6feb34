"""Typed dates in the page's language (cases.dates), for every date input."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import translation

from cases.dates import LocalDateField, NotACalendarDay, date_shown, typed_date
from cases.forms import ClaimForm


@pytest.mark.parametrize(
    ("typed", "day"),
    [("05.08.2026", dt.date(2026, 8, 5)), ("5.8.2026", dt.date(2026, 8, 5)),
     ("2026-08-05", dt.date(2026, 8, 5)), (" 05.08.2026 ", dt.date(2026, 8, 5))],
)  # fmt: skip
def test_a_german_page_takes_tt_mm_jjjj_and_iso(typed, day):
    with translation.override("de"):
        assert typed_date(typed) == day
        assert typed_date("08/05/2026") is None  # no US dates on German pages


def test_an_english_page_takes_us_dates_and_shows_iso():
    with translation.override("en"):
        assert typed_date("08/05/2026") == dt.date(2026, 8, 5)
        assert date_shown(dt.date(2026, 8, 5)) == "2026-08-05"
    with translation.override("de"):
        assert date_shown(dt.date(2026, 8, 5)) == "05.08.2026"
        assert date_shown("2026-08-05") == "05.08.2026"
        assert date_shown("soon") == "soon"


def test_a_date_form_that_names_no_day_is_refused():
    with pytest.raises(NotACalendarDay):
        typed_date("31.02.2026")


def test_the_form_field_says_what_is_wrong_in_german():
    field = LocalDateField()
    with translation.override("de"):
        with pytest.raises(Exception) as bad:
            field.clean("nächste Woche")
        assert "TT.MM.JJJJ" in str(bad.value)
        with pytest.raises(Exception) as no_day:
            field.clean("31.02.2026")
        assert "kein Kalendertag" in str(no_day.value)
        assert field.clean("01.03.2026") == dt.date(2026, 3, 1)


def test_the_claim_form_renders_a_text_input_in_the_page_format():
    with translation.override("de"):
        form = ClaimForm(initial={"valid_at": dt.date(2026, 1, 1)})
        html = str(form["valid_at"])
    assert 'type="text"' in html
    assert 'value="01.01.2026"' in html
    assert 'placeholder="TT.MM.JJJJ"' in html
