"""The built-in value kinds of the one fact-value schema: their typed
Pydantic shapes (``Amount``, ``Rate``, ``Period``, ISO dates, text, parties)
and the admission rules each applies when a value is *admitted* rather than
*read* (see ``ontology.domain.values``, which builds the schemas from these
and re-exports them)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    ValidationInfo,
    WithJsonSchema,
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
MAX_INTEGER = 100_000
MAX_NUMBER = 1_000
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
    "integer",
    "number",
)
# Scalar kinds whose inner value is a JSON primitive: at the top level it is
# wrapped in an object under the kind's name ({"date": ...}); the others are
# objects already.
WRAPPED = {
    "date": "date",
    "party": "party",
    "boolean": "boolean",
    "text": "text",
    "integer": "integer",
    "number": "number",
}
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_CURRENCY_SHAPE = re.compile(r"^[A-Z]{3}$")


class FactValueInvalid(ValueError):
    """A value does not fit its fact type's value schema. ``field`` names the
    offending key (``date``, ``currency``, ``deadline`` ...), ``hint`` what
    would fit. ``code`` and ``params`` say the same as the English ``message``
    (what the model and logs get) as a stable code, so that a page can say it
    in its own language (``ontology.value_messages``)."""

    def __init__(
        self,
        message: str,
        *,
        field: str = "value",
        hint: Any = None,
        code: str = "invalid",
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.hint = hint
        self.code = code
        self.params: dict[str, Any] = dict(params or {})


class ValueRule(ValueError):
    """An admission or shape rule a validator found broken: the English text
    plus its stable code and parameters (Pydantic keeps the exception in the
    error's context, so ``FactValueSchema`` can hand both on)."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


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
class Admission:
    parties: CaseParties = field(default_factory=CaseParties)


def admission_of(info: ValidationInfo) -> Admission | None:
    context = info.context
    if isinstance(context, dict):
        found = context.get("admission")
        if isinstance(found, Admission):
            return found
    return None


# ---------------------------------------------------------------- inner types
def _iso_date(raw: Any) -> Any:
    if isinstance(raw, dt.date) and not isinstance(raw, dt.datetime):
        return raw
    if not isinstance(raw, str) or not _ISO_DATE.match(raw.strip()):
        raise ValueRule("date_format", "a date must be an ISO date YYYY-MM-DD")
    try:
        return dt.date.fromisoformat(raw.strip())
    except ValueError:
        raise ValueRule(
            "date_not_calendar", f"{raw} is not a calendar date", value=raw
        ) from None


def _date_admitted(value: dt.date, info: ValidationInfo) -> dt.date:
    if admission_of(info) is not None and not MIN_DATE <= value <= MAX_DATE:
        raise ValueRule(
            "date_out_of_range",
            f"{value.isoformat()} lies outside 1900–2100",
            value=value.isoformat(),
        )
    return value


def _text(value: str, info: ValidationInfo) -> str:
    cleaned = value.strip()
    if not cleaned:
        raise ValueRule("text_empty", "the text must not be empty")
    if admission_of(info) is not None and len(cleaned) > MAX_TEXT:
        raise ValueRule(
            "text_too_long",
            f"the text is longer than {MAX_TEXT} characters",
            max=MAX_TEXT,
        )
    return cleaned


def _choices_check(choices: tuple[str, ...]) -> Callable[[str, ValidationInfo], str]:
    def check(value: str, info: ValidationInfo) -> str:
        if admission_of(info) is not None and value not in choices:
            raise ValueRule(
                "not_a_choice",
                f"{value!r} is not one of: {', '.join(choices)}",
                value=value,
                choices=list(choices),
            )
        return value

    return check


def _party(value: str | int, info: ValidationInfo) -> str | int:
    admission = admission_of(info)
    if admission is None:
        return value
    if isinstance(value, int):
        if value in admission.parties.ids:
            return value
        raise ValueRule(
            "party_unknown",
            f"party id {value} is not a party of this case",
            value=value,
        )
    if value in admission.parties.names:
        return value
    raise ValueRule(
        "party_unknown", f"{value!r} is not a party of this case", value=value
    )


IsoDate = Annotated[
    dt.date,
    BeforeValidator(_iso_date),
    AfterValidator(_date_admitted),
    Field(json_schema_extra={"format": "date", "example": "2026-04-30"}),
]
Text = Annotated[str, AfterValidator(_text)]
PartyRef = Annotated[str | int, AfterValidator(_party)]


class Shape(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


def _currency_shape(value: str, info: ValidationInfo) -> str:
    if not _CURRENCY_SHAPE.match(value):
        raise ValueRule(
            "currency_format", "the currency must be an ISO 4217 code such as EUR"
        )
    if admission_of(info) is not None and value not in _CURRENCY_SET:
        raise ValueRule(
            "currency_unknown", f"unknown ISO 4217 currency {value!r}", value=value
        )
    return value


def _bounded(low: int, high: int, code: str, message: str) -> AfterValidator:
    def check(value: int, info: ValidationInfo) -> int:
        if admission_of(info) is not None and not low <= value <= high:
            raise ValueRule(code, message, low=low, high=high)
        return value

    return AfterValidator(check)


def _short(value: str | None, info: ValidationInfo) -> str | None:
    if value is not None and not value.strip():
        return None  # an empty label is no label
    if value is not None and admission_of(info) is not None and len(value) > MAX_LABEL:
        raise ValueRule("label_too_long", "must be a short text", max=MAX_LABEL)
    return value.strip() if value is not None else None


ShortText = Annotated[str | None, AfterValidator(_short)]


class Amount(Shape):
    """A sum of money in the smallest unit (cents) and an ISO 4217 currency."""

    cents: Annotated[
        int,
        _bounded(
            1,
            MAX_CENTS - 1,
            "amount_out_of_range",
            "the amount must be positive and plausible",
        ),
    ]
    currency: Annotated[str, AfterValidator(_currency_shape)]
    label: ShortText = None


class Rate(Shape):
    """An interest rate in basis points (1/100 of a percent): fixed, or
    percentage points over the base rate (Basiszinssatz, § 247 BGB)."""

    basis_points: Annotated[
        int,
        _bounded(
            0,
            MAX_BASIS_POINTS,
            "rate_out_of_range",
            "the rate must lie between 0 and 1,000 %",
        ),
    ]
    reference: Literal["fixed", "base_rate"]


class Period(Shape):
    """A period of days, weeks or months, optionally running from an event
    ("14 Tage nach Zugang der Rechnung")."""

    count: Annotated[
        int,
        _bounded(
            1,
            MAX_PERIOD_COUNT,
            "period_out_of_range",
            "the period must be a positive number",
        ),
    ]
    unit: Literal["days", "weeks", "months"]
    from_event: ShortText = None


class RecordValue(Shape):
    """Base of the record kinds generated from the vocabulary (``bc:fields``).
    Each generated kind carries its fields' German and English labels and, per
    field with ``bc:choices``, the labels of each choice, so that a value is
    shown in words wherever it is formatted (the stored key stays the key)."""

    field_labels: ClassVar[Mapping[str, tuple[str, str]]] = {}
    choice_labels: ClassVar[Mapping[str, Mapping[str, tuple[str, str]]]] = {}

    def choice_label(self, field: str, lang: str) -> str | None:
        """The label of this value's choice in ``field``, or None for a field
        without choices (or without a value)."""
        key = getattr(self, field, None)
        words = type(self).choice_labels.get(field, {}).get(str(key))
        if key is None or words is None:
            return None
        return words[0] if lang == "de" else words[1]


# integer: a whole number >= 0 (a count of days, e.g. payment_term.period_days;
# 0 is "sofort"); number: a decimal >= 0 such as 9 or 8.5 (percentage points).
NonNegativeInt = Annotated[
    int,
    Field(strict=True),
    _bounded(
        0,
        MAX_INTEGER,
        "integer_out_of_range",
        f"the number must be a whole number 0–{MAX_INTEGER}",
    ),
]


def _number(value: Any, info: ValidationInfo) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        raise ValueRule("not_a_number", "must be a number")
    result = Decimal(str(value))
    if not result.is_finite():
        raise ValueRule("not_a_number", "must be a finite number")
    if admission_of(info) is not None and not 0 <= result <= MAX_NUMBER:
        raise ValueRule(
            "number_out_of_range",
            f"the number must lie between 0 and {MAX_NUMBER}",
            low=0,
            high=MAX_NUMBER,
        )
    return result


Number = Annotated[
    Decimal,
    PlainValidator(_number),
    PlainSerializer(lambda v: int(v) if v == v.to_integral_value() else float(v)),
    WithJsonSchema({"type": "number", "minimum": 0}),
]

FactValue = dt.date | Amount | Rate | Period | RecordValue | bool | str | int | Decimal


def inner_type(
    kind: str,
    choices: tuple[str, ...],
    legacy_choices: tuple[tuple[str, str], ...] = (),
) -> Any:
    """The Python/Pydantic type of a kind's inner value. ``legacy_choices``
    maps an enumeration's former values to current ones (in both modes)."""
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
    if kind == "integer":
        return NonNegativeInt
    if kind == "number":
        return Number
    if kind == "text":
        if choices:
            legacy = {old.casefold(): new for old, new in legacy_choices}

            def renamed(value: Any) -> Any:
                if isinstance(value, str):
                    return legacy.get(value.strip().casefold(), value)
                return value

            return Annotated[
                str,
                BeforeValidator(renamed),
                AfterValidator(_text),
                AfterValidator(_choices_check(choices)),
                Field(json_schema_extra={"enum": list(choices)}),
            ]
        return Text
    raise ValueError(f"unknown value kind {kind!r}")


EXAMPLES: Mapping[str, Any] = {
    "date": "YYYY-MM-DD",
    "amount": {"cents": 123456, "currency": "EUR"},
    "rate": {"basis_points": 500, "reference": "base_rate"},
    "period": {"count": 14, "unit": "days", "from_event": "Zugang der Rechnung"},
    "party": "<exact party name>",
    "boolean": True,
    "text": "...",
    "integer": 14,
    "number": 9,
}
