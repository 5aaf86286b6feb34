"""In a real browser: the Requirements tab shows the Mahnung as open, a
reviewer accepts the receipt of the reminder elsewhere, and the open tab turns
it to satisfied by itself (htmx polling; unchanged polls swap nothing)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from review.services.decisions import proposal_accept
from tests.browser.conftest import browser_test
from tests.ontology.factsdb import verzug_case

pytestmark = browser_test


def test_open_tab_follows_a_decision_made_elsewhere(
    page: Any,
    login: Any,
    screenshot: Any,
    case: Any,
    lawyer: Any,
    reviewer: Any,
    settings: Any,
) -> None:
    settings.BELEGT_REQUIREMENTS_POLL_SECONDS = 1
    data = verzug_case(case, reviewer)
    login(page, lawyer)
    page.goto(reverse("ontology:case_requirements", kwargs={"case_id": case.pk}))
    mahnung = f"#claim-{data['claim'].pk}-mahnung"
    page.wait_for_selector(f"{mahnung} .req__head .verdict-status--open")
    assert page.locator(f"{mahnung} .req__head .verdict-status").inner_text() == "offen"
    link = page.locator(f"#claim-{data['claim'].pk}-faelligkeit a.evidence-link").first
    assert "?chunk=" in (link.get_attribute("href") or "")
    version = page.locator("#requirements-verdicts").get_attribute("data-version")
    page.wait_for_timeout(2500)  # polls answered 204: nothing was swapped
    assert (
        page.locator("#requirements-verdicts").get_attribute("data-version") == version
    )
    screenshot(page, "before")

    proposal_accept(proposal=data["receipt_proposal"], reviewer=reviewer)

    page.wait_for_selector(
        f"{mahnung} .req__head .verdict-status--satisfied", timeout=10_000
    )
    assert (
        page.locator(f"{mahnung} .req__head .verdict-status").inner_text() == "erfüllt"
    )
    assert page.locator("#requirements-verdicts").count() == 1
    screenshot(page, "after")


@pytest.mark.parametrize("lang", ["en"])
def test_tab_in_english(
    page: Any,
    login: Any,
    case: Any,
    lawyer: Any,
    reviewer: Any,
    lang: str,
) -> None:
    data = verzug_case(case, reviewer)
    login(page, lawyer)
    page.context.add_cookies(
        [{"name": "django_language", "value": lang, "url": page.url}]
    )
    page.goto(reverse("ontology:case_requirements", kwargs={"case_id": case.pk}))
    status = page.locator(f"#claim-{data['claim'].pk}-faelligkeit .req__head span")
    assert status.inner_text() == "satisfied"
