"""A lawyer in a real browser uploads a mixed batch into the Documents tab:
good PDFs follow their ingestion stages with a progress bar until ready (a real
Celery worker does the work), the renamed JPEG is refused with its reason."""

from __future__ import annotations

import uuid
from contextlib import ExitStack
from typing import Any

import pytest
from django.urls import reverse

from evidence.models import DocumentIngestion, SourceDocument, UploadRefusal
from tests.browser.conftest import browser_test
from tests.evidence import pdfs
from tests.worker import start_worker, stop_worker, tasks_routed_to

pytestmark = [*browser_test, pytest.mark.integration]


def test_lawyer_uploads_a_mixed_batch_and_sees_progress_and_errors(
    page: Any,
    login: Any,
    screenshot: Any,
    lawyer: Any,
    case: Any,
) -> None:
    queue = f"test-browser-{uuid.uuid4().hex[:8]}"
    routing = ExitStack()  # tasks of this test go to its own worker
    routing.enter_context(tasks_routed_to(queue))
    # Slow pages a little so that the progress bar is seen moving.
    worker = start_worker(queue, {"BELEGT_INGEST_PAGE_DELAY": "0.5"})
    try:
        login(page, lawyer)
        page.goto(reverse("evidence:case_documents", args=[case.pk]))
        page.get_by_text("PDF-Dateien hierher ziehen", exact=False).wait_for()
        page.set_input_files(
            "#upload-files",
            files=[
                {
                    "name": "mahnung.pdf",
                    "mimeType": "application/pdf",
                    "buffer": pdfs.dunning_letter(),
                },
                {
                    "name": "akte.pdf",
                    "mimeType": "application/pdf",
                    "buffer": pdfs.case_file(8),
                },
                {
                    "name": "foto.pdf",
                    "mimeType": "application/pdf",
                    "buffer": pdfs.jpeg_image(),
                },
            ],
        )
        results = page.locator("#upload-results")
        refused = results.locator('li[data-outcome="refused"]')
        refused.wait_for()
        assert "foto.pdf" in refused.inner_text()
        assert "JPEG" in refused.inner_text()
        documents = page.locator("#document-list")
        akte = documents.locator("li[data-document-id]", has_text="akte.pdf")
        akte.locator("progress").wait_for()
        documents.locator(
            'li[data-document-id][data-stage="pages"]', has_text="akte.pdf"
        ).wait_for(timeout=30_000)
        screenshot(page, "1-progress")
        for name in ("mahnung.pdf", "akte.pdf"):
            documents.locator(
                'li[data-document-id][data-stage="ready"]', has_text=name
            ).wait_for(timeout=120_000)
        assert documents.locator("progress").count() == 0
        assert results.locator('li[data-outcome="stored"]').count() == 2
        screenshot(page, "2-ready")
    finally:
        stop_worker(worker)
        routing.close()

    assert SourceDocument.objects.filter(case=case).count() == 2
    assert DocumentIngestion.objects.filter(stage="ready").count() == 2
    assert UploadRefusal.objects.get(case=case).code == "not_pdf"

    page.reload()
    assert page.locator("#document-list li[data-document-id]").count() == 2
    assert "foto.pdf" in page.locator("#refusal-list").inner_text()
