"""Content-Security-Policy and Permissions-Policy on every response, a policy
without 'unsafe-inline'/'unsafe-eval', and no inline style or script left in
the templates (the policy would block it; the browser test in
tests/browser/test_csp_browser.py checks the pages really run under it)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from cases.models import Membership
from tests.test_tenancy import ROUTES, _member, _url_for, firm_b  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "templates"

#: What a template may not contain: an inline <style> block, a style="..."
#: attribute, a <script> without src, an on* event handler, hx-on (htmx runs
#: it through eval), a javascript: URL.
INLINE = {
    "<style> block": re.compile(r"<style\b", re.I),
    "style attribute": re.compile(r"\sstyle\s*=", re.I),
    "inline script": re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.I),
    "event handler attribute": re.compile(r"\son[a-z]+\s*=", re.I),
    "hx-on attribute": re.compile(r"\shx-on", re.I),
    "javascript: URL": re.compile(r"javascript:", re.I),
}


def _directives(header: str) -> dict[str, list[str]]:
    return {
        name: values
        for name, *values in (
            part.split() for part in header.split(";") if part.strip()
        )
    }


def test_no_template_has_inline_style_or_script() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{text[: m.start()].count(chr(10)) + 1}: {kind}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for text in [path.read_text(encoding="utf-8")]
        for kind, pattern in INLINE.items()
        for m in pattern.finditer(text)
    ]
    assert found == [], "move these into static/ files:\n" + "\n".join(found)


def test_the_inline_check_recognises_what_it_forbids() -> None:
    samples = {
        "<style> block": "<style>p{}</style>",
        "style attribute": '<div style="left:1%">',
        "inline script": "<script>alert(1)</script>",
        "event handler attribute": '<a onclick="x()">',
        "hx-on attribute": '<form hx-on::after-request="this.reset()">',
        "javascript: URL": '<a href="javascript:x()">',
    }
    for kind, sample in samples.items():
        assert INLINE[kind].search(sample), kind
    assert not INLINE["inline script"].search('<script src="/s.js" defer></script>')


@pytest.mark.django_db
def test_every_page_and_api_answer_carries_the_csp_and_permissions_policy(
    firm_b: Any,  # noqa: F811 - the fixture imported above
) -> None:
    client = Client()
    client.force_login(_member(firm_b.organisation, Membership.Role.ADMIN))
    checked = 0
    for route in ROUTES:
        url = _url_for(route, firm_b)
        response = client.get(url)
        assert response.status_code < 500, (url, response.status_code)
        header = response.get("Content-Security-Policy", "")
        assert header, f"GET {url} ({route.label}) has no Content-Security-Policy"
        directives = _directives(header)
        for directive in ("script-src", "style-src"):
            values = directives.get(directive, directives["default-src"])
            assert "'unsafe-inline'" not in values and "'unsafe-eval'" not in values
        assert directives["object-src"] == ["'none'"]
        assert "camera=()" in response["Permissions-Policy"]
        checked += 1
    assert checked == len(ROUTES) > 40


@pytest.mark.django_db
def test_api_docs_and_schema_need_a_log_in(lawyer_client: Any) -> None:
    anonymous = Client()
    assert anonymous.get("/api/schema/").status_code == 401
    assert anonymous.get("/api/docs/").status_code == 401
    docs = lawyer_client.get("/api/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "<style" not in html and re.search(r'<script src="[^"]*\?script=', html)
    script = lawyer_client.get("/api/docs/?script=")
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert lawyer_client.get("/api/schema/").status_code == 200
