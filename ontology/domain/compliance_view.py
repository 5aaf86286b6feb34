"""The element verdicts of a compliance claim for the Requirements tab.

``compliance_rows`` turns a case's fact records into the obligation and
element rows the page shows (in the active language). Pure: the page passes
the records, the claim type, the Stichtag and the firm's four-eyes option.
A case fact has no source kind of its own: the gate refuses proposals quoting
recitals, marketing claims, summaries or machine instructions before they
become facts, so every stored fact is judged by its status alone.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel

from ontology.domain.compliance import (
    ComplianceAssessment,
    ComplianceFact,
    ComplianceInput,
    compliance_evaluate,
)
from ontology.domain.compliance_catalogue import obligations_for_claim_type
from ontology.domain.facts import FactRecord
from ontology.domain.results import STATUS_LABELS

REGIME_OF_CLAIM_TYPE = {"gdpr": "gdpr", "dora": "dora", "ai_act_high_risk": "aia"}
NOT_APPLICABLE = ("nicht anwendbar", "not applicable")
APPLICABILITY_OPEN = ("Anwendbarkeit offen", "applicability open")


@dataclass(frozen=True)
class ElementRow:
    key: str
    label: str
    provision: str
    status: str  # satisfied | open | not_satisfied | not_applicable
    status_label: str
    sentence: str
    fact_ids: tuple[int, ...]


@dataclass(frozen=True)
class ObligationRow:
    key: str
    subject: str | None
    label: str
    provision: str
    status: str
    status_label: str
    sentence: str
    elements: tuple[ElementRow, ...]


def _value(record: FactRecord) -> dict[str, Any]:
    value = record.value
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", exclude_none=True)
    return {"value": value}


def compliance_assess_records(
    records: Iterable[FactRecord],
    *,
    claim_type: str,
    valid_at: dt.date,
    four_eyes: bool = False,
) -> ComplianceAssessment | None:
    """The element verdicts of a compliance claim type; None for other types."""
    regime = REGIME_OF_CLAIM_TYPE.get(claim_type)
    if regime is None:
        return None
    facts = tuple(
        ComplianceFact(
            ref=str(r.id),
            key=r.fact_type,
            value=_value(r),
            status=r.status,
        )
        for r in records
        if r.fact_type.startswith(regime + "_")
    )
    return compliance_evaluate(
        ComplianceInput(
            valid_at=valid_at, facts=facts, four_eyes=four_eyes, regimes=(regime,)
        )
    )


def _ids(refs: Iterable[str]) -> tuple[int, ...]:
    return tuple(int(r) for r in refs if r.isdigit())


def compliance_rows(
    records: Iterable[FactRecord],
    *,
    claim_type: str,
    valid_at: dt.date,
    four_eyes: bool,
    lang: Literal["de", "en"],
) -> tuple[ObligationRow, ...]:
    """One row per obligation (and per subject, e.g. per ICT contract)."""
    if not obligations_for_claim_type(claim_type):
        return ()
    result = compliance_assess_records(
        records, claim_type=claim_type, valid_at=valid_at, four_eyes=four_eyes
    )
    if result is None:
        return ()
    i = 0 if lang == "de" else 1
    rows = []
    for o in result.obligations:
        elements = tuple(
            ElementRow(
                key=e.key,
                label=(e.label_de, e.label_en)[i],
                provision=(e.provision_de, e.provision_en)[i],
                status=e.status or "not_applicable",
                status_label=STATUS_LABELS[e.status][i]
                if e.status and e.applicable is not None
                else (APPLICABILITY_OPEN[i] if e.status else NOT_APPLICABLE[i]),
                sentence=(e.sentence_de, e.sentence_en)[i],
                fact_ids=_ids(e.decisive),
            )
            for e in o.elements
        )
        rows.append(
            ObligationRow(
                key=o.key,
                subject=o.subject,
                label=(o.label_de, o.label_en)[i],
                provision=(o.provision_de, o.provision_en)[i],
                status=o.status or "not_applicable",
                status_label=STATUS_LABELS[o.status][i]
                if o.status
                else NOT_APPLICABLE[i],
                sentence=(o.sentence_de, o.sentence_en)[i],
                elements=elements,
            )
        )
    return tuple(rows)
