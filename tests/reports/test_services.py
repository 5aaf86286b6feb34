"""Reports end to end on the real corpus and database: drafting, both gates,
exports read back, immutability, regeneration and stale marks."""

from __future__ import annotations

import io
from datetime import date, datetime

import pytest
from django.db import IntegrityError, connection, transaction
from docx import Document
from openpyxl import load_workbook

from cases.errors import RoleRequired
from citations.models import Provision
from citations.services import citations_check, corpus_version_changed
from reports.domain.drafting import EvidenceItem, FindingDraft
from reports.exports import export_bytes
from reports.models import Finding, GateVerdict, Report, ReportStaleMark
from reports.services import report_create, report_issue
from reports.services.drafting import argument_draft
from review.models import Fact
from tests.reports.helpers import verzug_case
from tests.review.helpers import fact_decided

pytestmark = pytest.mark.django_db

FAKE = "Der Verzug folgt unmittelbar aus § 286 Abs. 7 BGB."


def _docx_text(content: bytes) -> str:
    doc = Document(io.BytesIO(content))
    parts = [p.text for p in doc.paragraphs]
    for table in doc.tables:
        for row in table.rows:
            parts += [c.text for c in row.cells]
    return "\n".join(parts)


def _docx_headings(content: bytes) -> list[str]:
    doc = Document(io.BytesIO(content))
    return [
        p.text
        for p in doc.paragraphs
        if p.style is not None and p.style.name.startswith(("Heading", "Title"))
    ]


def _xlsx_cells(content: bytes) -> dict[str, list[list[str]]]:
    wb = load_workbook(io.BytesIO(content))
    return {
        ws.title: [
            ["" if v is None else str(v) for v in row]
            for row in ws.iter_rows(values_only=True)
        ]
        for ws in wb.worksheets
    }


def _draft(
    claim, text: str, *, facts: tuple[int, ...] = (), key: str = "extra"
) -> FindingDraft:
    return FindingDraft(
        claim_id=claim.pk,
        claim_type=claim.claim_type,
        requirement_key=key,
        label=f"Zusatz {key}",
        verdict_status="satisfied",
        verdict_label="satisfied",
        text=text,
        drafter="model",
        supporting_fact_ids=facts,
        evidence=tuple(
            EvidenceItem(fact_id=f, fact_type="due_date", status="confirmed", value="v")
            for f in facts
        ),
    )


def test_template_report_prints_every_requirement_with_resolved_citations(
    case, lawyer, corpus
):
    verzug_case(case)
    report = report_create(case=case, actor=lawyer, language="de")
    findings = list(report.findings.all())
    assert [f.requirement_key for f in findings] == [
        "faelligkeit", "mahnung", "vertretenmuessen", "schaden",
    ]  # fmt: skip
    assert all(f.outcome == "printed" for f in findings)
    for finding in findings:
        # Every printed citation resolves, re-checked independently from the text.
        results = citations_check(finding.text, at=date(2026, 6, 1))
        assert results and all(r.status == "resolved" for r in results)
        stored = list(finding.citations.values_list("raw", "version_sha256"))
        assert [r.citation.raw for r in results] == [raw for raw, _ in stored]
        version = results[0].version
        assert version is not None
        assert all(sha == version.sha256 for _, sha in stored)
        assert finding.verdicts.filter(gate="refutation").count() == 5
    assert report.corpus_versions[0]["instrument"] == "BGB"
    assert report.summary["printed"] == 4 and report.summary["flagged"] == 0


def test_english_is_the_default_language(case, lawyer, corpus):
    verzug_case(case)
    report = report_create(case=case, actor=lawyer)
    assert report.language == "en"
    assert "This element is satisfied" in report.findings.get(position=1).text


def test_finding_with_nonexistent_citation_never_reaches_the_exports(
    case, lawyer, corpus
):
    claim = verzug_case(case)
    [result] = citations_check(FAKE, at=claim.valid_at)
    assert result.status == "not_found"
    drafts, _ = argument_draft(
        case=case,
        claim=claim,
        approved_evidence_ids=Fact.objects.values_list("pk", flat=True),
    )
    report = report_create(
        case=case, actor=lawyer, drafts=[*drafts, _draft(claim, FAKE)]
    )
    flagged = report.findings.get(requirement_key="extra")
    assert flagged.outcome == "flagged"
    assert "§ 286 Abs. 7 BGB: not_found" in flagged.flag_reason
    # Not refuted further: gate 2 never ran on it.
    assert not flagged.verdicts.filter(gate="refutation").exists()
    report = report_issue(report=report, actor=lawyer)

    docx, _ = export_bytes(report=report, fmt="docx")
    body = _docx_text(docx)
    assert FAKE not in body and "unmittelbar" not in body
    review = body.split("Zur Prüfung durch einen Menschen")[-1]
    before_review = body[: body.rindex("Zur Prüfung durch einen Menschen")]
    assert "§ 286 Abs. 7 BGB" not in before_review
    assert "§ 286 Abs. 7 BGB" in review and "Zusatz extra" in review

    sheets = _xlsx_cells(export_bytes(report=report, fmt="xlsx")[0])
    everything = "\n".join("\t".join(r) for rows in sheets.values() for r in rows)
    assert FAKE not in everything
    for name in ("Findings", "Evidence", "Citations"):
        assert "§ 286 Abs. 7 BGB" not in "\n".join("\t".join(r) for r in sheets[name])
    assert any("§ 286 Abs. 7 BGB" in "\t".join(r) for r in sheets["Flags"])


