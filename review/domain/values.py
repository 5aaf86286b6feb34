"""Typed fact values: validation, the reviewer's editor and display.

The JSON shapes are the ones the agents' gate accepts (``agents/domain/values.py``,
which ``review`` may not import: dependencies run agents → review):

- date:    ``{"date": "YYYY-MM-DD"}``
- amount:  ``{"cents": int > 0, "currency": "EUR"}`` (+ optional ``"label"``)
- party:   ``{"party": "<exact name or id of a party of the case>"}``
- text:    ``{"text": "..."}`` (some fact types restrict the text to a list)
- boolean: ``{"boolean": true|false}``

A reviewer's edit goes through the same rules as an agent's proposal, so an
edited value is never less valid than a proposed one.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

DELIVERY_EVIDENCE_VALUES: tuple[str, ...] = (
    "Einwurf-Einschreiben",
    "Übergabe-Einschreiben",
    "Rückschein",
    "Sendungsverfolgung",
    "Empfangsbestätigung",
    "Zustellung",
)
TEXT_CHOICES: Mapping[str, tuple[str, ...]] = {
    "delivery_evidence": DELIVERY_EVIDENCE_VALUES,
}
CURRENCY_RE = re.compile(r"^[A-Z]{3}$")
MIN_DATE = dt.date(1900, 1, 1)
MAX_DATE = dt.date(2100, 12, 31)
MAX_CENTS = 10**13
MAX_TEXT = 2000
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class ValueInvalid(ValueError):
    """A value does not fit its fact type's value kind."""

    def __init__(self, message: str, *, field: str = "value") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def _exact_keys(
    value: Mapping[str, Any], required: set[str], optional: set[str]
) -> None:
    missing = required - set(value)
    extra = set(value) - required - optional
    if missing:
        raise ValueInvalid(f"missing key(s): {sorted(missing)}")
    if extra:
        raise ValueInvalid(f"unexpected key(s): {sorted(extra)}")


def value_validate(
    *,
    fact_type: str,
    value_kind: str,
    value: Any,
    party_names: Collection[str] = (),
    party_ids: Collection[int] = (),
) -> dict[str, Any]:
    """The value in its canonical shape; raises ValueInvalid."""
    if not isinstance(value, Mapping):
        raise ValueInvalid("the value must be a JSON object")
    if value_kind == "date":
        _exact_keys(value, {"date"}, set())
        raw = value["date"]
        if not isinstance(raw, str) or not _ISO_DATE.match(raw):
            raise ValueInvalid("date must be an ISO date YYYY-MM-DD", field="date")
        try:
            parsed = dt.date.fromisoformat(raw)
        except ValueError:
            raise ValueInvalid(f"{raw} is not a calendar date", field="date") from None
        if not MIN_DATE <= parsed <= MAX_DATE:
            raise ValueInvalid(f"{raw} lies outside 1900–2100", field="date")
        return {"date": raw}
    if value_kind == "amount":
        _exact_keys(value, {"cents", "currency"}, {"label"})
        cents, currency = value["cents"], value["currency"]
        if isinstance(cents, bool) or not isinstance(cents, int):
            raise ValueInvalid("cents must be an integer", field="cents")
        if not 0 < cents < MAX_CENTS:
            raise ValueInvalid("the amount must be positive", field="cents")
        if not isinstance(currency, str) or not CURRENCY_RE.match(currency):
            raise ValueInvalid("currency must be an ISO 4217 code", field="currency")
        result: dict[str, Any] = {"cents": cents, "currency": currency}
        label = value.get("label")
        if label:
            if not isinstance(label, str) or len(label) > 200:
                raise ValueInvalid("label must be a short text", field="label")
            result["label"] = label
        return result
    if value_kind == "party":
        _exact_keys(value, {"party"}, set())
        raw = value["party"]
        if isinstance(raw, int) and not isinstance(raw, bool) and raw in party_ids:
            return {"party": raw}
        if isinstance(raw, str) and raw in party_names:
            return {"party": raw}
        raise ValueInvalid(f"{raw!r} is not a party of this case", field="party")
    if value_kind == "text":
        _exact_keys(value, {"text"}, set())
        raw = value["text"]
        if not isinstance(raw, str) or not raw.strip() or len(raw) > MAX_TEXT:
            raise ValueInvalid("text must not be empty (≤ 2000)", field="text")
        choices = TEXT_CHOICES.get(fact_type)
        if choices is not None and raw.strip() not in choices:
            raise ValueInvalid(
                f"{raw!r} is not one of: {', '.join(choices)}", field="text"
            )
        return {"text": raw.strip()}
    if value_kind == "boolean":
        _exact_keys(value, {"boolean"}, set())
        if not isinstance(value["boolean"], bool):
            raise ValueInvalid("boolean must be true or false", field="boolean")
        return {"boolean": value["boolean"]}
    raise ValueInvalid(f"unknown value kind {value_kind!r}")


