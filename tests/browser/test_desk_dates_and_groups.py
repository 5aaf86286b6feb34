"""The desk in a real browser (issue 14): a date is typed and shown as
TT.MM.JJJJ on a German page even when the browser's own locale is English
(Chromium's ``<input type=date>`` would follow the browser, not the page), a
bad date gets a clear German error and keeps what was typed; identical
proposals of two runs are one item "aus 2 Läufen" that one key decides and
one undo takes back. Screenshots go to test-artifacts/ and, for the note, to
/work/notes/screens/."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from cases.models import Party
from evidence.models import Chunk
from review.models import ExtractionProposal, Fact
from review.services.proposals import proposal_create
from tests.browser.conftest import TIMEOUT_MS, browser_test
from tests.evidence.pdfs import document_storage, ingested_document  # noqa: F401
from tests.factories import ClaimFactory, PartyFactory

pytestmark = browser_test

SCREENS = Path("/work/notes/screens")
REMINDER = "Zahlungserinnerung vom 05.05.2026"


def _chunk(case: Any, quote: str) -> Chunk:
    return next(
        c
        for c in Chunk.objects.filter(case=case).order_by("ordinal")
        if quote in " ".join(c.text.split())
    )


def _propose(case: Any, *, run: int, n: int, **changes: Any) -> ExtractionProposal:
    quote = changes.pop("quote", REMINDER)
    arguments: dict[str, Any] = {
        "case": case,
        "fact_type": "reminder_sent",
        "value": {"date": "2026-05-05"},
        "source_chunk": _chunk(case, quote),
        "quote": quote,
        "confidence": 0.8,
        "call_id": f"desk-{run}-{n}",
        "agent_run_id": run,
        "agent_step_id": n,
        "model_id": "rules:browser",
    }
    arguments.update(changes)
    return proposal_create(**arguments)


@pytest.fixture
def english_browser_page(browser: Any, live_server: Any) -> Any:
    """A browser whose own locale is US English, on the (German) site."""
    context = browser.new_context(
        base_url=live_server.url,
        locale="en-US",
        viewport={"width": 1440, "height": 900},
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    yield page
    context.close()


@pytest.mark.usefixtures("document_storage")
def test_the_editor_takes_tt_mm_jjjj_on_a_german_page_in_an_english_browser(
    english_browser_page: Any, login: Any, case: Any, reviewer: Any
) -> None:
    page = english_browser_page
    ingested_document(case)
    proposal = _propose(case, run=7, n=1)
    login(page, reviewer)
    page.goto(reverse("review:case_review", kwargs={"case_id": case.pk}))
    page.wait_for_selector(f'#rq-detail [data-proposal-id="{proposal.pk}"]')
    assert page.locator("html").get_attribute("lang") == "de"

    page.keyboard.press("e")
    field = page.locator('#rq-detail input[name="date"]')
    assert field.get_attribute("type") == "text"
    assert field.get_attribute("placeholder") == "TT.MM.JJJJ"
    assert field.input_value() == "05.05.2026"  # not 05/05/2026

    field.fill("31.02.2026")
    page.keyboard.press("Enter")
    error = page.locator('#rq-detail [data-code="invalid_value"]')
    error.wait_for()
    assert "31.02.2026 ist kein Kalenderdatum." in error.inner_text()
    assert page.locator('#rq-detail input[name="date"]').input_value() == "31.02.2026"
    assert not Fact.objects.exists()

    retry = page.locator('#rq-detail input[name="date"]')
    retry.fill("07.05.2026")
    retry.press("Enter")
    page.wait_for_selector("#rq-detail [data-queue-empty]")
    assert Fact.objects.get().value == {"date": "2026-05-07"}


@pytest.mark.usefixtures("document_storage")
def test_identical_proposals_of_two_runs_are_one_item_decided_and_undone_at_once(
    page: Any, login: Any, screenshot: Any, case: Any, reviewer: Any
) -> None:
    case.description = "Forderung aus Werkvertrag; der Schuldner zahlt trotz Mahnung."
    case.save(update_fields=["description"])
    PartyFactory(case=case, name="Müller GmbH", role=Party.Role.CREDITOR)
    PartyFactory(case=case, name="Schmidt KG", role=Party.Role.DEBTOR)
    ClaimFactory(case=case)
    ingested_document(case)
    first = _propose(case, run=41, n=1)
    second = _propose(case, run=42, n=1)
    amount = _propose(
        case,
        run=42,
        n=2,
        fact_type="claim_amount",
        value={"cents": 425000, "currency": "EUR"},
        quote="Rechnungsbetrag von 4.250,00 EUR",
    )
    page.set_viewport_size({"width": 1440, "height": 900})
    login(page, reviewer)
    page.goto(reverse("review:case_review", kwargs={"case_id": case.pk}))
    page.wait_for_selector(f'#rq-detail [data-proposal-id="{first.pk}"]')

    assert page.locator("[data-review-row]").count() == 2  # not three
    group = page.locator("#rq-detail [data-group]")
    assert group.get_attribute("data-group") == f"{first.pk},{second.pk}"
    text = " ".join(group.inner_text().split())
    assert "aus 2 Läufen" in text and "#41" in text and "#42" in text
    accept = page.locator('#rq-detail button[value="accept"]')
    assert accept.is_visible()
    screenshot(page, "desk-group-1440")
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / "desk-after-1440x900.png"))

    page.keyboard.press("a")
    page.wait_for_selector(f'#rq-detail [data-proposal-id="{amount.pk}"]')
    statuses = set(
        ExtractionProposal.objects.filter(pk__in=[first.pk, second.pk]).values_list(
            "status", flat=True
        )
    )
    assert statuses == {"accepted"}

    page.keyboard.press("u")  # undo takes back the whole item
    page.wait_for_selector(f'#rq-detail [data-proposal-id="{first.pk}"]')
    statuses = set(
        ExtractionProposal.objects.filter(pk__in=[first.pk, second.pk]).values_list(
            "status", flat=True
        )
    )
    assert statuses == {"pending"}
    assert page.locator("#rq-detail [data-group]").count() == 1
    shot = screenshot(page, "desk-group-after-undo")
    shutil.copy(shot, SCREENS / "desk-after-undo-1440x900-full.png")