def test_recital_read_as_obligation_is_refuted_and_not_printed(case, lawyer, corpus):
    claim = verzug_case(case)
    claim.claim_type = "gdpr"
    claim.save()
    text = (
        "Nach Erwägungsgrund 47 DSGVO muss der Verantwortliche das Interesse abwägen."
    )
    report = report_create(
        case=case, actor=lawyer, drafts=[_draft(claim, text, key="recital")]
    )
    finding = report.findings.get()
    assert finding.outcome == "flagged"
    assert finding.citations.get().status == "resolved"
    refuted = finding.verdicts.get(gate="refutation", verdict="refuted")
    assert refuted.refuter == "recital_as_obligation"
    assert "[recital_as_obligation]" in finding.flag_reason
    body = _docx_text(export_bytes(report=report, fmt="docx")[0])
    assert text not in body


def test_finding_resting_on_a_disputed_fact_is_not_printed(case, lawyer, corpus):
    claim = verzug_case(case)
    due = Fact.objects.get(case=case, fact_type="due_date")
    drafts, _ = argument_draft(
        case=case,
        claim=claim,
        approved_evidence_ids=Fact.objects.values_list("pk", flat=True),
    )
    faelligkeit = next(d for d in drafts if d.requirement_key == "faelligkeit")
    assert due.pk in faelligkeit.supporting_fact_ids
    # The fact is disputed after the finding was drafted.
    fact_decided(due, status="disputed")
    report = report_create(case=case, actor=lawyer, drafts=[faelligkeit])
    finding = report.findings.get()
    assert finding.outcome == "flagged"
    verdict = finding.verdicts.get(refuter="unconfirmed_fact")
    assert verdict.verdict == "refuted" and "disputed" in verdict.reason
    report = report_issue(report=report, actor=lawyer)
    sheets = _xlsx_cells(export_bytes(report=report, fmt="xlsx")[0])
    assert len(sheets["Findings"]) == 1  # the header only
    assert finding.text not in _docx_text(export_bytes(report=report, fmt="docx")[0])


def test_disputed_fact_never_supports_a_template_finding(case, lawyer, corpus):
    verzug_case(
        case,
        statuses={"reminder_received": "disputed", "delivery_evidence": "disputed"},
    )
    report = report_create(case=case, actor=lawyer)
    mahnung = report.findings.get(requirement_key="mahnung")
    disputed = Fact.objects.get(case=case, fact_type="reminder_received")
    assert disputed.pk not in mahnung.supporting_fact_ids
    assert all(e["fact_id"] != disputed.pk for e in mahnung.evidence)
    assert mahnung.verdict_status == "open"
    assert "disputed" in mahnung.text


def test_argument_draft_uses_approved_established_facts_only(case, lawyer, corpus):
    claim = verzug_case(case, statuses={"damage_item": "asserted"})
    due = Fact.objects.get(case=case, fact_type="due_date")
    damage = Fact.objects.get(case=case, fact_type="damage_item")
    drafts, _ = argument_draft(
        case=case, claim=claim, approved_evidence_ids=[due.pk, damage.pk]
    )
    used = {f for d in drafts for f in d.supporting_fact_ids}
    assert used == {due.pk}


