"""Reports are built by a Celery worker, not in the web request (issue 13
item 5): the page and the API only queue a ``ReportBuild`` and return; the
page polls its progress until it ends (HTTP 286) and then shows the report or
the reason in the user's language; a redelivered task makes no second report;
the stuck-work sweep re-dispatches or ends a build whose worker is gone."""

from __future__ import annotations

import os
import signal
import threading
import time
import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from cases.models import Claim, Membership
from cases.work import work_lock
from reports.models import Report, ReportBuild
from reports.services import builds, lifecycle
from reports.services.builds import (
    _LOCK_BUILD,
    report_build_execute,
    report_build_start,
    report_builds_recover_stuck,
)
from reports.tasks import report_build_task
from tests.factories import ClaimFactory
from tests.reports.helpers import verzug_case
from tests.worker import start_worker, stop_worker, tasks_routed_to

pytestmark = pytest.mark.django_db

Status = ReportBuild.Status
POLL = {"HTTP_HX_REQUEST": "true"}


def _queued(case: Any, lawyer: Any, **kwargs: Any) -> ReportBuild:
    return report_build_start(case=case, actor=lawyer, **kwargs)


def _as_killed(
    build: ReportBuild, *, claim: str = "task-1", age: float = 0, attempts: int = 1
) -> None:
    """The state a SIGKILLed worker leaves: running, claimed, heartbeat
    ``age`` seconds old, no lock held."""
    beat = timezone.now() - timedelta(seconds=age)
    ReportBuild.objects.filter(pk=build.pk).update(
        status=Status.RUNNING,
        stage=ReportBuild.Stage.GATING,
        claimed_by=claim,
        attempts=attempts,
        started_at=beat,
        heartbeat_at=beat,
    )


def test_the_create_view_returns_before_the_build_runs(
    lawyer_client, case, corpus, django_capture_on_commit_callbacks, monkeypatch
):
    verzug_case(case)
    ran: list[Any] = []
    monkeypatch.setattr(lifecycle, "findings_gate", lambda **kw: ran.append(kw))
    with django_capture_on_commit_callbacks() as dispatched:
        response = lawyer_client.post(
            reverse("reports:report_create", args=[case.pk]), {"language": "de"}
        )
    build = ReportBuild.objects.get(case=case)
    assert response.status_code == 302
    assert response["Location"] == reverse("reports:build_detail", args=[build.pk])
    assert len(dispatched) == 1  # the task is sent once the request commits
    assert ran == [] and not Report.objects.filter(case=case).exists()
    assert build.status == Status.QUEUED and build.language == "de"
    page = lawyer_client.get(response["Location"]).content.decode()
    assert "Bericht wird erstellt" in page and "Warten auf einen Worker" in page
    assert 'hx-trigger="every 1s"' in page


def test_the_progress_page_polls_until_done_then_stops_and_sends_to_the_report(
    lawyer_client, case, lawyer, corpus
):
    verzug_case(case)
    build = _queued(case, lawyer, language="de")
    url = reverse("reports:build_detail", args=[build.pk]) + "?poll=1"
    waiting = lawyer_client.get(url, **POLL)
    assert waiting.status_code == 200 and b"every 1s" in waiting.content

    report_build_task.apply(args=[build.pk], task_id="task-ok")

    build.refresh_from_db()
    assert build.status == Status.SUCCEEDED and build.attempts == 1
    assert build.stage == ReportBuild.Stage.DONE
    assert build.progress_total == 4 and build.progress_done == 4
    report = build.report
    assert report is not None and report.source_call_id == build.call_id
    done = lawyer_client.get(url, **POLL)
    assert done.status_code == 286  # htmx stops polling
    assert done["HX-Redirect"] == reverse("reports:report_detail", args=[report.pk])
    assert b"every 1s" not in done.content and b"Bericht \xc3\xb6ffnen" in done.content
    plain = lawyer_client.get(reverse("reports:build_detail", args=[build.pk]))
    assert plain.status_code == 302 and plain["Location"] == done["HX-Redirect"]


