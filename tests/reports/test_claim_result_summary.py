"""The report's Zusammenfassung opens with each claim's result (begründet /
unbegründet / offen, Verzug seit, ersatzfähiger Betrag) as the claim summary
stated it when the report was built: in the preview, the .docx and the .xlsx."""

from __future__ import annotations

import io
from decimal import Decimal
from typing import Any

import pytest
from django.urls import reverse
from docx import Document
from openpyxl import load_workbook

from ontology.selectors import claim_evaluation_for
from reports.exports import export_bytes
from reports.models import Report
from reports.services import report_create
from tests.reports.helpers import verzug_case

pytestmark = pytest.mark.django_db


def _built(case: Any, lawyer: Any) -> tuple[Report, Any]:
    claim = verzug_case(case)
    evaluation = claim_evaluation_for(claim=claim)
    assert evaluation.summary == "begruendet"
    assert evaluation.default_from is not None
    assert evaluation.recoverable_cents
    report = report_create(case=case, actor=lawyer, language="de")
    return report, evaluation


def test_the_report_stores_the_claim_result_at_build_time(case, lawyer, corpus):
    report, evaluation = _built(case, lawyer)
    (stored,) = report.summary["claims"]
    assert stored["result"] == "begruendet"
    assert stored["result_text"] == evaluation.summary_de
    assert stored["default_from"] == evaluation.default_from.isoformat()
    assert stored["recoverable_cents"] == evaluation.recoverable_cents


def test_the_preview_opens_its_summary_with_the_stored_claim_result(
    case, lawyer, lawyer_client, corpus
):
    report, _ = _built(case, lawyer)
    # what is shown is what was stored, not a recomputation
    summary = dict(report.summary)
    summary["claims"] = [
        {**summary["claims"][0], "result_text": "Gespeichertes Ergebnis."}
    ]
    Report.objects.filter(pk=report.pk).update(summary=summary)
    page = lawyer_client.get(
        reverse("reports:report_detail", args=[report.pk]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    head = page.index("<h3>Zusammenfassung</h3>")
    result = page.index("data-claim-result=")
    assert head < result < page.index("gedruckte Feststellungen")
    line = page[result : page.index("</p>", result)]
    assert "begründet.</strong> Gespeichertes Ergebnis." in line
    assert "Verzugsschaden" in line


def test_the_docx_summary_starts_with_the_claim_result(case, lawyer, corpus):
    report, evaluation = _built(case, lawyer)
    doc = Document(io.BytesIO(export_bytes(report=report, fmt="docx")[0]))
    texts = [p.text for p in doc.paragraphs]
    start = texts.index("Zusammenfassung")
    first = texts[start + 1]
    assert first.startswith("Verzugsschaden") and ": begründet." in first
    assert evaluation.summary_de in first
    assert "Verzug seit dem" in first and "Ersatzfähig:" in first


def test_the_xlsx_opens_with_a_result_sheet_of_typed_cells(case, lawyer, corpus):
    report, evaluation = _built(case, lawyer)
    wb = load_workbook(io.BytesIO(export_bytes(report=report, fmt="xlsx")[0]))
    assert wb.sheetnames[0] == "Ergebnis"
    ws = wb["Ergebnis"]
    header = [c.value for c in ws[1]]
    assert header == [
        "Anspruch",
        "Ergebnis",
        "Verzug seit",
        "Ersatzfähiger Betrag",
        "Zusammenfassung",
    ]
    label, result, since, amount, text = (c.value for c in ws[2])
    assert label.startswith("Verzugsschaden") and result == "begründet"
    assert since.date() == evaluation.default_from
    assert Decimal(str(amount)) == Decimal(evaluation.recoverable_cents) / 100
    assert ws["C2"].number_format == "DD.MM.YYYY"
    assert text == evaluation.summary_de


def test_a_report_stored_without_results_shows_no_result_line(
    case, lawyer, lawyer_client, corpus
):
    report, _ = _built(case, lawyer)
    summary = dict(report.summary)
    summary["claims"] = [
        {k: v for k, v in c.items() if k != "result"} for c in summary["claims"]
    ]
    Report.objects.filter(pk=report.pk).update(summary=summary)
    report.refresh_from_db()
    page = lawyer_client.get(
        reverse("reports:report_detail", args=[report.pk])
    ).content.decode()
    assert "data-claim-result=" not in page
    wb = load_workbook(io.BytesIO(export_bytes(report=report, fmt="xlsx")[0]))
    assert wb.sheetnames[0] == "Feststellungen"
