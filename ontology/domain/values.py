"""The one fact-value schema: a typed Pydantic model per value kind.

Every path that takes a value in (the agents' gate, the reviewer's editor, the
review API, an asserted fact) calls ``FactValueSchema.admit``; the evaluator
reads stored values with ``FactValueSchema.read``. There is no other value
validation in Belegt.

Value kinds and their JSON shapes (stored proposals and facts keep these):

- date:    ``{"date": "YYYY-MM-DD"}``
- amount:  ``{"cents": 123456, "currency": "EUR"}`` (+ optional ``"label"``);
  the currency is one of ``CURRENCIES`` (ISO 4217)
- rate:    ``{"basis_points": 500, "reference": "base_rate"}`` (5 percentage
  points over the base rate, § 247 BGB) or ``"reference": "fixed"`` (5 %)
- period:  ``{"count": 14, "unit": "days", "from_event": "Zugang der Rechnung"}``
  (units days · weeks · months; ``from_event`` optional)
- party:   ``{"party": "<exact name or id of a party of the case>"}``
- boolean: ``{"boolean": true}``
- text:    ``{"text": "..."}``; a fact type (or a record field) that declares
  ``bc:choices`` in the vocabulary is an *enumeration*: its text must be one
  of the choices (e.g. delivery_evidence)
- record:  a value kind declared in the vocabulary with ``bc:fields``: a JSON
  object with one key per field, each holding the field kind's *inner* value
  (a date field ``"2026-04-01"``, an amount field ``{"cents", "currency"}``,
  a text field ``"..."``), e.g. a reminder
  ``{"date": "2026-04-01", "deadline": "2026-04-15", "dispatch": "Einschreiben"}``.

Two modes of one schema. *Admission* (``admit``) is what a new value must meet:
the shape plus the admission rules (currency in the list, amounts positive,
dates in 1900–2100, enumeration choices, the party is a party of the case).
*Reading* (``read``) checks the shape only, so a stored fact is never dropped
by a later, stricter rule; the evaluator decides what such a value means (a
delivery_evidence text that is no recognised kind proves nothing). Everything
admitted can be read.

The built-in kinds' shapes and admission rules are in ``value_kinds.py``; this
module builds a schema per fact type from them and re-exports them.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    create_model,
)

from ontology.domain.value_kinds import (
    CURRENCIES,
    EXAMPLES,
    MAX_BASIS_POINTS,
    MAX_CENTS,
    MAX_DATE,
    MAX_LABEL,
    MAX_PERIOD_COUNT,
    MAX_TEXT,
    MIN_DATE,
    PERIOD_UNITS,
    RATE_REFERENCES,
    SCALAR_KINDS,
    WRAPPED,
    Admission,
    Amount,
    CaseParties,
    FactValue,
    FactValueInvalid,
    Period,
    Rate,
    RecordValue,
    Shape,
    ValueRule,
    inner_type,
)

__all__ = [
    "CURRENCIES",
    "MAX_BASIS_POINTS",
    "MAX_CENTS",
    "MAX_DATE",
    "MAX_LABEL",
    "MAX_PERIOD_COUNT",
    "MAX_TEXT",
    "MIN_DATE",
    "PERIOD_UNITS",
    "RATE_REFERENCES",
    "SCALAR_KINDS",
    "Amount",
    "CaseParties",
    "FactValue",
    "FactValueInvalid",
    "FactValueSchema",
    "ChoiceLabel",
    "FieldSpec",
    "FormField",
    "Period",
    "Rate",
    "RecordValue",
    "ValueKindSpec",
    "value_kind_check",
    "value_schema",
    "value_shapes_description",
]


# ------------------------------------------------------------------ the specs
# one choice of an enumeration: (stored key, German label, English label)
ChoiceLabel = tuple[str, str, str]


def choice_words(labels: tuple[ChoiceLabel, ...]) -> dict[str, tuple[str, str]]:
    """The German and English label of each choice key."""
    return {key: (de, en) for key, de, en in labels}


class FieldSpec(BaseModel):
    """One typed field of a record kind, as the vocabulary declares it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    kind: str
    optional: bool = False
    choices: tuple[str, ...] = ()
    # (key, German label, English label) of each choice, in order
    choice_labels: tuple[ChoiceLabel, ...] = ()
    label_de: str = ""
    label_en: str = ""
    # the field an older one-field shape of the fact type becomes (e.g. a
    # payment_received stored as a bare amount reads as {"amount": ...})
    legacy: bool = False
    # the value this field takes when such an older shape is converted
    legacy_default: str | None = None
    # former enumeration values and the choices they now mean
    legacy_choices: tuple[tuple[str, str], ...] = ()