def test_progress_is_written_while_the_build_runs(case, lawyer, corpus, monkeypatch):
    verzug_case(case)
    build = _queued(case, lawyer)
    seen: list[tuple[str, str, int, int]] = []
    real_gate = lifecycle.findings_gate

    def watching_gate(**kwargs: Any) -> Any:
        def on_checked(done: int) -> None:
            kwargs_on_checked(done)
            row = ReportBuild.objects.get(pk=build.pk)
            seen.append((row.status, row.stage, row.progress_done, row.progress_total))

        kwargs_on_checked = kwargs.pop("on_checked")
        return real_gate(**kwargs, on_checked=on_checked)

    monkeypatch.setattr(lifecycle, "findings_gate", watching_gate)
    report_build_execute(build=build, claim="task-1")
    assert seen[0] == ("running", "gating", 1, 4)
    assert seen[-1] == ("running", "gating", 4, 4)


def test_a_failing_build_ends_failed_with_a_reason_the_page_shows(
    lawyer_client, case, lawyer, corpus
):
    claim = verzug_case(case)
    build = _queued(case, lawyer, claims=[claim])
    Claim.objects.filter(pk=claim.pk).delete()  # removed while the build waited

    report_build_task.apply(args=[build.pk])

    build.refresh_from_db()
    assert build.status == Status.FAILED and build.failure_code == "claim_not_in_case"
    assert build.finished_at is not None and build.report is None
    assert not Report.objects.filter(case=case).exists()
    url = reverse("reports:build_detail", args=[build.pk])
    german = lawyer_client.get(url + "?poll=1", **POLL)
    assert german.status_code == 286 and "HX-Redirect" not in german
    text = german.content.decode()
    assert "Der Bericht konnte nicht erstellt werden." in text
    assert "Ein Anspruch dieses Berichts wurde aus der Akte entfernt." in text
    lawyer_client.cookies["django_language"] = "en"
    english = lawyer_client.get(url).content.decode()
    assert "A claim of this report was removed from the case." in english
    tab = lawyer_client.get(reverse("reports:case_reports", args=[case.pk]))
    assert f'data-build="{build.pk}"' in tab.content.decode()


def test_a_lawyer_who_lost_the_role_before_the_build_ran_gets_a_failed_build(
    case, lawyer, corpus
):
    verzug_case(case)
    build = _queued(case, lawyer)
    Membership.objects.filter(user=lawyer).update(role=Membership.Role.REVIEWER)

    report_build_task.apply(args=[build.pk])

    build.refresh_from_db()
    assert build.status == Status.FAILED and build.failure_code == "role_required"


def test_a_crash_ends_the_build_failed_and_is_raised_to_the_worker(
    lawyer_client, case, lawyer, corpus, monkeypatch
):
    verzug_case(case)
    build = _queued(case, lawyer)

    def broken(**kwargs: Any) -> None:
        raise ValueError("kaputt")

    monkeypatch.setattr(lifecycle, "findings_gate", broken)
    with pytest.raises(ValueError, match="kaputt"):
        report_build_execute(build=build, claim="task-1")

    build.refresh_from_db()
    assert build.status == Status.FAILED and build.failure_code == "crashed"
    assert build.reason == "ValueError: kaputt"
    page = lawyer_client.get(reverse("reports:build_detail", args=[build.pk]))
    assert "Ein interner Fehler hat die Erstellung beendet" in page.content.decode()


def test_a_redelivered_task_after_the_report_was_stored_makes_no_second_report(
    case, lawyer, corpus
):
    verzug_case(case)
    build = _queued(case, lawyer)
    report_build_task.apply(args=[build.pk], task_id="task-1")
    build.refresh_from_db()
    first = build.report
    # killed after the report's transaction committed, before the build was marked
    _as_killed(build, claim="task-1")
    ReportBuild.objects.filter(pk=build.pk).update(report=None, finished_at=None)

    report_build_task.apply(args=[build.pk], task_id="task-1")  # redelivery
    report_build_task.apply(args=[build.pk], task_id="task-1")  # and once more

    build.refresh_from_db()
    assert build.status == Status.SUCCEEDED and build.attempts == 2
    assert build.report == first
    assert Report.objects.filter(case=case).count() == 1


