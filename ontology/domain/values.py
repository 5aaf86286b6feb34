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
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    create_model,
)

# ISO 4217 codes of money in circulation (no precious metals, funds or test
# codes), plus a few withdrawn since 2023 that claims may still be in (HRK,
# BGN, SLL, ZWL, ANG). One list: the gate, the editor's select and the API.
CURRENCIES: tuple[str, ...] = tuple(
    sorted(
        """
        AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND
        BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF
        DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD
        HNL HRK HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW
        KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU
        MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR
        PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD
        SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU
        UZS VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG ZWL
        """.split()  # noqa: SIM905 - a list of 160 codes reads better as text
    )
)
_CURRENCY_SET = frozenset(CURRENCIES)
MIN_DATE = dt.date(1900, 1, 1)
MAX_DATE = dt.date(2100, 12, 31)
MAX_CENTS = 10**13
MAX_TEXT = 2000
MAX_LABEL = 200
MAX_BASIS_POINTS = 100_000  # 1,000 %
MAX_PERIOD_COUNT = 3660
RATE_REFERENCES = ("fixed", "base_rate")
PERIOD_UNITS = ("days", "weeks", "months")
SCALAR_KINDS: tuple[str, ...] = (
    "date",
    "amount",
    "rate",
    "period",
    "party",
    "boolean",
    "text",
)
# Scalar kinds whose inner value is a JSON primitive: at the top level it is
# wrapped in an object under the kind's name ({"date": ...}); the others are
# objects already.
_WRAPPED = {"date": "date", "party": "party", "boolean": "boolean", "text": "text"}
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_CURRENCY_SHAPE = re.compile(r"^[A-Z]{3}$")


