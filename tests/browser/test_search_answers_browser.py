"""A lawyer searches the evidence, reads why each hit matched, opens one and
comes Back to the same query and results."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from tests.browser.conftest import browser_test
from tests.evidence.pdfs import document_storage, ingested_document  # noqa: F401

pytestmark = browser_test


@pytest.mark.usefixtures("document_storage")
def test_search_says_why_and_keeps_the_query_after_back(
    page: Any, login: Any, screenshot: Any, case: Any, lawyer: Any
) -> None:
    ingested_document(case)
    login(page, lawyer)
    page.goto(reverse("evidence:case_evidence", kwargs={"case_id": case.pk}))
    page.fill("#evidence-q", "Mahnung Rechnung")
    page.keyboard.press("Enter")
    page.locator("#search-results .hit").first.wait_for()
    why = page.locator("#search-results .hit__why").first.inner_text()
    assert "Suchwörter" in why or "inhaltlich ähnlich" in why
    assert "Relevanz" not in page.locator("#search-results").inner_text()
    # the filters (document, from, until) stand in one row below the box
    centres = [
        (box := page.locator(selector).bounding_box())["y"] + box["height"] / 2
        for selector in ("#evidence-document", "#evidence-from", "#evidence-until")
    ]
    assert max(centres) - min(centres) < 8, centres
    screenshot(page, "results")

    page.locator("#search-results .hit__link").first.click()
    page.wait_for_url(re.compile(r"/pages/\d+/"))
    page.go_back()
    page.wait_for_url(re.compile(r"q=Mahnung"))
    page.locator("#search-results .hit").first.wait_for()
    assert page.locator("#evidence-q").count() == 1  # the page, not a fragment
    assert page.input_value("#evidence-q") == "Mahnung Rechnung"