def test_another_task_leaves_a_build_with_a_fresh_heartbeat_alone(case, lawyer, corpus):
    verzug_case(case)
    build = _queued(case, lawyer)
    _as_killed(build, claim="task-1")

    report_build_task.apply(args=[build.pk], task_id="task-2")

    build.refresh_from_db()
    assert build.status == Status.RUNNING and build.attempts == 1
    assert not Report.objects.filter(case=case).exists()


@pytest.mark.django_db(transaction=True)
def test_a_second_delivery_while_a_worker_holds_the_build_does_nothing(
    case, lawyer, bgb_only, monkeypatch
):
    verzug_case(case)
    # The queue message stays unsent: a worker another test left running
    # would otherwise take the build the moment the lock is released.
    monkeypatch.setattr(builds, "_dispatch", lambda build_id: None)
    build = _queued(case, lawyer)
    _as_killed(build, claim="task-1", age=3600)  # silent, but its worker lives
    held = threading.Event()
    release = threading.Event()

    def live_worker() -> None:
        with work_lock(_LOCK_BUILD, build.pk):
            held.set()
            release.wait(30)
        connection.close()

    thread = threading.Thread(target=live_worker)
    thread.start()
    try:
        assert held.wait(10)
        report_build_execute(build=build, claim="task-2")
        assert report_builds_recover_stuck()["resumed"] == 0
    finally:
        release.set()
        thread.join()
    build.refresh_from_db()
    assert build.status == Status.RUNNING and build.attempts == 1
    assert not Report.objects.filter(case=case).exists()


def test_the_sweep_requeues_a_silent_build_and_leaves_a_fresh_one(
    case, lawyer, corpus, settings, monkeypatch, django_capture_on_commit_callbacks
):
    verzug_case(case)
    settings.BELEGT_STUCK_AFTER_SECONDS = 300
    silent = _queued(case, lawyer)
    fresh = _queued(case, lawyer)
    _as_killed(silent, age=301)
    _as_killed(fresh, age=10)
    sent: list[int] = []
    monkeypatch.setattr(report_build_task, "delay", sent.append)

    with django_capture_on_commit_callbacks(execute=True):
        counts = report_builds_recover_stuck()
    with django_capture_on_commit_callbacks(execute=True):
        again = report_builds_recover_stuck()  # idempotent
    monkeypatch.undo()

    assert counts == {"resumed": 1, "failed": 0, "ended": 0, "redispatched": 0}
    assert not any(again.values())
    assert sent == [silent.pk]
    silent.refresh_from_db()
    fresh.refresh_from_db()
    assert silent.status == Status.QUEUED and fresh.status == Status.RUNNING
    report_build_task.apply(args=[silent.pk], task_id="task-new")
    silent.refresh_from_db()
    assert silent.status == Status.SUCCEEDED and silent.attempts == 2
    assert Report.objects.filter(case=case).count() == 1


def test_the_sweep_redispatches_a_build_whose_message_was_lost(
    case, lawyer, corpus, settings, monkeypatch, django_capture_on_commit_callbacks
):
    verzug_case(case)
    settings.BELEGT_STUCK_AFTER_SECONDS = 300
    build = _queued(case, lawyer)
    ReportBuild.objects.filter(pk=build.pk).update(
        created_at=timezone.now() - timedelta(seconds=400)
    )
    sent: list[int] = []
    monkeypatch.setattr(report_build_task, "delay", sent.append)

    with django_capture_on_commit_callbacks(execute=True):
        counts = report_builds_recover_stuck()
    with django_capture_on_commit_callbacks(execute=True):
        again = report_builds_recover_stuck()

    assert counts["redispatched"] == 1 and again["redispatched"] == 0
    assert sent == [build.pk]


