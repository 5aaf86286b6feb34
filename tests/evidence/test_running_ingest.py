"""A sentence across a page break of a letter with a running header and footer
is one verbatim quote in one chunk after ingestion, found by search, with
boxes on both pages, while the footer stays stored on its page; also for a
scanned letter (OCR)."""

from __future__ import annotations

import pytest

from evidence.domain.quotes import quote_span
from evidence.models import Chunk, DocumentIngestion, Page
from evidence.search import search_case_evidence
from evidence.selectors import quote_page_ranges_for_chunk
from evidence.services.ingest import documents_upload, source_document_ingest
from tests.evidence import pdfs
from tests.evidence.pdfs import as_upload, document_storage  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("document_storage")]

SENTENCE = " ".join(pdfs.CROSS_PAGE_SENTENCE.split())


def _ingest(case, name, data):
    [outcome] = documents_upload(
        actor=None, case=case, uploads=[as_upload(name, data)], dispatch=False
    )
    document = pdfs.stored_document(outcome)
    ingestion = source_document_ingest(document=document)
    assert ingestion.stage == DocumentIngestion.Stage.READY, ingestion.error_message
    return document


@pytest.fixture
def small_chunks(settings):
    settings.BELEGT_CHUNK_TARGET_CHARS = 300
    settings.BELEGT_CHUNK_OVERLAP_CHARS = 60


@pytest.mark.usefixtures("small_chunks")
def test_sentence_over_a_running_footer_is_one_quote_in_one_chunk(case):
    document = _ingest(
        case, "mahnung.pdf", pdfs.letter_with_running_footer_across_pages()
    )
    whole = [
        chunk
        for chunk in Chunk.objects.filter(document=document)
        if quote_span(chunk.text, SENTENCE)
    ]
    assert len(whole) >= 1
    chunk = whole[0]
    assert "Seite 1 von 2" not in chunk.text
    assert pdfs.RUNNING_FOOTER not in chunk.text
    assert (chunk.page_start, chunk.page_end) == (1, 2)
    ranges = quote_page_ranges_for_chunk(chunk=chunk, quote=SENTENCE)
    assert [r.page for r in ranges] == [1, 2]
    assert all(span["boxes"] for span in chunk.spans)


@pytest.mark.usefixtures("small_chunks")
def test_running_footer_stays_stored_on_its_page(case):
    document = _ingest(
        case, "mahnung.pdf", pdfs.letter_with_running_footer_across_pages()
    )
    first = Page.objects.get(document=document, number=1)
    assert "Seite 1 von 2" in first.text
    assert pdfs.RUNNING_FOOTER in first.text
    # The last page's footer is at the end of the flow and stays findable.
    assert Chunk.objects.filter(
        document=document, text__contains="Seite 2 von 2"
    ).exists()


@pytest.mark.usefixtures("small_chunks")
def test_sentence_over_a_running_footer_is_found_whole_by_search(case):
    _ingest(case, "mahnung.pdf", pdfs.letter_with_running_footer_across_pages())
    hits = search_case_evidence(case=case, query="Gesamtbetrag Klage erheben", k=3)
    assert hits
    top = Chunk.objects.get(pk=hits[0].chunk_id)
    assert quote_span(top.text, SENTENCE)


@pytest.mark.usefixtures("small_chunks")
def test_scanned_letter_keeps_footer_out_of_the_sentence(case):
    """OCR text of a scanned two-page letter: the running footer and header
    are recognised on the OCR layout too and stay out of the sentence."""
    scan = pdfs.scanned(pdfs.letter_with_running_footer_across_pages(), dpi=150)
    document = _ingest(case, "scan.pdf", scan)
    assert Page.objects.filter(document=document, ocr=True).count() == 2
    first = Page.objects.get(document=document, number=1)
    assert "Seite 1 von 2" in first.text
    crossing = [
        chunk
        for chunk in Chunk.objects.filter(document=document, page_start=1, page_end=2)
        if "spätestens bis zum" in chunk.text and "31.05.2026" in chunk.text
    ]
    assert crossing
    between = crossing[0].text.split("spätestens bis zum", 1)[1].split("31.05.2026")[0]
    assert between.strip() == ""
