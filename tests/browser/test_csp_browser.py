"""The UI runs under the Content-Security-Policy: the main pages load in a
real browser with zero CSP violations (console messages and
``securitypolicyviolation`` events), and htmx still works (a tab switch, a
search, the upload form)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from tests.browser.conftest import browser_test, htmx_settled
from tests.evidence import pdfs
from tests.evidence.search_helpers import ingest

pytestmark = browser_test

#: Runs before any page script (injected by the browser, so the policy does
#: not apply to it) and records every violation the page causes.
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline")
                    + " " + (e.sourceFile || "") + ":" + (e.lineNumber || 0));
});
"""


def _violations(page: Any, console: list[str]) -> list[str]:
    recorded: list[str] = page.evaluate("window.__csp || []")
    return recorded + [m for m in console if "Content Security Policy" in m]


def test_main_pages_run_under_the_csp_and_htmx_still_works(
    page: Any, login: Any, lawyer: Any, case: Any, screenshot: Any, tmp_path: Any
) -> None:
    letter = ingest(case, pdfs.dunning_letter(), "mahnung.pdf")
    chunk = letter.chunks.order_by("ordinal").first()
    assert chunk is not None
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    page.add_init_script(RECORD_VIOLATIONS)
    login(page, lawyer)

    urls = [
        reverse("cases:list"),
        reverse("cases:detail", args=[case.pk]),
        reverse("evidence:case_documents", args=[case.pk]),
        reverse("evidence:case_evidence", args=[case.pk]) + "?q=Mahnung",
        reverse(
            "evidence:page_view",
            kwargs={"case_id": case.pk, "document_id": letter.pk, "number": 1},
        )
        + f"?chunk={chunk.pk}&q=Mahnung",
        reverse("review:case_review", args=[case.pk]),
        reverse("review:case_facts", args=[case.pk]),
        reverse("review:queue"),
        reverse("ontology:case_requirements", args=[case.pk]),
        reverse("reports:case_reports", args=[case.pk]),
        reverse("agents:case_runs", args=[case.pk]),
        reverse("cases:audit", args=[case.pk]),
        reverse("citations:check"),
        reverse("api-docs"),
    ]
    seen: dict[str, list[str]] = {}
    for url in urls:
        page.goto(url)
        page.wait_for_load_state("networkidle")
        seen[url] = _violations(page, console)
        console.clear()
    assert {url: v for url, v in seen.items() if v} == {}
    # Swagger UI rendered its operations (its initialiser is a script file).
    assert page.locator(".swagger-ui .opblock").count() > 5

    # The viewer's highlight boxes (SVG, no inline style) lie on the image.
    page.goto(urls[4])
    page.wait_for_load_state("networkidle")
    sheet = page.locator("#page-sheet").bounding_box()
    box = page.locator("#page-sheet [data-highlight]").first.bounding_box()
    assert box["width"] > 5 and box["height"] > 3
    assert sheet["x"] <= box["x"] <= sheet["x"] + sheet["width"]

    # htmx: a tab switch and a search answer in place.
    page.goto(urls[2])
    page.locator("#tab-evidence").click()
    search = page.locator("#evidence-q")
    search.wait_for()
    search.fill("Briefkasten")
    search.press("Enter")
    page.locator("#search-results li.hit").first.wait_for()
    # An upload through the form: htmx posts it on change, the answer is
    # swapped in, and the form resets itself after the request (was hx-on).
    page.locator("#tab-documents").click()
    page.locator("#upload-files").wait_for(state="attached")
    htmx_settled(page)  # else the change event may reach an inert input
    upload = tmp_path / "erinnerung.pdf"
    upload.write_bytes(pdfs.reminder_letter())
    page.set_input_files("#upload-files", files=[str(upload)])
    page.locator('#upload-results [data-outcome="stored"]').wait_for()
    page.wait_for_function("() => document.querySelector('#upload-files').value === ''")
    assert _violations(page, console) == []
    screenshot(page, "documents")