def test_a_build_that_lost_its_worker_too_often_ends_failed_and_the_page_says_why(
    lawyer_client, case, lawyer, corpus, settings
):
    verzug_case(case)
    settings.BELEGT_REPORT_BUILD_MAX_ATTEMPTS = 3
    build = _queued(case, lawyer)
    _as_killed(build, age=3600, attempts=3)

    counts = report_builds_recover_stuck()

    build.refresh_from_db()
    assert counts["failed"] == 1
    assert build.status == Status.FAILED and build.failure_code == "worker_lost"
    url = reverse("reports:build_detail", args=[build.pk])
    german = lawyer_client.get(url).content.decode()
    assert "Der Worker, der diesen Bericht erstellte, wurde 3-mal beendet" in german
    assert "every 1s" not in german
    lawyer_client.cookies["django_language"] = "en"
    english = lawyer_client.get(url).content.decode()
    assert "The worker building this report stopped 3 times" in english


def test_a_build_lost_too_often_after_storing_its_report_ends_with_that_report(
    case, lawyer, corpus, settings
):
    verzug_case(case)
    settings.BELEGT_REPORT_BUILD_MAX_ATTEMPTS = 2
    build = _queued(case, lawyer)
    report_build_execute(build=build, claim="task-1")
    report = ReportBuild.objects.get(pk=build.pk).report
    _as_killed(build, age=3600, attempts=2)
    ReportBuild.objects.filter(pk=build.pk).update(report=None)

    counts = report_builds_recover_stuck()

    build.refresh_from_db()
    assert counts["ended"] == 1
    assert build.status == Status.SUCCEEDED and build.report == report


def test_a_redelivered_task_past_the_attempt_limit_ends_the_build_failed(
    case, lawyer, corpus, settings
):
    verzug_case(case)
    settings.BELEGT_REPORT_BUILD_MAX_ATTEMPTS = 2
    build = _queued(case, lawyer)
    _as_killed(build, claim="task-1", attempts=2)

    report_build_task.apply(args=[build.pk], task_id="task-1")

    build.refresh_from_db()
    assert build.status == Status.FAILED and build.failure_code == "worker_lost"
    assert build.attempts == 2


def test_what_can_be_refused_at_once_is_refused_by_the_view(
    lawyer_client, reviewer_client, case, corpus
):
    no_claims = lawyer_client.post(reverse("reports:report_create", args=[case.pk]))
    assert no_claims.status_code == 400
    assert "keinen Anspruch" in no_claims.content.decode()
    verzug_case(case)
    refused = reviewer_client.post(reverse("reports:report_create", args=[case.pk]))
    assert refused.status_code == 403
    assert not ReportBuild.objects.filter(case=case).exists()


def test_api_answers_202_with_a_status_url_and_the_report_once_built(
    lawyer, case, corpus, django_capture_on_commit_callbacks
):
    claim = verzug_case(case)
    api = APIClient()
    api.force_authenticate(lawyer)
    with django_capture_on_commit_callbacks() as dispatched:
        queued = api.post(
            "/api/v1/reports/", {"case": case.pk, "claims": [claim.pk]}, format="json"
        )
    assert queued.status_code == 202 and len(dispatched) == 1
    body = queued.json()
    assert body["status"] == "queued" and body["report_url"] is None
    assert queued["Location"] == body["status_url"]
    assert body["status_url"].endswith(f"/api/v1/report-builds/{body['id']}/")
    assert not Report.objects.filter(case=case).exists()

    report_build_task.apply(args=[body["id"]])

    done = api.get(body["status_url"]).json()
    assert done["status"] == "succeeded" and done["stage"] == "done"
    report = api.get(done["report_url"]).json()
    assert report["summary"]["printed"] == 4