def test_exports_contain_the_expected_sections(case, lawyer, corpus):
    verzug_case(case)
    report = report_create(case=case, actor=lawyer, language="de")
    headings = _docx_headings(export_bytes(report=report, fmt="docx")[0])
    assert headings[0] == report.title
    for expected in (
        "Zusammenfassung",
        "Fälligkeit",
        "Vertretenmüssen (vermutet)",
        "Anhang: Zitierte Vorschriften",
        "§ 271 Abs. 1 BGB (de/bgb/sec/271/para/1)",
    ):
        assert expected in headings
    # every finding printed: no empty review section
    assert "Zur Prüfung durch einen Menschen" not in headings
    body = _docx_text(export_bytes(report=report, fmt="docx")[0])
    sha = report.corpus_versions[0]["sha256"]
    assert f"SHA-256 der Fassung: {sha}" in body
    assert "Zahlbar bis 30.04.2026." in body and "rechnung.pdf" in body

    wb = load_workbook(io.BytesIO(export_bytes(report=report, fmt="xlsx")[0]))
    assert wb.sheetnames == [
        "Ergebnis",
        "Feststellungen",
        "Belege",
        "Zitate",
        "Zur Prüfung",
        "Schadensberechnung",
    ]
    for ws in wb.worksheets:
        assert ws.freeze_panes == "A2"
        assert ws.auto_filter.ref == ws.dimensions
        assert ws["A1"].font.bold
        assert all(ws.column_dimensions[c].width >= 10 for c in "ABC")
    assert wb["Feststellungen"].max_row == 5
    evidence = [r for r in wb["Belege"].iter_rows(min_row=2, values_only=True)]
    assert any("Zahlbar bis 30.04.2026." in (r[7] or "") for r in evidence)
    assert any(r[5] == "rechnung.pdf" and r[6] == 1 for r in evidence)
    # A German report names facts, values and statuses as a German reader writes them.
    naive_excel_date = datetime(2026, 4, 30)  # noqa: DTZ001
    assert ("Fälligkeit", naive_excel_date, "bestätigt") in {r[2:5] for r in evidence}
    assert "Fälligkeit: 30.04.2026" in body and "due_date" not in body


def test_issued_report_carries_the_sha256_of_its_files(case, lawyer, corpus):
    import hashlib

    verzug_case(case)
    report = report_issue(report=report_create(case=case, actor=lawyer), actor=lawyer)
    assert report.status == "issued" and report.issued_at is not None
    for fmt in ("docx", "xlsx"):
        content, _ = export_bytes(report=report, fmt=fmt)
        assert hashlib.sha256(content).hexdigest() == report.export_sha256[fmt]


def test_issuing_twice_is_a_conflict_and_regenerating_makes_a_new_report(
    case, lawyer, corpus
):
    from reports.errors import ReportNotDraft

    verzug_case(case)
    first = report_issue(report=report_create(case=case, actor=lawyer), actor=lawyer)
    with pytest.raises(ReportNotDraft):
        report_issue(report=first, actor=lawyer)
    second = report_create(case=case, actor=lawyer)
    assert second.pk != first.pk and second.status == "draft"
    assert Report.objects.filter(case=case).count() == 2


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE reports_report SET title = 'forged' WHERE id = %s",
        "UPDATE reports_report SET status = 'draft' WHERE id = %s",
        "DELETE FROM reports_report WHERE id = %s",
        "UPDATE reports_finding SET text = 'forged' WHERE report_id = %s",
        "DELETE FROM reports_finding WHERE report_id = %s",
        "UPDATE reports_reportexport SET content = 'x' WHERE report_id = %s",
        "UPDATE reports_gateverdict SET verdict = 'upheld' WHERE finding_id IN "
        "(SELECT id FROM reports_finding WHERE report_id = %s)",
        "DELETE FROM reports_findingcitation WHERE finding_id IN "
        "(SELECT id FROM reports_finding WHERE report_id = %s)",
        "INSERT INTO reports_finding (report_id, position, claim_id, claim_type, "
        "requirement_key, label, verdict_status, verdict_label, text, drafter, "
        "supporting_fact_ids, evidence, outcome, flag_reason) SELECT id, 99, "
        "(SELECT claim_id FROM reports_report_claims WHERE report_id = %s LIMIT 1), "
        "'x', 'x', 'x', 'x', 'x', 'forged', 'rules', '[]', '[]', 'printed', '' "
        "FROM reports_report WHERE id = %s",
    ],
)
def test_issued_report_is_immutable_in_the_database(case, lawyer, corpus, sql):
    verzug_case(case)
    report = report_issue(report=report_create(case=case, actor=lawyer), actor=lawyer)
    with (
        pytest.raises(IntegrityError),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql, [report.pk] * sql.count("%s"))
    report.refresh_from_db()
    assert report.status == "issued"
    assert report.findings.count() == 4


def test_draft_report_may_change_and_be_deleted(case, lawyer, corpus):
    verzug_case(case)
    report = report_create(case=case, actor=lawyer)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE reports_report SET title = 'neu' WHERE id = %s", [report.pk]
        )
    report.delete()
    assert not Finding.objects.filter(report_id=report.pk).exists()
    assert not GateVerdict.objects.filter(finding__report_id=report.pk).exists()


