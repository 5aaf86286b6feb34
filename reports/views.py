"""The Reports tab (htmx): the case's reports, creating one (lawyers), the
browser preview, issuing (lawyers) and downloads. Everyone of the firm reads;
another firm's case or report is 404. A DomainError is shown, never lost."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
)
from django_htmx.http import HttpResponseStopPolling

from cases.errors import DomainError
from cases.models import Claim, Membership
from cases.selectors import case_get_for_user, user_has_role
from cases.tabs import is_fragment_request, render_case_tab
from reports.domain.drafting import Language
from reports.exports import CONTENT_TYPES, export_bytes
from reports.forms import WordingDecisionForm
from reports.models import Report, ReportBuild
from reports.selectors import (
    report_build_get_for_user,
    report_builds_open_for_case,
    report_document,
    report_get_for_user,
    reports_for_case,
)
from reports.services import report_issue
from reports.services.builds import report_build_start
from reports.services.wording import report_wording_confirm, report_wording_pending


def _tab(
    request: HttpRequest, case: Any, context: dict[str, Any] | None = None
) -> HttpResponse:
    claims = list(Claim.objects.filter(case=case).order_by("id"))
    return render_case_tab(
        request,
        case=case,
        tab="reports",
        template="reports/case_reports.html",
        context={
            "reports": reports_for_case(case=case),
            "builds": report_builds_open_for_case(case=case),
            "claims": claims,
            "can_create": user_has_role(request.user, Membership.Role.LAWYER),
            "model_configured": bool(settings.BELEGT_LLM_MODEL),
            **(context or {}),
        },
    )


@login_required
@require_GET
def case_reports(request: HttpRequest, case_id: int) -> HttpResponse:
    """The case's reports: status, counts, stale marks, preview, downloads."""
    case = case_get_for_user(user=request.user, case_id=case_id)
    return _tab(request, case)


@login_required
@require_POST
def report_create_view(request: HttpRequest, case_id: int) -> HttpResponse:
    """Queue the report for a worker and show its progress page at once."""
    case = case_get_for_user(user=request.user, case_id=case_id)
    claim_ids = [int(v) for v in request.POST.getlist("claims") if v.isdigit()]
    claims = list(Claim.objects.filter(case=case, pk__in=claim_ids)) or None
    language: Language = "de" if request.POST.get("language") == "de" else "en"
    drafter = "model" if request.POST.get("drafter") == "model" else "rules"
    try:
        build = report_build_start(
            case=case,
            actor=request.user,
            claims=claims,
            language=language,
            drafter=drafter,
        )
    except DomainError as exc:
        response = _tab(request, case, {"error": exc.message})
        response.status_code = exc.http_status
        return response
    return redirect("reports:build_detail", build_id=build.pk)


@login_required
@require_GET
def build_detail(request: HttpRequest, build_id: int) -> HttpResponse:
    """A report build's progress. The page polls its summary (htmx, every
    second) until the build ends: then polling stops (HTTP 286) and a build
    that made its report sends the browser to it, a failed one shows why.
    Without htmx a finished build's page redirects to its report."""
    build = report_build_get_for_user(user=request.user, build_id=build_id)
    succeeded = build.status == ReportBuild.Status.SUCCEEDED and build.report_id
    polling = is_fragment_request(request) and request.GET.get("poll")
    if succeeded and not polling:
        return redirect("reports:report_detail", report_id=build.report_id)
    context = {"build": build, "statuses": ReportBuild.Status}
    if not polling:
        return render_case_tab(
            request,
            case=build.case,
            tab="reports",
            template="reports/build_detail.html",
            context=context,
        )
    response = render_case_tab(
        request,
        case=build.case,
        tab="reports",
        template="reports/build_detail.html#build-progress",
        context=context,
    )
    if build.is_finished:
        response.status_code = HttpResponseStopPolling.status_code
        if succeeded:
            response["HX-Redirect"] = reverse(
                "reports:report_detail", args=[build.report_id]
            )
    return response


