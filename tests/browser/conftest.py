"""Real-browser fixtures: Debian's chromium driven by Playwright's sync API
against pytest-django's ``live_server``.

- ``browser`` (package): one headless chromium for all tests in this folder,
  skipped when /usr/bin/chromium is missing. Package scope, not session: while
  Playwright's sync API runs, its asyncio loop counts as running in this
  thread (``async_to_sync``, ``asyncio.run`` and Django's async-safety checks
  notice), so it must stop before the rest of the suite runs.
- ``page``: a fresh context (own cookies, German locale, 1280×900) per test,
  whose relative URLs resolve against the live server: ``page.goto("/")``.
- ``login(page, user)``: logs in through the real log-in form.
- ``screenshot(page, name)``: saves ``test-artifacts/<test>-<name>.png``.
- ``htmx_settled(page)``: waits until htmx has settled its last swap.

Tests here need ``@pytest.mark.django_db(transaction=True)`` so that the
server thread sees the rows they create; ``browser_test`` marks both.
Database calls while Playwright's loop runs need DJANGO_ALLOW_ASYNC_UNSAFE,
which tests/conftest.py sets.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from tests.conftest import PASSWORD

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
TIMEOUT_MS = 15_000

browser_test = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
        )
        try:
            yield instance
        finally:
            instance.close()


@pytest.fixture
def page(browser: Any, live_server: Any) -> Iterator[Any]:
    context = browser.new_context(
        base_url=live_server.url,
        locale="de-DE",
        viewport={"width": 1280, "height": 900},
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def login() -> Callable[..., None]:
    """``login(page, user)``: fill in and send the log-in form, wait to leave it."""

    def _login(page: Any, user: Any, password: str = PASSWORD) -> None:
        page.goto(reverse("login"))
        page.fill("#id_username", user.get_username())
        page.fill("#id_password", password)
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(re.compile(r"^(?!.*/login/).*$"))

    return _login


@pytest.fixture
def screenshot(request: pytest.FixtureRequest) -> Callable[[Any, str], Path]:
    """``screenshot(page, name)``: a full-page PNG in test-artifacts/."""
    ARTIFACTS.mkdir(exist_ok=True)
    test_name = re.sub(r"[^\w.-]+", "_", request.node.name)

    def _screenshot(page: Any, name: str) -> Path:
        path = ARTIFACTS / f"{test_name}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return _screenshot


#: htmx binds the hx- attributes of swapped-in content only when the swap
#: settles (its settle delay, 20 ms by default): until then the new elements
#: are in the page but inert, and a change event on them is lost.
HTMX_SETTLED = """() => !document.querySelector(
  '.htmx-settling, .htmx-swapping, .htmx-added, .htmx-request')"""


def htmx_settled(page: Any) -> None:
    """Wait until no htmx swap is in flight or settling."""
    page.wait_for_function(HTMX_SETTLED)
