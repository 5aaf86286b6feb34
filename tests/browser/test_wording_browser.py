"""In a real browser: a report on a claim dated 2024 (before the pinned BGB of
29.3.2026) waits for the lawyer's wording decision; one click per provision
("Wortlaut galt am 01.06.2024 unverändert", htmx) and the findings print with
the footnote."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.urls import reverse

from reports.services import report_create
from tests.browser.conftest import browser_test
from tests.factories import CaseFactory
from tests.reports.helpers import verzug_case

pytestmark = browser_test


@pytest.fixture
def bgb_in_db(django_db_blocker: Any) -> None:
    from tests.citations.fixtures import CORPUS_DIR, CORPUS_PRESENT, SKIP_REASON

    if not CORPUS_PRESENT:
        pytest.skip(SKIP_REASON)
    from citations.services import corpus_import

    corpus_import(corpus_dir=CORPUS_DIR, only=["bgb"])


def test_lawyer_decides_the_wording_and_the_findings_print_with_a_footnote(
    page, login, screenshot, lawyer, firm, bgb_in_db
):
    case = CaseFactory(organisation=firm, reference="7 O 24/24")
    verzug_case(case, valid_at=date(2024, 6, 1))
    report = report_create(case=case, actor=lawyer, language="de")  # type: ignore[arg-type]
    login(page, lawyer)
    page.goto(reverse("reports:report_detail", args=[report.pk]))
    assert page.locator('[data-outcome="printed"]').count() == 0
    buttons = page.locator("button[data-decide]")
    assert buttons.count() >= 1
    assert "Wortlaut galt am 01.06.2024 unverändert" in buttons.first.inner_text()
    screenshot(page, "waiting")
    while page.locator("button[data-decide]").count():
        form = page.locator("form.wording-form").first
        form.locator("textarea[name=reason]").fill("Änderungshistorie geprüft.")
        before = page.locator("button[data-decide]").count()
        with page.expect_response(lambda r: "/wording/" in r.url):
            form.locator("button[data-decide]").click()
        page.wait_for_function(
            "(n) => document.querySelectorAll('button[data-decide]').length < n",
            arg=before,
        )
    assert page.locator('[data-outcome="flagged"]').count() == 0
    notes = page.inner_text("ol.footnotes")
    assert "Wortlaut galt am 01.06.2024 unverändert" in notes
    assert lawyer.get_username() in notes or lawyer.get_full_name() in notes
    screenshot(page, "printed")
