"""§ 288 BGB interest over the Basiszinssatz table (act/365)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from ontology.domain.errors import BaseRateUnknown
from ontology.domain.interest import (
    base_rate_on,
    base_rates,
    base_rates_parse,
    default_interest,
)


def test_table_runs_half_yearly_from_2002_without_gaps() -> None:
    rates = base_rates()
    assert rates[0].valid_from == date(2002, 1, 1)
    for earlier, later in zip(rates, rates[1:], strict=False):
        assert (later.valid_from - earlier.valid_until).days == 1
        assert later.valid_from.day == 1 and later.valid_from.month in (1, 7)
    assert all("Deutsche Bundesbank" in r.source for r in rates)


@pytest.mark.parametrize(
    ("day", "rate"),
    [
        (date(2002, 1, 1), "2.57"),
        (date(2016, 7, 1), "-0.88"),
        (date(2022, 12, 31), "-0.88"),
        (date(2023, 1, 1), "1.62"),
        (date(2024, 6, 30), "3.62"),
        (date(2024, 7, 1), "3.37"),
        (date(2026, 1, 1), "1.27"),
    ],
)
def test_known_base_rates(day: date, rate: str) -> None:
    assert base_rate_on(day).rate_percent == Decimal(rate)


def test_interest_across_a_base_rate_change_is_split_per_period() -> None:
    result = default_interest(
        principal_cents=1_000_000,
        currency="EUR",
        start=date(2024, 6, 1),
        end=date(2024, 7, 31),
        points=9,
    )
    assert [(p.start, p.end, p.days) for p in result.periods] == [
        (date(2024, 6, 1), date(2024, 6, 30), 30),
        (date(2024, 7, 1), date(2024, 7, 31), 31),
    ]
    assert [p.annual_rate for p in result.periods] == [
        Decimal("12.62"),
        Decimal("12.37"),
    ]
    # 10,000 EUR * 12.62 % * 30/365 = 103.726..., * 12.37 % * 31/365 = 105.060...
    assert result.interest_cents == 20879


def test_single_day_and_leap_year_use_365_days() -> None:
    one_day = default_interest(
        principal_cents=36_500_00,
        currency="EUR",
        start=date(2024, 2, 29),
        end=date(2024, 2, 29),
        points=5,
    )
    # 36,500 EUR * (3.62 + 5) % / 365 = 8.62 EUR
    assert one_day.interest_cents == 862


def test_rounding_is_half_up_once_at_the_end() -> None:
    result = default_interest(
        principal_cents=100,
        currency="EUR",
        start=date(2024, 1, 1),
        end=date(2024, 1, 2),
        points=5,
    )
    # 100 cents * 8.62 % * 2 / 365 = 0.047 cents -> 0
    assert result.interest_cents == 0
    assert sum(p.interest_cents_exact for p in result.periods) < Decimal("0.5")


def test_date_outside_the_table_raises() -> None:
    with pytest.raises(BaseRateUnknown):
        base_rate_on(date(2001, 12, 31))
    with pytest.raises(BaseRateUnknown):
        default_interest(
            principal_cents=100,
            currency="EUR",
            start=date(2026, 6, 1),
            end=date(2026, 7, 1),
            points=5,
        )


def test_malformed_table_is_refused() -> None:
    with pytest.raises(ValueError):
        base_rates_parse("valid_from,rate_percent,source\n2002-01-01,2.57,x\n")
    with pytest.raises(ValueError):
        base_rates_parse(
            "# valid_until_last,2003-01-01\nvalid_from,rate_percent,source\n"
            "2002-07-01,1,x\n2002-01-01,2,x\n"
        )
