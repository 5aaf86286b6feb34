"""The report of a compliance case (issue 17): each obligation and element
with its provision, status and evidence (document, page, verbatim quote),
a gap list in Word and a "Lückenliste"/"Gap list" sheet in Excel, German and
English, every printed provision through the citation gate.

The case is built from facts a reviewer accepted (GDPR, Stichtag 01.10.2026):
Art. 28(2)/(4) (sub-processors) is erfüllt, Art. 13 is nicht erfüllt (the
complete privacy notice lacks the complaint right of Art. 13(2)(d)),
Art. 28(3) is offen (the file does not show processing on behalf) and
Art. 6(1)(f) does not apply (the processing rests on Art. 6(1)(b))."""

from __future__ import annotations

import datetime as dt
import io
from typing import Any, Literal

import pytest
from django.urls import reverse
from docx import Document
from openpyxl import load_workbook

from cases.models import Claim
from citations.services import citations_check
from reports.exports import export_bytes
from reports.models import Finding
from reports.services import report_create, report_issue
from tests import factories
from tests.ontology.factsdb import accepted
from tests.review.helpers import make_chunk

ClaimFactory: Any = factories.ClaimFactory

pytestmark = pytest.mark.django_db

NOTICE = (
    "Datenschutzhinweise\n\n1. Verantwortlicher: Lernwerk GmbH, Hauptstr. 1, Köln.\n"
    "2. Zwecke und Rechtsgrundlage: Vertragserfüllung (Art. 6 Abs. 1 lit. b DSGVO).\n"
    "3. Empfänger: keine.\n4. Speicherdauer: drei Jahre nach Vertragsende.\n"
    "5. Ihre Rechte: Auskunft, Berichtigung, Löschung, Einschränkung, Widerspruch, "
    "Datenübertragbarkeit.\n6. Die Angabe Ihrer Daten ist für den Vertrag "
    "erforderlich; ohne sie kein Vertrag."
)
CONTRACT = (
    "Auftragsverarbeitungsvertrag\n\n§ 7 Unterauftragsverarbeiter\n(1) Der "
    "Auftraggeber genehmigt gesondert den Einsatz der Cloudhaus AG.\n(2) Der "
    "Auftragnehmer erlegt der Cloudhaus AG dieselben Datenschutzpflichten auf."
)
ITEMS = {
    "gdpr_13_1_a_controller_identity": ("1.", "Verantwortlicher: Lernwerk GmbH"),
    "gdpr_13_1_c_purposes_legal_basis": ("2.", "Zwecke und Rechtsgrundlage"),
    "gdpr_13_1_e_recipients": ("3.", "Empfänger: keine."),
    "gdpr_13_2_a_storage_period": ("4.", "Speicherdauer: drei Jahre"),
    "gdpr_13_2_b_data_subject_rights": ("5.", "Ihre Rechte: Auskunft"),
    "gdpr_13_2_e_requirement_consequences": ("6.", "ohne sie kein Vertrag"),
}
CONTEXT = {
    "gdpr_ctx_role": ({"role": "controller"}, "Verantwortlicher: Lernwerk GmbH"),
    "gdpr_ctx_collection": (
        {"source": "from_data_subject"},
        "Verantwortlicher: Lernwerk GmbH",
    ),
    "gdpr_ctx_legal_basis": ({"bases": "6_1_b"}, "Vertragserfüllung"),
    "gdpr_ctx_dpo_designated": ({"value": False}, "Datenschutzhinweise"),
    "gdpr_ctx_third_country_transfer": ({"value": False}, "Empfänger: keine."),
    "gdpr_ctx_automated_decision": ({"value": False}, "Datenschutzhinweise"),
    "gdpr_doc_privacy_notice": (
        {"doc": "Datenschutzhinweise", "complete": True, "date": "2026-03-01"},
        "Datenschutzhinweise",
    ),
}
SUBPROCESSING = {
    "gdpr_ctx_subprocessor_engaged": (
        {"value": True},
        "genehmigt gesondert den Einsatz der Cloudhaus AG",
    ),
    "gdpr_28_2_prior_authorisation": (
        {"state": "present", "doc": "AVV", "locator": "§ 7 (1)", "kind": "specific"},
        "genehmigt gesondert den Einsatz der Cloudhaus AG",
    ),
    "gdpr_28_4_flow_down": (
        {"state": "present", "doc": "AVV", "locator": "§ 7 (2)"},
        "dieselben Datenschutzpflichten auf",
    ),
}


