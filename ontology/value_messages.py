"""Why a value was refused, in the page's language.

The one value schema (``ontology.domain.values``) raises ``FactValueInvalid``
with an English ``message`` (what the agents' model and the logs get) and a
stable ``code`` with ``params``. Pages and the API say it with
``value_invalid_text``: German by default, English under ``/en/``. A code this
module does not know falls back to the English message, so nothing is lost.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import get_language, gettext

from ontology.domain.values import FactValueInvalid, FactValueSchema

Params = Mapping[str, Any]


def _n(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return str(number_format(value, use_l10n=True, force_grouping=True))
    return str(value)


def _date(value: Any) -> str:
    """An ISO date as the page writes dates (30.04.2026 / 2026-04-30)."""
    text = str(value)
    english = (get_language() or "de").startswith("en")
    if english or len(text) != 10 or text[4] != "-":
        return text
    return f"{text[8:10]}.{text[5:7]}.{text[0:4]}"


def _choices(params: Params) -> str:
    return ", ".join(f"„{c}“" for c in params.get("choices", ()))


MESSAGES: dict[str, Callable[[Params], str]] = {
    "not_object": lambda p: gettext("The value must be a JSON object."),
    "missing_key": lambda p: gettext("Missing entry %(key)s.") % {"key": p["where"]},
    "unexpected_key": lambda p: (
        gettext("Unexpected entry %(key)s.") % {"key": p["where"]}
    ),
    "wrong_type": lambda p: gettext("This entry has the wrong type."),
    "date_format": lambda p: gettext("Enter the date as YYYY-MM-DD or MM/DD/YYYY."),
    "date_not_calendar": lambda p: (
        gettext("%(value)s is not a calendar date.") % {"value": p["value"]}
    ),
    "date_out_of_range": lambda p: (
        gettext("%(value)s lies outside the years 1900–2100.")
        % {"value": _date(p["value"])}
    ),
    "text_empty": lambda p: gettext("The text must not be empty."),
    "text_too_long": lambda p: (
        gettext("The text is longer than %(max)s characters.") % {"max": _n(p["max"])}
    ),
    "label_too_long": lambda p: (
        gettext("The label is longer than %(max)s characters.") % {"max": _n(p["max"])}
    ),
    "not_a_choice": lambda p: (
        gettext("Choose one of: %(choices)s.") % {"choices": _choices(p)}
    ),
    "party_unknown": lambda p: (
        gettext("%(value)s is not a party of this case.") % {"value": p["value"]}
    ),
    "currency_format": lambda p: gettext(
        "The currency must be an ISO 4217 code such as EUR."
    ),
    "currency_unknown": lambda p: (
        gettext("%(value)s is not an ISO 4217 currency.") % {"value": p["value"]}
    ),
    "amount_out_of_range": lambda p: gettext(
        "The amount must be positive and plausible."
    ),
    "rate_out_of_range": lambda p: gettext(
        "The interest rate must lie between 0 and 1,000 %."
    ),
    "period_out_of_range": lambda p: gettext("The period must be a positive number."),
    "integer_out_of_range": lambda p: (
        gettext("The number must be a whole number from 0 to %(high)s.")
        % {"high": _n(p["high"])}
    ),
    "number_out_of_range": lambda p: (
        gettext("The number must lie between 0 and %(high)s.") % {"high": _n(p["high"])}
    ),
    "not_a_number": lambda p: (
        gettext("%(value)s is not a number.") % {"value": p["value"]}
        if p.get("value")
        else gettext("This entry must be a number.")
    ),
    "too_many_decimals": lambda p: gettext("At most two decimal places."),
    "unknown_kind": lambda p: (
        gettext("The ontology has no value kind %(kind)s.") % {"kind": p["kind"]}
    ),
}


def field_labels(schema: FactValueSchema | None) -> dict[str, str]:
    """The editor's labels of a schema's inputs and record fields, by the key a
    refusal names, in the page's language."""
    if schema is None:
        return {}
    english = (get_language() or "de").startswith("en")
    labels: dict[str, str] = {}
    for spec in schema.form_fields():
        label = spec.label_en if english else spec.label_de
        labels.setdefault(spec.name, label)
        if spec.path:
            labels.setdefault(spec.path, label)
    for item in schema.fields:
        label = (item.label_en if english else item.label_de) or item.key
        labels[item.key] = label
    return labels


def value_invalid_text(
    *,
    code: str,
    params: Params | None = None,
    message: str = "",
    field: str = "value",
    labels: Mapping[str, str] | None = None,
) -> str:
    """The refusal in the active language, led by the field's label when the
    value has more than one input (``Frist: 31.02.2026 ist kein Kalenderdatum.``).
    An unknown code shows ``message`` unchanged."""
    render = MESSAGES.get(code)
    if render is None:
        return message
    try:
        text = render(params or {})
    except (KeyError, TypeError, ValueError):
        return message
    label = (labels or {}).get(field)
    if label and len(labels or {}) > 1:
        return f"{label}: {text}"
    return text


def fact_value_invalid_text(
    exc: FactValueInvalid, *, schema: FactValueSchema | None = None
) -> str:
    """``value_invalid_text`` for a raised refusal."""
    return value_invalid_text(
        code=exc.code,
        params=exc.params,
        message=exc.message,
        field=exc.field,
        labels=field_labels(schema),
    )
