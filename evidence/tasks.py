"""Thin Celery tasks of the evidence app."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import InterfaceError, OperationalError

from evidence.models import SourceDocument
from evidence.services.ingest import source_document_ingest

logger = logging.getLogger(__name__)


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_jitter=True,
    max_retries=5,
)
def source_document_ingest_task(self: object, document_id: int) -> None:
    """Extract pages, OCR, chunks and embeddings of one document. Safe to re-run
    and to redeliver (the service skips what exists); permanent failures end as
    a ``failed`` ingestion on the document, not as a task error."""
    document = SourceDocument.objects.filter(pk=document_id).first()
    if document is None:
        logger.info("document %s erased; skipping", document_id)
        return
    source_document_ingest(document=document)
