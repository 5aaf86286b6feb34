"""The reports API: create (lawyers), list, retrieve with findings and every
verdict, issue (lawyers), download. Another firm's case or report is 404."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, OpenApiTypes, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cases.models import Claim
from cases.selectors import case_get_for_user
from reports.api.serializers import (
    ReportBuildOutputSerializer,
    ReportCreateInputSerializer,
    ReportDetailOutputSerializer,
    ReportOutputSerializer,
    WordingConfirmationOutputSerializer,
    WordingDecisionInputSerializer,
)
from reports.exports import CONTENT_TYPES, export_bytes
from reports.selectors import (
    report_build_get_for_user,
    report_get_for_user,
    reports_for_user,
)
from reports.services import report_issue
from reports.services.builds import report_build_start
from reports.services.wording import report_wording_confirm, report_wording_pending


class ReportListCreateApi(APIView):
    @extend_schema(
        operation_id="reports_list",
        parameters=[OpenApiParameter("case", int, description="Only this case.")],
        responses=ReportOutputSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        reports = reports_for_user(user=request.user).prefetch_related(
            "stale_marks", "claims"
        )
        raw = request.query_params.get("case", "")
        if raw:
            case = case_get_for_user(user=request.user, case_id=raw)
            reports = reports.filter(case=case)
        return Response(ReportOutputSerializer(reports[:200], many=True).data)

    @extend_schema(
        operation_id="reports_create",
        request=ReportCreateInputSerializer,
        responses={202: ReportBuildOutputSerializer},
    )
    def post(self, request: Request) -> Response:
        """Queue a report of the case's claims (all by default) for a worker
        to draft, gate and store. Answers 202 at once with the build; poll
        its ``status_url`` until ``status`` is ``succeeded`` (then
        ``report_url`` names the report) or ``failed`` (``failure_code`` and
        ``reason`` say why)."""
        params = ReportCreateInputSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        data = params.validated_data
        case = case_get_for_user(user=request.user, case_id=data["case"])
        claims = None
        if data.get("claims"):
            claims = list(Claim.objects.filter(case=case, pk__in=data["claims"]))
            if len(claims) != len(set(data["claims"])):
                return Response(
                    {"code": "claim_not_in_case", "message": "Unknown claim."},
                    status=status.HTTP_400_BAD_REQUEST,
                )
        build = report_build_start(
            case=case,
            actor=request.user,
            claims=claims,
            language=data["language"],
            drafter=data["drafter"],
            title=data.get("title", ""),
        )
        body = ReportBuildOutputSerializer(build, context={"request": request}).data
        return Response(
            body,
            status=status.HTTP_202_ACCEPTED,
            headers={"Location": body["status_url"]},
        )


class ReportBuildDetailApi(APIView):
    @extend_schema(
        operation_id="reports_build_retrieve", responses=ReportBuildOutputSerializer
    )
    def get(self, request: Request, build_id: int) -> Response:
        """Where a report build stands (poll until succeeded or failed)."""
        build = report_build_get_for_user(user=request.user, build_id=build_id)
        return Response(
            ReportBuildOutputSerializer(build, context={"request": request}).data
        )


class ReportDetailApi(APIView):
    @extend_schema(
        operation_id="reports_retrieve", responses=ReportDetailOutputSerializer
    )
    def get(self, request: Request, report_id: int) -> Response:
        report = report_get_for_user(user=request.user, report_id=report_id)
        return Response(ReportDetailOutputSerializer(report).data)


class ReportIssueApi(APIView):
    @extend_schema(
        operation_id="reports_issue", request=None, responses=ReportOutputSerializer
    )
    def post(self, request: Request, report_id: int) -> Response:
        """Seal the report: exports stored with their SHA-256; immutable after."""
        report = report_get_for_user(user=request.user, report_id=report_id)
        report = report_issue(report=report, actor=request.user)
        return Response(ReportOutputSerializer(report).data)


class ReportDownloadApi(APIView):
    @extend_schema(
        operation_id="reports_download",
        responses={(200, "application/octet-stream"): OpenApiTypes.BINARY},
    )
    def get(self, request: Request, report_id: int, export_format: str) -> HttpResponse:
        report = report_get_for_user(user=request.user, report_id=report_id)
        if export_format not in CONTENT_TYPES:
            return Response(
                {"code": "unknown_export_format", "message": "docx or xlsx"},
                status=status.HTTP_404_NOT_FOUND,
            )
        content, filename = export_bytes(report=report, fmt=export_format)
        response = HttpResponse(content, content_type=CONTENT_TYPES[export_format])
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


class ReportWordingApi(APIView):
    """The wording decisions a report waits for (GET), and a lawyer's
    decision "Wortlaut galt am <Datum> unverändert" for one of them (POST)."""

    @extend_schema(operation_id="reports_wording_pending", responses=dict)
    def get(self, request: Request, report_id: int) -> Response:
        report = report_get_for_user(user=request.user, report_id=report_id)
        return Response([i.to_json() for i in report_wording_pending(report=report)])

    @extend_schema(
        operation_id="reports_wording_confirm",
        request=WordingDecisionInputSerializer,
        responses={201: WordingConfirmationOutputSerializer},
    )
    def post(self, request: Request, report_id: int) -> Response:
        report = report_get_for_user(user=request.user, report_id=report_id)
        params = WordingDecisionInputSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        data = params.validated_data
        confirmation = report_wording_confirm(
            report=report,
            citation_id=data["citation"],
            actor=request.user,
            reason=data["reason"],
            date_from=data.get("date_from"),
            date_to=data.get("date_to"),
        )
        body = dict(WordingConfirmationOutputSerializer(confirmation).data)
        report.refresh_from_db()
        body["report_summary"] = report.summary
        return Response(body, status=status.HTTP_201_CREATED)
