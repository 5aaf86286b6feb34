"""A lawyer in a real browser: log in, open a case with parties and a claim,
find it again through the live search; switch case tabs with htmx."""

from __future__ import annotations

import re
from typing import Any

from django.urls import reverse

from cases.models import Case
from tests.browser.conftest import browser_test
from tests.factories import CaseFactory

pytestmark = browser_test


def test_lawyer_creates_a_case_with_party_and_claim_and_finds_it_by_search(
    page: Any, login: Any, screenshot: Any, lawyer: Any, firm: Any
) -> None:
    CaseFactory(organisation=firm, reference="1 O 1/26", title="Mietsache Kranich")
    login(page, lawyer)
    assert page.evaluate("typeof htmx") == "object"  # served locally, no CDN
    expect_heading(page, "Akten")
    screenshot(page, "1-list")

    page.get_by_role("link", name="Neue Akte").first.click()
    page.wait_for_url(re.compile(r"/cases/new/$"))
    page.fill("#id_reference", "8 O 77/26")
    page.fill("#id_title", "Falke GmbH ./. Reiher KG")
    page.fill("#id_client", "Falke GmbH")
    page.select_option("#id_parties-0-role", "creditor")
    page.select_option("#id_parties-0-kind", "business")
    page.fill("#id_parties-0-name", "Falke GmbH")
    # A second party row comes from the server through htmx.
    page.get_by_role("link", name="Partei hinzufügen").click()
    page.locator("#id_parties-1-name").wait_for()
    assert page.input_value("#id_parties-TOTAL_FORMS") == "2"
    page.select_option("#id_parties-1-role", "debtor")
    page.select_option("#id_parties-1-kind", "consumer")
    page.fill("#id_parties-1-name", "Rita Reiher")
    page.fill("#id_parties-1-address", "Seeweg 4, 24103 Kiel")
    page.select_option("#id_claims-0-claim_type", "verzugsschaden")
    page.fill("#id_claims-0-valid_at", "2026-04-26")
    screenshot(page, "2-form")
    page.get_by_role("button", name="Akte anlegen").click()

    page.wait_for_url(re.compile(r"/cases/\d+/documents/$"))
    header = page.locator(".case-header")
    assert "8 O 77/26" in header.inner_text()
    assert "Rita Reiher" in header.inner_text()
    assert "Verzugsschaden" in header.inner_text()
    assert "Akte 8 O 77/26 angelegt." in page.locator(".messages").inner_text()
    screenshot(page, "3-case")
    case = Case.objects.get(reference="8 O 77/26")
    assert case.parties.count() == 2 and case.claims.count() == 1

    page.get_by_role("navigation", name="Hauptnavigation").get_by_role(
        "link", name="Akten"
    ).click()
    page.wait_for_url(re.compile(r"/$"))
    assert page.locator("#case-results tbody tr").count() == 2
    page.fill("#id_q", "Reiher")  # a party's name, typed: htmx live search
    rows = page.locator("#case-results tbody tr")
    rows.filter(has_text="8 O 77/26").wait_for()
    page.wait_for_function(
        "() => document.querySelectorAll('#case-results tbody tr').length === 1"
    )
    assert "Mietsache Kranich" not in page.locator("#case-results").inner_text()
    assert "q=Reiher" in page.url  # the search is in the address bar
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    screenshot(page, "4-search")
    page.select_option("#id_status", "closed")  # the filter narrows it to none
    page.locator("#case-results .empty").wait_for()
    assert "status=closed" in page.url
    page.select_option("#id_status", "")
    rows.filter(has_text="8 O 77/26").wait_for()
    rows.first.get_by_role("link", name="8 O 77/26").click()
    page.wait_for_url(re.compile(rf"/cases/{case.pk}/documents/$"))


def test_case_tabs_switch_with_htmx_and_keep_the_address_in_sync(
    page: Any, login: Any, screenshot: Any, lawyer: Any, firm: Any
) -> None:
    CaseFactory(organisation=firm, reference="5 O 9/26")
    case = Case.objects.get(reference="5 O 9/26")
    login(page, lawyer)
    page.goto(reverse("cases:detail", args=[case.pk]))
    documents = reverse("evidence:case_documents", args=[case.pk])
    page.wait_for_url(f"**{documents}")
    page.evaluate("window.__sameDocument = true")  # gone after a full load
    nav = page.get_by_role("navigation", name="Bereiche der Akte")
    nav.get_by_role("link", name="Berichte").click()
    page.wait_for_url(f"**{reverse('reports:case_reports', args=[case.pk])}")
    page.locator("#tab-content[aria-labelledby=tab-reports]").wait_for()
    assert page.evaluate("window.__sameDocument") is True
    assert nav.locator("[aria-current=page]").inner_text() == "Berichte"
    assert "Berichte" in page.title() and "5 O 9/26" in page.title()
    assert page.locator(".case-header").count() == 1
    screenshot(page, "reports-tab")
    page.go_back()
    page.wait_for_url(f"**{documents}")
    page.locator("#tab-content[aria-labelledby=tab-documents]").wait_for()
    assert nav.locator("[aria-current=page]").inner_text() == "Dokumente"


def expect_heading(page: Any, text: str) -> None:
    heading = page.get_by_role("heading", level=1)
    heading.wait_for()
    assert heading.inner_text() == text


def test_language_switch_turns_the_page_english(
    page: Any, login: Any, lawyer: Any
) -> None:
    login(page, lawyer)
    expect_heading(page, "Akten")
    page.locator(".lang-switch button[value=en]").click()
    page.wait_for_load_state()
    expect_heading(page, "Cases")
    assert page.locator("html").get_attribute("lang") == "en"