def test_other_firm_gets_404_for_a_build(other_client, other_lawyer, case, lawyer):
    build = _queued(case, lawyer, claims=[ClaimFactory(case=case)])
    page = other_client.get(reverse("reports:build_detail", args=[build.pk]))
    assert page.status_code == 404
    api = APIClient()
    api.force_authenticate(other_lawyer)
    assert api.get(f"/api/v1/report-builds/{build.pk}/").status_code == 404


def test_the_schema_documents_the_202_and_the_build_status_without_warnings():
    from django.urls import include, path
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator

    GENERATOR_STATS.reset()
    generator = SchemaGenerator(patterns=[path("api/v1/", include("reports.api.urls"))])
    schema = generator.get_schema(request=None, public=True)
    assert dict(GENERATOR_STATS._warn_cache) == {}
    assert "202" in schema["paths"]["/api/v1/reports/"]["post"]["responses"]
    assert "/api/v1/report-builds/{build_id}/" in schema["paths"]


# --- Real worker processes ----------------------------------------------------------


@pytest.fixture
def bgb_only(django_db_blocker: Any) -> None:
    """The BGB in a transactional test's database (the worker sees only
    committed rows)."""
    from tests.citations.fixtures import CORPUS_DIR, CORPUS_PRESENT, SKIP_REASON

    if not CORPUS_PRESENT:
        pytest.skip(SKIP_REASON)
    from citations.services import corpus_import

    corpus_import(corpus_dir=CORPUS_DIR, only=["bgb"])


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_builds_the_report_the_page_queued(
    celery_worker, lawyer_client, case, bgb_only
):
    verzug_case(case)
    started = time.monotonic()
    response = lawyer_client.post(
        reverse("reports:report_create", args=[case.pk]), {"language": "de"}
    )
    answered = time.monotonic() - started
    build = ReportBuild.objects.get(case=case)
    assert response["Location"] == reverse("reports:build_detail", args=[build.pk])

    done = celery_worker.wait_for(
        lambda: (
            ReportBuild.objects.filter(pk=build.pk, finished_at__isnull=False)
            .select_related("report")
            .first()
        ),
        timeout=90,
    )

    assert done.status == Status.SUCCEEDED, done.reason
    assert done.report is not None and done.report.summary["findings"] == 4
    assert "report_build_task" in celery_worker.log()
    assert answered < 5  # the request did not wait for the build


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_build_whose_worker_is_sigkilled_is_finished_after_one_sweep(
    case, lawyer, bgb_only, settings
):
    """A real worker is killed mid-build (its gate is slowed down); one sweep
    re-dispatches the build to a second worker, which finishes it with one
    report (on either broker: recovery does not wait for redelivery)."""
    verzug_case(case)
    queue = f"test-build-kill-{uuid.uuid4().hex[:8]}"
    with tasks_routed_to(queue):
        first = start_worker(queue, {"BELEGT_REPORT_BUILD_STEP_DELAY": "3"})
        try:
            build = report_build_start(case=case, actor=lawyer)
            first.wait_for(
                lambda: ReportBuild.objects.filter(
                    pk=build.pk, status=Status.RUNNING, stage="gating"
                ).exists(),
                timeout=60,
            )
            os.killpg(first.process.pid, signal.SIGKILL)
            first.process.wait(timeout=10)
        finally:
            stop_worker(first)
        build.refresh_from_db()
        assert build.status == Status.RUNNING  # stuck: nobody would end it
        time.sleep(1.0)
        settings.BELEGT_STUCK_AFTER_SECONDS = 1
        assert report_builds_recover_stuck()["resumed"] == 1
        second = start_worker(queue)
        try:
            done = second.wait_for(
                lambda: ReportBuild.objects.filter(
                    pk=build.pk, finished_at__isnull=False
                ).first(),
                timeout=120,
            )
        finally:
            stop_worker(second)
    assert done.status == Status.SUCCEEDED, done.reason
    assert done.attempts == 2
    assert Report.objects.filter(case=case).count() == 1