def gdpr_case(case: Any, reviewer: Any) -> Claim:
    """The four verdicts of the module docstring, from accepted facts."""
    claim = ClaimFactory(
        case=case,
        claim_type=Claim.ClaimType.GDPR,
        jurisdiction="DE",
        valid_at=dt.date(2026, 10, 1),
    )
    notice = make_chunk(case, text=NOTICE, filename="datenschutzhinweise.pdf")
    contract = make_chunk(case, text=CONTRACT, filename="avv.pdf")
    for key, (value, quote) in CONTEXT.items():
        accepted(case, reviewer, chunk=notice, fact_type=key, value=value, quote=quote)
    for key, (locator, quote) in ITEMS.items():
        accepted(
            case,
            reviewer,
            chunk=notice,
            fact_type=key,
            value={
                "state": "present",
                "doc": "Datenschutzhinweise",
                "locator": locator,
            },
            quote=quote,
        )
    for key, (value, quote) in SUBPROCESSING.items():
        accepted(
            case, reviewer, chunk=contract, fact_type=key, value=value, quote=quote
        )
    return claim


def docx_text(content: bytes) -> str:
    doc = Document(io.BytesIO(content))
    parts = [p.text for p in doc.paragraphs]
    for table in doc.tables:
        for row in table.rows:
            parts.append(" | ".join(c.text for c in row.cells))
    return "\n".join(parts)


def docx_tables(content: bytes) -> list[list[list[str]]]:
    doc = Document(io.BytesIO(content))
    return [[[c.text for c in row.cells] for row in t.rows] for t in doc.tables]


def docx_gap_list(content: bytes, heading: str) -> list[str]:
    """The bullet paragraphs under the gap-list heading of the Word file."""
    doc = Document(io.BytesIO(content))
    lines: list[str] = []
    inside = False
    for p in doc.paragraphs:
        is_heading = p.style is not None and p.style.name.startswith("Heading")
        if is_heading:
            inside = p.text.startswith(heading)
            continue
        if inside:
            lines.append(p.text)
    return lines


def _report(case: Any, lawyer: Any, language: Literal["de", "en"]) -> Any:
    report = report_create(case=case, actor=lawyer, language=language)
    return report_issue(report=report, actor=lawyer)


def test_every_obligation_and_element_is_a_finding_and_all_print(
    case, lawyer, reviewer, corpus
):
    gdpr_case(case, reviewer)
    report = report_create(case=case, actor=lawyer, language="de")
    findings = {f.requirement_key: f for f in report.findings.all()}
    assert findings["gdpr_28_sub"].verdict_status == "satisfied"
    assert findings["gdpr_13"].verdict_status == "not_satisfied"
    assert findings["gdpr_28_3"].verdict_status == "open"
    assert findings["gdpr_6_1_f"].verdict_status == "not_applicable"
    assert findings["gdpr_13_2_d_complaint_right"].verdict_status == "not_satisfied"
    # an obligation that does not apply lists no elements
    assert "gdpr_6_1_f_necessity" not in findings
    flagged = [
        (f.requirement_key, f.flag_reason)
        for f in report.findings.all()
        if f.outcome != Finding.Outcome.PRINTED
    ]
    assert flagged == []
    # the old one-fact checklist no longer produces findings
    assert "dpia" not in findings and "lawful_basis" not in findings