def test_changed_cited_text_marks_reports_stale_through_the_corpus_signal(
    case, lawyer, corpus
):
    verzug_case(case)
    issued = report_issue(report=report_create(case=case, actor=lawyer), actor=lawyer)
    Provision.objects.filter(
        version__instrument__key="bgb", path="sec/271/para/1"
    ).update(text="Geänderter Text.")
    corpus_version_changed.send(
        sender=None, instrument_key="bgb", language="de", action="replaced"
    )
    mark = ReportStaleMark.objects.get(report=issued)
    assert mark.provisions == ["de/bgb/sec/271/para/1"]
    issued.refresh_from_db()
    assert issued.status == "issued"  # the report itself is untouched
    # Once more changes nothing; a report citing nothing changed stays fresh.
    corpus_version_changed.send(
        sender=None, instrument_key="bgb", language="de", action="replaced"
    )
    assert ReportStaleMark.objects.filter(report=issued).count() == 1
    corpus_version_changed.send(
        sender=None, instrument_key="gdpr", language="de", action="created"
    )
    assert ReportStaleMark.objects.filter(report=issued).count() == 1
    with (
        pytest.raises(IntegrityError),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("DELETE FROM reports_reportstalemark")


def test_unchanged_corpus_marks_nothing(case, lawyer, corpus):
    verzug_case(case)
    report = report_create(case=case, actor=lawyer)
    corpus_version_changed.send(
        sender=None, instrument_key="bgb", language="de", action="replaced"
    )
    assert not report.stale_marks.exists()


def test_only_lawyers_create_and_issue_reports(case, lawyer, reviewer, corpus):
    verzug_case(case)
    with pytest.raises(RoleRequired):
        report_create(case=case, actor=reviewer)
    report = report_create(case=case, actor=lawyer)
    with pytest.raises(RoleRequired):
        report_issue(report=report, actor=reviewer)


def test_report_for_a_tool_call_is_made_once(case, lawyer, corpus):
    verzug_case(case)
    first = report_create(case=case, actor=lawyer, call_id="call-7")
    again = report_create(case=case, actor=lawyer, call_id="call-7")
    assert again.pk == first.pk
    assert Report.objects.filter(case=case).count() == 1


def test_quotation_from_another_established_fact_is_upheld_and_invented_refuted(
    case, lawyer, corpus
):
    claim = verzug_case(case)
    due = Fact.objects.get(case=case, fact_type="due_date")
    real = "Zugang belegt: „zugestellt am 10.05.2026“ (§ 286 Abs. 1 S. 1 BGB)."
    invented = "Zugang belegt: „persönlich übergeben“ (§ 286 Abs. 1 S. 1 BGB)."
    report = report_create(
        case=case,
        actor=lawyer,
        drafts=[
            _draft(claim, real, facts=(due.pk,), key="real"),
            _draft(claim, invented, facts=(due.pk,), key="invented"),
        ],
    )
    assert report.findings.get(requirement_key="real").outcome == "printed"
    flagged = report.findings.get(requirement_key="invented")
    assert flagged.outcome == "flagged"
    assert flagged.verdicts.get(refuter="quote_not_found").verdict == "refuted"


def test_reimporting_a_changed_pinned_text_marks_reports_citing_it_stale(
    case, lawyer, corpus, tmp_path
):
    """The real hook: citations' import of a deliberately changed GDPR file
    (accepted with update_pin) marks the report citing the changed point."""
    import json
    import shutil

    from citations.corpus import corpus_dir_default
    from citations.corpus.pins import DEFAULT_PINS_PATH
    from citations.services import corpus_import

    claim = verzug_case(case)
    text = "Die Verarbeitung ist nach Art. 6 Abs. 1 lit. f DSGVO zulässig."
    other = "Die Verarbeitung ist nach Art. 5 Abs. 1 lit. a DSGVO rechtmäßig."
    report = report_create(
        case=case,
        actor=lawyer,
        drafts=[_draft(claim, text, key="f"), _draft(claim, other, key="a")],
    )
    assert report.findings.get(requirement_key="f").citations.get().status == (
        "resolved"
    )
    source = corpus_dir_default()
    pins = json.loads(DEFAULT_PINS_PATH.read_text(encoding="utf-8"))
    pins["pins"] = [p for p in pins["pins"] if p["instrument"] == "gdpr"]
    for pin in pins["pins"]:
        target = tmp_path / pin["path"]
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / pin["path"], target)
    changed = tmp_path / "gdpr/de/consolidated_dsgvo.xml"
    content = changed.read_text(encoding="utf-8")
    needle = "sofern nicht die Interessen oder Grundrechte"
    assert content.count(needle) == 1
    changed.write_text(
        content.replace(needle, "auch wenn die Interessen oder Grundrechte"),
        encoding="utf-8",
    )
    pins_path = tmp_path / "pins.json"
    pins_path.write_text(json.dumps(pins), encoding="utf-8")

    corpus_import(corpus_dir=tmp_path, pins_path=pins_path, update_pin=True)

    mark = ReportStaleMark.objects.get(report=report)
    assert mark.provisions == ["eu/reg/2016/679/art/6/para/1/point/f"]
    assert "Art. 5" not in mark.reason
