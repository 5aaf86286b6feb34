"""Upload and the ingestion pipeline, run in-process: storage by hash,
duplicates, refusals beside accepted files, pages with boxes, OCR, chunks
across a page break, idempotent re-runs and permanent failures."""

from __future__ import annotations

import threading

import pytest
from django.contrib.postgres.search import SearchQuery
from django.db import connection

from cases.errors import RoleRequired
from cases.models import AuditEvent
from evidence import storage
from evidence.models import (
    Chunk,
    DocumentIngestion,
    Page,
    SourceDocument,
    UploadRefusal,
)
from evidence.services.ingest import documents_upload, source_document_ingest
from tests.evidence import pdfs
from tests.evidence.pdfs import as_upload, document_storage  # noqa: F401
from tests.factories import CaseFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("document_storage")]

Stage = DocumentIngestion.Stage


def upload(actor, case, *files, dispatch=False):
    return documents_upload(
        actor=actor,
        case=case,
        uploads=[as_upload(name, data) for name, data in files],
        dispatch=dispatch,
    )


def ingest_one(lawyer, case, name, data):
    [outcome] = upload(lawyer, case, (name, data))
    assert outcome.status == "stored", outcome.message
    return source_document_ingest(document=outcome.document), outcome.document


def test_letter_is_stored_by_hash_and_ingested_to_ready(lawyer, case):
    data = pdfs.dunning_letter()
    ingestion, document = ingest_one(lawyer, case, "mahnung.pdf", data)

    assert ingestion.stage == Stage.READY
    assert document.sha256 == storage.sha256_hex(data)
    assert document.storage_name.endswith(f"{document.sha256}.pdf")
    assert storage.document_bytes_read(document.storage_name) == data
    page = Page.objects.get(document=document)
    assert not page.ocr
    assert "Verzugszinsen" in page.text
    block = page.blocks[0]
    assert page.text[block["start"] : block["end"]].startswith("Müller Baustoffe")
    lines = [line for b in page.blocks for line in b["lines"]]
    assert lines and all(len(line["bbox"]) == 4 for line in lines)
    assert ingestion.pages == 1
    assert ingestion.chunks == Chunk.objects.filter(document=document).count() > 0
    assert ingestion.finished_at is not None
    assert AuditEvent.objects.filter(action="document.uploaded").count() == 1


def test_chunk_spans_point_into_the_page_text(lawyer, case, settings):
    settings.BELEGT_CHUNK_TARGET_CHARS = 300
    settings.BELEGT_CHUNK_OVERLAP_CHARS = 60
    _ingestion, document = ingest_one(lawyer, case, "m.pdf", pdfs.dunning_letter())
    page = Page.objects.get(document=document)
    chunks = list(Chunk.objects.filter(document=document))
    assert len(chunks) > 2
    for chunk in chunks:
        [span] = chunk.spans
        assert " ".join(page.text[span["start"] : span["end"]].split()) == " ".join(
            chunk.text.split()
        )
        assert span["boxes"]
        assert chunk.case_id == case.pk


def test_sentence_across_a_page_break_is_one_chunk_found_by_full_text(
    lawyer, case, settings
):
    settings.BELEGT_CHUNK_TARGET_CHARS = 300
    settings.BELEGT_CHUNK_OVERLAP_CHARS = 60
    _ingestion, document = ingest_one(
        lawyer, case, "frist.pdf", pdfs.letter_with_sentence_across_pages()
    )
    query = SearchQuery("Gesamtbetrag Klage", config="german")
    hits = list(Chunk.objects.filter(case=case, search_vector=query))
    assert hits
    sentence = " ".join(pdfs.CROSS_PAGE_SENTENCE.split())
    whole = [c for c in hits if sentence in " ".join(c.text.split())]
    assert whole, [c.text for c in hits]
    chunk = whole[0]
    assert (chunk.page_start, chunk.page_end) == (1, 2)
    assert [span["page"] for span in chunk.spans] == [1, 2]
    assert all(span["boxes"] for span in chunk.spans)


def test_sentence_across_a_page_break_is_found_whole_by_case_search(
    lawyer, case, settings
):
    from evidence.search import search_case_evidence

    settings.BELEGT_CHUNK_TARGET_CHARS = 300
    settings.BELEGT_CHUNK_OVERLAP_CHARS = 60
    ingest_one(lawyer, case, "frist.pdf", pdfs.letter_with_sentence_across_pages())
    hits = search_case_evidence(case=case, query="Gesamtbetrag Klage erheben", k=3)
    assert hits
    top = Chunk.objects.get(pk=hits[0].chunk_id)
    assert " ".join(pdfs.CROSS_PAGE_SENTENCE.split()) in " ".join(top.text.split())
    assert (hits[0].page, hits[0].page_end) == (1, 2)


