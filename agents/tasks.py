"""Thin Celery tasks of the agent runtime."""

from __future__ import annotations

import logging

from celery import Task, shared_task

from agents import services
from agents.models import AgentRun
from cases.retry import transient_retry

logger = logging.getLogger(__name__)


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True)
def extraction_run_task(self: Task, run_id: int) -> None:
    """Execute a queued extraction run. A run that ended, or that a live
    worker executes, is left alone; a run whose worker was killed is taken
    over (the claim is this task's id, which a redelivery keeps). Transient
    database and broker errors retry with backoff (cases/retry.py)."""
    with transient_retry(self):
        run = AgentRun.objects.filter(pk=run_id).first()
        if run is None:
            logger.info("agent run %s deleted; skipping", run_id)
            return
        services.agent_run_execute(run=run, claim=str(self.request.id or ""))


@shared_task(name="agents.stuck_work_sweep", acks_late=True)
def stuck_work_sweep() -> dict[str, int]:
    """Celery beat: resume or end agent runs whose worker is gone."""
    counts = services.agent_runs_recover_stuck()
    if any(counts.values()):
        logger.warning("stuck agent runs: %s", counts)
    return counts
