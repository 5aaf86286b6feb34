"""The review tab is a desk: at 1440×900 and at 1280×720 the quote, the
highlighted page image and the accept button are on screen together, without
scrolling, on a realistic case (parties, a claim, a description, many
proposals). Screenshots of both sizes go to test-artifacts/."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from cases.models import Party
from evidence.models import Chunk
from review.services.proposals import proposal_create
from tests.browser.conftest import browser_test
from tests.evidence.pdfs import document_storage, ingested_document  # noqa: F401
from tests.factories import ClaimFactory, PartyFactory

pytestmark = browser_test

QUOTE = "Rechnungsbetrag von 4.250,00 EUR"


def _realistic_case(case: Any) -> Any:
    case.description = (
        "Forderung aus Werkvertrag; der Schuldner zahlt trotz Mahnung nicht.\n"
        "Mandant wünscht Bericht bis Monatsende."
    )
    case.save(update_fields=["description"])
    PartyFactory(case=case, name="Müller GmbH", role=Party.Role.CREDITOR)
    PartyFactory(case=case, name="Schmidt KG", role=Party.Role.DEBTOR)
    ClaimFactory(case=case)
    ingested_document(case)
    chunk = next(
        c
        for c in Chunk.objects.filter(case=case).order_by("ordinal")
        if QUOTE in " ".join(c.text.split())
    )
    first = None
    for n in range(12):
        proposal = proposal_create(
            case=case,
            fact_type="claim_amount",
            value={"cents": 425000 + n, "currency": "EUR"},
            source_chunk=chunk,
            quote=QUOTE,
            confidence=0.8,
            call_id=f"desk-{n}",
            agent_run_id=41,
            agent_step_id=n,
            model_id="rules:browser",
        )
        first = first or proposal
    return first


def _inside(box: dict[str, float] | None, width: int, height: int) -> bool:
    assert box is not None
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= width + 0.5
        and box["y"] + box["height"] <= height + 0.5
    )


@pytest.mark.usefixtures("document_storage")
@pytest.mark.parametrize("size", [(1440, 900), (1280, 720)])
def test_quote_highlighted_page_and_accept_button_fit_the_viewport(
    page: Any,
    login: Any,
    case: Any,
    reviewer: Any,
    size: tuple[int, int],
) -> None:
    from tests.browser.conftest import ARTIFACTS

    width, height = size
    first = _realistic_case(case)
    page.set_viewport_size({"width": width, "height": height})
    login(page, reviewer)
    page.goto(reverse("review:case_review", kwargs={"case_id": case.pk}))
    page.wait_for_selector(f'#rq-detail [data-proposal-id="{first.pk}"]')
    page.wait_for_function(
        "() => { const i = document.querySelector('#rq-detail img');"
        " return i && i.complete && i.naturalWidth > 0; }"
    )
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"review-desk-{width}x{height}.png"))

    quote = page.locator("#rq-detail [data-quote]")
    highlight = page.locator("#rq-detail [data-quote-box]").first
    sheet = page.locator("#rq-detail .rq-sheet__viewport")
    accept = page.locator('#rq-detail button[data-key="a"]')
    for name, locator in (
        ("quote", quote),
        ("highlight on the page", highlight),
        ("page image", sheet),
        ("accept button", accept),
    ):
        assert _inside(locator.bounding_box(), width, height), (
            f"{name} is outside the {width}×{height} viewport: {locator.bounding_box()}"
        )
    # Nothing had to be scrolled for it.
    assert page.evaluate("() => window.scrollY") == 0


@pytest.mark.usefixtures("document_storage")
def test_reviewer_undoes_a_decision_with_u_and_bulk_accepts_with_shift_a(
    page: Any, login: Any, screenshot: Any, case: Any, reviewer: Any
) -> None:
    from review.models import ExtractionProposal

    first = _realistic_case(case)
    login(page, reviewer)
    page.goto(reverse("review:case_review", kwargs={"case_id": case.pk}))
    page.wait_for_selector(f'#rq-detail [data-proposal-id="{first.pk}"]')

    page.keyboard.press("a")
    page.wait_for_selector("#rq-detail [data-undo]")
    first.refresh_from_db()
    assert first.status == "accepted"
    screenshot(page, "after-accept")
    page.keyboard.press("u")
    page.wait_for_selector(f'#rq-detail [data-proposal-id="{first.pk}"]')
    assert "rückgängig" in page.locator(".messages").inner_text()
    first.refresh_from_db()
    assert first.status == "pending"

    page.keyboard.press("x")
    page.keyboard.press("j")
    page.wait_for_function(
        "() => document.querySelectorAll('[data-review-row][aria-current]').length"
        " === 1 && !document.querySelector('#rq-rows li:first-child[aria-current]')"
    )
    page.keyboard.press("x")
    # the undo's message may still stand: wait for the bulk answer's own
    before = page.locator(".messages").inner_text()
    page.keyboard.press("Shift+A")
    page.wait_for_function(
        "(before) => { const m = document.querySelector('.messages');"
        " return m && m.innerText !== before"
        " && m.querySelector('.message--success') !== null; }",
        arg=before,
    )
    assert ExtractionProposal.objects.filter(case=case, status="accepted").count() == 2
    screenshot(page, "after-bulk")