class ValueKindSpec(BaseModel):
    """A value kind of the vocabulary: a scalar kind (implemented here) or a
    record of typed scalar fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    fields: tuple[FieldSpec, ...] = ()
    label_de: str = ""
    label_en: str = ""

    @property
    def is_record(self) -> bool:
        return bool(self.fields)


def value_kind_check(spec: ValueKindSpec) -> None:
    """Raise ValueError unless the kind can be built: a scalar kind this module
    implements, or a record of known scalar kinds with distinct field keys."""
    if not spec.fields:
        if spec.key not in SCALAR_KINDS:
            raise ValueError(
                f"value kind {spec.key!r} is neither a built-in kind "
                f"{list(SCALAR_KINDS)} nor a record with bc:fields"
            )
        return
    if spec.key in SCALAR_KINDS:
        raise ValueError(f"the record kind {spec.key!r} shadows a built-in kind")
    keys = [f.key for f in spec.fields]
    if len(set(keys)) != len(keys):
        raise ValueError(f"value kind {spec.key!r} declares a field twice")
    if sum(f.legacy for f in spec.fields) > 1:
        raise ValueError(f"value kind {spec.key!r} declares two legacy fields")
    for item in spec.fields:
        if item.kind not in SCALAR_KINDS:
            raise ValueError(
                f"field {spec.key}.{item.key}: unknown or nested kind {item.kind!r}"
            )
        inner_type(item.kind, item.choices, item.legacy_choices)
        if item.legacy_default is not None and item.legacy:
            raise ValueError(
                f"field {spec.key}.{item.key}: a legacy default on the legacy field"
            )


# ----------------------------------------------------------------- the schema
@dataclass(frozen=True)
class FormField:
    """One input of the reviewer's editor, derived from the schema: ``name`` is
    the form field's name, ``kind`` the scalar kind, ``path`` where its value
    goes in the JSON value (empty for a top-level scalar)."""

    name: str
    kind: str
    path: str
    optional: bool
    choices: tuple[str, ...]
    label_de: str
    label_en: str
    # (key, German label, English label) of each choice (the option's text)
    choice_labels: tuple[ChoiceLabel, ...] = ()

    def options(self, lang: str) -> list[tuple[str, str]]:
        """The dropdown's options: (stored key, label in ``lang``); a choice
        without a label (currency, unit codes) shows its key."""
        words = choice_words(self.choice_labels)
        return [
            (c, words[c][0 if lang == "de" else 1] if c in words else c)
            for c in self.choices
        ]


class FactValueSchema:
    """The schema of one fact type's values (kind + choices, or record fields).
    Build it with ``value_schema``; instances are cached and immutable."""

    def __init__(
        self,
        kind: str,
        choices: tuple[str, ...],
        fields: tuple[FieldSpec, ...],
        choice_labels: tuple[ChoiceLabel, ...] = (),
    ) -> None:
        self.kind = kind
        self.choices = choices
        self.choice_labels = choice_labels
        self.fields = fields
        self.wrapper = "" if fields else WRAPPED.get(kind, "")
        self.adapter: TypeAdapter[Any] = TypeAdapter(self._build())
        # reading checks the shape only: a record's fields are all optional
        # there, so a value stored before a field became required still reads
        self.read_adapter: TypeAdapter[Any] = (
            TypeAdapter(self._build(lenient=True)) if fields else self.adapter
        )
        self.legacy_field = next((f for f in fields if f.legacy), None)

    @property
    def is_record(self) -> bool:
        return bool(self.fields)

    def _build(self, *, lenient: bool = False) -> Any:
        if self.fields:
            value_kind_check(ValueKindSpec(key=self.kind, fields=self.fields))
            definitions: dict[str, Any] = {}
            for item in self.fields:
                inner = inner_type(item.kind, item.choices, item.legacy_choices)
                definitions[item.key] = (
                    (inner | None, None) if item.optional or lenient else (inner, ...)
                )
            model = create_model(
                f"{self.kind}_value", __base__=RecordValue, **definitions
            )
            model.field_labels = {
                f.key: (f.label_de or f.key, f.label_en or f.key) for f in self.fields
            }
            model.choice_labels = {
                f.key: choice_words(f.choice_labels)
                for f in self.fields
                if f.choice_labels
            }
            return model
        inner = inner_type(self.kind, self.choices)
        if not self.wrapper:
            return inner  # amount, rate, period: objects already
        return create_model(  # type: ignore[call-overload]
            f"{self.kind}_value", __base__=Shape, **{self.wrapper: (inner, ...)}
        )

    # ------------------------------------------------------------ validating
    def _validate(self, raw: Any, admission: Admission | None) -> BaseModel:
        if not isinstance(raw, Mapping):
            raise FactValueInvalid(
                "the value must be a JSON object", hint=self.hint(), code="not_object"
            )
        context = {"admission": admission} if admission is not None else {}
        adapter = self.adapter if admission is not None else self.read_adapter
        try:
            model: BaseModel = adapter.validate_python(dict(raw), context=context)
        except ValidationError as exc:
            raise self._invalid(exc, admission) from None
        return model

    def admit(self, raw: Any, *, parties: CaseParties | None = None) -> dict[str, Any]:
        """The value in its canonical JSON shape if it may be saved (by the
        gate, an edit, the API); raises FactValueInvalid otherwise."""
        admission = Admission(parties=parties or CaseParties())
        try:
            model = self._validate(raw, admission)
        except FactValueInvalid:
            legacy = self._legacy_admit(raw, parties)
            if legacy is None:
                raise
            model = self._validate(legacy, admission)
        dumped: dict[str, Any] = model.model_dump(mode="json", exclude_none=True)
        return dumped

    def _legacy_admit(
        self, raw: Any, parties: CaseParties | None
    ) -> dict[str, Any] | None:
        """An older one-field shape of a record fact type as the record (the
        legacy field holds it, other fields take their legacy default), or
        None when ``raw`` is no such shape either."""
        item = self.legacy_field
        if item is None:
            return None
        if isinstance(raw, Mapping) and item.key in raw:
            return None  # the record shape itself: its own error stands
        schema = value_schema(item.kind)
        try:
            inner = schema.admit(raw, parties=parties)
        except FactValueInvalid:
            return None
        # a new value states every required field: no legacy default here
        return {item.key: inner[schema.wrapper] if schema.wrapper else inner}

    def _legacy_record(self, inner: Any) -> dict[str, Any]:
        """A stored older value as the record: the legacy field holds it, the
        others take their legacy default (what the old key meant)."""
        assert self.legacy_field is not None
        result: dict[str, Any] = {self.legacy_field.key: inner}
        for other in self.fields:
            if other.legacy_default is not None:
                result[other.key] = other.legacy_default
        return result

    def read(
        self, raw: Any, *, party_names_by_id: Mapping[int, str] | None = None
    ) -> FactValue:
        """The typed value of a stored value (shape only, no admission rules).
        Also takes the plain forms older records and tests use: the bare
        inner value ("2024-03-01", True) or ``{"value": ...}``."""
        if isinstance(raw, Amount | Rate | Period | RecordValue):
            return raw
        if self.legacy_field is not None:
            return self._read_record(raw, party_names_by_id)
        if self.wrapper:
            if isinstance(raw, Mapping) and len(raw) == 1:
                (only,) = raw
                # {"value": x}; text and party values were read interchangeably
                if only == "value" or (
                    self.wrapper in ("text", "party") and only in ("text", "party")
                ):
                    raw = raw[only]
            if not isinstance(raw, Mapping):
                raw = {self.wrapper: raw}
        model = self._validate(raw, None)
        if not self.wrapper:
            assert isinstance(model, Amount | Rate | Period | RecordValue)
            return model
        value = getattr(model, self.wrapper)
        if isinstance(value, int) and not isinstance(value, bool):  # a party id
            return (party_names_by_id or {}).get(value, str(value))
        assert isinstance(value, bool | dt.date | str | int | Decimal)
        return value

    def _read_record(
        self, raw: Any, party_names_by_id: Mapping[int, str] | None
    ) -> FactValue:
        """A record value, or an older one-field shape of it (see
        ``FieldSpec.legacy``): ``{"cents", "currency"}`` for an amount field,
        ``{"text": ...}`` or the bare inner value for the others."""
        item = self.legacy_field
        assert item is not None
        if isinstance(raw, Mapping) and set(raw) == {item.key}:
            return self._read_model(self._legacy_record(raw[item.key]))
        if isinstance(raw, Mapping) and item.key in raw:
            return self._read_model(raw)
        try:
            return self._read_model(raw)
        except FactValueInvalid as first:
            schema = value_schema(item.kind)
            try:
                inner = schema.read(raw, party_names_by_id=party_names_by_id)
            except FactValueInvalid:
                raise first from None
            return self._read_model(self._legacy_record(inner))

    def _read_model(self, raw: Any) -> RecordValue:
        model = self._validate(raw, None)
        assert isinstance(model, RecordValue)
        return model

    def _invalid(
        self, exc: ValidationError, admission: Admission | None
    ) -> FactValueInvalid:
        error = exc.errors()[0]
        loc = [str(p) for p in error["loc"]]
        where = ".".join(loc) or "value"
        kind = error["type"]
        params: dict[str, Any] = {"where": where}
        rule = (error.get("ctx") or {}).get("error")
        if kind == "missing":
            code, message = "missing_key", f"missing key {where!r}"
        elif kind == "extra_forbidden":
            code, message = "unexpected_key", f"unexpected key {where!r}"
        elif isinstance(rule, ValueRule):
            code, message = rule.code, str(rule)
            params.update(rule.params)
        else:
            message = str(error["msg"]).removeprefix("Value error, ")
            code = "wrong_type"
            if kind == "literal_error":
                code = "not_a_choice"
                params["choices"] = _literal_choices(error)
            if not kind.startswith("value_error"):
                message = f"{where}: {message}"
        hint: Any = self.hint()
        top = loc[0] if loc else ""
        field_kind, choices = self.kind, self.choices
        for item in self.fields:
            if item.key == top:
                field_kind, choices = item.kind, item.choices
        if field_kind == "party" and admission is not None:
            hint = f"parties of this case: {sorted(admission.parties.names)}"
        elif choices and kind.startswith("value_error"):
            hint = f"one of: {list(choices)}"
        return FactValueInvalid(
            message, field=top or "value", hint=hint, code=code, params=params
        )

    # --------------------------------------------------------- documentation
    def example(self) -> dict[str, Any]:
        """A valid-looking JSON value (the shape the model and the API see)."""
        if self.fields:
            result: dict[str, Any] = {}
            for item in self.fields:
                result[item.key] = (
                    item.choices[0] if item.choices else EXAMPLES[item.kind]
                )
            return result
        inner: Any = self.choices[0] if self.choices else EXAMPLES[self.kind]
        return {self.wrapper: inner} if self.wrapper else dict(inner)

    def hint(self) -> str:
        """The shape in one line, for a refusal's hint."""
        text = f"{self.kind}: {json.dumps(self.example(), ensure_ascii=False)}"
        optional = [f.key for f in self.fields if f.optional]
        if self.kind == "amount":
            optional = ["label"]
        if self.kind == "period":
            optional = ["from_event"]
        if optional:
            text += f" (optional: {', '.join(optional)})"
        choices = [
            f"{f.key} one of {list(f.choices)}" for f in self.fields if f.choices
        ]
        if self.choices:
            choices.append(f"text one of {list(self.choices)}")
        if choices:
            text += "; " + "; ".join(choices)
        return text

    def json_schema(self) -> dict[str, Any]:
        """The JSON Schema of the value (for the API documentation)."""
        return self.adapter.json_schema()

    # ---------------------------------------------------------------- editor
    def form_fields(self) -> tuple[FormField, ...]:
        """The editor's inputs, in order. A top-level scalar uses the kind's
        own names (``date``; ``amount``/``currency``/``label``; ``text`` ...);
        a record prefixes each field's inputs with its key (``deadline``,
        ``fee__amount``, ``fee__currency``)."""
        if self.fields:
            result: list[FormField] = []
            for item in self.fields:
                result += _scalar_inputs(
                    item.kind,
                    prefix=item.key,
                    optional=item.optional,
                    choices=item.choices,
                    choice_labels=item.choice_labels,
                    label_de=item.label_de or item.key,
                    label_en=item.label_en or item.key,
                )
            return tuple(result)
        return tuple(
            _scalar_inputs(
                self.kind,
                prefix="",
                optional=False,
                choices=self.choices,
                choice_labels=self.choice_labels,
            )
        )

    # --------------------------------------------------------------- display
    def display(
        self, raw: Any, *, party_names_by_id: Mapping[int, str] | None = None
    ) -> str:
        """A short German rendering for lists (31.12.2026, 1.234,56 EUR, ja).
        A value that does not read falls back to its JSON text."""
        try:
            value = self.read(raw, party_names_by_id=party_names_by_id)
        except FactValueInvalid:
            return str(dict(raw)) if isinstance(raw, Mapping) else str(raw)
        if isinstance(value, RecordValue):
            parts = []
            for item in self.fields:
                inner = getattr(value, item.key)
                if inner is not None:
                    shown = value.choice_label(item.key, "de") or _display(inner)
                    parts.append(f"{item.label_de or item.key}: {shown}")
            return "; ".join(parts)
        words = choice_words(self.choice_labels)
        if isinstance(value, str) and value in words:
            return words[value][0]
        return _display(value)


