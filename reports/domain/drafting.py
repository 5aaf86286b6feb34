"""Rules-based drafting: one finding per claim requirement from the
ontology's verdict, in German or English. The citations are written into the
finding's text (the citation gate reads them from there, never from
metadata); the evidence is the established facts the verdict rests on."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from ontology.domain.facts import FactRecord
from ontology.domain.results import ClaimEvaluation, RequirementVerdict

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
    document: str = ""
    page: int | None = None
    chunk_id: int | None = None
    quote: str = ""


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


def fact_value_text(record: FactRecord) -> str:
    """A fact's value as plain text for evidence tables."""
    value = record.value
    if hasattr(value, "cents") and hasattr(value, "currency"):
        cents = int(value.cents)
        return f"{cents // 100},{cents % 100:02d} {value.currency}"
    if hasattr(value, "isoformat"):
        return str(value.isoformat())
    return str(value)


def evidence_items(
    fact_ids: Sequence[int], facts: Mapping[int, FactRecord]
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
            value=fact_value_text(record),
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
                evidence=evidence_items(verdict.supporting_fact_ids, by_id),
            )
        )
    return drafts
