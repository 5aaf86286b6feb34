"""Reads of the agent runtime, scoped to the user's firm through the case."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404

from agents.models import AgentRun, AgentStep, HeldToolCall
from cases.models import Case
from cases.selectors import case_get_for_user, membership_for_user
from evidence.selectors import quote_pages
from review.models import ExtractionProposal
from review.selectors import fact_type_label, vocabulary_for_case


def agent_runs_for_case(*, case: Case) -> QuerySet[AgentRun]:
    """The runs of a case the caller has already fetched with a selector."""
    return (
        AgentRun.objects.filter(case=case)
        .select_related("actor", "document")
        .order_by("-created_at", "-id")
    )


def agent_run_get_for_user(*, user: Any, case_id: int, run_id: int) -> AgentRun:
    """A run of a case of the user's firm; Http404 otherwise."""
    case = case_get_for_user(user=user, case_id=case_id)
    run = (
        AgentRun.objects.filter(pk=run_id, case=case)
        .select_related("case", "actor", "document")
        .first()
    )
    if run is None:
        raise Http404("No such run.")
    return run


def agent_steps_for_run(*, run: AgentRun) -> QuerySet[AgentStep]:
    return AgentStep.objects.filter(run=run).order_by("id")


def proposals_of_run(*, run: AgentRun) -> list[ExtractionProposal]:
    """Proposals a run created or replayed (its accepted propose_case_fact
    steps), in step order."""
    ids = list(
        AgentStep.objects.filter(
            run=run, verdict="ok", committed_type="extraction_proposal"
        )
        .order_by("id")
        .values_list("committed_id", flat=True)
    )
    by_id = ExtractionProposal.objects.select_related(
        "source_chunk", "source_chunk__document"
    ).in_bulk(ids)
    seen: set[int] = set()
    result = []
    for pk in ids:
        if pk is not None and pk in by_id and pk not in seen:
            seen.add(pk)
            result.append(by_id[pk])
    return result


def proposal_summary(proposal: ExtractionProposal) -> dict[str, Any]:
    chunk = proposal.source_chunk
    return {
        "id": proposal.pk,
        "fact_type": proposal.fact_type,
        "fact_type_label": fact_type_label(
            vocabulary_for_case(proposal.case).get(proposal.fact_type),
            proposal.fact_type,
        ),
        "value": proposal.value,
        "document": chunk.document.filename,
        "pages": quote_pages(chunk=chunk, quote=proposal.quote),
        "quote": proposal.quote,
        "confidence": proposal.confidence,
        "status": proposal.status,
        "chunk_id": chunk.pk,
    }


def held_calls_for_case(*, case: Case, status: str = "") -> QuerySet[HeldToolCall]:
    """The held calls of a case the caller fetched with a selector; pending
    ones first, newest first."""
    queryset = HeldToolCall.objects.filter(case=case)
    if status:
        queryset = queryset.filter(status=status)
    return queryset.select_related("run", "case", "decided_by").order_by(
        "-created_at", "-id"
    )


def held_calls_for_firm(*, user: Any, status: str = "") -> QuerySet[HeldToolCall]:
    """The held calls of every case of the user's firm (none without one)."""
    membership = membership_for_user(user)
    if membership is None:
        return HeldToolCall.objects.none()
    queryset = HeldToolCall.objects.filter(
        case__organisation_id=membership.organisation_id
    )
    if status:
        queryset = queryset.filter(status=status)
    return queryset.select_related("run", "case", "decided_by").order_by(
        "-created_at", "-id"
    )


def held_call_get_for_user(*, user: Any, case_id: int, held_id: int) -> HeldToolCall:
    """A held call of a case of the user's firm; Http404 otherwise."""
    case = case_get_for_user(user=user, case_id=case_id)
    held = (
        HeldToolCall.objects.filter(pk=held_id, case=case)
        .select_related("run", "case", "decided_by")
        .first()
    )
    if held is None:
        raise Http404("No such held call.")
    return held
