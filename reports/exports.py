"""Word and Excel exports of a report, both from ``report_document``.

Only printed findings contribute text, evidence and citations. A flagged
finding appears solely in "Zur Prüfung durch einen Menschen" with its
requirement, the checks that failed and their reasons — its own text is never
printed, so a conclusion that did not survive the gates cannot be read as one."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.utils import timezone
from docx import Document
from docx.enum.text import WD_BREAK
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Emu, Mm, Pt
from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from reports.errors import UnknownExportFormat
from reports.exports_damage import damage_docx, damage_xlsx
from reports.models import Report
from reports.selectors import FindingView, ReportDocument, report_document

CONTENT_TYPES = {
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def _slug(text: str) -> str:
    return "-".join("".join(ch if ch.isalnum() else " " for ch in text).split()).strip(
        "-"
    )


def export_filename(report: Report, fmt: str) -> str:
    """Distinguishable per case: word, number within the case (or the id of
    a report from before numbering), reference, claim and date."""
    word = "Bericht" if report.language == "de" else "Report"
    number = report.summary.get("number") or report.pk
    claims = "-".join(
        _slug(c.get("claim_type", "")) for c in report.summary.get("claims", [])
    )
    day = timezone.localtime(report.created_at).date().isoformat()
    parts = [word, str(number), _slug(report.case.reference), claims, day]
    return "_".join(p for p in parts if p) + f".{fmt}"


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


def _local_time(moment: datetime) -> str:
    """Local time with its zone (``TIME_ZONE``), e.g. ``01.12.2026 15:25 CET
    (UTC+01:00)``."""
    local = timezone.localtime(moment)
    offset = local.strftime("%z")
    return (
        local.strftime("%d.%m.%Y %H:%M ")
        + f"{local.tzname()} (UTC{offset[:3]}:{offset[3:]})"
    )


def _status_text(report: Report, t: dict[str, str]) -> str:
    return t["status_issued"] if report.is_issued else t["status_draft"]


def _failed_lines(view: FindingView) -> list[tuple[str, str, str]]:
    """The checks that failed, their reasons and the passage they relied on —
    unless that passage is part of the withheld finding's own text."""
    text = view.finding.text
    return [
        (v.refuter, v.reason, "" if v.passage and v.passage in text else v.passage)
        for v in view.failed
    ]


# ---------------------------------------------------------------- Word
PAGE_WIDTH = Mm(210)  # A4
PAGE_HEIGHT = Mm(297)
MARGIN_SIDE = Mm(25)
MARGIN_TOP = Mm(25)
MARGIN_BOTTOM = Mm(20)
TEXT_WIDTH = PAGE_WIDTH - 2 * MARGIN_SIDE
TABLE_FONT = Pt(9)
# Width of one character of the table font, generously (Calibri 9 pt averages
# ~1.6 mm; where Calibri is missing, LibreOffice lays out in DejaVu, ~1.9 mm,
# and bold is wider still), plus a cell's left and right margin (Word's
# default is 1.9 mm each side).
CHAR_WIDTH = Mm(2.1)
CELL_PADDING = Mm(4.0)


def _columns(
    header: Sequence[str], rows: Sequence[Sequence[str]]
) -> list[tuple[str, ...]]:
    return list(zip(header, *rows, strict=True)) if rows else [(h,) for h in header]


def least_widths(
    header: Sequence[str], rows: Sequence[Sequence[str]], *, char_width: int
) -> list[int]:
    """Per column, the width (EMU) of its longest word: less breaks a word."""
    return [
        int(
            max((len(w) for cell in col for w in str(cell).split()), default=1)
            * char_width
            + CELL_PADDING
        )
        for col in _columns(header, rows)
    ]