def test_same_file_twice_in_a_case_is_a_duplicate_not_stored_again(lawyer, case):
    data = pdfs.reminder_letter()
    first, second = upload(lawyer, case, ("a.pdf", data), ("b.pdf", data))
    assert (first.status, second.status) == ("stored", "duplicate")
    assert second.document == first.document
    assert "a.pdf" in second.message
    assert SourceDocument.objects.filter(case=case).count() == 1
    assert DocumentIngestion.objects.count() == 1


def test_same_bytes_in_two_cases_are_stored_once(lawyer, case, settings):
    other = CaseFactory(organisation=case.organisation)
    data = pdfs.reminder_letter()
    [a] = upload(lawyer, case, ("a.pdf", data))
    [b] = upload(lawyer, other, ("a.pdf", data))
    assert a.document.storage_name == b.document.storage_name
    files = [p for p in settings.MEDIA_ROOT.rglob("*") if p.is_file()]
    assert len(files) == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_uploads_of_the_same_file_make_one_document(lawyer, case):
    data = pdfs.reminder_letter()
    barrier = threading.Barrier(3)
    outcomes = []

    def run():
        barrier.wait()
        try:
            outcomes.extend(upload(lawyer, case, ("x.pdf", data)))
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(o.status for o in outcomes) == ["duplicate", "duplicate", "stored"]
    assert SourceDocument.objects.filter(case=case).count() == 1


def test_refused_files_are_recorded_and_the_rest_of_the_batch_goes_on(lawyer, case):
    outcomes = upload(
        lawyer,
        case,
        ("erinnerung.pdf", pdfs.reminder_letter()),
        ("foto.pdf", pdfs.jpeg_image()),
        ("archiv.pdf", pdfs.zip_archive()),
        ("geheim.pdf", pdfs.encrypted()),
        ("mahnung.pdf", pdfs.dunning_letter()),
    )
    assert [o.status for o in outcomes] == [
        "stored",
        "refused",
        "refused",
        "refused",
        "stored",
    ]
    refusals = UploadRefusal.objects.filter(case=case).order_by("id")
    assert [r.code for r in refusals] == ["not_pdf", "not_pdf", "encrypted"]
    assert refusals[0].uploaded_by == lawyer
    assert SourceDocument.objects.filter(case=case).count() == 2
    assert AuditEvent.objects.filter(action="document.refused").count() == 3


def test_refused_file_leaves_no_bytes_in_storage(lawyer, case, settings):
    upload(lawyer, case, ("t.pdf", pdfs.truncated()), ("z.pdf", pdfs.zero_pages()))
    assert not any(p.is_file() for p in settings.MEDIA_ROOT.rglob("*"))
    codes = set(UploadRefusal.objects.values_list("code", flat=True))
    assert codes == {"damaged", "no_pages"}


def test_over_the_page_limit_is_refused(lawyer, case, settings):
    settings.BELEGT_MAX_PAGES = 10
    [outcome] = upload(lawyer, case, ("akte.pdf", pdfs.many_pages(12)))
    assert outcome.status == "refused"
    assert outcome.code == "too_many_pages"


def test_reviewer_cannot_upload(reviewer, case):
    with pytest.raises(RoleRequired):
        upload(reviewer, case, ("a.pdf", pdfs.reminder_letter()))
    assert not SourceDocument.objects.exists()


def test_image_only_page_goes_through_ocr(lawyer, case):
    ingestion, document = ingest_one(lawyer, case, "scan.pdf", pdfs.image_only())
    assert ingestion.stage == Stage.READY
    assert ingestion.ocr_pages == 1
    page = Page.objects.get(document=document)
    assert page.ocr
    assert "Mahnung" in page.text
    assert "Verzug" in page.text
    assert Chunk.objects.filter(document=document, text__contains="Mahnung").exists()


def test_empty_page_is_kept_without_text_or_chunks(lawyer, case):
    ingestion, document = ingest_one(lawyer, case, "leer.pdf", pdfs.with_empty_page())
    assert ingestion.stage == Stage.READY
    blank = Page.objects.get(document=document, number=2)
    assert blank.text == "" and blank.blocks == [] and not blank.ocr
    assert not Chunk.objects.filter(document=document, page_end=2).exists()
    assert ingestion.pages == 2


def test_javascript_and_attachment_are_stored_flagged_never_run_or_extracted(
    lawyer, case, settings
):
    data = pdfs.with_javascript_and_attachment()
    ingestion, document = ingest_one(lawyer, case, "formular.pdf", data)
    assert ingestion.stage == Stage.READY
    assert document.has_javascript and document.has_embedded_files
    # The script would write its marker into the form; the attachment's content
    # would show up if it were extracted. Neither happened.
    texts = " ".join(
        Page.objects.filter(document=document).values_list("text", flat=True)
    )
    assert pdfs.JS_MARKER not in texts
    assert pdfs.EMBEDDED_MARKER not in texts
    assert not Chunk.objects.filter(text__contains=pdfs.EMBEDDED_MARKER).exists()
    stored = [p for p in settings.MEDIA_ROOT.rglob("*") if p.is_file()]
    assert len(stored) == 1 and stored[0].read_bytes() == data


