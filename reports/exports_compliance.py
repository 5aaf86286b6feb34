"""The compliance part of the Word and Excel exports (issue 17).

A compliance claim's findings come one per obligation, each followed by one
per element (``reports.domain.compliance_drafting``). Word gets a section per
obligation with its verdict and reasoning, an element table (element,
provision, status, evidence) and, per claim, a gap list of what is missing or
violated. Excel gets a sheet "Lückenliste"/"Gap list" (obligation, element,
provision, status, finding, evidence, owner, due) that a team tracks its work
in — owner and due are empty typed columns for the team, the status column
offers the verdict words as a list — and a sheet of the obligations that do
not apply, with the reason.

The gate rule holds here as everywhere: a provision, a verdict, a reason or a
quote is printed only from a printed finding, i.e. one whose citations the
citation gate resolved and that every refuter upheld. A flagged element shows
its label and "zur Prüfung durch einen Menschen", nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.datavalidation import DataValidation

from reports.domain.compliance_drafting import (
    EXTRA_LABELS,
    ObligationGroup,
    compliance_groups,
    is_compliance_claim,
)
from reports.exports import DATE_FORMATS, _sheet, _table
from reports.selectors import ClaimSection, FindingView, ReportDocument

TEXTS: dict[str, dict[str, str]] = {
    "de": {
        "element": "Element",
        "obligation": "Pflicht",
        "provision": "Vorschrift",
        "status": "Status",
        "evidence": "Belege",
        "finding": "Befund",
        "owner": "Verantwortlich",
        "due": "Fällig am",
        "reason": "Begründung",
        "gaps": "Lückenliste",
        "no_gaps": "Keine Lücken: jedes anwendbare Element ist belegt.",
        "sheet_gaps": "Lückenliste",
        "sheet_not_applicable": "Nicht anwendbar",
        "page": "S.",
        "none": "—",
        "elements": "Elemente",
    },
    "en": {
        "element": "Element",
        "obligation": "Obligation",
        "provision": "Provision",
        "status": "Status",
        "evidence": "Evidence",
        "finding": "Finding",
        "owner": "Owner",
        "due": "Due",
        "reason": "Reason",
        "gaps": "Gap list",
        "no_gaps": "No gaps: every applicable element is evidenced.",
        "sheet_gaps": "Gap list",
        "sheet_not_applicable": "Not applicable",
        "page": "p.",
        "none": "—",
        "elements": "Elements",
    },
}
GAP_STATUSES = ("not_satisfied", "open")
STATUS_WORDS = {
    "de": ("erfüllt", "nicht erfüllt", "offen", *(v[0] for v in EXTRA_LABELS.values())),
    "en": (
        "satisfied",
        "not satisfied",
        "open",
        *(v[1] for v in EXTRA_LABELS.values()),
    ),
}


def _lang(document: ReportDocument) -> str:
    return "de" if document.report.language == "de" else "en"


def section_is_compliance(section: ClaimSection) -> bool:
    return bool(section.findings) and is_compliance_claim(
        section.findings[0].finding.claim_type
    )


def groups_of(section: ClaimSection) -> list[ObligationGroup]:
    return compliance_groups([(v.finding.requirement_key, v) for v in section.findings])


def summary_views(section: ClaimSection) -> list[FindingView]:
    """What the summary lists of a section: the obligations of a compliance
    claim (not each element), every finding of any other claim."""
    if not section_is_compliance(section):
        return list(section.findings)
    return [_view(g.finding) for g in groups_of(section)]


def _view(item: object) -> FindingView:
    assert isinstance(item, FindingView)
    return item


def evidence_text(view: FindingView, lang: str) -> str:
    """Each piece of evidence of a printed finding: document, page and the
    verbatim quote (a fact without a document shows its value)."""
    if not view.printed:
        return ""
    page = TEXTS[lang]["page"]
    lines = []
    for e in view.finding.evidence:
        label = e.get("label") or e.get("fact_type", "")
        where = ", ".join(
            p
            for p in (
                e.get("document", ""),
                f"{page} {e['page']}" if e.get("page") else "",
            )
            if p
        )
        quote = e.get("quote", "")
        head = f"{where}: „{quote}“" if where and quote else where or quote
        lines.append(head or f"{label}: {e.get('value', '')}")
    return "\n".join(dict.fromkeys(lines))


@dataclass(frozen=True)
class GapRow:
    obligation: str
    element: str
    provision: str
    status: str
    finding: str
    evidence: str


def _status(view: FindingView, flagged: str) -> str:
    return view.finding.verdict_label if view.printed else flagged


def _obligation_heading(group: ObligationGroup, lang: str) -> str:
    view = _view(group.finding)
    provision = group.provision_de if lang == "de" else group.provision_en
    return f"{view.finding.label} ({provision})" if view.printed else view.finding.label


def section_gaps(section: ClaimSection, lang: str, flagged: str) -> list[GapRow]:
    """Every element of an applicable obligation of one claim that is not
    (yet) evidenced, is shown missing or violated, or whose finding awaits a
    human."""
    rows = []
    for group in groups_of(section):
        obligation = _obligation_heading(group, lang)
        for item in group.elements:
            view = _view(item.finding)
            if view.printed and view.finding.verdict_status not in GAP_STATUSES:
                continue
            provision = item.provision_de if lang == "de" else item.provision_en
            rows.append(
                GapRow(
                    obligation=obligation,
                    element=view.finding.label,
                    provision=provision if view.printed else "",
                    status=_status(view, flagged),
                    finding=view.finding.text if view.printed else "",
                    evidence=evidence_text(view, lang),
                )
            )
    return rows


def gap_rows(document: ReportDocument) -> list[GapRow]:
    """The gaps of every compliance claim of the report, in report order."""
    lang = _lang(document)
    return [
        row
        for section in document.sections
        if section_is_compliance(section)
        for row in section_gaps(section, lang, document.texts["flagged"])
    ]


def not_applicable_rows(document: ReportDocument) -> list[tuple[str, str, str]]:
    """The obligations that do not apply: label, provision and the reason
    (the printed finding says that and why)."""
    lang = _lang(document)
    rows = []
    for section in document.sections:
        if not section_is_compliance(section):
            continue
        for group in groups_of(section):
            view = _view(group.finding)
            if view.finding.verdict_status != "not_applicable" or not view.printed:
                continue
            provision = group.provision_de if lang == "de" else group.provision_en
            rows.append((view.finding.label, provision, view.finding.text))
    return rows


# ------------------------------------------------------------------ Word
def docx_compliance_section(
    doc: Any, document: ReportDocument, section: ClaimSection
) -> None:
    """One claim's obligations: heading, verdict, reasoning, the element
    table, then the claim's gap list."""
    lang = _lang(document)
    t, c = document.texts, TEXTS[lang]
    doc.add_heading(section.label, level=1)
    groups = groups_of(section)
    for group in groups:
        view = _view(group.finding)
        doc.add_heading(_obligation_heading(group, lang), level=2)
        if not view.printed:
            doc.add_paragraph(t["withheld"])
        else:
            p = doc.add_paragraph()
            p.add_run(f"{t['verdict']}: ").bold = True
            p.add_run(view.finding.verdict_label)
            p = doc.add_paragraph()
            p.add_run(f"{t['reasoning']}: ").bold = True
            p.add_run(view.finding.text)
            for number, note in enumerate(view.notes, start=1):
                doc.add_paragraph(f"{number} {note}")
        if not group.elements:
            continue
        rows = []
        for item in group.elements:
            element = _view(item.finding)
            provision = item.provision_de if lang == "de" else item.provision_en
            rows.append(
                (
                    element.finding.label,
                    provision if element.printed else c["none"],
                    _status(element, t["flagged"]),
                    evidence_text(element, lang) or c["none"],
                )
            )
        _table(doc, [c["element"], c["provision"], c["status"], c["evidence"]], rows)
    grouped = {id(g.finding) for g in groups} | {
        id(e.finding) for g in groups for e in g.elements
    }
    for view in section.findings:
        if id(view) not in grouped:  # drafted elsewhere (e.g. draft_argument)
            _docx_other_finding(doc, document, view)
    doc.add_heading(f"{c['gaps']}: {section.label}", level=2)
    gaps = section_gaps(section, lang, t["flagged"])
    if not gaps:
        doc.add_paragraph(c["no_gaps"])
    for gap in gaps:
        p = doc.add_paragraph(style="List Bullet")
        p.add_run(f"{gap.obligation} — {gap.element}").bold = True
        if gap.provision:
            p.add_run(f" ({gap.provision})")
        p.add_run(f": {gap.status}")
        if gap.finding:
            p.add_run(f". {gap.finding}")


