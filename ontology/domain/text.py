"""Formatting values for German and English sentences."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from typing import Any, Literal

from ontology.domain.values import Amount, FactValue, Period, Rate, RecordValue

Lang = Literal["de", "en"]

MONTHS_EN = (
    "January", "February", "March", "April", "May", "June", "July",
    "August", "September", "October", "November", "December",
)  # fmt: skip


def date_format(value: date, lang: Lang) -> str:
    if lang == "de":
        return value.strftime("%d.%m.%Y")
    return f"{value.day} {MONTHS_EN[value.month - 1]} {value.year}"


def cents_format(cents: int, currency: str, lang: Lang) -> str:
    sign = "-" if cents < 0 else ""
    units, rest = divmod(abs(cents), 100)
    grouped = f"{units:,}"
    if lang == "de":
        grouped = grouped.replace(",", ".")
        number = f"{sign}{grouped},{rest:02d}"
        return f"{number} €" if currency == "EUR" else f"{number} {currency}"
    return f"{currency} {sign}{grouped}.{rest:02d}"


def value_format(value: FactValue, lang: Lang) -> str:
    if isinstance(value, bool):
        return (
            ("ja" if value else "nein") if lang == "de" else ("yes" if value else "no")
        )
    if isinstance(value, Amount):
        return cents_format(value.cents, value.currency, lang)
    if isinstance(value, date):
        return date_format(value, lang)
    if isinstance(value, Rate):
        number = percent_points_format(value.basis_points / 100, lang)
        if value.reference == "fixed":
            return number
        points = number.replace("%", "").strip()
        return (
            f"{points} Prozentpunkte über dem Basiszinssatz"
            if lang == "de"
            else f"{points} percentage points above the base rate"
        )
    if isinstance(value, Period):
        units = {
            "de": {"days": "Tage", "weeks": "Wochen", "months": "Monate"},
            "en": {"days": "days", "weeks": "weeks", "months": "months"},
        }[lang]
        text = f"{value.count} {units[value.unit]}"
        if value.from_event:
            text += (
                f" ab {value.from_event}"
                if lang == "de"
                else (f" from {value.from_event}")
            )
        return text
    if isinstance(value, int | Decimal):
        number = f"{value:f}" if isinstance(value, Decimal) else str(value)
        return number.replace(".", ",") if lang == "de" else number
    if isinstance(value, RecordValue):
        return ", ".join(
            _record_part(value, name, inner, lang)
            for name, inner in value
            if inner is not None
        )
    return f"„{value}“" if lang == "de" else f"“{value}”"


def join(items: Sequence[str], lang: Lang) -> str:
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    conj = " und " if lang == "de" else " and "
    return ", ".join(items[:-1]) + conj + items[-1]


def percent_points_format(value: float, lang: Lang) -> str:
    """A rate like 8.62 -> "8,62 %" / "8.62%" (an interest rate, not a score)."""
    text = f"{value:.2f}"
    return f"{text.replace('.', ',')} %" if lang == "de" else f"{text}%"


def _record_part(value: RecordValue, name: str, inner: Any, lang: Lang) -> str:
    """One field of a record in words: a choice by its label (never its key),
    a free text named by its field (Nr. VV RVG „2300“), anything else as is."""
    label = value.choice_label(name, lang)
    if label is not None:
        return label
    if isinstance(inner, str):
        field = type(value).field_labels.get(name)
        text = value_format(inner, lang)
        if field is None:
            return text
        return f"{field[0] if lang == 'de' else field[1]} {text}"
    return value_format(inner, lang)