class FactValueInvalid(ValueError):
    """A value does not fit its fact type's value schema. ``field`` names the
    offending key (``date``, ``currency``, ``deadline`` ...), ``hint`` what
    would fit."""

    def __init__(self, message: str, *, field: str = "value", hint: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.hint = hint


@dataclass(frozen=True)
class CaseParties:
    """The parties a party value may name: names and ids of the case's parties."""

    names: frozenset[str] = frozenset()
    ids: frozenset[int] = frozenset()

    @classmethod
    def of(cls, rows: Collection[tuple[int, str]]) -> CaseParties:
        return cls(
            names=frozenset(n for _, n in rows), ids=frozenset(p for p, _ in rows)
        )


@dataclass(frozen=True)
class _Admission:
    parties: CaseParties = field(default_factory=CaseParties)


def _admission(info: ValidationInfo) -> _Admission | None:
    context = info.context
    if isinstance(context, dict):
        found = context.get("admission")
        if isinstance(found, _Admission):
            return found
    return None


# ---------------------------------------------------------------- inner types
def _iso_date(raw: Any) -> Any:
    if isinstance(raw, dt.date) and not isinstance(raw, dt.datetime):
        return raw
    if not isinstance(raw, str) or not _ISO_DATE.match(raw.strip()):
        raise ValueError("a date must be an ISO date YYYY-MM-DD")
    try:
        return dt.date.fromisoformat(raw.strip())
    except ValueError:
        raise ValueError(f"{raw} is not a calendar date") from None


def _date_admitted(value: dt.date, info: ValidationInfo) -> dt.date:
    if _admission(info) is not None and not MIN_DATE <= value <= MAX_DATE:
        raise ValueError(f"{value.isoformat()} lies outside 1900–2100")
    return value


def _text(value: str, info: ValidationInfo) -> str:
    cleaned = value.strip()
    if not cleaned:
        raise ValueError("the text must not be empty")
    if _admission(info) is not None and len(cleaned) > MAX_TEXT:
        raise ValueError(f"the text is longer than {MAX_TEXT} characters")
    return cleaned


def _choices_check(choices: tuple[str, ...]) -> Callable[[str, ValidationInfo], str]:
    def check(value: str, info: ValidationInfo) -> str:
        if _admission(info) is not None and value not in choices:
            raise ValueError(f"{value!r} is not one of: {', '.join(choices)}")
        return value

    return check


def _party(value: str | int, info: ValidationInfo) -> str | int:
    admission = _admission(info)
    if admission is None:
        return value
    if isinstance(value, int):
        if value in admission.parties.ids:
            return value
        raise ValueError(f"party id {value} is not a party of this case")
    if value in admission.parties.names:
        return value
    raise ValueError(f"{value!r} is not a party of this case")


IsoDate = Annotated[
    dt.date,
    BeforeValidator(_iso_date),
    AfterValidator(_date_admitted),
    Field(json_schema_extra={"format": "date", "example": "2026-04-30"}),
]
Text = Annotated[str, AfterValidator(_text)]
PartyRef = Annotated[str | int, AfterValidator(_party)]


class _Shape(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


def _currency_shape(value: str, info: ValidationInfo) -> str:
    if not _CURRENCY_SHAPE.match(value):
        raise ValueError("the currency must be an ISO 4217 code such as EUR")
    if _admission(info) is not None and value not in _CURRENCY_SET:
        raise ValueError(f"unknown ISO 4217 currency {value!r}")
    return value


def _bounded(low: int, high: int, message: str) -> AfterValidator:
    def check(value: int, info: ValidationInfo) -> int:
        if _admission(info) is not None and not low <= value <= high:
            raise ValueError(message)
        return value

    return AfterValidator(check)


def _short(value: str | None, info: ValidationInfo) -> str | None:
    if value is not None and not value.strip():
        return None  # an empty label is no label
    if value is not None and _admission(info) is not None and len(value) > MAX_LABEL:
        raise ValueError("must be a short text")
    return value.strip() if value is not None else None


ShortText = Annotated[str | None, AfterValidator(_short)]


class Amount(_Shape):
    """A sum of money in the smallest unit (cents) and an ISO 4217 currency."""

    cents: Annotated[
        int, _bounded(1, MAX_CENTS - 1, "the amount must be positive and plausible")
    ]
    currency: Annotated[str, AfterValidator(_currency_shape)]
    label: ShortText = None


class Rate(_Shape):
    """An interest rate in basis points (1/100 of a percent): fixed, or
    percentage points over the base rate (Basiszinssatz, § 247 BGB)."""

    basis_points: Annotated[
        int, _bounded(0, MAX_BASIS_POINTS, "the rate must lie between 0 and 1,000 %")
    ]
    reference: Literal["fixed", "base_rate"]


class Period(_Shape):
    """A period of days, weeks or months, optionally running from an event
    ("14 Tage nach Zugang der Rechnung")."""

    count: Annotated[
        int, _bounded(1, MAX_PERIOD_COUNT, "the period must be a positive number")
    ]
    unit: Literal["days", "weeks", "months"]
    from_event: ShortText = None


class RecordValue(_Shape):
    """Base of the record kinds generated from the vocabulary (``bc:fields``)."""


FactValue = dt.date | Amount | Rate | Period | RecordValue | bool | str


def _inner_type(kind: str, choices: tuple[str, ...]) -> Any:
    """The Python/Pydantic type of a kind's inner value."""
    if choices and kind != "text":
        raise ValueError(f"choices are declared on a {kind} value; only text has any")
    if kind == "date":
        return IsoDate
    if kind == "amount":
        return Amount
    if kind == "rate":
        return Rate
    if kind == "period":
        return Period
    if kind == "party":
        return PartyRef
    if kind == "boolean":
        return bool
    if kind == "text":
        if choices:
            return Annotated[
                str,
                AfterValidator(_text),
                AfterValidator(_choices_check(choices)),
                Field(json_schema_extra={"enum": list(choices)}),
            ]
        return Text
    raise ValueError(f"unknown value kind {kind!r}")


_EXAMPLES: Mapping[str, Any] = {
    "date": "YYYY-MM-DD",
    "amount": {"cents": 123456, "currency": "EUR"},
    "rate": {"basis_points": 500, "reference": "base_rate"},
    "period": {"count": 14, "unit": "days", "from_event": "Zugang der Rechnung"},
    "party": "<exact party name>",
    "boolean": True,
    "text": "...",
}


# ------------------------------------------------------------------ the specs
class FieldSpec(BaseModel):
    """One typed field of a record kind, as the vocabulary declares it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    kind: str
    optional: bool = False
    choices: tuple[str, ...] = ()
    label_de: str = ""
    label_en: str = ""


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
    for item in spec.fields:
        if item.kind not in SCALAR_KINDS:
            raise ValueError(
                f"field {spec.key}.{item.key}: unknown or nested kind {item.kind!r}"
            )
        _inner_type(item.kind, item.choices)


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


class FactValueSchema:
    """The schema of one fact type's values (kind + choices, or record fields).
    Build it with ``value_schema``; instances are cached and immutable."""

    def __init__(
        self, kind: str, choices: tuple[str, ...], fields: tuple[FieldSpec, ...]
    ) -> None:
        self.kind = kind
        self.choices = choices
        self.fields = fields
        self.wrapper = "" if fields else _WRAPPED.get(kind, "")
        self.adapter: TypeAdapter[Any] = TypeAdapter(self._build())

    @property
    def is_record(self) -> bool:
        return bool(self.fields)

    def _build(self) -> Any:
        if self.fields:
            value_kind_check(ValueKindSpec(key=self.kind, fields=self.fields))
            definitions: dict[str, Any] = {}
            for item in self.fields:
                inner = _inner_type(item.kind, item.choices)
                definitions[item.key] = (
                    (inner | None, None) if item.optional else (inner, ...)
                )
            return create_model(
                f"{self.kind}_value", __base__=RecordValue, **definitions
            )
        inner = _inner_type(self.kind, self.choices)
        if not self.wrapper:
            return inner  # amount, rate, period: objects already
        return create_model(  # type: ignore[call-overload]
            f"{self.kind}_value", __base__=_Shape, **{self.wrapper: (inner, ...)}
        )

    # ------------------------------------------------------------ validating
    def _validate(self, raw: Any, admission: _Admission | None) -> BaseModel:
        if not isinstance(raw, Mapping):
            raise FactValueInvalid("the value must be a JSON object", hint=self.hint())
        context = {"admission": admission} if admission is not None else {}
        try:
            model: BaseModel = self.adapter.validate_python(dict(raw), context=context)
        except ValidationError as exc:
            raise self._invalid(exc, admission) from None
        return model

    def admit(self, raw: Any, *, parties: CaseParties | None = None) -> dict[str, Any]:
        """The value in its canonical JSON shape if it may be saved (by the
        gate, an edit, the API); raises FactValueInvalid otherwise."""
        model = self._validate(raw, _Admission(parties=parties or CaseParties()))
        dumped: dict[str, Any] = model.model_dump(mode="json", exclude_none=True)
        return dumped

    def read(
        self, raw: Any, *, party_names_by_id: Mapping[int, str] | None = None
    ) -> FactValue:
        """The typed value of a stored value (shape only, no admission rules).
        Also takes the plain forms older records and tests use: the bare
        inner value ("2024-03-01", True) or ``{"value": ...}``."""
        if isinstance(raw, Amount | Rate | Period | RecordValue):
            return raw
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
        assert isinstance(value, bool | dt.date | str)
        return value

    def _invalid(
        self, exc: ValidationError, admission: _Admission | None
    ) -> FactValueInvalid:
        error = exc.errors()[0]
        loc = [str(p) for p in error["loc"]]
        where = ".".join(loc) or "value"
        kind = error["type"]
        if kind == "missing":
            message = f"missing key {where!r}"
        elif kind == "extra_forbidden":
            message = f"unexpected key {where!r}"
        else:
            message = str(error["msg"]).removeprefix("Value error, ")
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
        return FactValueInvalid(message, field=top or "value", hint=hint)

    # --------------------------------------------------------- documentation
    def example(self) -> dict[str, Any]:
        """A valid-looking JSON value (the shape the model and the API see)."""
        if self.fields:
            result: dict[str, Any] = {}
            for item in self.fields:
                result[item.key] = (
                    item.choices[0] if item.choices else _EXAMPLES[item.kind]
                )
            return result
        inner: Any = self.choices[0] if self.choices else _EXAMPLES[self.kind]
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
                    label_de=item.label_de or item.key,
                    label_en=item.label_en or item.key,
                )
            return tuple(result)
        return tuple(
            _scalar_inputs(self.kind, prefix="", optional=False, choices=self.choices)
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
                    parts.append(f"{item.label_de or item.key}: {_display(inner)}")
            return "; ".join(parts)
        return _display(value)


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
    return str(value)


def _scalar_inputs(
    kind: str,
    *,
    prefix: str,
    optional: bool,
    choices: tuple[str, ...],
    label_de: str = "",
    label_en: str = "",
) -> list[FormField]:
    def name(own: str) -> str:
        if not prefix:
            return own
        return prefix if own == kind or own in ("text", "party") else f"{prefix}__{own}"

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
                label_de=label_de if main and label_de else de,
                label_en=label_en if main and label_en else en,
            )
        )
    return result


@lru_cache(maxsize=512)
def value_schema(
    kind: str, choices: tuple[str, ...] = (), fields: tuple[FieldSpec, ...] = ()
) -> FactValueSchema:
    """The (cached) schema of a value kind with its fact type's choices or its
    record fields. Raises ValueError for an unknown kind."""
    return FactValueSchema(kind, choices, fields)


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
        }.get(kind, "")
        parts.append(f"{kind} -> {shape}{extra}")
    return (
        "Typed value for the fact type's value kind: "
        + "; ".join(parts)
        + ". A record kind takes one key per field with that field's inner value "
        '(a date field "YYYY-MM-DD", an amount field {"cents", "currency"}); an '
        "enumeration takes one of its listed values."
    )
