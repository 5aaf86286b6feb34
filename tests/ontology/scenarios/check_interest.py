"""Independent re-computation of every scenario's interest and totals.

Standard library only; it does not import Belegt. Run from the repository root:
    python tests/ontology/scenarios/check_interest.py
Interest is recomputed day by day with exact fractions (each day: principal x (base
rate of that day + points) / 100 / 365), rounded half-up to the cent once, and compared
with the scenario's expected figures, its "calc" working and the total convention of
README.md. Exit code 1 on any mismatch.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
RATES_CSV = HERE.parents[2] / "ontology" / "data" / "basiszinssatz.csv"


def load_rates() -> tuple[list[tuple[dt.date, Fraction]], dt.date]:
    rows: list[tuple[dt.date, Fraction]] = []
    last = None
    for line in RATES_CSV.read_text(encoding="utf-8").splitlines():
        if line.startswith("# valid_until_last,"):
            last = dt.date.fromisoformat(line.split(",")[1].strip())
        if not line or line.startswith("#") or line.startswith("valid_from"):
            continue
        day, rate, _ = line.split(",", 2)
        rows.append((dt.date.fromisoformat(day), Fraction(rate)))
    assert last is not None
    return rows, last


RATES, LAST = load_rates()


def base_rate(day: dt.date) -> Fraction:
    if day > LAST:
        raise ValueError(f"no base rate known for {day}")
    current = None
    for valid_from, rate in RATES:
        if valid_from <= day:
            current = rate
    assert current is not None
    return current


def interest_cents(principal_cents: int, start: str, end: str, points: int) -> int:
    day = dt.date.fromisoformat(start)
    last = dt.date.fromisoformat(end)
    total = Fraction(0)
    while day <= last:
        total += Fraction(principal_cents) * (base_rate(day) + points) / 100 / 365
        day += dt.timedelta(days=1)
    exact = Decimal(total.numerator) / Decimal(total.denominator)
    return int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def check(path: Path) -> list[str]:
    s = json.loads(path.read_text(encoding="utf-8"))
    e = s["expected"]
    errors: list[str] = []
    sid = s["id"]
    if path.stem != sid:
        errors.append(f"{path.name}: id {sid} does not match the file name")
    i = e["interest"]
    if e["default_from"] is None:
        if i["cents"] is not None:
            errors.append(f"{sid}: interest without default")
        return errors
    if i["from"] != e["default_from"]:
        errors.append(f"{sid}: interest.from differs from default_from")
    if i["to"] > s["claim"]["valid_at"]:
        errors.append(f"{sid}: interest runs past the Stichtag")
    cents = interest_cents(
        i["principal_cents"], i["from"], i["to"], i["points_over_base"]
    )
    if cents != i["cents"]:
        errors.append(f"{sid}: interest {i['cents']} ct, day by day {cents} ct")
    calc = s["calc"]["interest"]
    days = sum(p["days"] for p in calc["periods"])
    span = (dt.date.fromisoformat(i["to"]) - dt.date.fromisoformat(i["from"])).days + 1
    if days != span:
        errors.append(f"{sid}: calc periods cover {days} days, the span has {span}")
    if calc["rounded_cents"] != i["cents"]:
        errors.append(f"{sid}: calc.rounded_cents differs from expected.interest.cents")
    added = e["pauschale_added_cents"]
    if e["pauschale_cents"] not in (0, 4000) or not 0 <= added <= e["pauschale_cents"]:
        errors.append(f"{sid}: Pauschale fields out of range")
    total = e["damage_items_cents"] + i["cents"] + added
    if e["recoverable_cents"] != total:
        errors.append(
            f"{sid}: recoverable {e['recoverable_cents']} != items + interest"
            f" + added Pauschale = {total}"
        )
    return errors


def main() -> int:
    files = sorted((HERE / "verzug").glob("*.json"))
    errors: list[str] = []
    for path in files:
        errors.extend(check(path))
    for line in errors:
        sys.stdout.write(line + "\n")
    sys.stdout.write(f"{len(files)} scenarios checked, {len(errors)} problems\n")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
