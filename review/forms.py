"""The reviewer's value editor, derived from the ontology's one value schema.

``FactValueForm`` builds its inputs from ``FactValueSchema.form_fields()``: a
text input for a date in the page's form (TT.MM.JJJJ on a German page, which a
browser's ``<input type=date>`` would show in the browser's locale instead),
an amount with a select of every ISO 4217 currency the schema knows, a select
of the declared choices for an enumeration, a party select, a checkbox, the
fields of a record kind in their order. The form only turns the inputs into
the JSON value; whether the value may be saved is decided by the schema
alone, in ``review.services.decisions.fact_value_check`` (the same check as
the agents' gate). So the editor never offers a value the gate would refuse,
nor refuses one it would take.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms

from cases.dates import (
    LocalDateInput,
    NotACalendarDay,
    date_shown,
    page_is_english,
    typed_date,
)
from ontology.domain.values import FactValueInvalid, FactValueSchema, FormField

_AMOUNT_PARTS = ("amount", "rate")
# the JSON key an input fills (the others fill the key of their own name)
_JSON_KEY = {"amount": "cents", "rate": "basis_points"}


def amount_to_cents(text: str, *, field: str = "amount") -> int:
    """'1.234,56' / '1234.56' / '1234' → 123456. Raises FactValueInvalid."""
    cleaned = text.strip().replace(" ", "").replace("\u00a0", "")
    if "," in cleaned:  # German: dots group thousands, the comma is decimal
        cleaned = cleaned.replace(".", "").replace(",", ".")
    try:
        amount = Decimal(cleaned)
    except InvalidOperation:
        raise FactValueInvalid(
            f"{text!r} is not a number",
            field=field,
            code="not_a_number",
            params={"value": text},
        ) from None
    hundredths = amount * 100
    if hundredths != hundredths.to_integral_value():
        raise FactValueInvalid(
            "at most two decimal places", field=field, code="too_many_decimals"
        )
    return int(hundredths)


def date_input_to_iso(text: str, *, field: str = "date") -> str:
    """A typed date (``cases.dates.typed_date``: TT.MM.JJJJ on German pages,
    MM/DD/YYYY on English ones, ISO on both) as the ISO text the value schema
    reads. A typed day that is no calendar day (31.02.2026) raises
    FactValueInvalid; any other text is passed on for the schema to refuse."""
    cleaned = text.strip()
    try:
        day = typed_date(cleaned)
    except NotACalendarDay:
        raise FactValueInvalid(
            f"{cleaned} is not a calendar date",
            field=field,
            code="date_not_calendar",
            params={"value": cleaned},
        ) from None
    return day.isoformat() if day is not None else cleaned


def date_for_input(iso: str) -> str:
    """A stored ISO date as the page's date input shows it."""
    return date_shown(iso)


def _number(text: str) -> Any:
    """'8,5' / '9' → 8.5 / 9; anything else stays text (the schema refuses)."""
    try:
        number = Decimal(text.replace(",", "."))
    except InvalidOperation:
        return text
    return int(number) if number == number.to_integral_value() else float(number)


def _hundredths_text(value: int) -> str:
    whole, rest = divmod(abs(value), 100)
    return f"{'-' if value < 0 else ''}{whole},{rest:02d}"


