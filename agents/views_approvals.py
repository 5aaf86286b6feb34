"""The approval queue: tool calls the gate held for a human, per case (under
the Review tab) and firm-wide, with their arguments, the prepared result and
the policies that held them. Lawyers approve (the gate's after-checks and
commit run then) or reject with a reason."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from agents.approvals import (
    HeldCallNotPending,
    RejectionReasonRequired,
    held_call_approve,
    held_call_reject,
)
from agents.models import HeldToolCall
from agents.selectors import (
    held_call_get_for_user,
    held_calls_for_case,
    held_calls_for_firm,
)
from cases.errors import RoleRequired
from cases.models import Membership
from cases.selectors import case_get_for_user, user_has_role
from cases.tabs import render_case_tab

PER_PAGE = 25
STATUSES = tuple(HeldToolCall.Status.values)


def _can_decide(user: Any) -> bool:
    return user_has_role(user, Membership.Role.LAWYER)


def _status(request: HttpRequest) -> str:
    """The status filter: pending by default, ``all`` for every status."""
    wanted = request.GET.get("status", HeldToolCall.Status.PENDING)
    if wanted == "all":
        return ""
    return wanted if wanted in STATUSES else HeldToolCall.Status.PENDING


def _context(request: HttpRequest, queryset: Any) -> dict[str, Any]:
    status = _status(request)
    page = Paginator(queryset, PER_PAGE).get_page(request.GET.get("page"))
    return {
        "page": page,
        "status": status or "all",
        "statuses": HeldToolCall.Status.choices,
        "can_decide": _can_decide(request.user),
        "query": {"status": status or "all"},
    }


@login_required
@require_GET
def approvals(request: HttpRequest) -> HttpResponse:
    """Every held call of the firm's cases (lawyers only)."""
    if not _can_decide(request.user):
        raise PermissionDenied(_("Only lawyers decide held tool calls."))
    context = _context(
        request, held_calls_for_firm(user=request.user, status=_status(request))
    )
    return render(request, "agents/approvals.html", {**context, "firm_wide": True})


@login_required
@require_GET
def case_approvals(request: HttpRequest, case_id: int) -> HttpResponse:
    case = case_get_for_user(user=request.user, case_id=case_id)
    context = _context(request, held_calls_for_case(case=case, status=_status(request)))
    return render_case_tab(
        request,
        case=case,
        tab="review",
        template="agents/case_approvals.html",
        context={**context, "firm_wide": False},
    )


def _back(request: HttpRequest, held: HeldToolCall) -> HttpResponse:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect("agents:case_approvals", case_id=held.case_id)


@login_required
@require_POST
def held_call_approve_view(
    request: HttpRequest, case_id: int, held_id: int
) -> HttpResponse:
    held = held_call_get_for_user(user=request.user, case_id=case_id, held_id=held_id)
    try:
        held = held_call_approve(held=held, actor=request.user)
    except RoleRequired as exc:
        raise PermissionDenied(exc.message) from exc
    except HeldCallNotPending as exc:
        messages.error(request, exc.message)
        return _back(request, held)
    if held.status == HeldToolCall.Status.APPROVED:
        messages.success(request, _("Approved: the call was executed."))
    else:
        messages.warning(
            request,
            _("Approved, but a check refused the call now: %(message)s")
            % {"message": (held.result or {}).get("message", "")},
        )
    return _back(request, held)


@login_required
@require_POST
def held_call_reject_view(
    request: HttpRequest, case_id: int, held_id: int
) -> HttpResponse:
    held = held_call_get_for_user(user=request.user, case_id=case_id, held_id=held_id)
    try:
        held = held_call_reject(
            held=held, actor=request.user, reason=request.POST.get("reason", "")
        )
    except RoleRequired as exc:
        raise PermissionDenied(exc.message) from exc
    except (HeldCallNotPending, RejectionReasonRequired) as exc:
        messages.error(request, exc.message)
        return _back(request, held)
    messages.success(request, _("Rejected; the run gets the reason."))
    return _back(request, held)
