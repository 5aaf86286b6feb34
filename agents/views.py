"""Agent runs on the case page (under the Review tab): the list of runs with a
button to start an extraction, and a run step by step — what the model
proposed verbatim, the gate's verdict and the observation it got back."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseStopPolling

from agents.models import AgentRun
from agents.selectors import (
    agent_run_get_for_user,
    agent_runs_for_case,
    agent_steps_for_run,
    proposal_summary,
    proposals_of_run,
)
from agents.services import extraction_run_start
from cases.models import Membership
from cases.selectors import case_get_for_user, user_has_role
from cases.tabs import is_fragment_request, render_case_tab

RUNS_PER_PAGE = 20
STEPS_PER_PAGE = 100
VERDICTS = ("ok", "rejected", "approval_required", "unavailable")


def _can_start(user: Any) -> bool:
    return user_has_role(user, Membership.Role.LAWYER)


@login_required
@require_GET
def case_runs(request: HttpRequest, case_id: int) -> HttpResponse:
    case = case_get_for_user(user=request.user, case_id=case_id)
    page = Paginator(agent_runs_for_case(case=case), RUNS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    running = any(not run.is_finished for run in page.object_list)
    context = {"page": page, "can_start": _can_start(request.user), "running": running}
    if is_fragment_request(request) and request.GET.get("poll"):
        if not running:
            return HttpResponseStopPolling()
        return render_case_tab(
            request,
            case=case,
            tab="review",
            template="agents/case_runs.html#run-table",
            context=context,
        )
    return render_case_tab(
        request,
        case=case,
        tab="review",
        template="agents/case_runs.html",
        context=context,
    )


@login_required
@require_POST
def case_run_start(request: HttpRequest, case_id: int) -> HttpResponse:
    case = case_get_for_user(user=request.user, case_id=case_id)
    if not _can_start(request.user):
        raise PermissionDenied(_("Only lawyers can start an extraction."))
    provider = request.POST.get("provider") or None
    if provider not in (None, "rules", "openai"):
        provider = None
    run = extraction_run_start(
        case=case, actor=request.user, provider=provider, run_async=True
    )
    messages.success(request, _("The extraction was queued."))
    return redirect("agents:run_detail", case_id=case.pk, run_id=run.pk)


@login_required
@require_GET
def case_run_detail(request: HttpRequest, case_id: int, run_id: int) -> HttpResponse:
    run = agent_run_get_for_user(user=request.user, case_id=case_id, run_id=run_id)
    steps = agent_steps_for_run(run=run)
    verdict = request.GET.get("verdict", "")
    if verdict in VERDICTS:
        steps = steps.filter(verdict=verdict)
    page = Paginator(steps, STEPS_PER_PAGE).get_page(request.GET.get("page"))
    proposals = [proposal_summary(p) for p in proposals_of_run(run=run)[:200]]
    context = {
        "run": run,
        "page": page,
        "verdict": verdict,
        "verdicts": VERDICTS,
        "query": {"verdict": verdict} if verdict else {},
        "proposals": proposals,
        "statuses": AgentRun.Status,
    }
    if is_fragment_request(request) and request.GET.get("poll"):
        if run.is_finished:
            response = render_case_tab(
                request,
                case=run.case,
                tab="review",
                template="agents/run_detail.html#run-summary",
                context=context,
            )
            response.status_code = HttpResponseStopPolling.status_code
            # The steps and proposals below the summary were rendered while the
            # run was going: reload the page once so they show in full.
            response["HX-Refresh"] = "true"
            return response
        return render_case_tab(
            request,
            case=run.case,
            tab="review",
            template="agents/run_detail.html#run-summary",
            context=context,
        )
    return render_case_tab(
        request,
        case=run.case,
        tab="review",
        template="agents/run_detail.html",
        context=context,
    )
