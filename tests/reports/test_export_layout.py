"""The exports as a reader gets them (issue 14 items 10 and 11): an A4 Word
file with margins, page numbers, a header naming the file reference and the
status, local time with its zone, tables whose columns fit their words, no
empty review section; an Excel file with sheet names in the report's language
and typed dates and amounts; issuing only after a confirmation that says what
becomes immutable; distinguishable report names; and a report that says the
rules drafted it when a model was chosen but none is configured."""

from __future__ import annotations

import io
import re
from datetime import date, datetime
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from docx import Document
from openpyxl import load_workbook

from reports.domain.drafting import EvidenceItem, FindingDraft, fact_type_label
from reports.exports import (
    CELL_PADDING,
    CHAR_WIDTH,
    TABLE_FONT,
    TEXT_WIDTH,
    column_widths,
    export_bytes,
    export_filename,
    table_font,
)
from reports.models import Report
from reports.services import report_create, report_issue
from tests.reports.helpers import verzug_case

pytestmark = pytest.mark.django_db

FAKE = "Der Verzug folgt unmittelbar aus § 286 Abs. 7 BGB."


def _docx(report: Report) -> Any:
    return Document(io.BytesIO(export_bytes(report=report, fmt="docx")[0]))


def _headings(doc: Any) -> list[str]:
    return [
        p.text
        for p in doc.paragraphs
        if p.style is not None and p.style.name.startswith(("Heading", "Title"))
    ]


def _flagged_draft(claim: Any) -> FindingDraft:
    return FindingDraft(
        claim_id=claim.pk,
        claim_type=claim.claim_type,
        requirement_key="extra",
        label="Zusatz",
        verdict_status="satisfied",
        verdict_label="satisfied",
        text=FAKE,
        drafter="rules",
        evidence=(
            EvidenceItem(
                fact_id=1, fact_type="due_date", status="confirmed", value="v"
            ),
        ),
    )


# --- Word --------------------------------------------------------------------------


def test_docx_is_a4_with_margins_a_header_and_page_numbers(case, lawyer, corpus):
    verzug_case(case)
    report = report_create(case=case, actor=lawyer, language="de")

    doc = _docx(report)

    section = doc.sections[0]

    def mm(length: Any) -> float:
        return round(length.mm, 1)  # Word stores twips

    assert (mm(section.page_width), mm(section.page_height)) == (210, 297)
    assert mm(section.left_margin) == mm(section.right_margin) == 25
    assert (mm(section.top_margin), mm(section.bottom_margin)) == (25, 20)
    header = section.header.paragraphs[0].text
    assert header == f"Akte {case.reference} · Status: Entwurf"
    footer = section.footer.paragraphs[0]
    instructions = [
        e.text.strip() for e in footer._p.iter() if e.tag.endswith("}instrText")
    ]
    assert instructions == ["PAGE", "NUMPAGES"]
    assert footer.text.startswith("Seite ") and " von " in footer.text


def test_the_issued_file_says_issued_in_its_header_and_on_its_title_page(
    case, lawyer, corpus
):
    verzug_case(case)
    report = report_issue(
        report=report_create(case=case, actor=lawyer, language="de"), actor=lawyer
    )

    doc = _docx(report)  # the sealed file

    assert doc.sections[0].header.paragraphs[0].text.endswith("Status: Ausgegeben")
    assert "Status: Ausgegeben" in [p.text for p in doc.paragraphs]


def test_the_title_page_gives_local_time_with_its_zone(case, lawyer, corpus, settings):
    settings.TIME_ZONE = "Europe/Berlin"
    verzug_case(case)
    report = report_create(case=case, actor=lawyer, language="de")
    local = timezone.localtime(report.created_at)

    lines = [p.text for p in _docx(report).paragraphs]

    created = next(line for line in lines if line.startswith("Erstellt: "))
    offset_now = local.utcoffset()
    assert offset_now is not None
    zone = "CEST" if offset_now.total_seconds() == 7200 else "CET"
    offset = "+02:00" if zone == "CEST" else "+01:00"
    assert created == (f"Erstellt: {local:%d.%m.%Y %H:%M} {zone} (UTC{offset})"), (
        created
    )


