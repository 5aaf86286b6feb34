"""Thin Celery tasks of the agent runtime."""

from __future__ import annotations

import logging

from celery import Task, shared_task
from django.db import OperationalError

from agents import services
from agents.models import AgentRun

logger = logging.getLogger(__name__)


@shared_task(
    bind=True,
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    retry_jitter=True,
    max_retries=5,
)
def extraction_run_task(self: Task, run_id: int) -> None:
    """Execute a queued extraction run. A run that already started or ended is
    left alone (the service claims it with a conditional update)."""
    run = AgentRun.objects.filter(pk=run_id).first()
    if run is None:
        logger.info("agent run %s deleted; skipping", run_id)
        return
    services.agent_run_execute(run=run)
