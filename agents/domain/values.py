"""Typed fact values: the JSON shapes a proposal carries, one per value kind,
and their validation (used by the ``value_valid_for_fact_type`` policy).

Shapes (also in the tool description the model sees):

- date:    ``{"date": "YYYY-MM-DD"}``
- amount:  ``{"cents": int > 0, "currency": "EUR"}`` (+ optional ``"label"``)
- party:   ``{"party": "<exact name or id of a party of the case>"}``
- text:    ``{"text": "..."}`` (some fact types restrict the text to a list)
- boolean: ``{"boolean": true|false}``
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

DELIVERY_EVIDENCE_VALUES: tuple[str, ...] = (
    "Einwurf-Einschreiben",
    "Übergabe-Einschreiben",
    "Rückschein",
    "Sendungsverfolgung",
    "Empfangsbestätigung",
    "Zustellung",
)
# Fact types whose text value must be one of a fixed list.
TEXT_CHOICES: Mapping[str, tuple[str, ...]] = {
    "delivery_evidence": DELIVERY_EVIDENCE_VALUES,
}
# Active ISO 4217 codes a German law firm meets; others are refused rather than
# guessed (an invented code is a likelier error than a rare currency).
CURRENCIES: frozenset[str] = frozenset(
    [
        "EUR",
        "USD",
        "GBP",
        "CHF",
        "JPY",
        "CNY",
        "SEK",
        "NOK",
        "DKK",
        "PLN",
        "CZK",
        "HUF",
        "RON",
        "BGN",
        "TRY",
        "CAD",
        "AUD",
        "NZD",
        "SGD",
        "HKD",
        "INR",
        "BRL",
        "MXN",
        "ZAR",
        "KRW",
        "ILS",
        "AED",
        "SAR",
    ]
)
MIN_DATE = dt.date(1900, 1, 1)
MAX_DATE = dt.date(2100, 12, 31)
MAX_CENTS = 10**13
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True)
class ValueProblem:
    message: str
    hint: str


def _keys(value: Mapping[str, Any], required: set[str], optional: set[str]) -> str:
    missing = required - set(value)
    extra = set(value) - required - optional
    if missing:
        return f"missing key(s): {sorted(missing)}"
    if extra:
        return f"unexpected key(s): {sorted(extra)}"
    return ""


def validate_value(
    *,
    fact_type: str,
    value_kind: str,
    value: Mapping[str, Any],
    party_names: Collection[str],
    party_ids: Collection[int],
) -> ValueProblem | None:
    """None if ``value`` is a valid value of ``fact_type``; the problem otherwise."""
    shapes = {
        "date": '{"date": "YYYY-MM-DD"}',
        "amount": '{"cents": 123456, "currency": "EUR"}',
        "party": '{"party": "<party name>"}',
        "text": '{"text": "..."}',
        "boolean": '{"boolean": true}',
    }
    hint = f"{fact_type} takes a {value_kind}: {shapes.get(value_kind, '?')}"
    if value_kind == "date":
        problem = _keys(value, {"date"}, set())
        if problem:
            return ValueProblem(problem, hint)
        raw = value["date"]
        if not isinstance(raw, str) or not _ISO_DATE.match(raw):
            return ValueProblem("date must be an ISO date string YYYY-MM-DD", hint)
        try:
            parsed = dt.date.fromisoformat(raw)
        except ValueError:
            return ValueProblem(f"{raw!r} is not a calendar date", hint)
        if not MIN_DATE <= parsed <= MAX_DATE:
            return ValueProblem(f"{raw} lies outside 1900–2100", hint)
        return None
    if value_kind == "amount":
        problem = _keys(value, {"cents", "currency"}, {"label"})
        if problem:
            return ValueProblem(problem, hint)
        cents, currency = value["cents"], value["currency"]
        if isinstance(cents, bool) or not isinstance(cents, int):
            return ValueProblem("cents must be an integer number of cents", hint)
        if not 0 < cents < MAX_CENTS:
            return ValueProblem("cents must be positive and plausible", hint)
        if not isinstance(currency, str) or currency not in CURRENCIES:
            return ValueProblem(f"unknown ISO 4217 currency {currency!r}", hint)
        label = value.get("label")
        if label is not None and (not isinstance(label, str) or len(label) > 200):
            return ValueProblem("label must be a short text", hint)
        return None
    if value_kind == "party":
        problem = _keys(value, {"party"}, set())
        if problem:
            return ValueProblem(problem, hint)
        raw = value["party"]
        names = sorted(party_names)
        party_hint = f"parties of this case: {names}"
        if isinstance(raw, int) and not isinstance(raw, bool):
            if raw in party_ids:
                return None
            return ValueProblem(
                f"party id {raw} is not a party of this case", party_hint
            )
        if isinstance(raw, str) and raw in party_names:
            return None
        return ValueProblem(f"{raw!r} is not a party of this case", party_hint)
    if value_kind == "text":
        problem = _keys(value, {"text"}, set())
        if problem:
            return ValueProblem(problem, hint)
        raw = value["text"]
        if not isinstance(raw, str) or not raw.strip() or len(raw) > 2000:
            return ValueProblem("text must be a non-empty string (≤ 2000)", hint)
        choices = TEXT_CHOICES.get(fact_type)
        if choices is not None and raw not in choices:
            return ValueProblem(
                f"{raw!r} is not one of the values of {fact_type}",
                f"one of: {list(choices)}",
            )
        return None
    if value_kind == "boolean":
        problem = _keys(value, {"boolean"}, set())
        if problem:
            return ValueProblem(problem, hint)
        if not isinstance(value["boolean"], bool):
            return ValueProblem("boolean must be true or false", hint)
        return None
    return ValueProblem(f"unknown value kind {value_kind!r}", hint)
