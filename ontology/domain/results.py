"""Verdicts in words. There is deliberately no percentage, score or count of
"fulfilled" requirements here: requirements are not equally weighted segments of
a progress bar (tests/ontology/test_no_score.py keeps it that way)."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict

from ontology.domain.interest import InterestComputation

if TYPE_CHECKING:
    from ontology.domain.claims import ClaimVersion

VerdictStatus = Literal["satisfied", "open", "not_satisfied"]
STATUS_LABELS: dict[str, tuple[str, str]] = {
    "satisfied": ("erfüllt", "satisfied"),
    "open": ("offen", "open"),
    "not_satisfied": ("nicht erfüllt", "not satisfied"),
}


class MissingItem(BaseModel):
    """A fact type whose established fact would move a requirement forward."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    fact_type: str
    label_de: str
    label_en: str


class FactMention(BaseModel):
    """A fact that was found but cannot satisfy anything (asserted or disputed)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    fact_id: int
    fact_type: str
    status: str


class _Verdict(BaseModel):
    """What a requirement and each of its alternatives are judged with."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    label_de: str
    label_en: str
    status: VerdictStatus
    sentence_de: str
    sentence_en: str
    supporting_fact_ids: tuple[int, ...]
    missing: tuple[MissingItem, ...]
    legal_basis: tuple[str, ...]
    unestablished: tuple[FactMention, ...] = ()
    # the provision that carries the verdict, and those examined and rejected
    basis: str | None = None
    rejected_bases: tuple[str, ...] = ()
    due_date: date | None = None
    # what is missing in words ("Zugangsnachweis fehlt", "… wartet auf
    # Zweitprüfung"), and the evidenced facts awaiting the second review
    missing_phrase: str | None = None
    awaiting_review: tuple[int, ...] = ()

    @property
    def status_de(self) -> str:
        return STATUS_LABELS[self.status][0]

    @property
    def status_en(self) -> str:
        return STATUS_LABELS[self.status][1]


class AlternativeVerdict(_Verdict):
    pass


class RequirementVerdict(_Verdict):
    alternatives: tuple[AlternativeVerdict, ...]


class DamageItem(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    fact_id: int
    cents: int  # what the item adds to the total (0 when not recoverable)
    currency: str
    kind: str = "damage_item"  # or fee_note_item
    # the damage table (Verzugsschaden): what the item is, its net and gross
    # amounts, whether it is recoverable and why (a stable reason code that
    # every surface puts in words: ``ontology/damage_table.py``)
    item_kind: str = ""  # geschaeftsgebuehr, auslagenpauschale, … of a fee note
    text: str = ""  # the item's own description (a damage item's text)
    net_cents: int | None = None
    gross_cents: int | None = None
    incurred_on: date | None = None
    recoverable: bool = True
    reason: str = ""


class DamageComputation(BaseModel):
    """Confirmed items plus computed default interest, in cents."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    currency: str
    items: tuple[DamageItem, ...]
    items_cents: int
    interest: InterestComputation | None
    interest_basis: str | None
    flat_fee_cents: int | None
    flat_fee_basis: str | None
    total_cents: int
    default_start: date | None
    notes_de: tuple[str, ...] = ()
    notes_en: tuple[str, ...] = ()
    # § 288 Abs. 5 S. 3 BGB: the Pauschale is credited against the lawyer's
    # fees; only its uncredited part is added. total = items + interest + added
    lawyer_fees_cents: int = 0
    other_items_cents: int = 0
    pauschale_added_cents: int = 0
    vat_basis: str = ""  # "netto" / "brutto": which fee was used and why
    # the Stichtag the computation runs to, and what became of the Pauschale:
    # added, offset (credited in full), partly_offset, consumer or old_law
    # (excluded), "" (no version of § 288 BGB grants one)
    valid_at: date | None = None
    pauschale_status: str = ""

    @property
    def pauschale_cents(self) -> int:
        return self.flat_fee_cents or 0

    @property
    def interest_cents(self) -> int:
        return self.interest.interest_cents if self.interest is not None else 0

    @property
    def pauschale_offset_cents(self) -> int:
        """The part of the Pauschale credited against the lawyer's fees."""
        return self.pauschale_cents - self.pauschale_added_cents


class ClaimEvaluation(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    claim_type: str
    version_key: str
    jurisdiction: str
    valid_at: date
    label_de: str
    label_en: str
    legal_basis: tuple[str, ...]
    requirements: tuple[RequirementVerdict, ...]
    damage: DamageComputation | None = None
    # claim level: begruendet / unbegruendet / offen, default from, amount
    summary: Literal["begruendet", "unbegruendet", "offen"] | None = None
    summary_de: str = ""
    summary_en: str = ""
    default_from: date | None = None
    recoverable_cents: int | None = None
    four_eyes: bool = False
    awaiting_review: tuple[int, ...] = ()

    @classmethod
    def for_version(
        cls,
        version: ClaimVersion,
        valid_at: date,
        requirements: tuple[RequirementVerdict, ...],
        **claim_level: Any,
    ) -> ClaimEvaluation:
        """The evaluation of ``version`` at ``valid_at``: the claim's own
        fields come from the version, the verdicts and any claim-level
        result (summary, damage, four-eyes) from the evaluator."""
        return cls(
            claim_type=version.claim_type,
            version_key=version.version_key,
            jurisdiction=version.jurisdiction,
            valid_at=valid_at,
            label_de=version.label_de,
            label_en=version.label_en,
            legal_basis=version.legal_basis,
            requirements=requirements,
            **claim_level,
        )

    def requirement(self, key: str) -> RequirementVerdict:
        for verdict in self.requirements:
            if verdict.key == key:
                return verdict
        raise KeyError(key)


class MissingRequirement(BaseModel):
    """What an agent may look for next: an open or unmet requirement."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    requirement: str
    label_de: str
    label_en: str
    status: VerdictStatus
    sentence_de: str
    sentence_en: str
    missing_fact_types: tuple[str, ...]
    legal_basis: tuple[str, ...]


def missing_requirements(evaluation: ClaimEvaluation) -> list[MissingRequirement]:
    """The open and unmet requirements of an evaluation, in order."""
    return [
        MissingRequirement(
            requirement=v.key,
            label_de=v.label_de,
            label_en=v.label_en,
            status=v.status,
            sentence_de=v.sentence_de,
            sentence_en=v.sentence_en,
            missing_fact_types=tuple(m.fact_type for m in v.missing),
            legal_basis=v.legal_basis,
        )
        for v in evaluation.requirements
        if v.status != "satisfied"
    ]
