"""The review queue pages (htmx): the case's Review tab and the firm-wide
queue, one proposal beside its highlighted page, keyboard-first decisions,
claims and bulk decisions. Views parse, fetch through the scoped selectors
(another firm's proposal is 404) and call the services; a DomainError (a
conflict, a missing role, an invalid value) is shown in the item, never lost.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from cases.errors import DomainError
from cases.models import Case, Membership
from cases.selectors import case_get_for_user, case_list_for_user, user_has_role
from cases.tabs import is_fragment_request, render_case_tab
from ontology.domain.values import FactValueInvalid, FactValueSchema, value_schema
from ontology.value_messages import fact_value_invalid_text
from review.errors import InvalidValue
from review.forms import FactValueForm
from review.models import ExtractionProposal
from review.selectors import (
    QUEUE_PAGE,
    QueueFilters,
    agent_run_url,
    case_fact_types,
    chunk_highlight,
    decision_get_for_user,
    decision_last_of_user,
    fact_type_label,
    fact_type_labels,
    proposal_get_for_user,
    proposal_queue,
    proposal_twins,
    proposals_newer_count,
    proposals_newest_id,
    queue_assignees,
    queue_fact_types,
    vocabulary_for_case,
    vocabulary_for_user,
)
from review.services import decisions
from review.services.decisions import proposal_claim, proposals_decide_bulk
from review.services.undo import decision_undo, decision_undoable

Role = Membership.Role


def _filters_qs(filters: QueueFilters) -> str:
    params: dict[str, Any] = {}
    if filters.case_id is not None:
        params["case"] = filters.case_id
    if filters.fact_type:
        params["fact_type"] = filters.fact_type
    if filters.status != ExtractionProposal.Status.PENDING:
        params["status"] = filters.status or "all"
    if filters.min_confidence is not None:
        params["min_confidence"] = filters.min_confidence
    if filters.max_confidence is not None:
        params["max_confidence"] = filters.max_confidence
    if filters.assignee:
        params["assignee"] = filters.assignee
    return urlencode(params)


def _int(value: Any) -> int | None:
    text = str(value or "")
    return int(text) if text.isdecimal() else None


def item_context(
    request: HttpRequest,
    proposal: ExtractionProposal,
    *,
    filters_qs: str = "",
    error: DomainError | None = None,
    notice: str = "",
    posted: QueryDict | None = None,
) -> dict[str, Any]:
    """Everything the item partial shows about one proposal."""
    info = vocabulary_for_case(proposal.case).get(proposal.fact_type)
    schema = _schema(proposal)
    parties = list(proposal.case.parties.values_list("pk", "name"))
    last = decision_last_of_user(user=request.user, case_id=proposal.case_id)
    undoable = last and decision_undoable(decision=last, reviewer=request.user)
    undo = last if undoable else None
    claimed_by_other = (
        proposal.claim_active() and proposal.assignee_id != request.user.pk
    )
    group = [proposal, *proposal_twins(proposal=proposal)]
    runs = sorted({p.agent_run_id for p in group if p.agent_run_id is not None})
    return {
        "group_ids": [p.pk for p in group],
        "group_runs": [(run, agent_run_url(run, proposal.case_id)) for run in runs],
        "item": proposal,
        "kind": schema.kind,
        "type_label": fact_type_label(info, proposal.fact_type),
        "value_text": schema.display(proposal.value, party_names_by_id=dict(parties)),
        "form": FactValueForm(
            posted, schema=schema, parties=parties, value=proposal.value
        ),
        "editing": posted is not None,
        "highlight": chunk_highlight(
            chunk=proposal.source_chunk,
            quote=proposal.quote,
            back=reverse("review:proposal_detail", kwargs={"proposal_id": proposal.pk}),
        ),
        "run_url": agent_run_url(proposal.agent_run_id, proposal.case_id),
        "parties": parties,
        "can_decide": user_has_role(request.user, Role.REVIEWER),
        "pending": proposal.status == ExtractionProposal.Status.PENDING,
        "claimed_by_other": claimed_by_other,
        "filters_qs": filters_qs,
        "error": error,
        "notice": notice,
        "undo": undo,
        "undo_next": (
            reverse("review:case_review", kwargs={"case_id": proposal.case_id})
            + (f"?{filters_qs}" if filters_qs else "")
        ),
    }


def queue_context(
    request: HttpRequest, *, filters: QueueFilters, case: Case | None = None
) -> dict[str, Any]:
    after = _int(request.GET.get("after"))
    before = _int(request.GET.get("before"))
    items = proposal_queue(
        user=request.user, filters=filters, after_id=after, before_id=before
    )
    selected_id = _int(request.GET.get("item"))
    selected = None
    if selected_id is not None:
        selected = proposal_get_for_user(user=request.user, proposal_id=selected_id)
    elif items:
        selected = items[0]
    labels = fact_type_labels(
        vocabulary_for_case(case)
        if case is not None
        else vocabulary_for_user(request.user)
    )
    for proposal in items:
        proposal.type_label = labels.get(proposal.fact_type, proposal.fact_type)  # type: ignore[attr-defined]
    filters_qs = _filters_qs(filters)
    base = (
        reverse("review:case_review", kwargs={"case_id": case.pk})
        if case is not None
        else reverse("review:queue")
    )
    sep = "&" if filters_qs else ""
    return {
        "items": items,
        "filters": filters,
        "filters_qs": filters_qs,
        "queue_url": base,
        "it": item_context(request, selected, filters_qs=filters_qs)
        if selected
        else None,
        "fact_types": (
            case_fact_types(case=case)
            if case is not None
            else queue_fact_types(user=request.user)
        ),
        "assignees": queue_assignees(user=request.user),
        "status_choices": ExtractionProposal.Status.choices,
        "cases": (
            list(case_list_for_user(user=request.user).values_list("pk", "reference"))
            if case is None
            else []
        ),
        "case": case,
        "next_url": (
            f"{base}?{filters_qs}{sep}after={items[-1].pk}"
            if len(items) == QUEUE_PAGE
            else ""
        ),
        "prev_url": (
            f"{base}?{filters_qs}{sep}before={items[0].pk}"
            if items and (after is not None or before is not None)
            else ""
        ),
        "can_decide": user_has_role(request.user, Role.REVIEWER),
        "newest_id": (
            proposals_newest_id(user=request.user, case_id=case.pk)
            if case is not None
            else 0
        ),
    }


@login_required
@require_GET
def case_review(request: HttpRequest, case_id: int) -> HttpResponse:
    """The case's Review tab: its proposals beside the highlighted page."""
    case = case_get_for_user(user=request.user, case_id=case_id)
    params = request.GET.copy()
    params["case"] = str(case.pk)
    filters = QueueFilters.from_params(params)
    return render_case_tab(
        request,
        case=case,
        tab="review",
        template="review/case_review.html",
        context={**queue_context(request, filters=filters, case=case), "sub": "queue"},
    )