def _detail(
    request: HttpRequest, report: Report, context: dict[str, Any] | None = None
) -> HttpResponse:
    is_lawyer = user_has_role(request.user, Membership.Role.LAWYER)
    return render_case_tab(
        request,
        case=report.case,
        tab="reports",
        template="reports/report_detail.html",
        context={
            "report": report,
            "doc": report_document(report=report),
            "can_issue": is_lawyer and report.status == Report.Status.DRAFT,
            "can_decide": is_lawyer and report.status == Report.Status.DRAFT,
            "wording_items": report_wording_pending(report=report),
            **(context or {}),
        },
    )


@login_required
@require_GET
def report_detail(request: HttpRequest, report_id: int) -> HttpResponse:
    """The browser preview: the same document the exports render."""
    report = report_get_for_user(user=request.user, report_id=report_id)
    return _detail(request, report)


@login_required
@require_http_methods(["GET", "POST"])
def report_wording(request: HttpRequest, report_id: int) -> HttpResponse:
    """GET: the wording decisions the report waits for (each provision with
    the pinned text and its date). POST (lawyers): "Wortlaut galt am <Datum>
    unverändert" for one of them; htmx gets the updated preview back."""
    report = report_get_for_user(user=request.user, report_id=report_id)
    if request.method == "GET":
        return render_case_tab(
            request,
            case=report.case,
            tab="reports",
            template="reports/report_wording.html",
            context={
                "report": report,
                "wording_items": report_wording_pending(report=report),
                "can_decide": user_has_role(request.user, Membership.Role.LAWYER)
                and report.status == Report.Status.DRAFT,
            },
        )
    form = WordingDecisionForm(request.POST)
    error = ""
    status = 200
    if not form.is_valid():
        error = " ".join(str(m) for ms in form.errors.values() for m in ms)
        status = 400
    else:
        data = form.cleaned_data
        try:
            report_wording_confirm(
                report=report,
                citation_id=data["citation"],
                actor=request.user,
                reason=data["reason"],
                date_from=data.get("date_from"),
                date_to=data.get("date_to"),
            )
        except DomainError as exc:
            error = exc.message
            status = exc.http_status
    if getattr(request, "htmx", False):
        response = _detail(
            request,
            report,
            {
                "wording_error": error,
                "wording_citation": request.POST.get("citation", ""),
                "wording_reason": request.POST.get("reason", ""),
            },
        )
        response.status_code = status
        return response
    if error:
        messages.error(request, error)
    else:
        messages.success(request, _("Wording decision recorded."))
    return redirect(
        reverse("reports:report_detail", args=[report.pk]) + "#human-review"
    )


@login_required
@require_http_methods(["GET", "POST"])
def report_issue_view(request: HttpRequest, report_id: int) -> HttpResponse:
    """GET: the confirmation step — what issuing makes immutable (no inline
    script: the CSP forbids it). POST (lawyers): issue."""
    report = report_get_for_user(user=request.user, report_id=report_id)
    if request.method == "GET":
        if report.status != Report.Status.DRAFT:
            return redirect("reports:report_detail", report_id=report.pk)
        doc = report_document(report=report)
        return render_case_tab(
            request,
            case=report.case,
            tab="reports",
            template="reports/report_issue_confirm.html",
            context={
                "report": report,
                "doc": doc,
                "can_issue": user_has_role(request.user, Membership.Role.LAWYER),
                "wording_items": report_wording_pending(report=report),
            },
        )
    try:
        report_issue(report=report, actor=request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Report issued; its files are sealed."))
    return redirect("reports:report_detail", report_id=report.pk)


@login_required
@require_GET
def report_download(
    request: HttpRequest, report_id: int, export_format: str
) -> HttpResponse:
    report = report_get_for_user(user=request.user, report_id=report_id)
    if export_format not in CONTENT_TYPES:
        return HttpResponse(status=404)
    content, filename = export_bytes(report=report, fmt=export_format)
    response = HttpResponse(content, content_type=CONTENT_TYPES[export_format])
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
