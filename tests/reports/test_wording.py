"""A claim dated before the earliest pinned BGB (29.3.2026): its BGB citations
are ``unpinned_at_date``, the findings wait for a lawyer's wording decision
("Wortlaut galt am <Datum> unverändert") and print after it, with a footnote
naming the consolidation and the decision, in the preview and both exports."""

from __future__ import annotations

import io
from datetime import date

import pytest
from django.urls import reverse
from django.utils import translation
from docx import Document
from openpyxl import load_workbook
from rest_framework.test import APIClient

from cases.errors import RoleRequired
from cases.models import AuditEvent
from citations.errors import WordingDecisionInvalid
from citations.models import WordingConfirmation
from reports.exports import export_bytes
from reports.models import FindingCitation, Report
from reports.services import report_create, report_issue
from reports.services.wording import report_wording_confirm, report_wording_pending
from tests.reports.helpers import verzug_case

pytestmark = pytest.mark.django_db

CLAIM_DATE = date(2024, 6, 1)
REASON = "Änderungshistorie geprüft: §§ 280, 286 BGB seit 2014 unverändert."


def _docx_text(content: bytes) -> str:
    doc = Document(io.BytesIO(content))
    parts = [p.text for p in doc.paragraphs]
    for table in doc.tables:
        for row in table.rows:
            parts += [c.text for c in row.cells]
    return "\n".join(parts)


def _xlsx_text(content: bytes) -> str:
    wb = load_workbook(io.BytesIO(content))
    return "\n".join(
        "\t".join("" if v is None else str(v) for v in row)
        for ws in wb.worksheets
        for row in ws.iter_rows(values_only=True)
    )


def _report_2024(case, lawyer) -> Report:
    verzug_case(case, valid_at=CLAIM_DATE)
    return report_create(case=case, actor=lawyer, language="de")


def _decide_all(report: Report, actor) -> None:
    for item in report_wording_pending(report=report):
        report_wording_confirm(
            report=report, citation_id=item.citation_id, actor=actor, reason=REASON
        )


def test_claim_dated_before_the_pinned_bgb_prints_nothing_until_a_lawyer_decides(
    case, lawyer, corpus
):
    report = _report_2024(case, lawyer)
    findings = list(report.findings.all())
    assert findings and all(f.outcome == "flagged" for f in findings)
    bgb = FindingCitation.objects.filter(finding__report=report, instrument="BGB")
    assert bgb.exists()
    assert set(bgb.values_list("status", flat=True)) == {"unpinned_at_date"}
    # the later version's text and date are given, never as "resolved"
    first = bgb.first()
    assert (
        first is not None
        and first.text
        and first.version_valid_from == date(2026, 3, 29)
    )
    # gate 2 already ran, so that the decision alone can let them print
    assert all(f.verdicts.filter(gate="refutation").exists() for f in findings)
    items = report_wording_pending(report=report)
    assert items and all(i.at == CLAIM_DATE for i in items)
    assert all(i.unit.startswith("sec/") for i in items)
    docx = _docx_text(export_bytes(report=report, fmt="docx")[0])
    assert "Wortlaut galt" not in docx


def test_after_the_wording_decision_the_findings_print_with_a_footnote(
    case, lawyer, corpus
):
    report = _report_2024(case, lawyer)
    _decide_all(report, lawyer)
    report.refresh_from_db()
    findings = list(report.findings.all())
    assert all(f.outcome == "printed" for f in findings), [
        (f.label, f.flag_reason) for f in findings
    ]
    assert report.summary["printed"] == len(findings)
    assert not report_wording_pending(report=report)
    assert not FindingCitation.objects.filter(
        finding__report=report,
        status="unpinned_at_date",
        wording_confirmation__isnull=True,
    ).exists()
    confirmation = WordingConfirmation.objects.filter(
        organisation=case.organisation
    ).first()
    assert confirmation is not None and confirmation.decided_by == lawyer
    assert confirmation.date_from == CLAIM_DATE
    assert confirmation.date_to == date(2026, 3, 28)
    assert AuditEvent.objects.filter(action="citations.wording_confirmed").exists()

    issued = report_issue(report=report, actor=lawyer)
    label = FindingCitation.objects.filter(finding__report=report).first()
    assert label is not None
    for fmt, read in (("docx", _docx_text), ("xlsx", _xlsx_text)):
        body = read(export_bytes(report=issued, fmt=fmt)[0])
        assert "Wortlaut galt am 01.06.2024 unverändert" in body, fmt
        assert label.version_label in body
        assert lawyer.get_username() in body or lawyer.get_full_name() in body
        assert REASON in body


def test_a_wording_decision_is_reused_by_the_firms_next_report(case, lawyer, corpus):
    report = _report_2024(case, lawyer)
    _decide_all(report, lawyer)
    again = report_create(case=case, actor=lawyer, language="de")
    assert all(f.outcome == "printed" for f in again.findings.all())
    cited = FindingCitation.objects.filter(finding__report=again, instrument="BGB")
    assert cited.exists()
    assert not cited.filter(wording_confirmation__isnull=True).exists()


def test_another_firms_decision_does_not_count(
    case, other_case, lawyer, other_lawyer, corpus
):
    _decide_all(_report_2024(case, lawyer), lawyer)
    theirs = _report_2024(other_case, other_lawyer)
    assert all(f.outcome == "flagged" for f in theirs.findings.all())
    assert report_wording_pending(report=theirs)


