"""Default interest (§ 288 BGB) over the Basiszinssatz (§ 247 BGB) table.

Method (stated in every result): interest accrues per calendar day from the first
day of default to the end date, both included; each day bears
principal x (Basiszinssatz of that day + points) / 100 / 365 ("act/365": a year of
365 days also in leap years, as in common German court practice). Days are
grouped by base-rate period; the total is rounded half up to whole cents once,
at the end. A day without a known Basiszinssatz raises ``BaseRateUnknown``: the
table is never extrapolated.
"""

from __future__ import annotations

import csv
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from ontology.domain.errors import BaseRateUnknown

BASE_RATE_FILE = Path(__file__).resolve().parent.parent / "data" / "basiszinssatz.csv"
METHOD_DE = (
    "Zinsberechnung taggenau (act/365): Zinsbeginn am ersten Verzugstag, Enddatum "
    "eingeschlossen, Jahr zu 365 Tagen, Rundung auf volle Cent am Ende."
)
METHOD_EN = (
    "Interest per calendar day (act/365): from the first day of default to the end "
    "date inclusive, a year of 365 days, rounded to whole cents at the end."
)


class BaseRate(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    valid_from: date
    valid_until: date
    rate_percent: Decimal
    source: str


class InterestPeriod(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    start: date
    end: date
    days: int
    base_rate_pa: Decimal
    annual_rate: Decimal
    interest_cents_exact: Decimal


class InterestComputation(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    principal_cents: int
    currency: str
    start: date
    end: date
    points: int
    periods: tuple[InterestPeriod, ...]
    interest_cents: int
    method_de: str = METHOD_DE
    method_en: str = METHOD_EN
    sources: tuple[str, ...] = ()


def base_rates_parse(text: str) -> tuple[BaseRate, ...]:
    """Parse the CSV table (comment lines start with '#'; the comment
    ``# valid_until_last,YYYY-MM-DD`` bounds the last row)."""
    lines = text.splitlines()
    last_until: date | None = None
    for line in lines:
        if line.startswith("# valid_until_last,"):
            last_until = date.fromisoformat(line.split(",", 1)[1].strip())
    rows = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    if not rows or last_until is None:
        raise ValueError("Basiszinssatz table is empty or lacks valid_until_last")
    starts = [date.fromisoformat(row["valid_from"]) for row in rows]
    if starts != sorted(starts) or len(set(starts)) != len(starts):
        raise ValueError("Basiszinssatz rows must be strictly ascending")
    rates = []
    for index, row in enumerate(rows):
        until = (
            starts[index + 1] - timedelta(days=1)
            if index + 1 < len(rows)
            else last_until
        )
        rates.append(
            BaseRate(
                valid_from=starts[index],
                valid_until=until,
                rate_percent=Decimal(row["rate_percent"]),
                source=row["source"],
            )
        )
    return tuple(rates)


@lru_cache(maxsize=1)
def base_rates() -> tuple[BaseRate, ...]:
    return base_rates_parse(BASE_RATE_FILE.read_text(encoding="utf-8"))


def base_rate_on(day: date, rates: tuple[BaseRate, ...] | None = None) -> BaseRate:
    for rate in rates if rates is not None else base_rates():
        if rate.valid_from <= day <= rate.valid_until:
            return rate
    raise BaseRateUnknown(
        f"No Basiszinssatz is recorded for {day.isoformat()}.",
        day=day,
        hint="ontology/data/basiszinssatz.csv",
    )


def default_interest(
    *,
    principal_cents: int,
    currency: str,
    start: date,
    end: date,
    points: int,
    rates: tuple[BaseRate, ...] | None = None,
) -> InterestComputation:
    """Interest on ``principal_cents`` from ``start`` to ``end`` (both included)
    at ``points`` percentage points above the Basiszinssatz, split at every
    change of the base rate. Raises BaseRateUnknown for a day outside the table."""
    table = rates if rates is not None else base_rates()
    periods: list[InterestPeriod] = []
    day = start
    total = Decimal(0)
    while day <= end:
        rate = base_rate_on(day, table)
        period_end = min(end, rate.valid_until)
        days = (period_end - day).days + 1
        annual = rate.rate_percent + points
        exact = Decimal(principal_cents) * annual * days / Decimal(100) / 365
        periods.append(
            InterestPeriod(
                start=day,
                end=period_end,
                days=days,
                base_rate_pa=rate.rate_percent,
                annual_rate=annual,
                interest_cents_exact=exact,
            )
        )
        total += exact
        day = period_end + timedelta(days=1)
    cents = int(total.quantize(Decimal(1), rounding=ROUND_HALF_UP)) if periods else 0
    sources = tuple(sorted({r.source for r in table if periods}))
    return InterestComputation(
        principal_cents=principal_cents,
        currency=currency,
        start=start,
        end=end,
        points=points,
        periods=tuple(periods),
        interest_cents=cents,
        sources=sources[:1],
    )
