"""The extraction task on a real Celery worker process."""

from __future__ import annotations

import logging

import pytest

from agents.models import AgentRun
from agents.services import extraction_run_start
from agents.tasks import extraction_run_task
from review.models import ExtractionProposal

pytestmark = pytest.mark.django_db


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_queued_extraction_runs_on_a_worker(celery_worker, case, lawyer, letter_chunk):
    run = extraction_run_start(case=case, actor=lawyer, provider="rules")
    finished = celery_worker.wait_for(
        lambda: AgentRun.objects.filter(pk=run.pk, finished_at__isnull=False).first(),
        timeout=90,
    )
    assert finished.status == AgentRun.Status.FINISHED, finished.reason
    assert ExtractionProposal.objects.filter(agent_run_id=run.pk).exists()


def test_the_task_does_not_run_a_run_twice(case, lawyer, letter_chunk):
    run = extraction_run_start(
        case=case, actor=lawyer, provider="rules", run_async=False
    )
    count = ExtractionProposal.objects.count()
    extraction_run_task.run(run.pk)  # a redelivered message
    run.refresh_from_db()
    assert run.status == AgentRun.Status.FINISHED
    assert run.step_rows.filter(kind="tool_call").count() == run.steps
    assert ExtractionProposal.objects.count() == count


def test_the_task_skips_a_run_deleted_after_queueing_and_says_so(
    case, lawyer, letter_chunk, caplog
):
    run = extraction_run_start(case=case, actor=lawyer, provider="rules")  # queued
    run_id = run.pk
    AgentRun.objects.filter(pk=run_id).delete()
    with caplog.at_level(logging.INFO, logger="agents.tasks"):
        extraction_run_task.run(run_id)  # the queued message arrives
    assert f"agent run {run_id} deleted; skipping" in caplog.messages
    assert not AgentRun.objects.filter(pk=run_id).exists()  # nothing re-created
    assert not ExtractionProposal.objects.filter(case=case).exists()  # nothing run
