"""Thin Celery tasks of the evidence app."""

from __future__ import annotations

import logging

from celery import Task, shared_task

from cases.retry import transient_retry
from evidence.models import SourceDocument
from evidence.services.ingest import (
    source_document_ingest,
    source_documents_recover_stuck,
)

logger = logging.getLogger(__name__)


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True)
def source_document_ingest_task(self: Task, document_id: int) -> None:
    """Extract pages, OCR, chunks and embeddings of one document. Safe to re-run
    and to redeliver (the service skips what exists); permanent failures end as
    a ``failed`` ingestion on the document, not as a task error. Transient
    database and broker errors retry with backoff for about ten minutes
    (cases/retry.py); after that the stuck-work sweep dispatches it again."""
    with transient_retry(self):
        document = SourceDocument.objects.filter(pk=document_id).first()
        if document is None:
            logger.info("document %s erased; skipping", document_id)
            return
        source_document_ingest(document=document)


@shared_task(name="evidence.stuck_work_sweep", acks_late=True)
def stuck_work_sweep() -> dict[str, int]:
    """Celery beat: dispatch again the ingestions whose worker is gone."""
    counts = source_documents_recover_stuck()
    if any(counts.values()):
        logger.warning("stuck ingestions: %s", counts)
    return counts
