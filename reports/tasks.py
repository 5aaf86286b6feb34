"""Thin Celery tasks of the reports app."""

from __future__ import annotations

import logging

from celery import Task, shared_task

from cases.retry import transient_retry
from reports.models import ReportBuild
from reports.services.builds import report_build_execute, report_builds_recover_stuck

logger = logging.getLogger(__name__)


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True)
def report_build_task(self: Task, build_id: int) -> None:
    """Build the report a lawyer asked for. A build that ended, or that a
    live worker executes, is left alone; one whose worker was killed is taken
    over (the claim is this task's id, which a redelivery keeps) and finds the
    report a previous attempt stored instead of making a second one.
    Transient database and broker errors retry with backoff
    (cases/retry.py)."""
    with transient_retry(self):
        build = ReportBuild.objects.filter(pk=build_id).first()
        if build is None:
            logger.info("report build %s deleted; skipping", build_id)
            return
        report_build_execute(build=build, claim=str(self.request.id or ""))


@shared_task(name="reports.stuck_work_sweep", acks_late=True)
def stuck_work_sweep() -> dict[str, int]:
    """Celery beat: re-dispatch or end report builds whose worker is gone."""
    counts = report_builds_recover_stuck()
    if any(counts.values()):
        logger.warning("stuck report builds: %s", counts)
    return counts
