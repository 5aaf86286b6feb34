"""Writes of the review queue's proposals. Agents call these from the commit
stage of the tool gate (never directly), with the tool call's id as the
idempotency key: the same call id twice gives the same row."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from cases.audit import audit_event_record
from cases.models import Case
from evidence.models import Chunk
from review.models import ExtractionProposal, TermCandidate


@transaction.atomic
def proposal_create(
    *,
    case: Case,
    fact_type: str,
    value: Mapping[str, Any],
    source_chunk: Chunk,
    quote: str,
    confidence: float,
    call_id: str,
    agent_run_id: int | None,
    agent_step_id: int | None,
    model_id: str,
    actor: Any = None,
) -> ExtractionProposal:
    """A pending proposal; idempotent on ``call_id`` (returns the existing row,
    whatever it says). The audit event records who ran the agent."""
    existing = ExtractionProposal.objects.filter(call_id=call_id).first()
    if existing is not None:
        return existing
    if source_chunk.case_id != case.pk:
        raise ValueError("the source chunk belongs to another case")
    try:
        with transaction.atomic():
            proposal = ExtractionProposal.objects.create(
                case=case,
                fact_type=fact_type,
                value=dict(value),
                source_chunk=source_chunk,
                quote=quote,
                confidence=confidence,
                call_id=call_id,
                agent_run_id=agent_run_id,
                agent_step_id=agent_step_id,
                model_id=model_id,
            )
    except IntegrityError:  # a concurrent call with the same id won
        return ExtractionProposal.objects.get(call_id=call_id)
    superseded = proposals_supersede_older(proposal=proposal)
    audit_event_record(
        actor=actor,
        action="proposal.created",
        target=proposal,
        case=case,
        data={
            "fact_type": fact_type,
            "chunk_id": source_chunk.pk,
            "agent_run_id": agent_run_id,
            "model_id": model_id,
            "superseded": superseded,
        },
    )
    return proposal


def proposals_supersede_older(*, proposal: ExtractionProposal) -> list[int]:
    """A newer proposal for the same fact type from the same chunk, made by a
    later agent run, replaces the older pending ones (status superseded,
    pointing at the newer one). Proposals of the same run are left alone: one
    letter may list several damage items of one type. An identical older one
    (same value and quote) is not replaced but joins the newer one's desk item
    (``review.selectors.proposal_twins``): two runs reading the same is
    corroboration, and both stay on record. Decided proposals stay as they
    are. A conditional update: a reviewer deciding an older one at the
    same moment either wins (it is decided, not superseded) or gets a clear
    conflict."""
    older = ExtractionProposal.objects.filter(
        case_id=proposal.case_id,
        fact_type=proposal.fact_type,
        source_chunk_id=proposal.source_chunk_id,
        status=ExtractionProposal.Status.PENDING,
        id__lt=proposal.pk,
    )
    if proposal.agent_run_id is not None:
        older = older.exclude(agent_run_id=proposal.agent_run_id)
    older = older.exclude(value=proposal.value, quote=proposal.quote)
    if not older.update(
        status=ExtractionProposal.Status.SUPERSEDED,
        superseded_by=proposal,
        decided_at=timezone.now(),
    ):
        return []
    return list(
        ExtractionProposal.objects.filter(superseded_by=proposal).values_list(
            "id", flat=True
        )
    )


def proposal_exists_for(
    *,
    case: Case,
    fact_type: str,
    value: Mapping[str, Any],
    source_chunk: Chunk | int,
    exclude_call_id: str | None = None,
) -> bool:
    """Whether the case already has a proposal (of any status) of this fact type
    and value from this chunk. ``exclude_call_id`` lets a replay of the same
    call not count as its own duplicate."""
    chunk_id = source_chunk if isinstance(source_chunk, int) else source_chunk.pk
    queryset = ExtractionProposal.objects.filter(
        case=case, fact_type=fact_type, source_chunk_id=chunk_id, value=dict(value)
    )
    if exclude_call_id is not None:
        queryset = queryset.exclude(call_id=exclude_call_id)
    return queryset.exists()


@transaction.atomic
def term_candidate_create(
    *,
    case: Case,
    label: str,
    kind: str,
    source_chunk: Chunk,
    call_id: str,
    agent_run_id: int | None = None,
    agent_step_id: int | None = None,
    model_id: str = "",
    actor: Any = None,
) -> TermCandidate:
    """A pending term candidate; idempotent on ``call_id``."""
    existing = TermCandidate.objects.filter(call_id=call_id).first()
    if existing is not None:
        return existing
    if source_chunk.case_id != case.pk:
        raise ValueError("the source chunk belongs to another case")
    try:
        with transaction.atomic():
            candidate = TermCandidate.objects.create(
                case=case,
                organisation_id=case.organisation_id,
                label=label,
                kind=kind,
                source_chunk=source_chunk,
                call_id=call_id,
                agent_run_id=agent_run_id,
                agent_step_id=agent_step_id,
                model_id=model_id,
            )
    except IntegrityError:
        return TermCandidate.objects.get(call_id=call_id)
    audit_event_record(
        actor=actor,
        action="term_candidate.created",
        target=candidate,
        case=case,
        data={"label": label, "kind": kind, "chunk_id": source_chunk.pk},
    )
    return candidate