@login_required
@require_GET
def queue(request: HttpRequest) -> HttpResponse:
    """The firm-wide queue, filterable by case, fact type, confidence, status
    and assignee."""
    filters = QueueFilters.from_params(request.GET)
    response = render(
        request, "review/queue.html", queue_context(request, filters=filters)
    )
    patch_vary_headers(response, ("HX-Request",))
    return response


@login_required
@require_GET
def proposal_detail(request: HttpRequest, proposal_id: int) -> HttpResponse:
    """One item: the partial for htmx (j/k), the queue page around it otherwise."""
    proposal = proposal_get_for_user(user=request.user, proposal_id=proposal_id)
    filters_qs = request.GET.get("filters", "")
    if is_fragment_request(request):
        return render(
            request,
            "review/partials/item.html",
            {"it": item_context(request, proposal, filters_qs=filters_qs)},
        )
    params = QueryDict(filters_qs, mutable=True)
    params["item"] = str(proposal.pk)
    return redirect(f"{reverse('review:queue')}?{params.urlencode()}")


NOTICES: dict[str, Any] = {
    "accept": gettext_lazy("Accepted."),
    "edit": gettext_lazy("Edited and accepted."),
    "dispute": gettext_lazy("Recorded as disputed."),
    "reject": gettext_lazy("Rejected."),
}


def _decide(request: HttpRequest, proposal: ExtractionProposal) -> str:
    """Read the decision off the form and hand it to ``proposal_decide`` (the
    service the API calls too). The typed editor's value goes with an edit,
    and with a dispute when the reviewer opened the editor (its fields are
    only submitted then, marked by ``edited``)."""
    action = request.POST.get("action", "")
    value = None
    if action == "edit" or (action == "dispute" and request.POST.get("edited")):
        form = FactValueForm(
            request.POST,
            schema=_schema(proposal),
            parties=list(proposal.case.parties.values_list("pk", "name")),
        )
        try:
            value = form.json_value()
        except FactValueInvalid as exc:
            raise InvalidValue(
                fact_value_invalid_text(exc, schema=form.schema),
                hint={"field": exc.field, "reason": exc.code},
            ) from None
    decisions.proposal_decide(
        proposal=proposal,
        reviewer=request.user,
        action=action,
        value=value,
        reason=request.POST.get("reason", "").strip(),
    )
    return str(NOTICES[action])


