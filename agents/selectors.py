"""Reads of the agent runtime, scoped to the user's firm through the case."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404

from agents.models import AgentRun, AgentStep
from cases.models import Case
from cases.selectors import case_get_for_user
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