def _docx_other_finding(doc: Any, document: ReportDocument, view: FindingView) -> None:
    """A finding of a compliance claim that is no obligation or element (an
    agent's draft): printed as any finding is, or withheld."""
    t = document.texts
    doc.add_heading(view.finding.label, level=2)
    if not view.printed:
        doc.add_paragraph(t["withheld"])
        return
    p = doc.add_paragraph()
    p.add_run(f"{t['verdict']}: ").bold = True
    p.add_run(view.finding.verdict_label)
    p = doc.add_paragraph()
    p.add_run(f"{t['reasoning']}: ").bold = True
    p.add_run(view.finding.text)
    evidence = evidence_text(view, _lang(document))
    if evidence:
        doc.add_paragraph(f"{t['evidence']}: {evidence}")


# ------------------------------------------------------------------ Excel
def xlsx_compliance_sheets(wb: Workbook, document: ReportDocument) -> None:
    """The gap list and the non-applicable obligations, if the report has a
    compliance claim."""
    if not any(section_is_compliance(s) for s in document.sections):
        return
    lang = _lang(document)
    c = TEXTS[lang]
    gaps = gap_rows(document)
    ws = wb.create_sheet(c["sheet_gaps"])
    header = [
        c["obligation"],
        c["element"],
        c["provision"],
        c["status"],
        c["finding"],
        c["evidence"],
        c["owner"],
        c["due"],
    ]
    _sheet(
        ws,
        header,
        [
            (
                g.obligation,
                g.element,
                g.provision,
                g.status,
                g.finding,
                g.evidence,
                "",
                "",
            )
            for g in gaps
        ],
    )
    last = max(ws.max_row, 2)
    owner_col, due_col, status_col = "G", "H", "D"
    for row in range(2, ws.max_row + 1):
        ws[f"{owner_col}{row}"].value = None
        ws[f"{owner_col}{row}"].number_format = "@"
        ws[f"{due_col}{row}"].value = None
        ws[f"{due_col}{row}"].number_format = DATE_FORMATS.get(lang, "YYYY-MM-DD")
    ws.column_dimensions[due_col].width = max(ws.column_dimensions[due_col].width, 14)
    ws.column_dimensions[owner_col].width = max(
        ws.column_dimensions[owner_col].width, 18
    )
    words = [*STATUS_WORDS[lang], document.texts["flagged"]]
    status_list = DataValidation(
        type="list",
        formula1='"' + ",".join(words) + '"',
        allow_blank=True,
        showErrorMessage=True,
    )
    status_list.add(f"{status_col}2:{status_col}{last + 500}")
    due_check = DataValidation(
        type="date",
        operator="greaterThan",
        formula1="1",
        allow_blank=True,
        showErrorMessage=True,
    )
    due_check.add(f"{due_col}2:{due_col}{last + 500}")
    ws.add_data_validation(status_list)
    ws.add_data_validation(due_check)
    _sheet(
        wb.create_sheet(c["sheet_not_applicable"]),
        [c["obligation"], c["provision"], c["reason"]],
        not_applicable_rows(document),
    )
