"""Builders for facts and contexts used by the ontology tests."""

from __future__ import annotations

from datetime import date
from itertools import count
from typing import Any

from ontology.domain.facts import ClaimContext, EvidenceRef, FactRecord

_ids = count(1)


def fact(
    fact_type: str, value: Any, status: str = "confirmed", **kw: Any
) -> FactRecord:
    return FactRecord.model_validate(
        {
            "id": kw.pop("id", next(_ids)),
            "fact_type": fact_type,
            "status": status,
            "value": value,
            "evidence": kw.pop(
                "evidence",
                [EvidenceRef(document="akte.pdf", page=1, chunk_id=1, quote="…")],
            ),
        }
    )


def eur(cents: int) -> dict[str, Any]:
    return {"cents": cents, "currency": "EUR"}


def ctx(**kw: Any) -> ClaimContext:
    values: dict[str, Any] = {
        "claim_type": "verzugsschaden",
        "jurisdiction": "DE",
        "valid_at": date(2024, 1, 10),
        "debtor_kind": "business",
        "creditor_kind": "business",
    }
    values.update(kw)
    return ClaimContext(**values)