def test_word_maps_each_element_to_provision_status_and_evidence_in_german(
    case, lawyer, reviewer, corpus
):
    gdpr_case(case, reviewer)
    content, _ = export_bytes(report=_report(case, lawyer, "de"), fmt="docx")
    text = docx_text(content)
    assert (
        "Informationspflicht bei Erhebung bei der betroffenen Person (Art. 13 DSGVO)"
        in text
    )
    assert "Ergebnis: nicht erfüllt" in text
    rows = [row for table in docx_tables(content) for row in table]
    assert ["Element", "Vorschrift", "Status", "Belege"] in rows
    complaint = next(r for r in rows if r[1] == "Art. 13 Abs. 2 lit. d DSGVO")
    assert complaint[2] == "nicht erfüllt"
    # violated: the complete notice it is missing from is the evidence
    assert "datenschutzhinweise.pdf" in complaint[3]
    identity = next(r for r in rows if r[1] == "Art. 13 Abs. 1 lit. a DSGVO")
    assert identity[2] == "erfüllt"
    assert "„Verantwortlicher: Lernwerk GmbH“" in identity[3]
    assert "S. 1" in identity[3]
    flow_down = next(r for r in rows if r[1] == "Art. 28 Abs. 4 S. 1 DSGVO")
    assert flow_down[2] == "erfüllt" and "avv.pdf" in flow_down[3]
    subject = next(r for r in rows if r[1] == "Art. 28 Abs. 3 UAbs. 1 lit. a DSGVO")
    assert subject[2] == "Anwendbarkeit offen" and subject[3] == "—"
    # the obligation that does not apply says so and why
    assert "ist nicht anwendbar: Die Verarbeitung ist nicht auf Art. 6" in text
    gaps = "\n".join(docx_gap_list(content, "Lückenliste: "))
    assert (
        "Beschwerderecht bei einer Aufsichtsbehörde (Art. 13 Abs. 2 lit. d DSGVO): "
        "nicht erfüllt" in gaps
    )
    assert "Rat des Datenschutzbeauftragten" in gaps  # Art. 35: open
    assert "Name und Kontaktdaten des Verantwortlichen" not in gaps  # erfüllt
    assert "berechtigtes Interesse" not in gaps  # Art. 6(1)(f) does not apply


def test_word_report_in_english_uses_the_english_labels_and_provisions(
    case, lawyer, reviewer, corpus
):
    gdpr_case(case, reviewer)
    content, _ = export_bytes(report=_report(case, lawyer, "en"), fmt="docx")
    text = docx_text(content)
    assert (
        "Information to be provided where data are collected from the data "
        "subject (Art. 13 GDPR)" in text
    )
    rows = [row for table in docx_tables(content) for row in table]
    assert ["Element", "Provision", "Status", "Evidence"] in rows
    complaint = next(r for r in rows if r[1] == "Art. 13(2)(d) GDPR")
    assert complaint[2] == "not satisfied"
    assert "does not apply" in text
    assert "Verdict: not satisfied" in text and "Ergebnis:" not in text
    gaps = "\n".join(docx_gap_list(content, "Gap list: "))
    assert "right to lodge a complaint" in gaps and "Art. 13(2)(d) GDPR" in gaps


def _sheets(content: bytes) -> Any:
    return load_workbook(io.BytesIO(content))


def test_excel_gap_list_has_typed_columns_for_the_team(case, lawyer, reviewer, corpus):
    gdpr_case(case, reviewer)
    content, _ = export_bytes(report=_report(case, lawyer, "de"), fmt="xlsx")
    wb = _sheets(content)
    ws = wb["Lückenliste"]
    rows = [list(r) for r in ws.iter_rows(values_only=True)]
    assert rows[0] == [
        "Pflicht",
        "Element",
        "Vorschrift",
        "Status",
        "Befund",
        "Belege",
        "Verantwortlich",
        "Fällig am",
    ]
    by_provision = {r[2]: r for r in rows[1:]}
    complaint = by_provision["Art. 13 Abs. 2 lit. d DSGVO"]
    assert complaint[0].startswith("Informationspflicht bei Erhebung")
    assert complaint[1] == "Beschwerderecht bei einer Aufsichtsbehörde"
    assert complaint[3] == "nicht erfüllt"
    assert "im vollständigen Dokument nicht enthalten" in complaint[4]
    assert "datenschutzhinweise.pdf" in complaint[5]
    assert complaint[6] is None and complaint[7] is None  # for the team
    # only gaps: nothing erfüllt, nothing of the obligation that does not apply
    statuses = {r[3] for r in rows[1:]}
    assert "erfüllt" not in statuses
    assert "Art. 13 Abs. 1 lit. a DSGVO" not in by_provision
    assert not any(str(r[2]).startswith("Art. 6 Abs. 1") for r in rows[1:])
    assert "Art. 28 Abs. 3 UAbs. 1 lit. h DSGVO" in by_provision  # offen
    # due is a date column, status offers the verdict words
    assert ws["H2"].number_format == "DD.MM.YYYY"
    validations = {str(dv.sqref): dv for dv in ws.data_validations.dataValidation}
    status_list = next(dv for ref, dv in validations.items() if ref.startswith("D2"))
    assert status_list.type == "list"
    assert "nicht erfüllt" in status_list.formula1
    assert any(dv.type == "date" for dv in validations.values())
    reasons = [list(r) for r in wb["Nicht anwendbar"].iter_rows(values_only=True)]
    assert reasons[0] == ["Pflicht", "Vorschrift", "Begründung"]
    [art6] = [r for r in reasons[1:] if r[1] == "Art. 6 Abs. 1 UAbs. 1 lit. f DSGVO"]
    assert "nicht auf Art. 6 Abs. 1 UAbs. 1 lit. f gestützt" in art6[2]


