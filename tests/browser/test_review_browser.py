"""A reviewer clears three proposals with the keyboard only (j/k to move, a to
accept, e to edit, d to dispute, ? for help), then finds the facts with their
provenance and follows one to the highlighted page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from evidence.models import Chunk
from review.models import ExtractionProposal, Fact
from review.services.proposals import proposal_create
from tests.browser.conftest import browser_test
from tests.evidence.pdfs import document_storage, ingested_document  # noqa: F401

pytestmark = browser_test


def _propose(
    case: Any, n: int, fact_type: str, value: dict[str, Any], quote: str
) -> Any:
    chunk = next(
        c
        for c in Chunk.objects.filter(case=case).order_by("ordinal")
        if quote in " ".join(c.text.split())
    )
    return proposal_create(
        case=case,
        fact_type=fact_type,
        value=value,
        source_chunk=chunk,
        quote=quote,
        confidence=0.8,
        call_id=f"browser-{n}",
        agent_run_id=41,
        agent_step_id=n,
        model_id="rules:browser",
    )


def _shown(page: Any, proposal: Any) -> None:
    page.wait_for_selector(f'#rq-detail [data-proposal-id="{proposal.pk}"]')


@pytest.mark.usefixtures("document_storage")
def test_reviewer_clears_three_proposals_by_keyboard(
    page: Any, login: Any, screenshot: Any, case: Any, reviewer: Any
) -> None:
    ingested_document(case)
    reminder = _propose(
        case,
        1,
        "reminder_sent",
        {"date": "2026-05-05"},
        "Zahlungserinnerung vom 05.05.2026",
    )
    amount = _propose(
        case,
        2,
        "claim_amount",
        {"cents": 400000, "currency": "EUR"},
        "Rechnungsbetrag von 4.250,00 EUR",
    )
    received = _propose(
        case,
        3,
        "reminder_received",
        {"date": "2026-05-08"},
        "am 08.05.2026 um 10:15 Uhr durch Einwurf",
    )

    login(page, reviewer)
    page.goto(reverse("review:case_review", kwargs={"case_id": case.pk}))
    _shown(page, reminder)
    assert page.locator("#rq-detail [data-quote-box]").count() >= 1
    assert page.locator("#rq-detail img").evaluate("img => img.naturalWidth") > 0

    page.keyboard.press("?")
    assert page.locator("#rq-help").is_visible()
    page.keyboard.press("Escape")
    assert not page.locator("#rq-help").is_visible()

    page.keyboard.press("j")
    _shown(page, amount)
    page.keyboard.press("k")
    _shown(page, reminder)
    screenshot(page, "first-item")

    page.keyboard.press("a")  # accept the reminder as proposed
    _shown(page, amount)

    page.keyboard.press("e")  # the amount is wrong: edit it
    field = page.locator('#rq-detail input[name="amount"]')
    assert field.evaluate("el => el === document.activeElement")
    page.keyboard.press("Control+a")
    page.keyboard.type("4.250,00")
    page.keyboard.press("Enter")
    _shown(page, received)

    page.keyboard.press("d")  # the debtor denies having received it
    page.keyboard.type("Schuldner bestreitet den Einwurf")
    page.keyboard.press("Enter")
    page.wait_for_selector("#rq-detail [data-queue-empty]")
    assert page.locator("[data-review-row]").count() == 0
    screenshot(page, "queue-empty")

    statuses = dict(
        ExtractionProposal.objects.filter(case=case).values_list("pk", "status")
    )
    assert set(statuses.values()) == {"accepted"}
    facts = {f.fact_type: f for f in Fact.objects.filter(case=case)}
    assert facts["reminder_sent"].status == "confirmed"
    assert facts["claim_amount"].value == {"cents": 425000, "currency": "EUR"}
    assert facts["reminder_received"].status == "disputed"
    assert (
        facts["reminder_received"].dispute_reason == "Schuldner bestreitet den Einwurf"
    )

    page.goto(reverse("review:case_facts", kwargs={"case_id": case.pk}))
    assert page.locator("[data-fact]").count() == 3
    amount_fact = page.locator('[data-fact][data-fact-type="claim_amount"]')
    assert "4.250,00 EUR" in amount_fact.locator("[data-fact-value]").inner_text()
    assert amount_fact.locator('[data-decision="edit_accept"]').count() == 1
    sha = amount.source_chunk.document.sha256
    assert sha in amount_fact.inner_text()
    disputed = page.locator('[data-fact][data-fact-type="reminder_received"]')
    assert "Schuldner bestreitet den Einwurf" in disputed.inner_text()
    screenshot(page, "facts")

    amount_fact.locator("[data-page-link]").first.click()
    # the viewer marks the quote's words and leads back to the facts
    page.wait_for_url(re.compile(rf"\?chunk={amount.source_chunk_id}&quote="))
    assert page.locator("[data-highlight]").count() >= 1
    assert page.locator("[data-quote-box]").count() >= 1
    page.locator("[data-back]").click()
    page.wait_for_selector('[data-fact][data-fact-type="claim_amount"]')


def test_curator_makes_a_term_a_subclass_and_sees_the_new_version(
    page: Any, login: Any, screenshot: Any, case: Any, curator: Any
) -> None:
    from tests.review.helpers import make_term

    make_term(case, label="Inkassoschreiben")
    login(page, curator)
    page.goto(reverse("review:terms"))
    term = page.locator("[data-term]").first
    assert "Inkassoschreiben" in term.inner_text()
    term.locator('input[value="subclass"]').check()
    term.locator('select[name="concept"]').select_option(
        "https://belegt.example/ns/core#PaymentReminder"
    )
    term.locator("button").click()
    page.wait_for_selector("[data-extension-turtle]", state="attached")
    assert "Inkassoschreiben" in (
        page.locator("[data-extension-turtle]").text_content() or ""
    )
    screenshot(page, "terms")
