"""Facts as the evaluator sees them (contract with the review app)."""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ontology.domain.values import Amount, FactValue, FactValueInvalid
from ontology.domain.vocabulary import fact_types_all

FactStatus = Literal["asserted", "disputed", "evidenced", "confirmed"]
FACT_STATUSES: tuple[FactStatus, ...] = (
    "asserted",
    "disputed",
    "evidenced",
    "confirmed",
)
PartyKind = Literal["consumer", "business"]


def established_statuses(*, four_eyes: bool = False) -> frozenset[str]:
    """THE rule which fact statuses count (can satisfy a requirement, support
    a finding, be cited by an argument): evidenced and confirmed. Asserted and
    disputed facts never count.

    ``four_eyes`` is the firm's four-eyes option: with it on, only confirmed
    facts count (an evidenced fact awaits its second review)."""
    if four_eyes:
        return frozenset({"confirmed"})
    return frozenset({"evidenced", "confirmed"})


def fact_status_established(status: str, *, four_eyes: bool = False) -> bool:
    """Whether a fact with this status counts (see ``established_statuses``)."""
    return status in established_statuses(four_eyes=four_eyes)


class EvidenceRef(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    document: str
    page: int
    chunk_id: int
    quote: str = ""


class FactRecord(BaseModel):
    """One fact of a case. ``value`` is typed by the value kind of its fact type:
    a plain JSON value (ISO date string, {"cents", "currency"}, bool, text) is
    parsed on construction when the fact type is known."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: int
    fact_type: str
    status: FactStatus
    value: FactValue
    evidence: tuple[EvidenceRef, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _typed_value(cls, data: Any) -> Any:
        if not isinstance(data, dict) or "value" not in data:
            return data
        info = fact_types_all().get(str(data.get("fact_type")))
        if info is None:
            return data
        try:
            parsed = info.value_schema.read(data["value"])
        except FactValueInvalid as exc:
            raise ValueError(str(exc)) from None
        return {**data, "value": parsed}

    @property
    def established(self) -> bool:
        """Only evidenced and confirmed facts can satisfy a requirement."""
        return fact_status_established(self.status)

    @property
    def date_value(self) -> date | None:
        """The fact's date: a date value, or the ``date`` field of a record."""
        if isinstance(self.value, date):
            return self.value
        found = getattr(self.value, "date", None)
        return found if isinstance(found, date) else None

    @property
    def amount_value(self) -> Amount | None:
        """The fact's amount: an amount value, or the ``amount`` field of a
        record (payment_received, damage_item)."""
        if isinstance(self.value, Amount):
            return self.value
        found = getattr(self.value, "amount", None)
        return found if isinstance(found, Amount) else None


class ClaimContext(BaseModel):
    """What the evaluation needs besides the facts. ``interest_until`` is the day
    up to which default interest is computed (inclusive); without it no interest
    amount is computed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    claim_type: str
    jurisdiction: str = "DE"
    valid_at: date
    debtor_kind: PartyKind | None = None
    creditor_kind: PartyKind | None = None
    interest_until: date | None = None
    # the firm's four-eyes option: only confirmed facts count
    four_eyes: bool = False
    case_key: str = Field(default="case", pattern=r"^[A-Za-z0-9_.-]+$")