def _literal_choices(error: Any) -> list[str]:
    """The allowed values of a Literal field (``'days', 'weeks' or 'months'``)."""
    expected = str((error.get("ctx") or {}).get("expected", ""))
    return [
        part.strip(" '")
        for part in expected.replace(" or ", ",").split(",")
        if part.strip(" '")
    ]


def _display(value: Any) -> str:
    if isinstance(value, bool):
        return "ja" if value else "nein"
    if isinstance(value, dt.date):
        return value.strftime("%d.%m.%Y")
    if isinstance(value, Amount):
        whole, rest = divmod(abs(value.cents), 100)
        sign = "-" if value.cents < 0 else ""
        text = f"{sign}{whole:,}".replace(",", ".") + f",{rest:02d} {value.currency}"
        return f"{text} ({value.label})" if value.label else text
    if isinstance(value, Rate):
        number = f"{value.basis_points / 100:.2f}".replace(".", ",")
        if value.reference == "base_rate":
            return f"{number} Prozentpunkte über dem Basiszinssatz"
        return f"{number} %"
    if isinstance(value, Period):
        units = {"days": "Tage", "weeks": "Wochen", "months": "Monate"}
        text = f"{value.count} {units[value.unit]}"
        return f"{text} ab {value.from_event}" if value.from_event else text
    if isinstance(value, Decimal):
        return f"{value.normalize():f}".replace(".", ",")
    return str(value)


