"""Thin Celery tasks of the cases app."""

from __future__ import annotations

import logging
import socket

from celery import shared_task
from django.db import OperationalError
from django.utils import timezone

from cases.models import WorkerPing

logger = logging.getLogger(__name__)


@shared_task(
    bind=True,
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def worker_ping_task(self: object, ping_id: int) -> None:
    """Mark a ping done: proof that a worker consumes the queue and reaches the
    database. Safe to re-run."""
    updated = WorkerPing.objects.filter(pk=ping_id, done_at__isnull=True).update(
        done_at=timezone.now(), worker=socket.gethostname()
    )
    if not updated:
        logger.info("ping %s already done or gone", ping_id)
