"""A reviewer finds a fact the agent missed: in the page viewer she marks the
passage with the mouse, picks the fact kind, enters the date and records it.
The fact appears in the facts view as evidenced with its quote; under
four-eyes review it awaits a second reviewer, who confirms it. Also: the
viewer's zoom, full width and way back."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from cases.models import Membership
from evidence.models import Chunk
from review.models import Decision, Fact
from tests.browser.conftest import TIMEOUT_MS, browser_test
from tests.conftest import PASSWORD, _member
from tests.evidence.pdfs import document_storage, ingested_document  # noqa: F401
from tests.factories import ClaimFactory

pytestmark = browser_test

PASSAGE = "Zugang dieses Schreibens hat unser Bote"
DATE_PASSAGE = "am 08.05.2026 um 10:15 Uhr durch Einwurf"
SCREENS = Path("/work/notes/screens")


@pytest.fixture
def second_reviewer(firm: Any) -> Any:
    return _member(firm, Membership.Role.REVIEWER, "rita.reviewer")


@pytest.fixture
def four_eyes_firm(firm: Any) -> Any:
    firm.four_eyes_review = True
    firm.save(update_fields=["four_eyes_review"])
    return firm


def _viewer_url(case: Any, chunk: Chunk) -> str:
    url = reverse(
        "evidence:page_view",
        kwargs={"case_id": case.pk, "document_id": chunk.document_id, "number": 1},
    )
    return f"{url}?chunk={chunk.pk}"


def _mark(page: Any, text: str) -> None:
    """Select ``text`` inside the panel's source as a mouse drag would, then
    release the mouse there (what the viewer's script listens to)."""
    page.locator("[data-manual-source]").evaluate(
        """(el, text) => {
            const node = el.firstChild;
            const flat = node.textContent;
            const at = flat.replace(/\\s+/g, " ").indexOf(text);
            if (at < 0) throw new Error("passage not in the source: " + text);
            let start = -1, end = -1, seen = 0, space = false;
            for (let i = 0; i < flat.length; i++) {
                const ws = /\\s/.test(flat[i]);
                if (ws && space) continue;
                if (seen === at && start < 0) start = i;
                seen += 1;
                space = ws;
                if (seen === at + text.length) { end = i + 1; break; }
            }
            const range = document.createRange();
            range.setStart(node, start);
            range.setEnd(node, end);
            const selection = window.getSelection();
            selection.removeAllRanges();
            selection.addRange(range);
        }""",
        text,
    )
    box = page.locator("[data-manual-source]").bounding_box()
    page.mouse.move(box["x"] + 10, box["y"] + 10)
    page.locator("[data-manual-source]").dispatch_event("mouseup")
    # the viewer copies the selection on the next tick
    page.wait_for_function(
        "() => document.querySelector('[data-manual-quote]').value !== ''",
        timeout=5000,
    )


def _save(path: Path, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, SCREENS / name)


@pytest.mark.usefixtures("document_storage")
def test_reviewer_marks_a_passage_and_a_second_reviewer_confirms_the_fact(
    browser: Any,
    live_server: Any,
    page: Any,
    login: Any,
    screenshot: Any,
    four_eyes_firm: Any,
    case: Any,
    reviewer: Any,
    second_reviewer: Any,
) -> None:
    ClaimFactory(case=case)
    ingested_document(case)
    chunk = next(
        c
        for c in Chunk.objects.filter(case=case).order_by("ordinal")
        if DATE_PASSAGE in " ".join(c.text.split())
    )
    page.set_viewport_size({"width": 1440, "height": 900})
    login(page, reviewer)
    page.goto(_viewer_url(case, chunk))
    page.wait_for_selector("#manual-fact [data-manual-source]")

    # the kinds are the claim's, in German; nothing of the AI Act here
    kinds = page.locator("[data-manual-kind] option").all_inner_texts()
    assert "Zugang der Mahnung" in kinds
    assert not any("KI-VO" in k for k in kinds)

    before = page.locator("[data-manual-source]").element_handle()
    page.select_option("[data-manual-kind]", "reminder_received")
    # the panel is swapped for the chosen kind; the first kind's form may
    # already hold a date input, so wait for the swap itself
    page.wait_for_function("el => !el.isConnected", arg=before)
    page.wait_for_selector('#manual-fact input[name="date"][data-date-input]')
    _mark(page, DATE_PASSAGE)
    quote = page.locator("[data-manual-quote]")
    assert " ".join(quote.input_value().split()) == DATE_PASSAGE

    # a passage changed by hand is refused, and the input stays
    quote.fill(DATE_PASSAGE.replace("10:15", "11:15"))
    date = page.locator('#manual-fact input[name="date"]')
    assert date.get_attribute("placeholder") == "TT.MM.JJJJ"
    date.fill("08.05.2026")  # what a German lawyer types
    page.locator("[data-manual-submit]").click()
    page.wait_for_selector('[data-manual-error][data-code="quote_not_verbatim"]')
    assert page.locator('#manual-fact input[name="date"]').input_value() == (
        "08.05.2026"
    )
    assert not Fact.objects.exists()

    _mark(page, DATE_PASSAGE)
    shot = screenshot(page, "viewer-marked-1440")
    _save(shot, "manual-fact-viewer-1440x900-full.png")
    page.screenshot(path=str(SCREENS / "manual-fact-viewer-1440x900.png"))
    page.locator("[data-manual-submit]").click()
    page.wait_for_selector('[data-manual-created][data-status="evidenced"]')

    fact = Fact.objects.get()
    assert fact.status == Fact.Status.EVIDENCED
    assert fact.value == {"date": "2026-05-08"}
    assert " ".join(fact.evidence.get().quote.split()) == DATE_PASSAGE
    assert fact.decisions.get().kind == Decision.Kind.MANUAL

    # the facts view: evidenced, with its quote, awaiting the second review
    page.locator("[data-manual-created] a").click()
    row = page.locator(f"#fact-{fact.pk}")
    row.wait_for()
    assert row.get_attribute("data-status") == "evidenced"
    assert row.locator("[data-awaits-second-review]").is_visible()
    assert DATE_PASSAGE in " ".join(row.locator("blockquote").inner_text().split())
    assert row.get_by_role("button", name="Bestätigen").count() == 0  # not herself
    screenshot(page, "facts-awaiting")

    # the evidence link leads to the viewer with the quote's words marked and
    # a way back to the facts
    row.locator("[data-page-link]").click()
    page.wait_for_selector("#page-sheet [data-quote-box]")
    back = page.locator("[data-back]")
    assert back.inner_text().startswith("← Zurück zu den Tatsachen")
    page.screenshot(path=str(SCREENS / "viewer-quote-words-1440x900.png"))

    # zoom and full width
    page.locator('.pageview__zoombtn[data-zoom="200 %"]').click()
    page.wait_for_function(
        "() => document.querySelector('#page-sheet img').width > 1100"
    )
    page.locator("[data-wide-toggle]").click()
    page.wait_for_selector(".pageview--wide")
    sheet = page.locator("#page-sheet").bounding_box()
    assert sheet is not None and sheet["width"] > 1100  # wider than the column
    page.screenshot(path=str(SCREENS / "viewer-wide-200-1440x900.png"))
    back.click()
    page.wait_for_selector(f"#fact-{fact.pk}")

    # the second reviewer confirms
    other = browser.new_context(
        base_url=live_server.url,
        locale="de-DE",
        viewport={"width": 1440, "height": 900},
    )
    other.set_default_timeout(TIMEOUT_MS)
    try:
        second = other.new_page()
        login(second, second_reviewer, PASSWORD)
        second.goto(reverse("review:case_facts", kwargs={"case_id": case.pk}))
        second_row = second.locator(f"#fact-{fact.pk}")
        second_row.get_by_role("button", name="Bestätigen").click()
        second.wait_for_selector(f'#fact-{fact.pk}[data-status="confirmed"]')
        assert (
            second.locator(f"#fact-{fact.pk} [data-awaits-second-review]").count() == 0
        )
    finally:
        other.close()
    fact.refresh_from_db()
    assert fact.status == Fact.Status.CONFIRMED
    assert fact.confirmed_by_id == second_reviewer.pk


@pytest.mark.usefixtures("document_storage")
def test_a_lawyer_sees_the_panel_but_cannot_record(
    page: Any, login: Any, case: Any, firm: Any
) -> None:
    lawyer = _member(firm, Membership.Role.LAWYER, "lena.lawyer")
    ingested_document(case)
    chunk = Chunk.objects.filter(case=case).order_by("ordinal").first()
    assert chunk is not None
    login(page, lawyer)
    page.goto(_viewer_url(case, chunk))
    page.wait_for_selector("[data-manual-fact]")  # the panel htmx loads in
    assert page.locator("[data-manual-submit]").count() == 0
    assert "Nur Prüferinnen und Prüfer" in page.locator("#manual-fact").inner_text()
