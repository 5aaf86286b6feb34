"""Rules-based drafting: one finding per claim requirement from the
ontology's verdict, in German or English. The citations are written into the
finding's text (the citation gate reads them from there, never from
metadata); the evidence is the established facts the verdict rests on."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from ontology.domain.facts import FactRecord
from ontology.domain.results import ClaimEvaluation, RequirementVerdict
from ontology.domain.text import value_format
from ontology.domain.value_kinds import Amount
from ontology.domain.vocabulary import UnknownFactType, Vocabulary, vocabulary_base

Language = Literal["de", "en"]

LABELS: dict[str, dict[str, str]] = {
    "de": {
        "satisfied": "erfüllt",
        "open": "offen",
        "not_satisfied": "nicht erfüllt",
        "basis": "Rechtsgrundlage",
        "evidence": "Belege",
        "page": "S.",
    },
    "en": {
        "satisfied": "satisfied",
        "open": "open",
        "not_satisfied": "not satisfied",
        "basis": "Legal basis",
        "evidence": "Evidence",
        "page": "p.",
    },
}


class EvidenceItem(BaseModel):
    """A fact a finding rests on, with one piece of its evidence."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    fact_id: int
    fact_type: str
    status: str
    value: str
    label: str = ""  # the fact type in the report's language
    status_label: str = ""
    document: str = ""
    page: int | None = None
    chunk_id: int | None = None
    quote: str = ""
    # The fact's value as stored (``{"date": …}``, ``{"cents": …}``): the
    # Excel export writes it as a typed cell.
    typed: dict[str, Any] | None = None


class FindingDraft(BaseModel):
    """A finding before the gates. ``text`` is final: what is printed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    claim_id: int
    claim_type: str
    requirement_key: str
    label: str
    verdict_status: str
    verdict_label: str
    text: str
    drafter: Literal["rules", "model"] = "rules"
    supporting_fact_ids: tuple[int, ...] = ()
    evidence: tuple[EvidenceItem, ...] = ()


STATUS_LABELS: dict[str, dict[str, str]] = {
    "de": {
        "asserted": "behauptet",
        "disputed": "bestritten",
        "evidenced": "belegt",
        "confirmed": "bestätigt",
    },
    "en": {
        "asserted": "asserted",
        "disputed": "disputed",
        "evidenced": "evidenced",
        "confirmed": "confirmed",
    },
}


def fact_value_text(record: FactRecord, language: Language = "en") -> str:
    """A fact's value as a reader of the report writes it (German: 30.04.2026,
    1.133,60 €; English: 30 April 2026, EUR 1,133.60)."""
    value: Any = record.value
    if isinstance(value, str):
        return value
    return value_format(value, language)


def typed_value_json(value: Any) -> dict[str, Any] | None:
    """A date or an amount as JSON (``{"date": …}``, ``{"cents", "currency"}``)
    for exports that type their cells; other kinds None (they print as text)."""
    if isinstance(value, date) and not isinstance(value, datetime):
        return {"date": value.isoformat()}
    if isinstance(value, Amount):
        return {"cents": value.cents, "currency": value.currency}
    return None


def fact_type_label(
    key: str, language: Language, vocabulary: Vocabulary | None = None
) -> str:
    """The fact type's label in the case's firm's vocabulary (its own
    extension terms included)."""
    try:
        info = (vocabulary or vocabulary_base()).fact_type(key)
    except UnknownFactType:  # an extension term no longer known: show its key
        return key
    return str(info.label_de if language == "de" else info.label_en)


def evidence_items(
    fact_ids: Sequence[int],
    facts: Mapping[int, FactRecord],
    language: Language = "en",
    vocabulary: Vocabulary | None = None,
) -> tuple[EvidenceItem, ...]:
    """Each supporting fact with each of its evidence references (a fact
    without any evidence still appears, so nothing it rests on is hidden)."""
    items: list[EvidenceItem] = []
    for fact_id in dict.fromkeys(fact_ids):
        record = facts.get(fact_id)
        if record is None:
            continue
        base = EvidenceItem(
            fact_id=record.id,
            fact_type=record.fact_type,
            status=record.status,
            value=fact_value_text(record, language),
            typed=typed_value_json(record.value),
            label=fact_type_label(record.fact_type, language, vocabulary),
            status_label=STATUS_LABELS[language].get(record.status, record.status),
        )
        if not record.evidence:
            items.append(base)
        for ref in record.evidence:
            items.append(
                base.model_copy(
                    update={
                        "document": ref.document,
                        "page": ref.page,
                        "chunk_id": ref.chunk_id,
                        "quote": ref.quote,
                    }
                )
            )
    return tuple(items)


def finding_text(verdict: RequirementVerdict, language: Language) -> str:
    """The sentence of the verdict followed by its legal basis, so every
    citation the conclusion relies on stands in the printed text."""
    sentence = verdict.sentence_de if language == "de" else verdict.sentence_en
    basis = "; ".join(verdict.legal_basis)
    text = sentence.strip()
    if basis:
        text += f" {LABELS[language]['basis']}: {basis}."
    return text


def findings_draft(
    *,
    evaluation: ClaimEvaluation,
    claim_id: int,
    facts: Sequence[FactRecord],
    language: Language = "en",
    vocabulary: Vocabulary | None = None,
) -> list[FindingDraft]:
    """One finding per requirement of the evaluated claim, in order."""
    by_id = {f.id: f for f in facts}
    drafts = []
    for verdict in evaluation.requirements:
        drafts.append(
            FindingDraft(
                claim_id=claim_id,
                claim_type=evaluation.claim_type,
                requirement_key=verdict.key,
                label=verdict.label_de if language == "de" else verdict.label_en,
                verdict_status=verdict.status,
                verdict_label=LABELS[language][verdict.status],
                text=finding_text(verdict, language),
                supporting_fact_ids=tuple(verdict.supporting_fact_ids),
                evidence=evidence_items(
                    verdict.supporting_fact_ids, by_id, language, vocabulary
                ),
            )
        )
    return drafts
