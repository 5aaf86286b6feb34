"""The facts of a case with their provenance (fact → decisions → proposal →
agent step → chunk → page → document SHA-256), the four-eyes confirmation and
disputes; and the curator's queue of term candidates."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from cases.errors import DomainError
from cases.models import Membership
from cases.selectors import case_get_for_user, user_has_role
from cases.tabs import is_fragment_request, render_case_tab
from evidence.selectors import quote_pages
from evidence.viewer import viewer_url
from ontology.domain.values import FactValueSchema, value_schema
from ontology.domain.vocabulary import vocabulary_graph
from ontology.vocabulary import FactTypeInfo
from review.domain.extension import concepts
from review.models import Decision, Fact, FactEvidence, TermCandidate
from review.selectors import (
    agent_run_url,
    fact_get_for_user,
    fact_provenance,
    fact_type_label,
    facts_for_case,
    ontology_extension_latest_for_user,
    term_candidate_get_for_user,
    term_candidates_for_user,
    vocabulary_for_case,
)
from review.services.decisions import fact_confirm, fact_dispute
from review.services.terms import term_candidate_decide

Role = Membership.Role


def _fact_rows(case: Any, user: Any) -> list[dict[str, Any]]:
    """Facts with their decisions and evidence, in three queries."""
    types = vocabulary_for_case(case).types
    parties = dict(case.parties.values_list("pk", "name"))
    facts = list(facts_for_case(case=case).order_by("fact_type", "id"))
    ids = [f.pk for f in facts]
    decisions: dict[int, list[Decision]] = {}
    for decision in Decision.objects.filter(fact_id__in=ids).order_by("id"):
        decisions.setdefault(decision.fact_id or 0, []).append(decision)
    evidence: dict[int, list[dict[str, Any]]] = {}
    for item in (
        FactEvidence.objects.filter(fact_id__in=ids)
        .select_related("chunk__document", "proposal")
        .order_by("id")
    ):
        chunk = item.chunk
        proposal = item.proposal
        evidence.setdefault(item.fact_id, []).append(
            {
                "item": item,
                "chunk": chunk,
                "document": chunk.document,
                "page": chunk.page_start,
                "url": viewer_url(
                    case_id=case.pk,
                    document_id=chunk.document_id,
                    number=quote_pages(chunk=chunk, quote=item.quote)[0],
                    chunk_id=chunk.pk,
                    quote=item.quote,
                    back=reverse("review:case_facts", kwargs={"case_id": case.pk})
                    + f"#fact-{item.fact_id}",
                ),
                "proposal": proposal,
                "run_url": agent_run_url(proposal.agent_run_id, proposal.case_id)
                if proposal
                else "",
            }
        )
    rows = []
    for fact in facts:
        info = types.get(fact.fact_type)
        rows.append(
            {
                "fact": fact,
                "type_label": fact_type_label(info, fact.fact_type),
                "value_text": _schema(info).display(
                    fact.value, party_names_by_id=parties
                ),
                "decisions": decisions.get(fact.pk, []),
                "evidence": evidence.get(fact.pk, []),
                "can_confirm": (
                    fact.status == Fact.Status.EVIDENCED
                    and fact.evidenced_by_id != user.pk
                ),
            }
        )
    return rows


def _schema(info: FactTypeInfo | None) -> FactValueSchema:
    return info.value_schema if info else value_schema("text")


@login_required
@require_GET
def case_facts(request: HttpRequest, case_id: int) -> HttpResponse:
    """Every fact of the case with its status and full provenance chain."""
    case = case_get_for_user(user=request.user, case_id=case_id)
    return render_case_tab(
        request,
        case=case,
        tab="review",
        template="review/case_facts.html",
        context={
            "sub": "facts",
            "rows": _fact_rows(case, request.user),
            "can_decide": user_has_role(request.user, Role.REVIEWER),
            "four_eyes": case.organisation.four_eyes_review,
        },
    )


@login_required
@require_GET
def fact_detail(request: HttpRequest, fact_id: int) -> HttpResponse:
    fact = fact_get_for_user(user=request.user, fact_id=fact_id)
    info = vocabulary_for_case(fact.case).get(fact.fact_type)
    return render_case_tab(
        request,
        case=fact.case,
        tab="review",
        template="review/fact_detail.html",
        context={
            "sub": "facts",
            "provenance": fact_provenance(fact=fact),
            "type_label": fact_type_label(info, fact.fact_type),
            "value_text": _schema(info).display(
                fact.value,
                party_names_by_id=dict(fact.case.parties.values_list("pk", "name")),
            ),
        },
    )


def _fact_action(request: HttpRequest, fact_id: int, action: str) -> HttpResponse:
    fact = fact_get_for_user(user=request.user, fact_id=fact_id)
    try:
        if action == "confirm":
            fact_confirm(
                fact=fact, reviewer=request.user, reason=request.POST.get("reason", "")
            )
            messages.success(request, _("Fact confirmed."))
        else:
            fact_dispute(
                fact=fact, reviewer=request.user, reason=request.POST.get("reason", "")
            )
            messages.success(request, _("Fact recorded as disputed."))
    except DomainError as exc:
        messages.error(request, exc.message)
    return redirect(reverse("review:case_facts", kwargs={"case_id": fact.case_id}))


@login_required
@require_POST
def fact_confirm_view(request: HttpRequest, fact_id: int) -> HttpResponse:
    return _fact_action(request, fact_id, "confirm")


@login_required
@require_POST
def fact_dispute_view(request: HttpRequest, fact_id: int) -> HttpResponse:
    return _fact_action(request, fact_id, "dispute")


# ---------------------------------------------------------------------- terms
@login_required
@require_GET
def term_queue(request: HttpRequest) -> HttpResponse:
    """The curator's queue: synonym, new subclass, or noise."""
    status = request.GET.get("status", TermCandidate.Status.PENDING)
    if status not in (*TermCandidate.Status.values, "all"):
        status = TermCandidate.Status.PENDING
    latest = ontology_extension_latest_for_user(user=request.user)
    candidates = list(
        term_candidates_for_user(
            user=request.user, status="" if status == "all" else status
        )[:200]
    )
    context = {
        "candidates": candidates,
        "status": status,
        "status_choices": TermCandidate.Status.choices,
        "resolutions": TermCandidate.Resolution.choices,
        "concepts": concepts(
            core=vocabulary_graph(), extension_turtle=latest.turtle if latest else ""
        ),
        "latest": latest,
        "can_curate": user_has_role(request.user, Role.CURATOR),
    }
    template = "review/terms.html"
    if is_fragment_request(request):
        template += "#term-list"
    return render(request, template, context)


@login_required
@require_POST
def term_decide(request: HttpRequest, candidate_id: int) -> HttpResponse:
    candidate = term_candidate_get_for_user(
        user=request.user, candidate_id=candidate_id
    )
    try:
        term_candidate_decide(
            candidate=candidate,
            curator=request.user,
            resolution=request.POST.get("resolution", ""),
            concept=request.POST.get("concept", ""),
            reason=request.POST.get("reason", ""),
        )
    except DomainError as exc:
        messages.error(request, f"{candidate.label}: {exc.message}")
    else:
        messages.success(
            request, _("Term “%(label)s” decided.") % {"label": candidate.label}
        )
    return redirect(reverse("review:terms"))
