"""Agent runs whose worker is killed: a redelivered task takes the run over
(its claim is the task id), a resumed run makes no proposal twice, the
stuck-work sweep resumes a silent run while attempts remain and otherwise
ends it ``failed`` with a reason the run page shows."""

from __future__ import annotations

import os
import signal
import time
import uuid
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from agents.models import AgentRun
from agents.services import (
    agent_run_execute,
    agent_runs_recover_stuck,
    extraction_run_start,
)
from agents.tasks import extraction_run_task
from review.models import ExtractionProposal
from tests.worker import start_worker, stop_worker, tasks_routed_to

pytestmark = pytest.mark.django_db

Status = AgentRun.Status


def _as_killed(run: AgentRun, *, claim: str = "task-1", age: float = 0, attempts=1):
    """The state a SIGKILLed worker leaves: running, claimed, heartbeat ``age``
    seconds old, no lock held."""
    beat = timezone.now() - timedelta(seconds=age)
    AgentRun.objects.filter(pk=run.pk).update(
        status=Status.RUNNING,
        claimed_by=claim,
        attempts=attempts,
        started_at=beat,
        heartbeat_at=beat,
        finished_at=None,
    )


def test_a_redelivered_task_takes_over_the_run_its_killed_worker_left_running(
    case, lawyer, letter_chunk
):
    run = extraction_run_start(case=case, actor=lawyer, provider="rules")
    _as_killed(run, claim="task-1")  # heartbeat fresh: only the same task id may

    extraction_run_task.apply(args=[run.pk], task_id="task-1")

    run.refresh_from_db()
    assert run.status == Status.FINISHED, run.reason
    assert run.attempts == 2
    assert ExtractionProposal.objects.filter(agent_run_id=run.pk).exists()


def test_another_task_leaves_a_run_with_a_fresh_heartbeat_alone(
    case, lawyer, letter_chunk
):
    run = extraction_run_start(case=case, actor=lawyer, provider="rules")
    _as_killed(run, claim="task-1")

    extraction_run_task.apply(args=[run.pk], task_id="task-2")

    run.refresh_from_db()
    assert run.status == Status.RUNNING and run.attempts == 1


def test_a_resumed_run_makes_no_proposal_twice(case, lawyer, letter_chunk):
    run = extraction_run_start(
        case=case, actor=lawyer, provider="rules", run_async=False
    )
    proposals = ExtractionProposal.objects.filter(case=case).count()
    made = run.proposals_created
    assert proposals > 0 and made == proposals
    _as_killed(run, age=3600)  # killed after its proposals were committed

    resumed = agent_run_execute(run=run, claim="task-9")

    assert resumed.status == Status.FINISHED, resumed.reason
    assert resumed.attempts == 2
    assert ExtractionProposal.objects.filter(case=case).count() == proposals
    assert resumed.proposals_created == made
    assert resumed.step_rows.filter(note__startswith="resumed").count() == 1


def test_the_sweep_requeues_a_silent_run_and_leaves_a_fresh_one(
    case,
    lawyer,
    letter_chunk,
    settings,
    monkeypatch,
    django_capture_on_commit_callbacks,
):
    settings.BELEGT_STUCK_AFTER_SECONDS = 300
    silent = extraction_run_start(case=case, actor=lawyer, provider="rules")
    fresh = extraction_run_start(case=case, actor=lawyer, provider="rules")
    _as_killed(silent, age=301)
    _as_killed(fresh, age=10)
    sent: list[int] = []
    monkeypatch.setattr(extraction_run_task, "delay", sent.append)

    with django_capture_on_commit_callbacks(execute=True):
        counts = agent_runs_recover_stuck()
    with django_capture_on_commit_callbacks(execute=True):
        again = agent_runs_recover_stuck()  # idempotent: nothing new to do
    monkeypatch.undo()

    assert counts == {"resumed": 1, "failed": 0, "redispatched": 0}
    assert again == {"resumed": 0, "failed": 0, "redispatched": 0}
    assert sent == [silent.pk]
    silent.refresh_from_db()
    fresh.refresh_from_db()
    assert silent.status == Status.QUEUED and fresh.status == Status.RUNNING
    extraction_run_task.apply(args=[silent.pk], task_id="task-new")
    silent.refresh_from_db()
    assert silent.status == Status.FINISHED and silent.attempts == 2


def test_a_run_that_lost_its_worker_too_often_ends_failed_and_the_page_says_why(
    case, lawyer, letter_chunk, settings, lawyer_client
):
    settings.BELEGT_AGENT_RUN_MAX_ATTEMPTS = 3
    run = extraction_run_start(case=case, actor=lawyer, provider="rules")
    _as_killed(run, age=3600, attempts=3)

    counts = agent_runs_recover_stuck()

    run.refresh_from_db()
    assert counts["failed"] == 1
    assert run.status == Status.FAILED and run.failure_code == "worker_lost"
    assert run.finished_at is not None
    url = reverse("agents:run_detail", args=[case.pk, run.pk])
    german = lawyer_client.get(url).content.decode()
    assert "Der Worker, der diesen Lauf ausführte, wurde 3-mal beendet" in german
    assert "every 2s" not in german  # the page stops polling
    lawyer_client.cookies["django_language"] = "en"
    english = lawyer_client.get(url).content.decode()
    assert "The worker executing this run stopped 3 times" in english


def test_a_redelivered_task_past_the_attempt_limit_ends_the_run_failed(
    case, lawyer, letter_chunk, settings
):
    settings.BELEGT_AGENT_RUN_MAX_ATTEMPTS = 2
    run = extraction_run_start(case=case, actor=lawyer, provider="rules")
    _as_killed(run, claim="task-1", attempts=2)

    extraction_run_task.apply(args=[run.pk], task_id="task-1")

    run.refresh_from_db()
    assert run.status == Status.FAILED and run.failure_code == "worker_lost"
    assert run.attempts == 2


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_run_whose_worker_is_sigkilled_is_recovered_by_one_sweep(
    case, lawyer, letter_chunk, settings
):
    """A real worker process is killed mid-run; a single sweep re-dispatches
    the run to a second worker, which finishes it (on either broker: the
    recovery does not depend on redelivery)."""
    queue = f"test-kill-{uuid.uuid4().hex[:8]}"
    with tasks_routed_to(queue):
        first = start_worker(queue, {"BELEGT_AGENT_STEP_DELAY": "1.5"})
        try:
            run = extraction_run_start(case=case, actor=lawyer, provider="rules")
            first.wait_for(
                lambda: AgentRun.objects.filter(
                    pk=run.pk, status=Status.RUNNING, steps__gte=1
                ).exists(),
                timeout=60,
            )
            os.killpg(first.process.pid, signal.SIGKILL)
            first.process.wait(timeout=10)
        finally:
            stop_worker(first)
        run.refresh_from_db()
        assert run.status == Status.RUNNING  # stuck: nobody will end it
        time.sleep(1.0)
        settings.BELEGT_STUCK_AFTER_SECONDS = 1
        started = time.monotonic()
        counts = agent_runs_recover_stuck()
        assert counts["resumed"] == 1
        second = start_worker(queue)
        try:
            finished = second.wait_for(
                lambda: AgentRun.objects.filter(
                    pk=run.pk, finished_at__isnull=False
                ).first(),
                timeout=120,
            )
        finally:
            stop_worker(second)
    assert finished.status == Status.FINISHED, finished.reason
    assert finished.attempts == 2
    # Measured: the second worker's start-up plus the replay, well under 120 s.
    assert time.monotonic() - started < 120
