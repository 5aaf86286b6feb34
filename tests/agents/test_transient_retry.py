"""Transient database and broker errors retry for about ten minutes: the
schedule (exponential, capped at two minutes, half of each delay fixed) and
the ingest and extraction tasks that follow it (eager, so deterministic)."""

from __future__ import annotations

import random

import pytest
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerOperationalError

from agents import services as agent_services
from agents.models import AgentRun
from agents.services import extraction_run_start
from agents.tasks import extraction_run_task
from cases import retry
from evidence import tasks as evidence_tasks
from evidence.tasks import source_document_ingest_task
from tests.agents.conftest import make_document


def test_the_delays_double_up_to_two_minutes_and_half_of_each_is_fixed():
    rng = random.Random(7)
    for retries in range(retry.MAX_RETRIES):
        base = min(120, 2**retries)
        for _ in range(20):
            delay = retry.retry_delay(retries, rng=rng)
            assert base / 2 <= delay <= base
    assert retry.retry_delay(30, rng=rng) <= 120


def test_the_retries_span_between_seven_and_fifteen_minutes():
    shortest, longest = retry.schedule_bounds()
    assert shortest >= 7 * 60 and longest <= 15 * 60
    mean = (shortest + longest) / 2
    assert 9 * 60 <= mean <= 11 * 60


class _Flaky:
    """Raises ``error`` the first ``times`` calls, then does nothing."""

    def __init__(self, error: BaseException, times: int) -> None:
        self.error, self.times, self.calls = error, times, 0

    def __call__(self, **kwargs) -> None:
        self.calls += 1
        if self.calls <= self.times:
            raise self.error


@pytest.fixture
def delays(monkeypatch) -> list[int]:
    seen: list[int] = []

    def record(retries: int, *, rng=None) -> float:
        seen.append(retries)
        return 0.0

    monkeypatch.setattr(retry, "retry_delay", record)
    return seen


@pytest.mark.django_db
@pytest.mark.parametrize(
    "error",
    [
        OperationalError("server closed the connection unexpectedly"),
        InterfaceError("connection already closed"),
        BrokerOperationalError("Error 111 connecting to redis"),
    ],
    ids=["database", "interface", "broker"],
)
def test_the_ingest_task_outlasts_ten_transient_failures_in_a_row(
    monkeypatch, delays, error, lawyer, case
):
    document, _ = make_document(case)
    flaky = _Flaky(error, times=10)
    monkeypatch.setattr(evidence_tasks, "source_document_ingest", flaky)

    result = source_document_ingest_task.apply(args=[document.pk])

    assert result.successful(), result.traceback
    assert flaky.calls == 11
    assert delays == list(range(10))


@pytest.mark.django_db
def test_the_ingest_task_gives_up_after_the_last_retry(monkeypatch, delays, case):
    document, _ = make_document(case)
    flaky = _Flaky(OperationalError("down"), times=100)
    monkeypatch.setattr(evidence_tasks, "source_document_ingest", flaky)

    result = source_document_ingest_task.apply(args=[document.pk])

    assert result.failed()
    assert isinstance(result.result, OperationalError)
    assert flaky.calls == retry.MAX_RETRIES + 1


@pytest.mark.django_db
def test_an_extraction_hit_by_a_database_error_is_finished_by_its_retry(
    monkeypatch, delays, case, lawyer, letter_chunk
):
    run = extraction_run_start(case=case, actor=lawyer, provider="rules")
    real = agent_services._execute
    calls: list[int] = []

    def flaky_execute(**kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError(
                "terminating connection due to administrator command"
            )
        return real(**kwargs)

    monkeypatch.setattr(agent_services, "_execute", flaky_execute)

    result = extraction_run_task.apply(args=[run.pk])

    assert result.successful(), result.traceback
    run.refresh_from_db()
    assert run.status == AgentRun.Status.FINISHED, run.reason
    assert run.attempts == 2 and delays == [0]