def _scalar_inputs(
    kind: str,
    *,
    prefix: str,
    optional: bool,
    choices: tuple[str, ...],
    choice_labels: tuple[ChoiceLabel, ...] = (),
    label_de: str = "",
    label_en: str = "",
) -> list[FormField]:
    def name(own: str) -> str:
        if not prefix:
            return own
        return (
            prefix
            if own == kind or own in ("text", "party", "integer", "number")
            else f"{prefix}__{own}"
        )

    # (input, German label, English label, choices); the first is the main one
    parts: dict[str, list[tuple[str, str, str, tuple[str, ...]]]] = {
        "date": [("date", "Datum", "Date", ())],
        "amount": [
            ("amount", "Betrag", "Amount", ()),
            ("currency", "Währung", "Currency", CURRENCIES),
            ("label", "Bezeichnung", "Label", ()),
        ],
        "rate": [
            ("rate", "Zinssatz (%)", "Rate (%)", ()),
            ("reference", "Bezug", "Reference", RATE_REFERENCES),
        ],
        "period": [
            ("count", "Anzahl", "Number", ()),
            ("unit", "Einheit", "Unit", PERIOD_UNITS),
            ("from_event", "ab Ereignis", "from event", ()),
        ],
        "party": [("party", "Partei", "Party", ())],
        "boolean": [("boolean", "ja", "yes", ())],
        "text": [("text", "Text", "Text", choices)],
        "integer": [("integer", "Anzahl", "Number", ())],
        "number": [("number", "Zahl", "Number", ())],
    }
    result = []
    for index, (part, de, en, part_choices) in enumerate(parts[kind]):
        main = index == 0
        result.append(
            FormField(
                name=name(part),
                kind=part,
                path=prefix,
                optional=optional or part in ("label", "from_event"),
                choices=part_choices,
                choice_labels=choice_labels if part == "text" else (),
                label_de=label_de if main and label_de else de,
                label_en=label_en if main and label_en else en,
            )
        )
    return result


