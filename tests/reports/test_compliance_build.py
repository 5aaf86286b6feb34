"""A compliance report is built through the same Celery task path as any
other (issue 17): queued by the page, executed by ``report_build_task``, and
the stored report carries the element findings; another firm reaches neither
the build nor the report."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from reports.exports import export_bytes
from reports.models import ReportBuild
from reports.tasks import report_build_task
from tests.reports.test_compliance_report import gdpr_case

pytestmark = pytest.mark.django_db


def test_a_compliance_report_is_built_by_the_worker_task(
    lawyer_client,
    other_client,
    case,
    reviewer,
    corpus,
    django_capture_on_commit_callbacks,
):
    claim = gdpr_case(case, reviewer)
    url = reverse("reports:report_create", kwargs={"case_id": case.pk})
    with django_capture_on_commit_callbacks() as dispatched:
        response = lawyer_client.post(url, {"claims": [claim.pk], "language": "de"})
    assert response.status_code in (200, 302)
    assert len(dispatched) == 1
    build = ReportBuild.objects.get(case=case)
    assert build.status == ReportBuild.Status.QUEUED

    report_build_task.apply(args=[build.pk])

    build.refresh_from_db()
    assert build.status == ReportBuild.Status.SUCCEEDED, build.reason
    report = build.report
    assert report is not None and report.language == "de"
    keys = list(report.findings.values_list("requirement_key", flat=True))
    assert keys.index("gdpr_13") < keys.index("gdpr_13_2_d_complaint_right")
    wb = load_workbook(io.BytesIO(export_bytes(report=report, fmt="xlsx")[0]))
    assert "Lückenliste" in wb.sheetnames
    detail = reverse("reports:report_detail", kwargs={"report_id": report.pk})
    assert lawyer_client.get(detail).status_code == 200
    assert other_client.get(detail).status_code == 404
    build_url = reverse("reports:build_detail", kwargs={"build_id": build.pk})
    assert other_client.get(build_url).status_code == 404
