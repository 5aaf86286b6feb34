"""Dates as letters and portals write them: German, English, ISO, and the
day-first slash form of Irish, British and French portals ("25/09/2026").
A slash date that is valid only month first is refused, never guessed."""

from __future__ import annotations

import datetime as dt

import pytest

from agents.domain.parsing import find_dates, parse_date


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("05.10.2026", dt.date(2026, 10, 5)),
        ("5. Oktober 2026", dt.date(2026, 10, 5)),
        ("5 October 2026", dt.date(2026, 10, 5)),
        ("October 5, 2026", dt.date(2026, 10, 5)),
        ("2026-10-05", dt.date(2026, 10, 5)),
        ("05/10/2026", dt.date(2026, 10, 5)),
        ("25/09/2026", dt.date(2026, 9, 25)),
        ("09/25/2026", None),
        ("31/02/2026", None),
    ],
)
def test_each_written_form(raw, expected):
    assert parse_date(raw) == expected


def test_slash_dates_are_found_in_text_but_not_in_file_numbers_or_fractions():
    text = (
        "Your report was received on 25/09/2026 at 13:40; file 12/03/2026/7 "
        "and a share of 1/4 are no dates."
    )
    assert [f.date for f in find_dates(text)] == [dt.date(2026, 9, 25)]


@pytest.mark.parametrize(
    "raw,expected",
    [
        ("8 Oct 2026", dt.date(2026, 10, 8)),
        ("8 Sept. 2026", dt.date(2026, 9, 8)),
        ("Sep 8, 2026", dt.date(2026, 9, 8)),
        ("12. Okt. 2026", dt.date(2026, 10, 12)),
        ("3. Mär 2026", dt.date(2026, 3, 3)),
        ("31 Feb 2026", None),
    ],
)
def test_abbreviated_months_as_mail_headers_write_them(raw, expected):
    assert parse_date(raw) == expected


def test_an_abbreviation_is_a_month_only_before_a_year():
    # "Dez 2026" names no day; "Sepia 12 2026" is no month
    assert find_dates("Stand Dez 2026; Sepia 12 2026") == []
    assert [f.date for f in find_dates("Date: Thu, 8 Oct 2026 13:05")] == [
        dt.date(2026, 10, 8)
    ]