@lru_cache(maxsize=512)
def value_schema(
    kind: str,
    choices: tuple[str, ...] = (),
    fields: tuple[FieldSpec, ...] = (),
    choice_labels: tuple[ChoiceLabel, ...] = (),
) -> FactValueSchema:
    """The (cached) schema of a value kind with its fact type's choices (and
    their labels) or its record fields. Raises ValueError for an unknown kind."""
    return FactValueSchema(kind, choices, fields, choice_labels)


def value_shapes_description() -> str:
    """The JSON shape of every built-in kind, for the tool description."""
    parts = []
    for kind in SCALAR_KINDS:
        schema = value_schema(kind)
        shape = json.dumps(schema.example(), ensure_ascii=False)
        extra = {
            "amount": ' (optional "label"; currency ISO 4217, e.g. EUR, USD, CHF)',
            "rate": ' (reference "fixed" = percent, "base_rate" = points over '
            "the base rate)",
            "period": ' (unit days|weeks|months; "from_event" optional)',
            "party": " (exact party name or id)",
            "integer": " (a whole number >= 0)",
        }.get(kind, "")
        parts.append(f"{kind} -> {shape}{extra}")
    return (
        "Typed value for the fact type's value kind: "
        + "; ".join(parts)
        + ". A record kind takes one key per field with that field's inner value "
        '(a date field "YYYY-MM-DD", an amount field {"cents", "currency"}); an '
        "enumeration takes one of its listed values."
    )