@login_required
@require_POST
def proposal_decide(request: HttpRequest, proposal_id: int) -> HttpResponse:
    """Accept / edit-then-accept / dispute / reject, then show the next item.
    A conflict (someone else was faster) re-renders this item with the message
    and status 409; nothing the reviewer typed is lost."""
    proposal = proposal_get_for_user(user=request.user, proposal_id=proposal_id)
    filters_qs = request.POST.get("filters", "")
    filters = QueueFilters.from_params(QueryDict(filters_qs))
    try:
        notice = _decide(request, proposal)
    except DomainError as exc:
        proposal.refresh_from_db()
        if not is_fragment_request(request):
            messages.error(request, exc.message)
            return redirect(_back(request, filters_qs, proposal.pk))
        editing = request.POST.get("action") == "edit" or request.POST.get("edited")
        context = item_context(
            request,
            proposal,
            filters_qs=filters_qs,
            error=exc,
            posted=request.POST if editing else None,
        )
        context["posted"] = request.POST
        return render(
            request,
            "review/partials/item.html",
            {"it": context},
            status=exc.http_status,
        )
    following = proposal_queue(
        user=request.user, filters=filters, after_id=proposal.pk, limit=1
    ) or proposal_queue(user=request.user, filters=filters, limit=1)
    if not is_fragment_request(request):
        messages.success(request, notice)
        return redirect(
            _back(request, filters_qs, following[0].pk if following else None)
        )
    last = decision_last_of_user(user=request.user, case_id=proposal.case_id)
    return render(
        request,
        "review/partials/decided.html",
        {
            "decided_id": proposal.pk,
            "notice": notice,
            "case_id": proposal.case_id,
            "undo": last,
            "undo_next": reverse(
                "review:case_review", kwargs={"case_id": proposal.case_id}
            ),
            "it": (
                item_context(
                    request, following[0], filters_qs=filters_qs, notice=notice
                )
                if following
                else None
            ),
        },
    )


def _schema(proposal: ExtractionProposal) -> FactValueSchema:
    """The proposal's value schema (a fact type no longer in the vocabulary is
    shown as text; deciding it fails with unknown_fact_type)."""
    info = vocabulary_for_case(proposal.case).get(proposal.fact_type)
    return info.value_schema if info else value_schema("text")


def _back(request: HttpRequest, filters_qs: str, item_id: int | None) -> str:
    params = QueryDict(filters_qs, mutable=True)
    if item_id is not None:
        params["item"] = str(item_id)
    return f"{reverse('review:queue')}?{params.urlencode()}"


@login_required
@require_POST
def proposal_claim_view(request: HttpRequest, proposal_id: int) -> HttpResponse:
    """Claim the item for this reviewer (the item view does it when opened)."""
    proposal = proposal_get_for_user(user=request.user, proposal_id=proposal_id)
    error: DomainError | None = None
    try:
        proposal_claim(proposal=proposal, reviewer=request.user)
    except DomainError as exc:
        error = exc
        proposal.refresh_from_db()
    return render(
        request,
        "review/partials/claim.html",
        {"item": proposal, "error": error, "mine": error is None},
        status=200 if error is None else error.http_status,
    )


@login_required
@require_POST
def proposals_bulk(request: HttpRequest) -> HttpResponse:
    """Accept or reject the selected proposals; conflicts are listed, the rest
    go through."""
    filters_qs = request.POST.get("filters", "")
    ids = [int(v) for v in request.POST.getlist("ids") if v.isdecimal()]
    action = request.POST.get("bulk", "")
    # Scoped: ids of another firm simply are not found.
    chosen = [
        proposal_get_for_user(user=request.user, proposal_id=pk) for pk in ids[:200]
    ]
    try:
        result = proposals_decide_bulk(
            proposals=chosen,
            reviewer=request.user,
            action=action,
            reason=request.POST.get("reason", ""),
        )
    except (DomainError, ValueError) as exc:
        messages.error(request, getattr(exc, "message", str(exc)))
    else:
        if result.decided:
            messages.success(
                request,
                _("%(count)d proposals decided.") % {"count": len(result.decided)},
            )
        for conflict in result.conflicts:
            messages.error(request, f"#{conflict['id']}: {conflict['message']}")
    target = request.POST.get("next", "")
    if not target.startswith("/") or target.startswith("//"):
        target = _back(request, filters_qs, None)
    return redirect(target)


@login_required
@require_POST
def decision_undo_view(request: HttpRequest, decision_id: int) -> HttpResponse:
    """Take back one's last decision (``u`` on the desk), then show its
    proposal again. A decision that can no longer be undone says why."""
    decision = decision_get_for_user(user=request.user, decision_id=decision_id)
    proposal_id = decision.proposal_id
    try:
        undo = decision_undo(decision=decision, reviewer=request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        proposal_id = undo.proposal_id  # a group's first proposal: its desk item
        messages.success(request, _("Decision undone; the proposal is open again."))
    target = request.POST.get("next", "")
    if not target.startswith("/") or target.startswith("//"):
        target = reverse("review:case_review", kwargs={"case_id": decision.case_id})
    params = QueryDict(target.partition("?")[2], mutable=True)
    if proposal_id is not None:
        params["item"] = str(proposal_id)
        params["status"] = "all"
    return redirect(f"{target.partition('?')[0]}?{params.urlencode()}")


@login_required
@require_GET
def case_new_proposals(request: HttpRequest, case_id: int) -> HttpResponse:
    """Polled by the desk: how many proposals arrived since it was opened
    (``since``: the newest proposal id it showed)."""
    case = case_get_for_user(user=request.user, case_id=case_id)
    since = _int(request.GET.get("since")) or 0
    count = proposals_newer_count(user=request.user, case_id=case.pk, since_id=since)
    return render(
        request,
        "review/partials/new_proposals.html",
        {"case": case, "since": since, "new_count": count},
    )
