"""In a real browser: "Bericht erstellen" answers at once with a progress page
that polls (htmx) while a worker builds the report; once the build ends the
polling stops and the browser shows the report, or the reason in German."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.urls import reverse

from cases.models import Claim
from reports.models import ReportBuild
from reports.services.builds import report_build_execute
from reports.tasks import report_build_task
from tests.browser.conftest import browser_test
from tests.reports.helpers import verzug_case

pytestmark = browser_test


@pytest.fixture
def bgb_in_db(django_db_blocker: Any) -> None:
    from tests.citations.fixtures import CORPUS_DIR, CORPUS_PRESENT, SKIP_REASON

    if not CORPUS_PRESENT:
        pytest.skip(SKIP_REASON)
    from citations.services import corpus_import

    corpus_import(corpus_dir=CORPUS_DIR, only=["bgb"])


@pytest.fixture
def no_broker(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The queued builds, kept here instead of sent to a broker: the test is
    the worker (the live server runs in this process)."""
    sent: list[int] = []
    monkeypatch.setattr(report_build_task, "delay", sent.append)
    return sent


def _create(page: Any, case: Any) -> ReportBuild:
    page.goto(reverse("reports:case_reports", args=[case.pk]))
    page.select_option("select[name=language]", "de")
    page.locator("#report-create button").click()
    page.wait_for_url(re.compile(r"/reports/builds/\d+/$"))
    return ReportBuild.objects.get(case=case)


def test_the_progress_page_polls_and_then_shows_the_report(
    page, login, screenshot, lawyer, case, bgb_in_db, no_broker
):
    verzug_case(case)
    login(page, lawyer)
    build = _create(page, case)
    assert no_broker == [build.pk]
    assert "Bericht wird erstellt" in page.inner_text("#build-progress")
    assert "Warten auf einen Worker" in page.inner_text("#build-stage")
    screenshot(page, "queued")

    with page.expect_request(lambda r: "poll=1" in r.url):
        pass  # the page is polling
    report_build_execute(build=build, claim="browser-test")

    build.refresh_from_db()
    assert build.report_id is not None
    page.wait_for_url(re.compile(rf"/reports/{build.report_id}/$"))
    page.wait_for_function("() => document.querySelector('#report-preview') !== null")
    # the summary opens the preview; the review section shows only when
    # something awaits a human (tests/reports/test_preview_review_heading.py)
    assert "Zusammenfassung" in page.inner_text("#report-preview")
    screenshot(page, "report")


def test_a_failed_build_shows_its_reason_in_german_and_polling_stops(
    page, login, screenshot, lawyer, case, bgb_in_db, no_broker
):
    claim = verzug_case(case)
    login(page, lawyer)
    build = _create(page, case)
    Claim.objects.filter(pk=claim.pk).delete()
    ReportBuild.objects.filter(pk=build.pk).update(claim_ids=[claim.pk])

    report_build_execute(build=build, claim="browser-test")

    page.wait_for_function("() => document.querySelector('#build-failure') !== null")
    text = page.inner_text("#build-failure")
    assert "Der Bericht konnte nicht erstellt werden." in text
    assert "Ein Anspruch dieses Berichts wurde aus der Akte entfernt." in text
    polls: list[str] = []
    page.on("request", lambda r: polls.append(r.url) if "poll=1" in r.url else None)
    time.sleep(2.5)  # more than two polling intervals
    assert polls == []
    assert page.url.endswith(reverse("reports:build_detail", args=[build.pk]))
    screenshot(page, "failed")


def test_issuing_asks_for_confirmation_and_names_what_becomes_immutable(
    page, login, screenshot, lawyer, case, bgb_in_db
):
    from reports.services import report_create

    verzug_case(case)
    report = report_create(case=case, actor=lawyer, language="de")
    login(page, lawyer)
    page.goto(reverse("reports:report_detail", args=[report.pk]))
    page.locator("#issue-report").click()
    page.wait_for_selector("#issue-confirm")
    consequences = page.inner_text("#issue-confirm")
    assert "lässt sich nicht rückgängig machen" in consequences
    assert "SHA-256" in consequences
    screenshot(page, "confirm")
    report.refresh_from_db()
    assert report.status == "draft"  # the click only asked

    page.locator("#issue-confirm-button").click()

    page.wait_for_selector('#report-preview[data-status="issued"]')
    report.refresh_from_db()
    assert report.status == "issued"