def amount_to_cents(text: str) -> int:
    """'1.234,56' / '1234.56' / '1234' → cents. Raises ValueInvalid."""
    cleaned = text.strip().replace(" ", "").replace("\u00a0", "")
    if "," in cleaned:  # German: dots group thousands, the comma is decimal
        cleaned = cleaned.replace(".", "").replace(",", ".")
    try:
        amount = Decimal(cleaned)
    except InvalidOperation:
        raise ValueInvalid(f"{text!r} is not an amount", field="amount") from None
    cents = amount * 100
    if cents != cents.to_integral_value():
        raise ValueInvalid("at most two decimal places", field="amount")
    return int(cents)


def value_from_form(*, value_kind: str, data: Mapping[str, str]) -> dict[str, Any]:
    """The typed editor's fields (strings from a form) → the JSON shape. The
    result still has to pass ``value_validate``."""
    if value_kind == "date":
        return {"date": data.get("date", "").strip()}
    if value_kind == "amount":
        result: dict[str, Any] = {
            "cents": amount_to_cents(data.get("amount", "")),
            "currency": data.get("currency", "EUR").strip().upper(),
        }
        if data.get("label", "").strip():
            result["label"] = data["label"].strip()
        return result
    if value_kind == "party":
        raw = data.get("party", "").strip()
        return {"party": int(raw) if raw.isdigit() else raw}
    if value_kind == "boolean":
        return {"boolean": data.get("boolean", "") in ("on", "true", "1", "yes")}
    return {"text": data.get("text", "")}


def value_display(
    *, value_kind: str, value: Any, party_names_by_id: Mapping[int, str] | None = None
) -> str:
    """A short German-style rendering for lists (dates 31.12.2026, amounts
    1.234,56 EUR). Unknown shapes fall back to their JSON text."""
    if not isinstance(value, Mapping):
        return str(value)
    try:
        if value_kind == "date":
            return dt.date.fromisoformat(str(value["date"])).strftime("%d.%m.%Y")
        if value_kind == "amount":
            cents = int(value["cents"])
            whole, rest = divmod(abs(cents), 100)
            grouped = f"{whole:,}".replace(",", ".")
            sign = "-" if cents < 0 else ""
            text = f"{sign}{grouped},{rest:02d} {value['currency']}"
            return f"{text} ({value['label']})" if value.get("label") else text
        if value_kind == "party":
            raw = value["party"]
            if isinstance(raw, int) and party_names_by_id:
                return party_names_by_id.get(raw, str(raw))
            return str(raw)
        if value_kind == "boolean":
            return "ja" if value["boolean"] else "nein"
        if value_kind == "text":
            return str(value["text"])
    except (KeyError, ValueError, TypeError):
        pass
    return str(dict(value))


def value_form_initial(*, value_kind: str, value: Any) -> dict[str, str]:
    """The typed editor's initial field values for a stored value."""
    if not isinstance(value, Mapping):
        return {}
    if value_kind == "amount" and isinstance(value.get("cents"), int):
        whole, rest = divmod(value["cents"], 100)
        return {
            "amount": f"{whole},{rest:02d}",
            "currency": str(value.get("currency", "EUR")),
            "label": str(value.get("label", "")),
        }
    if value_kind == "boolean":
        return {"boolean": "on" if value.get("boolean") else ""}
    key = {"date": "date", "party": "party"}.get(value_kind, "text")
    return {key: str(value.get(key, ""))}
