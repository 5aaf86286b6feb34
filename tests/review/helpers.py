"""Rows for review tests: a document with one page and chunk made directly
(fast), proposals and term candidates through the agents' service."""

from __future__ import annotations

import hashlib
import itertools
from typing import Any

from evidence.models import Chunk, Page, SourceDocument
from review.models import ExtractionProposal, TermCandidate
from review.services.proposals import proposal_create, term_candidate_create

_counter = itertools.count(1)

LETTER = (
    "Mahnung - Rechnung Nr. 2026-0417\n\n"
    "trotz unserer Zahlungserinnerung vom 05.05.2026 ist der Rechnungsbetrag "
    "von 4.250,00 EUR noch immer nicht bei uns eingegangen.\n\n"
    "Den Zugang dieses Schreibens hat unser Bote am 08.05.2026 durch Einwurf "
    "in Ihren Briefkasten bewirkt."
)


def _blocks(text: str) -> list[dict[str, Any]]:
    """One block per paragraph, one line per paragraph, stacked down the page."""
    blocks = []
    offset = 0
    for index, paragraph in enumerate(text.split("\n\n")):
        start = text.index(paragraph, offset)
        end = start + len(paragraph)
        top = 100 + 40 * index
        box = [72.0, float(top), 520.0, float(top + 14)]
        blocks.append(
            {
                "bbox": box,
                "start": start,
                "end": end,
                "lines": [{"bbox": box, "start": start, "end": end}],
            }
        )
        offset = end
    return blocks


def make_chunk(
    case: Any, *, text: str = LETTER, filename: str = "mahnung.pdf"
) -> Chunk:
    n = next(_counter)
    document = SourceDocument.objects.create(
        case=case,
        sha256=hashlib.sha256(f"{case.pk}-{n}-{text}".encode()).hexdigest(),
        filename=filename,
        size_bytes=1000,
        page_count=1,
        storage_name=f"test/{n}.pdf",
    )
    Page.objects.create(
        document=document,
        number=1,
        width=595,
        height=842,
        text=text,
        blocks=_blocks(text),
    )
    return Chunk.objects.create(
        case=case,
        document=document,
        ordinal=0,
        page_start=1,
        page_end=1,
        text=text,
        spans=[
            {"page": 1, "start": 0, "end": len(text), "boxes": [[72, 100, 520, 200]]}
        ],
    )


def make_proposal(
    case: Any,
    *,
    chunk: Chunk | None = None,
    fact_type: str = "reminder_sent",
    value: dict[str, Any] | None = None,
    quote: str = "Zahlungserinnerung vom 05.05.2026",
    confidence: float = 0.9,
    agent_run_id: int | None = None,
) -> ExtractionProposal:
    n = next(_counter)
    return proposal_create(
        case=case,
        fact_type=fact_type,
        value=value if value is not None else {"date": "2026-05-05"},
        source_chunk=chunk or make_chunk(case),
        quote=quote,
        confidence=confidence,
        call_id=f"test-call-{n}",
        agent_run_id=agent_run_id if agent_run_id is not None else 100 + n,
        agent_step_id=1000 + n,
        model_id="rules:test",
    )


def make_term(case: Any, *, label: str = "Zahlungsaufforderung") -> TermCandidate:
    n = next(_counter)
    return term_candidate_create(
        case=case,
        label=label,
        kind=TermCandidate.Kind.DOCUMENT_TYPE,
        source_chunk=make_chunk(case),
        call_id=f"test-term-{n}",
    )


def make_fact(case: Any) -> Any:
    """A confirmed fact with one piece of evidence, made directly (for tenancy)."""
    from review.models import Fact, FactEvidence

    proposal = make_proposal(case)
    fact = Fact.objects.create(
        case=case,
        fact_type=proposal.fact_type,
        value=proposal.value,
        status=Fact.Status.CONFIRMED,
        proposal=proposal,
    )
    FactEvidence.objects.create(
        fact=fact, chunk=proposal.source_chunk, quote=proposal.quote, proposal=proposal
    )
    fact_decided(fact)
    return fact


def fact_decided(fact: Any, *, status: str | None = None) -> Any:
    """Record the decision the database requires of every new or changed fact
    (checked at commit) and, given ``status``, move the fact to it: what a
    test that makes facts directly must do since review migration 0005."""
    from review.models import Decision, Fact

    status = status or fact.status
    decision = Decision.objects.create(
        case=fact.case,
        kind=Decision.Kind.ACCEPT,
        fact=fact,
        actor_label="test",
        value_after=fact.value,
        status_after=status,
    )
    Fact.objects.filter(pk=fact.pk).update(status=status, last_decision=decision)
    fact.status = status
    fact.last_decision = decision
    return fact