def test_table_columns_are_at_least_as_wide_as_their_longest_word(case, lawyer, corpus):
    verzug_case(case)
    report = report_create(case=case, actor=lawyer, language="de")

    tables = _docx(report).tables

    assert tables
    for table in tables:
        grid = [int(c.width) for c in table.columns]
        assert sum(grid) <= TEXT_WIDTH
        assert table.autofit is False  # fixed layout: Word keeps the widths
        sizes = {
            run.font.size.pt
            for row in table.rows
            for cell in row.cells
            for paragraph in cell.paragraphs
            for run in paragraph.runs
        }
        assert len(sizes) == 1 and 7 <= min(sizes) <= 9, sizes  # one font per table
        char_width = CHAR_WIDTH * sizes.pop() / TABLE_FONT.pt
        for index, width in enumerate(grid):
            words = [w for row in table.rows for w in row.cells[index].text.split()]
            longest = max((len(w) for w in words), default=1)
            # (rounded down to Word's twips of 635 EMU)
            assert width > longest * char_width + CELL_PADDING - 635, (
                index,
                longest,
            )
            assert all(int(row.cells[index].width) == width for row in table.rows)


def test_column_widths_give_spare_room_to_the_text_and_shrink_only_on_overflow():
    widths = column_widths(
        ["Tatsache", "Seite", "Zitat"],
        [["Fälligkeit: 30.04.2026", "1", "Zahlbar bis 30.04.2026. " * 8]],
    )
    assert sum(widths) <= TEXT_WIDTH
    assert widths[1] < widths[0] < widths[2]
    assert widths[1] >= len("Seite") * CHAR_WIDTH  # the header word fits
    overflow = column_widths(["a", "b"], [["x" * 200, "y" * 200]])
    assert sum(overflow) <= TEXT_WIDTH and overflow[0] == overflow[1]


def test_a_table_too_wide_for_its_words_at_9_pt_gets_a_smaller_font():
    narrow = (["Tatsache", "Seite"], [["Mahnung: 08.05.2026", "1"]])
    assert table_font(*narrow).pt == 9
    # seven columns of long German words (the damage table's header)
    header = ["Schadensposition", "Entstanden", "Nettobetrag", "Bruttobetrag",
              "Ersatzfähigkeit", "Ersatzfähiger", "Verzugsbeginn"]  # fmt: skip
    assert table_font(header, []).pt < 9
    # what cannot fit even at 7 pt stays at 7 pt (and shrinks in proportion)
    assert table_font(["x" * 120, "y" * 120], []).pt == 7


def test_no_review_heading_when_nothing_awaits_review_and_one_when_something_does(
    case, lawyer, corpus
):
    claim = verzug_case(case)
    clean = report_create(case=case, actor=lawyer, language="de")
    assert clean.summary["flagged"] == 0
    assert "Zur Prüfung durch einen Menschen" not in _headings(_docx(clean))

    flagged = report_create(
        case=case, actor=lawyer, language="de", drafts=[_flagged_draft(claim)]
    )

    assert flagged.summary["flagged"] == 1
    assert "Zur Prüfung durch einen Menschen" in _headings(_docx(flagged))


# --- Excel -------------------------------------------------------------------------


def test_xlsx_sheet_names_follow_the_report_language(case, lawyer, corpus):
    verzug_case(case)
    german = report_create(case=case, actor=lawyer, language="de")
    english = report_create(case=case, actor=lawyer, language="en")

    def names(report: Report) -> list[str]:
        content = export_bytes(report=report, fmt="xlsx")[0]
        return load_workbook(io.BytesIO(content)).sheetnames

    # the claim's Schadensberechnung (reports/exports_damage.py) comes last
    assert names(german) == [
        "Ergebnis",
        "Feststellungen",
        "Belege",
        "Zitate",
        "Zur Prüfung",
        "Schadensberechnung",
    ]
    assert names(english) == [
        "Result",
        "Findings",
        "Evidence",
        "Citations",
        "Flags",
        "Damage calculation",
    ]


def test_xlsx_dates_and_amounts_are_typed_cells_with_number_formats(
    case, lawyer, corpus
):
    verzug_case(case)
    report = report_create(case=case, actor=lawyer, language="de")

    wb = load_workbook(io.BytesIO(export_bytes(report=report, fmt="xlsx")[0]))

    values = {
        row[2].value: row[3]
        for row in wb["Belege"].iter_rows(min_row=2)
        if row[2].value is not None
    }
    due = values["Fälligkeit"]
    assert due.is_date and due.value == datetime(2026, 4, 30)  # noqa: DTZ001 (a naive Excel date)
    assert due.number_format == "DD.MM.YYYY"
    # the facts the verdicts rest on are the evidence rows; a damage item is a
    # record (amount and description) and prints as the report's text
    item = values[fact_type_label("damage_item", "de")]
    assert item.data_type == "s" and "150,00" in item.value
    valid_from = wb["Zitate"]["E2"]
    assert valid_from.is_date and valid_from.number_format == "DD.MM.YYYY"
    english = report_create(case=case, actor=lawyer, language="en")
    wb_en = load_workbook(io.BytesIO(export_bytes(report=english, fmt="xlsx")[0]))
    assert wb_en["Citations"]["E2"].number_format == "YYYY-MM-DD"


