"""A lawyer searches the Evidence tab in a real browser ("Mahnung Zugang") and
lands on the page of the letter with the passage highlighted over the image."""

from __future__ import annotations

import re
from typing import Any

from django.urls import reverse

from evidence.models import Chunk
from tests.browser.conftest import browser_test
from tests.evidence import pdfs
from tests.evidence.search_helpers import ingest

pytestmark = browser_test


def test_lawyer_searches_mahnung_zugang_and_lands_on_the_highlighted_page(
    page: Any, login: Any, screenshot: Any, lawyer: Any, case: Any
) -> None:
    ingest(case, pdfs.reminder_letter(), "zahlungserinnerung.pdf")
    letter = ingest(case, pdfs.dunning_letter(), "mahnung.pdf")
    ingest(case, pdfs.case_file(3), "akte.pdf")

    login(page, lawyer)
    page.goto(reverse("evidence:case_documents", args=[case.pk]))
    page.locator("#tab-evidence").click()  # htmx tab switch
    search_box = page.locator("#evidence-q")
    search_box.wait_for()
    search_box.fill("Mahnung Zugang")
    search_box.press("Enter")

    first_hit = page.locator("#search-results li.hit").first
    first_hit.wait_for()
    assert re.search(r"[?&]q=Mahnung", page.url)  # the search is in the URL
    assert "mahnung.pdf" in first_hit.inner_text()
    marks = first_hit.locator("mark").all_inner_texts()
    assert {"Mahnung", "Zugang"} & set(marks)
    chunk_id = int(first_hit.get_attribute("data-chunk-id"))
    screenshot(page, "results")

    first_hit.locator("a.hit__link").click()
    page.wait_for_url(re.compile(rf"/documents/{letter.pk}/pages/1/\?chunk={chunk_id}"))
    image = page.locator("#page-sheet img")
    image.wait_for()
    page.wait_for_function(
        "() => { const i = document.querySelector('#page-sheet img');"
        " return i && i.complete && i.naturalWidth > 0; }"
    )
    sheet = page.locator("#page-sheet").bounding_box()
    boxes = page.locator("#page-sheet [data-highlight]")
    chunk = Chunk.objects.get(pk=chunk_id)
    expected = sum(len(s["boxes"]) for s in chunk.spans if s["page"] == 1)
    assert boxes.count() == expected > 0
    for index in range(boxes.count()):
        box = boxes.nth(index).bounding_box()
        assert box["width"] > 5 and box["height"] > 3
        assert sheet["x"] <= box["x"] and box["x"] + box["width"] <= (
            sheet["x"] + sheet["width"] + 1
        )
        assert sheet["y"] <= box["y"] <= sheet["y"] + sheet["height"]
    # the lines holding "Mahnung" or "Zugang" are drawn stronger
    assert page.locator("#page-sheet .pageview__box--match").count() >= 2
    # the text layer marks the same passage; it holds the delivery sentence
    page.locator("details.pageview__textlayer summary").click()
    marked = " ".join(page.locator("#page-text mark").all_inner_texts())
    assert "Zugang" in marked or "Mahnung" in marked
    screenshot(page, "highlighted-page")