def test_a_date_outside_the_decided_range_still_waits(case, lawyer, corpus):
    report = _report_2024(case, lawyer)
    for item in report_wording_pending(report=report):
        report_wording_confirm(
            report=report,
            citation_id=item.citation_id,
            actor=lawyer,
            reason=REASON,
            date_from=date(2025, 1, 1),
            date_to=date(2025, 12, 31),
        )
    report.refresh_from_db()
    assert all(f.outcome == "flagged" for f in report.findings.all())


def test_only_a_lawyer_decides_and_a_reviewer_changes_nothing(
    case, lawyer, reviewer, corpus
):
    report = _report_2024(case, lawyer)
    item = report_wording_pending(report=report)[0]
    with pytest.raises(RoleRequired):
        report_wording_confirm(
            report=report, citation_id=item.citation_id, actor=reviewer, reason="x"
        )
    assert not WordingConfirmation.objects.exists()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"reason": "  "}, "begründen"),
        ({"reason": REASON, "date_to": date(2026, 3, 29)}, "29.03.2026"),
        (
            {
                "reason": REASON,
                "date_from": date(2024, 2, 1),
                "date_to": date(2024, 1, 1),
            },
            "Zeitraum",
        ),
    ],
)
def test_an_invalid_decision_is_refused_with_a_clear_message(
    case, lawyer, corpus, kwargs, message
):
    report = _report_2024(case, lawyer)
    item = report_wording_pending(report=report)[0]
    # the messages are German on a German page, whatever a test before left
    with translation.override("de"), pytest.raises(WordingDecisionInvalid) as exc:
        report_wording_confirm(
            report=report, citation_id=item.citation_id, actor=lawyer, **kwargs
        )
    assert message in exc.value.message
    assert not WordingConfirmation.objects.exists()


# --- pages and API ---


def test_preview_shows_the_decision_button_and_prints_after_the_htmx_click(
    lawyer_client, case, lawyer, corpus
):
    report = _report_2024(case, lawyer)
    url = reverse("reports:report_detail", args=[report.pk])
    html = lawyer_client.get(url).content.decode()
    assert "Wortlaut galt am 01.06.2024 unverändert" in html
    assert 'data-outcome="printed"' not in html
    for item in report_wording_pending(report=report):
        response = lawyer_client.post(
            reverse("reports:report_wording", args=[report.pk]),
            {"citation": item.citation_id, "reason": REASON},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 200
    html = lawyer_client.get(url).content.decode()
    assert 'data-outcome="flagged"' not in html
    assert "data-footnotes" in html and REASON in html
    assert "Wortlaut galt am 01.06.2024 unverändert" in html  # the footnote now


def test_wording_page_lists_the_waiting_provisions_with_the_pinned_text(
    lawyer_client, case, lawyer, corpus
):
    report = _report_2024(case, lawyer)
    response = lawyer_client.get(reverse("reports:report_wording", args=[report.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count("data-wording=") == len(report_wording_pending(report=report))


def test_reviewer_sees_no_button_and_a_post_is_refused(
    reviewer_client, case, lawyer, corpus
):
    report = _report_2024(case, lawyer)
    html = reviewer_client.get(
        reverse("reports:report_detail", args=[report.pk])
    ).content.decode()
    assert "data-decide=" not in html
    item = report_wording_pending(report=report)[0]
    response = reviewer_client.post(
        reverse("reports:report_wording", args=[report.pk]),
        {"citation": item.citation_id, "reason": REASON},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 403
    assert not WordingConfirmation.objects.exists()


def test_other_firm_cannot_see_or_decide_wording(other_client, case, lawyer, corpus):
    report = _report_2024(case, lawyer)
    item = report_wording_pending(report=report)[0]
    url = reverse("reports:report_wording", args=[report.pk])
    assert other_client.get(url).status_code == 404
    response = other_client.post(url, {"citation": item.citation_id, "reason": "x"})
    assert response.status_code == 404
    assert not WordingConfirmation.objects.exists()


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_api_lists_and_decides_wording(case, lawyer, corpus):
    report = _report_2024(case, lawyer)
    url = reverse("reports-api:report-wording", args=[report.pk])
    pending = _api(lawyer).get(url).json()
    assert pending and pending[0]["date"] == "2024-06-01"
    for item in pending:
        response = _api(lawyer).post(
            url, {"citation": item["citation"], "reason": REASON}, format="json"
        )
        assert response.status_code == 201, response.json()
        assert response.json()["decided_by"] == lawyer.get_username()
    assert _api(lawyer).get(url).json() == []
    report.refresh_from_db()
    assert report.summary["flagged"] == 0


def test_api_refuses_reviewer_other_firm_and_a_foreign_citation(
    case, other_case, lawyer, reviewer, other_lawyer, corpus
):
    report = _report_2024(case, lawyer)
    theirs = _report_2024(other_case, other_lawyer)
    url = reverse("reports-api:report-wording", args=[report.pk])
    item = report_wording_pending(report=report)[0]
    body = {"citation": item.citation_id, "reason": REASON}
    assert _api(reviewer).post(url, body, format="json").status_code == 403
    assert _api(other_lawyer).post(url, body, format="json").status_code == 404
    assert _api(other_lawyer).get(url).status_code == 404
    # their own report, but a citation of our report: nothing to decide there
    foreign = _api(other_lawyer).post(
        reverse("reports-api:report-wording", args=[theirs.pk]), body, format="json"
    )
    assert foreign.status_code == 400
    assert foreign.json()["code"] == "wording_decision_invalid"
    assert not WordingConfirmation.objects.exists()