class FactValueForm(forms.Form):
    """The editor's inputs for one fact type. ``parties`` are the case's
    (pk, name) pairs for party inputs; ``value`` the stored value the inputs
    start from."""

    def __init__(
        self,
        data: Mapping[str, Any] | None = None,
        *,
        schema: FactValueSchema,
        parties: Sequence[tuple[int, str]] = (),
        value: Any = None,
    ) -> None:
        super().__init__(data=data, initial=self.initial_from(schema, value))
        self.schema = schema
        self.specs = schema.form_fields()
        for index, spec in enumerate(self.specs):
            self.fields[spec.name] = self._field(spec, parties, first=index == 0)

    @staticmethod
    def _field(
        spec: FormField, parties: Sequence[tuple[int, str]], *, first: bool
    ) -> forms.Field:
        attrs: dict[str, Any] = {"data-first-field": True} if first else {}
        english = page_is_english()
        label = spec.label_en if english else spec.label_de
        # Free text inputs only: what is valid is the schema's decision.
        if spec.kind == "boolean":
            return forms.BooleanField(
                label=label,
                required=False,
                widget=forms.CheckboxInput(attrs=attrs),
            )
        if spec.kind == "party":
            choices = [(name, name) for _, name in parties]
            return forms.CharField(
                label=label,
                required=False,
                widget=forms.Select(attrs=attrs, choices=choices),
            )
        if spec.choices:
            # the option's value is the stored key, its text the label
            choices = spec.options("en" if english else "de")
            if spec.optional:
                choices = [("", "–"), *choices]
            return forms.CharField(
                label=label,
                required=False,
                widget=forms.Select(attrs=attrs, choices=choices),
            )
        if spec.kind == "date":
            widget: forms.Widget = LocalDateInput(
                attrs={"data-date-input": True, **attrs}
            )
        elif spec.kind in (*_AMOUNT_PARTS, "count", "integer", "number"):
            widget = forms.TextInput(attrs={"inputmode": "decimal", **attrs})
        else:
            widget = forms.TextInput(attrs=attrs)
        return forms.CharField(label=label, required=False, strip=False, widget=widget)

    @staticmethod
    def initial_from(schema: FactValueSchema, value: Any) -> dict[str, Any]:
        """The inputs' initial values for a stored value."""
        if not isinstance(value, Mapping):
            return {}
        result: dict[str, Any] = {}
        for spec in schema.form_fields():
            source: Any = value.get(spec.path) if spec.path else value
            if schema.wrapper and not spec.path:
                source = value.get(schema.wrapper)
            if isinstance(source, Mapping):
                part = source.get(
                    {"amount": "cents", "rate": "basis_points"}.get(
                        spec.kind, spec.kind
                    )
                )
            else:
                part = (
                    source
                    if spec.kind
                    in ("date", "text", "party", "boolean", "integer", "number")
                    else None
                )
            if part is None:
                continue
            if spec.kind in _AMOUNT_PARTS and isinstance(part, int):
                part = _hundredths_text(part)
            if spec.kind == "date" and isinstance(part, str):
                part = date_for_input(part)
            result[spec.name] = part if spec.kind == "boolean" else str(part)
        return result

    def json_value(self) -> dict[str, Any]:
        """The inputs as the JSON value (not yet admitted: the service decides).
        Raises FactValueInvalid for an input that is no number at all."""
        raw = self.data
        parts: dict[str, dict[str, Any]] = {}
        flat: dict[str, Any] = {}
        for spec in self.specs:
            text = raw.get(spec.name, "")
            text = text.strip() if isinstance(text, str) else text
            target = parts.setdefault(spec.path, {}) if spec.path else flat
            key = _JSON_KEY.get(spec.kind, spec.kind)
            if spec.kind == "boolean":
                target[key] = text in ("on", "true", "1", "yes", True)
            elif spec.optional and text in ("", None):
                continue
            elif spec.kind in _AMOUNT_PARTS:
                target[key] = amount_to_cents(str(text), field=spec.name)
            elif spec.kind in ("count", "party", "integer"):
                target[key] = int(text) if str(text).isdigit() else text
            elif spec.kind == "number":
                target[key] = _number(str(text))
            elif spec.kind == "date":
                target[key] = date_input_to_iso(str(text), field=spec.name)
            else:
                target[key] = text
        if not self.schema.is_record:
            if self.schema.wrapper:
                return {self.schema.wrapper: flat.get(self.schema.wrapper, "")}
            return flat
        result: dict[str, Any] = {}
        for item in self.schema.fields:
            part = parts.get(item.key, {})
            if item.kind in ("amount", "rate", "period"):
                if item.optional and not {
                    "cents",
                    "basis_points",
                    "count",
                } & set(part):
                    continue
                result[item.key] = part
            elif item.kind in part:
                result[item.key] = part[item.kind]
            elif not item.optional:
                result[item.key] = ""
        return result
