"""The Reports tab, preview, downloads, the API and the build_report command."""

from __future__ import annotations

import hashlib
import io

import pytest
from django.core.management import call_command
from django.urls import reverse
from docx import Document
from rest_framework.test import APIClient

from reports.models import Report, ReportBuild
from reports.services import report_create
from reports.tasks import report_build_task
from tests.reports.helpers import verzug_case

pytestmark = pytest.mark.django_db


def test_reports_tab_lists_reports_with_downloads(lawyer_client, case, lawyer, corpus):
    verzug_case(case)
    report = report_create(case=case, actor=lawyer)
    response = lawyer_client.get(reverse("reports:case_reports", args=[case.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert f'data-report="{report.pk}"' in html
    assert reverse("reports:report_download", args=[report.pk, "docx"]) in html
    assert 'id="report-create"' in html


def test_reports_tab_as_htmx_tab_switch_renders_the_fragment(
    lawyer_client, case, corpus
):
    response = lawyer_client.get(
        reverse("reports:case_reports", args=[case.pk]), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert b"<html" not in response.content and b"tab-content" in response.content


def test_lawyer_creates_previews_issues_and_downloads(
    lawyer_client, case, corpus, django_capture_on_commit_callbacks
):
    verzug_case(case)
    with django_capture_on_commit_callbacks() as dispatched:
        response = lawyer_client.post(
            reverse("reports:report_create", args=[case.pk]), {"language": "de"}
        )
    build = ReportBuild.objects.get(case=case)
    assert response.status_code == 302 and len(dispatched) == 1
    assert response["Location"] == reverse("reports:build_detail", args=[build.pk])
    report_build_task.apply(args=[build.pk])
    report = Report.objects.get(case=case)
    done = lawyer_client.get(response["Location"])
    assert done["Location"] == reverse("reports:report_detail", args=[report.pk])
    preview = lawyer_client.get(done["Location"]).content.decode()
    # nothing awaits review: no empty review section (as in the .docx)
    assert "Zur Prüfung durch einen Menschen" not in preview
    assert "Fälligkeit" in preview and 'id="issue-report"' in preview
    lawyer_client.post(reverse("reports:report_issue", args=[report.pk]))
    report.refresh_from_db()
    assert report.status == "issued"
    download = lawyer_client.get(
        reverse("reports:report_download", args=[report.pk, "docx"])
    )
    assert download["Content-Type"].startswith(
        "application/vnd.openxmlformats-officedocument.wordprocessingml"
    )
    assert "attachment" in download["Content-Disposition"]
    assert hashlib.sha256(download.content).hexdigest() == report.export_sha256["docx"]
    Document(io.BytesIO(download.content))  # opens


def test_reviewer_reads_and_downloads_but_cannot_create_or_issue(
    reviewer_client, case, lawyer, corpus
):
    verzug_case(case)
    report = report_create(case=case, actor=lawyer)
    tab = reviewer_client.get(reverse("reports:case_reports", args=[case.pk]))
    assert tab.status_code == 200 and b'id="report-create"' not in tab.content
    created = reviewer_client.post(reverse("reports:report_create", args=[case.pk]))
    assert created.status_code == 403
    assert Report.objects.filter(case=case).count() == 1
    reviewer_client.post(reverse("reports:report_issue", args=[report.pk]))
    report.refresh_from_db()
    assert report.status == "draft"
    download = reviewer_client.get(
        reverse("reports:report_download", args=[report.pk, "xlsx"])
    )
    assert download.status_code == 200


def test_other_firm_gets_404_for_report_pages(other_client, case, lawyer, corpus):
    verzug_case(case)
    report = report_create(case=case, actor=lawyer)
    for url in (
        reverse("reports:report_detail", args=[report.pk]),
        reverse("reports:report_download", args=[report.pk, "docx"]),
        reverse("reports:case_reports", args=[case.pk]),
    ):
        assert other_client.get(url).status_code == 404


@pytest.fixture
def api(lawyer) -> APIClient:
    client = APIClient()
    client.force_authenticate(lawyer)
    return client


def test_api_create_list_retrieve_issue_download(
    api, case, corpus, django_capture_on_commit_callbacks
):
    claim = verzug_case(case)
    with django_capture_on_commit_callbacks():
        queued = api.post(
            "/api/v1/reports/",
            {"case": case.pk, "claims": [claim.pk], "language": "en"},
            format="json",
        )
    assert queued.status_code == 202, queued.content
    report_build_task.apply(args=[queued.json()["id"]])
    build = api.get(queued["Location"]).json()
    assert build["status"] == "succeeded", build
    data = api.get(build["report_url"]).json()
    assert data["summary"]["printed"] == 4 and data["status"] == "draft"
    finding = data["findings"][0]
    assert finding["citations"][0]["status"] == "resolved"
    assert {v["refuter"] for v in finding["verdicts"]} >= {"recital_as_obligation"}
    listed = api.get("/api/v1/reports/", {"case": case.pk}).json()
    assert [r["id"] for r in listed] == [data["id"]]
    assert api.get(f"/api/v1/reports/{data['id']}/").json()["id"] == data["id"]
    issued = api.post(f"/api/v1/reports/{data['id']}/issue/").json()
    assert issued["status"] == "issued"
    again = api.post(f"/api/v1/reports/{data['id']}/issue/")
    assert again.status_code == 409 and again.json()["code"] == "report_not_draft"
    xlsx = api.get(issued["downloads"]["xlsx"])
    assert hashlib.sha256(xlsx.content).hexdigest() == issued["export_sha256"]["xlsx"]


def test_api_refuses_reviewer_and_other_firm(reviewer, other_lawyer, case, corpus):
    verzug_case(case)
    client = APIClient()
    client.force_authenticate(reviewer)
    refused = client.post("/api/v1/reports/", {"case": case.pk}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "role_required"
    client.force_authenticate(other_lawyer)
    other = client.post("/api/v1/reports/", {"case": case.pk}, format="json")
    assert other.status_code == 404


def test_api_case_without_claims_is_a_clear_error(api, case, corpus):
    response = api.post("/api/v1/reports/", {"case": case.pk}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "no_claims"


def test_build_report_command_writes_the_file_and_prints_counts(
    case, corpus, tmp_path, capsys
):
    verzug_case(case)
    output = tmp_path / "out" / "bericht.docx"
    call_command(
        "build_report",
        "--case", case.reference, "--claim", "verzugsschaden",
        "--format", "docx", "--output", str(output), "--language", "de",
    )  # fmt: skip
    printed = capsys.readouterr().out
    assert "4 findings printed, 0 flagged for human review" in printed
    headings = [p.text for p in Document(str(output)).paragraphs]
    assert "Zusammenfassung" in headings
    assert "Zur Prüfung durch einen Menschen" not in headings  # nothing flagged
    call_command(
        "build_report",
        "--case", case.reference, "--claim", "verzugsschaden",
        "--format", "xlsx", "--output", str(tmp_path / "b.xlsx"), "--issue",
    )  # fmt: skip
    assert Report.objects.filter(case=case, status="issued").count() == 1