def test_rerun_adds_nothing(lawyer, case):
    ingestion, document = ingest_one(lawyer, case, "akte.pdf", pdfs.case_file(6))
    pages = Page.objects.filter(document=document).count()
    chunks = Chunk.objects.filter(document=document).count()
    # Force the pipeline through every stage again.
    DocumentIngestion.objects.filter(pk=ingestion.pk).update(stage=Stage.PAGES)
    again = source_document_ingest(document=document)
    assert again.stage == Stage.READY
    assert again.attempts == 2
    assert Page.objects.filter(document=document).count() == pages == 6
    assert Chunk.objects.filter(document=document).count() == chunks


def test_interrupted_ingestion_resumes_without_duplicates(lawyer, case, settings):
    data = pdfs.case_file(5)
    [outcome] = upload(lawyer, case, ("akte.pdf", data))
    document = outcome.document
    # A worker died after committing the first two pages.
    from evidence import extraction
    from evidence.services.pipeline import _page_row

    pdf = extraction.open_pdf(data)
    Page.objects.bulk_create(
        [_page_row(document, p) for p in extraction.iter_pages(pdf, [1, 2])]
    )
    ingestion = source_document_ingest(document=document)
    assert ingestion.stage == Stage.READY
    assert list(
        Page.objects.filter(document=document).values_list("number", flat=True)
    ) == [1, 2, 3, 4, 5]


def test_missing_stored_bytes_fail_the_document_with_a_code(lawyer, case, settings):
    [outcome] = upload(lawyer, case, ("a.pdf", pdfs.reminder_letter()))
    storage.document_storage().delete(outcome.document.storage_name)
    ingestion = source_document_ingest(document=outcome.document)
    assert ingestion.stage == Stage.FAILED
    assert ingestion.error_code == "storage_missing"
    assert ingestion.error_message
    assert not Page.objects.exists()


def test_upload_dispatches_the_ingestion_task_after_commit(
    lawyer, case, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        [outcome] = upload(
            lawyer, case, ("a.pdf", pdfs.reminder_letter()), dispatch=True
        )
    assert outcome.status == "stored"
    assert len(callbacks) == 1


def test_unexpected_error_ends_as_failed_not_stuck(lawyer, case, monkeypatch):
    from evidence.services import pipeline

    def broken_chunker(*args, **kwargs):
        raise KeyError("bug")

    [outcome] = upload(lawyer, case, ("a.pdf", pdfs.reminder_letter()))
    monkeypatch.setattr(pipeline, "chunk_pages", broken_chunker)
    ingestion = source_document_ingest(document=outcome.document)
    assert ingestion.stage == Stage.FAILED
    assert ingestion.error_code == "internal_error"
    assert "KeyError" in ingestion.error_message
    # Fixed and re-run, the document resumes from its stored pages.
    monkeypatch.undo()
    again = source_document_ingest(document=outcome.document)
    assert again.stage == Stage.READY and again.error_code == ""
    assert Page.objects.filter(document=outcome.document).count() == 1


def test_document_that_keeps_killing_workers_is_given_up(lawyer, case):
    from evidence.services.ingest import MAX_ATTEMPTS

    [outcome] = upload(lawyer, case, ("a.pdf", pdfs.reminder_letter()))
    DocumentIngestion.objects.filter(document=outcome.document).update(
        stage=Stage.PAGES, attempts=MAX_ATTEMPTS
    )
    ingestion = source_document_ingest(document=outcome.document)
    assert ingestion.stage == Stage.FAILED
    assert ingestion.error_code == "too_many_attempts"
    assert not Page.objects.filter(document=outcome.document).exists()


def test_unreachable_embedder_fails_the_document_with_its_code(lawyer, case, settings):
    from evidence.embedding import reset_embedder_cache

    settings.BELEGT_EMBEDDER = "openai"
    settings.BELEGT_EMBEDDING_URL = "http://127.0.0.1:9/v1"
    settings.BELEGT_EMBEDDING_MODEL = "nirgendwo"
    reset_embedder_cache()
    try:
        ingestion, document = ingest_one(lawyer, case, "a.pdf", pdfs.reminder_letter())
    finally:
        reset_embedder_cache()
    assert ingestion.stage == Stage.FAILED
    assert ingestion.error_code.startswith("embedder_"), ingestion.error_message
    assert "not reachable" in ingestion.error_message
    # Pages and chunks are kept: full-text search works, a re-run only embeds.
    assert Page.objects.filter(document=document).count() == 1
    assert Chunk.objects.filter(document=document).exists()