# --- Issuing, names, drafter -------------------------------------------------------


def test_issuing_asks_for_confirmation_and_says_what_becomes_immutable(
    lawyer_client, case, lawyer, corpus
):
    verzug_case(case)
    report = report_create(case=case, actor=lawyer, language="de")
    url = reverse("reports:report_issue", args=[report.pk])
    detail = lawyer_client.get(reverse("reports:report_detail", args=[report.pk]))
    assert f'href="{url}"' in detail.content.decode()  # a link to the step, no POST

    confirm = lawyer_client.get(url)

    report.refresh_from_db()
    assert confirm.status_code == 200 and report.status == "draft"
    page = confirm.content.decode()
    assert "lässt sich nicht rückgängig machen" in page
    assert "mit ihrem SHA-256" in page and "4 gedruckten Feststellungen" in page
    assert 'id="issue-confirm-button"' in page
    assert "<script>" not in page and "onclick" not in page  # CSP: no inline script
    lawyer_client.post(url)
    report.refresh_from_db()
    assert report.status == "issued"
    again = lawyer_client.get(url)
    assert again.status_code == 302  # nothing left to confirm


def test_a_reviewer_sees_the_consequences_but_no_issue_button(
    reviewer_client, case, lawyer, corpus
):
    verzug_case(case)
    report = report_create(case=case, actor=lawyer)
    page = reviewer_client.get(reverse("reports:report_issue", args=[report.pk]))
    assert page.status_code == 200 and b"issue-confirm-button" not in page.content


def test_reports_of_one_case_get_distinguishable_names(case, lawyer, corpus):
    verzug_case(case)
    first = report_create(case=case, actor=lawyer, language="de")
    second = report_create(case=case, actor=lawyer, language="de")
    today = timezone.localdate()

    assert first.title != second.title
    assert first.title.startswith("Gutachten Nr. 1 – ")
    assert second.title.startswith("Gutachten Nr. 2 – ")
    assert case.reference in second.title and " – Verzugsschaden – " in second.title
    assert second.title.endswith(today.strftime("%d.%m.%Y"))
    names = {export_filename(r, "docx") for r in (first, second)}
    assert len(names) == 2
    assert re.fullmatch(
        rf"Bericht_2_[\w-]+_verzugsschaden_{today.isoformat()}\.docx",
        export_filename(second, "docx"),
    )


def test_a_model_chosen_but_not_configured_is_said_to_have_been_the_rules(
    lawyer_client, case, lawyer, corpus, settings
):
    settings.BELEGT_LLM_MODEL = ""
    verzug_case(case)
    report = report_create(case=case, actor=lawyer, language="de", drafter="model")

    assert report.drafter == "rules"
    assert report.summary["drafter_requested"] == "model"
    note = (
        "Entworfen von den regelbasierten Vorlagen: ein Modell war gewählt, ist "
        "aber nicht konfiguriert."
    )
    assert note in [p.text for p in _docx(report).paragraphs]
    preview = lawyer_client.get(reverse("reports:report_detail", args=[report.pk]))
    assert note in preview.content.decode()
    rules = report_create(case=case, actor=lawyer, language="de")
    assert note not in [p.text for p in _docx(rules).paragraphs]
    form = lawyer_client.get(reverse("reports:case_reports", args=[case.pk]))
    assert "keines konfiguriert: die Regeln entwerfen" in form.content.decode()


def test_the_date_typing_leaves_unknown_value_shapes_as_text():
    from reports.exports import Typed, typed_value

    assert typed_value({"date": "2026-04-30"}, "30.04.2026", "de") == Typed(
        date(2026, 4, 30), "DD.MM.YYYY", "30.04.2026"
    )
    assert typed_value({"date": "kaputt"}, "kaputt", "de") == "kaputt"
    assert typed_value({"from": "x", "to": "y"}, "x–y", "de") == "x–y"
    assert typed_value(None, "frei", "de") == "frei"