def column_widths(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    total: int = TEXT_WIDTH,
    char_width: int = CHAR_WIDTH,
) -> list[int]:
    """Widths (EMU) that fit the columns' content into ``total``: each column
    gets at least its longest word, so no word breaks in the middle (unless
    the longest words alone overflow the page: then they shrink in proportion),
    and the width left over goes to the columns with more text."""
    least_emu = least_widths(header, rows, char_width=char_width)
    want = [
        max(len(line) for cell in col for line in (str(cell).splitlines() or [""]))
        for col in _columns(header, rows)
    ]
    want_emu = [
        max(lo, int(n * char_width + CELL_PADDING))
        for n, lo in zip(want, least_emu, strict=True)
    ]
    if sum(least_emu) >= total:
        scale = total / sum(least_emu)
        return [int(w * scale) for w in least_emu]
    if sum(want_emu) <= total:
        spare = total - sum(want_emu)
        return [w + spare // len(want_emu) for w in want_emu]
    spare = total - sum(least_emu)
    extra = [w - lo for w, lo in zip(want_emu, least_emu, strict=True)]
    return [
        lo + int(spare * e / sum(extra)) for lo, e in zip(least_emu, extra, strict=True)
    ]


def table_font(header: Sequence[str], rows: Sequence[Sequence[str]]) -> Pt:
    """The table font: 9 pt, or smaller (down to 7 pt) when the longest words
    of many columns would not fit the text width at 9 pt and would break."""
    for points in (9.0, 8.0, 7.0):
        char_width = int(CHAR_WIDTH * points / TABLE_FONT.pt)
        if sum(least_widths(header, rows, char_width=char_width)) < TEXT_WIDTH:
            return Pt(points)
    return Pt(7.0)


def _table(doc: Any, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    texts = [["" if v is None else str(v) for v in row] for row in rows]
    heads = [str(h) for h in header]
    font = table_font(heads, texts)
    char_width = int(CHAR_WIDTH * font.pt / TABLE_FONT.pt)
    # Word stores widths in twips (635 EMU): round down so they add up.
    widths = [w - w % 635 for w in column_widths(heads, texts, char_width=char_width)]
    table = doc.add_table(rows=1, cols=len(header))
    table.style = "Table Grid"
    table.autofit = False  # fixed layout: Word keeps the widths below
    for column, width in zip(table.columns, widths, strict=True):
        column.width = Emu(width)
    for cell, text in zip(table.rows[0].cells, header, strict=True):
        cell.text = str(text)
        for run in cell.paragraphs[0].runs:
            run.bold = True
    for row in texts:
        cells = table.add_row().cells
        for cell, value in zip(cells, row, strict=True):
            cell.text = value
    for table_row in table.rows:
        for cell, width in zip(table_row.cells, widths, strict=True):
            cell.width = Emu(width)
            for paragraph in cell.paragraphs:
                for run in paragraph.runs:
                    run.font.size = font


def _field(paragraph: Any, instruction: str) -> None:
    """A Word field (PAGE, NUMPAGES) that Word fills in when it lays out."""
    run = paragraph.add_run()
    begin = OxmlElement("w:fldChar")
    begin.set(qn("w:fldCharType"), "begin")
    text = OxmlElement("w:instrText")
    text.set(qn("xml:space"), "preserve")
    text.text = f" {instruction} "
    separate = OxmlElement("w:fldChar")
    separate.set(qn("w:fldCharType"), "separate")
    shown = OxmlElement("w:t")
    shown.text = "1"
    end = OxmlElement("w:fldChar")
    end.set(qn("w:fldCharType"), "end")
    for element in (begin, text, separate, shown, end):
        run._r.append(element)


def _page_setup(doc: Any, report: Report, t: dict[str, str]) -> None:
    """A4 with margins; a header with Aktenzeichen and status; page numbers
    ("Seite 2 von 7") in the footer."""
    section = doc.sections[0]
    section.page_width, section.page_height = PAGE_WIDTH, PAGE_HEIGHT
    section.left_margin = section.right_margin = MARGIN_SIDE
    section.top_margin, section.bottom_margin = MARGIN_TOP, MARGIN_BOTTOM
    section.header_distance = section.footer_distance = Mm(10)
    header = section.header.paragraphs[0]
    header.text = (
        f"{t['case']} {report.case.reference} · "
        f"{t['report_status']}: {_status_text(report, t)}"
    )
    footer = section.footer.paragraphs[0]
    footer.alignment = 1  # centre
    footer.add_run(f"{t['page']} ")
    _field(footer, "PAGE")
    footer.add_run(f" {t['page_of']} ")
    _field(footer, "NUMPAGES")
    for paragraph in (header, footer):
        for run in paragraph.runs:
            run.font.size = Pt(8.5)


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
    _page_setup(doc, report, t)

    # Title page
    doc.add_heading(report.title, level=0)
    doc.add_paragraph(f"{t['case']}: {case.reference} — {case.title}")
    doc.add_paragraph(f"{t['client']}: {case.client}")
    claims = ", ".join(c["label"] for c in report.summary.get("claims", []))
    doc.add_paragraph(f"{t['claims']}: {claims}")
    doc.add_paragraph(f"{t['created']}: {_local_time(report.created_at)}")
    doc.add_paragraph(f"{t['report_status']}: {_status_text(report, t)}")
    if document.rules_fallback:
        doc.add_paragraph(t["drafted_by_rules"])
    if document.stale:
        doc.add_paragraph(f"{t['stale']}!")
    doc.add_paragraph().add_run().add_break(WD_BREAK.PAGE)

    # Summary: each claim's result first, as stored when the report was built
    doc.add_heading(t["summary"], level=1)
    for result in document.claim_results:
        paragraph = doc.add_paragraph()
        paragraph.add_run(f"{result.label}: {result.result_label}.").bold = True
        paragraph.add_run(f" {result.text}")
    doc.add_paragraph(
        f"{len(document.printed)} {t['printed']}; "
        f"{len(document.flagged)} {t['flagged']}."
    )
    from reports import exports_compliance as compliance  # hook (issue 17)

    for section in document.sections:
        for view in compliance.summary_views(section):
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
        if compliance.section_is_compliance(section):
            compliance.docx_compliance_section(doc, document, section)
            continue
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
        damage_docx(doc, section)  # reports/exports_damage.py

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

    # Human review (only when something awaits it)
    if document.flagged:
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


@dataclass(frozen=True)
class Typed:
    """A cell value with its number format (a date or an amount), so that a
    spreadsheet sorts, sums and filters it as what it is."""

    value: date | Decimal
    number_format: str
    shown: str  # as the report prints it (for the column width)


DATE_FORMATS = {"de": "DD.MM.YYYY", "en": "YYYY-MM-DD"}


def typed_date(value: date | None, language: str) -> Typed | str:
    if value is None:
        return ""
    shown = value.strftime("%d.%m.%Y") if language == "de" else value.isoformat()
    return Typed(value, DATE_FORMATS.get(language, DATE_FORMATS["en"]), shown)


def typed_value(raw: Any, shown: str, language: str) -> Typed | str:
    """A fact's typed value (``{"date": …}`` or ``{"cents": …, "currency": …}``)
    as a typed cell; anything else stays the text the report prints."""
    if not isinstance(raw, dict):
        return shown
    try:
        if set(raw) == {"date"}:
            return Typed(
                date.fromisoformat(str(raw["date"])),
                DATE_FORMATS.get(language, DATE_FORMATS["en"]),
                shown,
            )
        if set(raw) == {"cents", "currency"} and isinstance(raw["cents"], int):
            currency = str(raw["currency"]).replace('"', "")
            return Typed(Decimal(raw["cents"]) / 100, f'#,##0.00 "{currency}"', shown)
    except (TypeError, ValueError):
        return shown
    return shown


def _typed_cents(cents: int | None, currency: str, shown: str) -> Typed | str:
    if cents is None:
        return ""
    code = currency.replace('"', "")
    return Typed(Decimal(cents) / 100, f'#,##0.00 "{code}"', shown)


def _sheet(ws: Worksheet, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    ws.append(list(header))
    for cell in ws[1]:
        cell.font = HEADER_FONT
        cell.fill = HEADER_FILL
    for row in rows:
        ws.append(
            ["" if v is None else v.value if isinstance(v, Typed) else v for v in row]
        )
        for cell, v in zip(ws[ws.max_row], row, strict=False):
            if isinstance(v, Typed):
                cell.number_format = v.number_format
    widths = [len(str(h)) for h in header]
    for row in rows:
        for i, value in enumerate(row):
            text = value.shown if isinstance(value, Typed) else str(value or "")
            widths[i] = max(widths[i], min(len(text), 80))
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
    first = wb.active
    assert first is not None
    results = document.claim_results
    if results:
        # the claims' results stand first, as the report's summary does
        first.title = t["sheet_result"]
        _sheet(
            first,
            [t["claim"], t["result"], t["default_since"], t["recoverable_amount"],
             t["summary"]],
            [
                (
                    r.label,
                    r.result_label,
                    typed_date(r.default_from, document.report.language),
                    _typed_cents(
                        r.recoverable_cents, r.currency, str(r.recoverable_cents)
                    ),
                    r.text,
                )
                for r in results
            ],
        )  # fmt: skip
        findings = wb.create_sheet(t["sheet_findings"])
    else:
        findings = first
        findings.title = t["sheet_findings"]
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
        wb.create_sheet(t["sheet_evidence"]),
        ["#", t["requirement"], t["fact"], t["value"], t["status"], t["document"],
         t["page"], t["quote"]],
        [
            (
                v.finding.position,
                v.finding.label,
                e.get("label") or e["fact_type"],
                typed_value(e.get("typed"), e["value"], document.report.language),
                e.get("status_label") or e["status"],
                e.get("document", ""),
                e.get("page") or "",
                e.get("quote", ""),
            )
            for v, e in document.evidence_rows
        ],
    )  # fmt: skip
    _sheet(
        wb.create_sheet(t["sheet_citations"]),
        [t["citation"], t["canonical"], t["version"], t["language"], t["valid_from"],
         t["version_sha"], t["text_sha"], t["text"]],
        [
            (
                c.raw,
                c.canonical,
                c.version_label,
                c.version_language,
                typed_date(c.version_valid_from, document.report.language),
                c.version_sha256,
                c.text_sha256,
                c.text[:32000],
            )
            for c in document.appendix
        ],
    )  # fmt: skip
    _sheet(
        wb.create_sheet(t["sheet_flags"]),
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
    damage_xlsx(wb, document)  # reports/exports_damage.py
    from reports.exports_compliance import xlsx_compliance_sheets  # issue 17

    xlsx_compliance_sheets(wb, document)
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
