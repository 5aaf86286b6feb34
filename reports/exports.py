"""Word and Excel exports of a report, both from ``report_document``.

Only printed findings contribute text, evidence and citations. A flagged
finding appears solely in "Zur Prüfung durch einen Menschen" with its
requirement, the checks that failed and their reasons — its own text is never
printed, so a conclusion that did not survive the gates cannot be read as one."""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from docx import Document
from docx.enum.text import WD_BREAK
from docx.shared import Pt
from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from reports.errors import UnknownExportFormat
from reports.models import Report
from reports.selectors import FindingView, ReportDocument, report_document

CONTENT_TYPES = {
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def export_filename(report: Report, fmt: str) -> str:
    reference = "".join(
        ch if ch.isalnum() or ch in "-_" else "-" for ch in report.case.reference
    ).strip("-")
    return f"report-{report.pk}-{reference}.{fmt}"


def export_render(*, report: Report, fmt: str) -> tuple[bytes, str]:
    """The bytes and file name of one export format."""
    document = report_document(report=report)
    if fmt == "docx":
        return docx_render(document), export_filename(report, fmt)
    if fmt == "xlsx":
        return xlsx_render(document), export_filename(report, fmt)
    raise UnknownExportFormat(f"Unknown export format: {fmt}", hint=["docx", "xlsx"])


def _stamp(report: Report) -> datetime:
    return report.created_at.replace(microsecond=0, tzinfo=None)


def _failed_lines(view: FindingView) -> list[tuple[str, str, str]]:
    """The checks that failed, their reasons and the passage they relied on —
    unless that passage is part of the withheld finding's own text."""
    text = view.finding.text
    return [
        (v.refuter, v.reason, "" if v.passage and v.passage in text else v.passage)
        for v in view.failed
    ]


# ---------------------------------------------------------------- Word
def _table(doc: Any, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    table = doc.add_table(rows=1, cols=len(header))
    table.style = "Table Grid"
    for cell, text in zip(table.rows[0].cells, header, strict=True):
        cell.text = str(text)
        for run in cell.paragraphs[0].runs:
            run.bold = True
    for row in rows:
        cells = table.add_row().cells
        for cell, value in zip(cells, row, strict=True):
            cell.text = "" if value is None else str(value)


def docx_render(document: ReportDocument) -> bytes:
    t = document.texts
    report = document.report
    case = report.case
    doc = Document()
    doc.core_properties.title = report.title
    doc.core_properties.created = _stamp(report)
    doc.core_properties.modified = _stamp(report)
    doc.core_properties.author = "Belegt"
    doc.styles["Normal"].font.size = Pt(10.5)

    # Title page
    doc.add_heading(report.title, level=0)
    doc.add_paragraph(f"{t['case']}: {case.reference} — {case.title}")
    doc.add_paragraph(f"{t['client']}: {case.client}")
    claims = ", ".join(c["label"] for c in report.summary.get("claims", []))
    doc.add_paragraph(f"{t['claims']}: {claims}")
    doc.add_paragraph(f"{t['created']}: {_stamp(report).isoformat(sep=' ')}")
    doc.add_paragraph(f"{t['report_status']}: {report.get_status_display()}")
    if document.stale:
        doc.add_paragraph(f"{t['stale']}!")
    doc.add_paragraph().add_run().add_break(WD_BREAK.PAGE)

    # Summary
    doc.add_heading(t["summary"], level=1)
    doc.add_paragraph(
        f"{len(document.printed)} {t['printed']}; "
        f"{len(document.flagged)} {t['flagged']}."
    )
    for section in document.sections:
        for view in section.findings:
            f = view.finding
            state = f.verdict_label if view.printed else t["flagged"]
            doc.add_paragraph(
                f"{section.label} — {f.label}: {state}", style="List Bullet"
            )
    doc.add_paragraph(t["pinned"] + ":")
    for v in report.corpus_versions:
        doc.add_paragraph(
            f"{v['instrument']} ({v['language']}, {t['valid_from']} "
            f"{v['valid_from']}): {v['label']} — SHA-256 {v['sha256']}",
            style="List Bullet",
        )

    # One section per claim requirement
    for section in document.sections:
        doc.add_heading(section.label, level=1)
        for view in section.findings:
            f = view.finding
            doc.add_heading(f.label, level=2)
            if not view.printed:
                doc.add_paragraph(t["withheld"])
                continue
            p = doc.add_paragraph()
            p.add_run(f"{t['verdict']}: ").bold = True
            p.add_run(f.verdict_label)
            p = doc.add_paragraph()
            p.add_run(f"{t['reasoning']}: ").bold = True
            p.add_run(f.text)
            for number, note in enumerate(view.notes, start=1):
                p.add_run(str(number)).font.superscript = True
                doc.add_paragraph(f"{number} {note}").runs[0].font.size = Pt(9)
            if f.evidence:
                doc.add_paragraph(t["evidence"] + ":")
                _table(
                    doc,
                    [t["fact"], t["status"], t["document"], t["page"], t["quote"]],
                    [
                        (
                            f"{e.get('label') or e['fact_type']}: {e['value']}",
                            e.get("status_label") or e["status"],
                            e.get("document", ""),
                            e.get("page") or "",
                            e.get("quote", ""),
                        )
                        for e in f.evidence
                    ],
                )

    # Citations appendix
    doc.add_heading(t["appendix"], level=1)
    for c in document.appendix:
        doc.add_heading(f"{c.raw} ({c.canonical})", level=3)
        doc.add_paragraph(
            f"{t['version']}: {c.version_label} ({c.version_language}, "
            f"{t['valid_from']} {c.version_valid_from})"
        )
        doc.add_paragraph(f"{t['version_sha']}: {c.version_sha256}")
        doc.add_paragraph(f"{t['text_sha']}: {c.text_sha256}")
        doc.add_paragraph(c.text)

    # Human review
    doc.add_heading(t["review"], level=1)
    doc.add_paragraph(t["review_intro"])
    for view in document.flagged:
        f = view.finding
        doc.add_heading(f"{f.label}", level=3)
        for refuter, reason, passage in _failed_lines(view):
            p = doc.add_paragraph(style="List Bullet")
            p.add_run(f"{t['refuter']} {refuter}: ").bold = True
            p.add_run(f"{t['reason']}: {reason}")
            if passage:
                p.add_run(f" — {t['passage']}: {passage}")

    buffer = io.BytesIO()
    doc.save(buffer)
    return buffer.getvalue()


# ---------------------------------------------------------------- Excel
HEADER_FONT = Font(bold=True, color="FFFFFF")
HEADER_FILL = PatternFill("solid", fgColor="1F3A5F")


#: First characters that make a spreadsheet read a cell as a formula (OWASP
#: "CSV injection"): a file name or quote starting with one must stay text.
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def cell_text_safe(cell: Any) -> None:
    """Write a text cell that a spreadsheet could read as a formula as text.

    openpyxl turns every string starting with "=" into a formula; Excel and
    LibreOffice also evaluate +, -, @ (and tab/CR-led text) once a cell is
    edited or the sheet is re-saved as CSV. The text is kept exactly (no
    prefix added to the value): the cell is typed as a string and carries the
    "quote prefix" style, Excel's own marker for "typed with a leading
    apostrophe", so editing it does not turn it into a formula either."""
    value = cell.value
    if not isinstance(value, str) or not value.startswith(FORMULA_TRIGGERS):
        return
    cell.data_type = "s"
    cell.quotePrefix = True


def _sheet(ws: Worksheet, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    ws.append(list(header))
    for cell in ws[1]:
        cell.font = HEADER_FONT
        cell.fill = HEADER_FILL
    for row in rows:
        ws.append(["" if v is None else v for v in row])
    widths = [len(str(h)) for h in header]
    for row in rows:
        for i, value in enumerate(row):
            widths[i] = max(widths[i], min(len(str(value or "")), 80))
    for i, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(i)].width = max(10, min(width + 2, 80))
    for row_cells in ws.iter_rows(min_row=1):
        for cell in row_cells:
            cell_text_safe(cell)
            if cell.row > 1:
                cell.alignment = Alignment(wrap_text=True, vertical="top")
    ws.freeze_panes = "A2"
    ws.auto_filter.ref = ws.dimensions


def xlsx_render(document: ReportDocument) -> bytes:
    t = document.texts
    labels = {s.claim_id: s.label for s in document.sections}
    wb = Workbook()
    wb.properties.title = document.report.title
    wb.properties.created = _stamp(document.report)
    wb.properties.modified = _stamp(document.report)
    wb.properties.creator = "Belegt"
    findings = wb.active
    assert findings is not None
    findings.title = "Findings"
    _sheet(
        findings,
        [
            "#",
            t["claim"],
            t["requirement"],
            t["verdict"],
            t["finding"],
            t["citation"],
            t["notes"],
        ],
        [
            (
                v.finding.position,
                labels.get(v.finding.claim_id, ""),
                v.finding.label,
                v.finding.verdict_label,
                v.finding.text,
                "; ".join(c.raw for c in v.citations),
                "\n".join(v.notes),
            )
            for v in document.printed
        ],
    )
    _sheet(
        wb.create_sheet("Evidence"),
        ["#", t["requirement"], t["fact"], t["value"], t["status"], t["document"],
         t["page"], t["quote"]],
        [
            (
                v.finding.position,
                v.finding.label,
                e.get("label") or e["fact_type"],
                e["value"],
                e.get("status_label") or e["status"],
                e.get("document", ""),
                e.get("page") or "",
                e.get("quote", ""),
            )
            for v, e in document.evidence_rows
        ],
    )  # fmt: skip
    _sheet(
        wb.create_sheet("Citations"),
        [t["citation"], t["canonical"], t["version"], "lang", t["valid_from"],
         t["version_sha"], t["text_sha"], t["text"]],
        [
            (
                c.raw,
                c.canonical,
                c.version_label,
                c.version_language,
                c.version_valid_from.isoformat() if c.version_valid_from else "",
                c.version_sha256,
                c.text_sha256,
                c.text[:32000],
            )
            for c in document.appendix
        ],
    )  # fmt: skip
    _sheet(
        wb.create_sheet("Flags"),
        ["#", t["claim"], t["requirement"], t["refuter"], t["reason"], t["passage"]],
        [
            (
                v.finding.position,
                labels.get(v.finding.claim_id, ""),
                v.finding.label,
                refuter,
                reason,
                passage,
            )
            for v in document.flagged
            for refuter, reason, passage in _failed_lines(v)
        ],
    )
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def export_bytes(*, report: Report, fmt: str) -> tuple[bytes, str]:
    """The stored file of an issued report (its SHA-256 is on the report),
    or a fresh rendering of a draft."""
    if fmt not in CONTENT_TYPES:
        raise UnknownExportFormat(
            f"Unknown export format: {fmt}", hint=list(CONTENT_TYPES)
        )
    if report.is_issued:
        stored = report.exports.filter(format=fmt).first()
        if stored is not None:
            return bytes(stored.content), stored.filename
    return export_render(report=report, fmt=fmt)