def test_excel_gap_list_in_english(case, lawyer, reviewer, corpus):
    gdpr_case(case, reviewer)
    content, _ = export_bytes(report=_report(case, lawyer, "en"), fmt="xlsx")
    wb = _sheets(content)
    rows = [list(r) for r in wb["Gap list"].iter_rows(values_only=True)]
    assert rows[0][:4] == ["Obligation", "Element", "Provision", "Status"]
    assert rows[0][6:] == ["Owner", "Due"]
    complaint = next(r for r in rows if r[2] == "Art. 13(2)(d) GDPR")
    assert complaint[1] == "right to lodge a complaint with a supervisory authority"
    assert complaint[3] == "not satisfied"
    assert wb["Gap list"]["H2"].number_format == "YYYY-MM-DD"
    assert "Not applicable" in wb.sheetnames


def test_every_provision_the_compliance_report_prints_resolved_in_the_gate(
    case, lawyer, reviewer, corpus
):
    gdpr_case(case, reviewer)
    report = report_create(case=case, actor=lawyer, language="de")
    for finding in report.findings.all():
        citations = list(finding.citations.all())
        assert citations, finding.requirement_key
        assert {c.status for c in citations} <= {"resolved"}, (
            finding.requirement_key,
            [(c.raw, c.status) for c in citations],
        )
    complaint = report.findings.get(requirement_key="gdpr_13_2_d_complaint_right")
    assert [c.raw for c in complaint.citations.all()] == ["Art. 13 Abs. 2 lit. d DSGVO"]


@pytest.mark.parametrize(
    "text",
    ["Art. 13 Abs. 2 lit. k DSGVO", "Art. 30 Abs. 2 lit. z DORA", "Art. 13(2)(k) GDPR"],
)
def test_a_provision_that_does_not_exist_is_flagged_by_the_citation_gate(text, corpus):
    [result] = citations_check(text, at=dt.date(2026, 10, 1))
    assert result.status != "resolved"


def test_the_same_citations_pass_for_the_real_provisions(corpus):
    for text in (
        "Art. 13 Abs. 2 lit. d DSGVO",
        "Art. 30 Abs. 2 lit. a DORA",
        "Art. 13(2)(d) GDPR",
    ):
        [result] = citations_check(text, at=dt.date(2026, 10, 1))
        assert result.status == "resolved", text


def test_an_element_whose_provision_does_not_resolve_is_withheld_not_printed(
    case, lawyer, reviewer, corpus, monkeypatch
):
    """An element cites a provision the corpus does not have: the gate flags
    it, and neither the table nor the gap list prints that provision."""
    from reports.domain import compliance_drafting

    real = compliance_drafting._element_text

    def wrong(element: Any, language: Literal["de", "en"]) -> str:
        text = real(element, language)
        if element.key == "gdpr_13_2_d_complaint_right":
            return text.replace("Art. 13 Abs. 2 lit. d", "Art. 13 Abs. 2 lit. k")
        return text

    monkeypatch.setattr(compliance_drafting, "_element_text", wrong)
    gdpr_case(case, reviewer)
    report = _report(case, lawyer, "de")
    finding = report.findings.get(requirement_key="gdpr_13_2_d_complaint_right")
    assert finding.outcome == Finding.Outcome.FLAGGED
    docx = docx_text(export_bytes(report=report, fmt="docx")[0])
    before_review = docx[: docx.rindex("Zur Prüfung durch einen Menschen")]
    assert "Art. 13 Abs. 2 lit. k DSGVO" not in before_review
    wb = _sheets(export_bytes(report=report, fmt="xlsx")[0])
    rows = [list(r) for r in wb["Lückenliste"].iter_rows(values_only=True)]
    row = next(r for r in rows if r[1] == "Beschwerderecht bei einer Aufsichtsbehörde")
    assert row[2] is None and row[3] == "zur Prüfung durch einen Menschen"
    assert "lit. k" not in "".join(str(c) for r in rows for c in r)


def test_dossier_text_in_the_gap_list_is_never_a_formula(
    case, lawyer, reviewer, corpus
):
    claim = gdpr_case(case, reviewer)
    hostile = make_chunk(
        case, text='=HYPERLINK("http://x","y") Vollständiger Hinweis', filename="=x.pdf"
    )
    accepted(
        case,
        reviewer,
        chunk=hostile,
        fact_type="gdpr_ctx_processing_on_behalf",
        value={"value": True},
        quote='=HYPERLINK("http://x","y")',
    )
    accepted(
        case,
        reviewer,
        chunk=hostile,
        fact_type="gdpr_doc_dpa",
        value={"doc": "=AVV", "complete": True},
        quote='=HYPERLINK("http://x","y")',
    )
    assert claim.pk
    wb = _sheets(export_bytes(report=_report(case, lawyer, "de"), fmt="xlsx")[0])
    ws = wb["Lückenliste"]
    cells = [c for row in ws.iter_rows(min_row=2) for c in row if c.value]
    hostile_cells = [c for c in cells if "=x.pdf" in str(c.value)]
    assert hostile_cells
    for cell in cells:
        assert cell.data_type != "f", cell.value
    first = [c for c in cells if str(c.value).startswith("=")]
    for cell in first:
        assert cell.data_type == "s" and cell.quotePrefix


def test_other_firm_cannot_download_the_compliance_report(
    case, lawyer, reviewer, corpus, other_client, lawyer_client
):
    gdpr_case(case, reviewer)
    report = _report(case, lawyer, "de")
    for fmt in ("docx", "xlsx"):
        url = reverse(
            "reports:report_download",
            kwargs={"report_id": report.pk, "export_format": fmt},
        )
        assert lawyer_client.get(url).status_code == 200
        assert other_client.get(url).status_code == 404


def test_every_provision_of_the_obligation_catalogue_resolves_in_the_gate(corpus):
    """Whatever a compliance report prints comes from these provisions: each
    (German and English) parses and resolves against the pinned corpus, so
    no element finding is flagged for a citation the catalogue got wrong."""
    from ontology.domain.compliance_catalogue import obligations_catalogue

    at = dt.date(2026, 10, 1)
    unresolved = []
    for obligation in obligations_catalogue().values():
        texts = [obligation.provision_de, obligation.provision_en]
        for element in obligation.elements:
            texts += [element.provision_de, element.provision_en]
        for text in dict.fromkeys(texts):
            results = citations_check(text, at=at)
            if not results or any(r.status != "resolved" for r in results):
                unresolved.append((text, [(r.citation.raw, r.status) for r in results]))
    assert unresolved == [], "\n".join(map(str, unresolved))


def test_ai_act_and_dora_reports_print_every_obligation_open_on_an_empty_file(
    case, lawyer, corpus
):
    for claim_type in (Claim.ClaimType.AI_ACT_HIGH_RISK, Claim.ClaimType.DORA):
        ClaimFactory(
            case=case,
            claim_type=claim_type,
            jurisdiction="DE",
            valid_at=dt.date(2026, 10, 1),
        )
    report = _report(case, lawyer, "de")
    findings = list(report.findings.all())
    assert findings
    assert {f.outcome for f in findings} == {Finding.Outcome.PRINTED}
    assert "satisfied" not in {f.verdict_status for f in findings}
    wb = _sheets(export_bytes(report=report, fmt="xlsx")[0])
    rows = list(wb["Lückenliste"].iter_rows(values_only=True))[1:]
    provisions = {r[2] for r in rows}
    assert "Art. 14 Abs. 4 lit. e KI-VO" in provisions
    assert "Art. 30 Abs. 2 lit. a DORA" in provisions
