"""A lawyer opens a document from its name, sees its page-1 thumbnail and
downloads the original file (a download, not a page in the browser)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from tests.browser.conftest import browser_test
from tests.evidence.pdfs import document_storage, ingested_document  # noqa: F401

pytestmark = browser_test


@pytest.mark.usefixtures("document_storage")
def test_lawyer_opens_thumbnails_and_downloads_a_document(
    page: Any, login: Any, screenshot: Any, case: Any, lawyer: Any
) -> None:
    document = ingested_document(case)
    login(page, lawyer)
    page.goto(reverse("evidence:case_documents", kwargs={"case_id": case.pk}))
    page.wait_for_function(
        "() => { const i = document.querySelector('[data-thumbnail]');"
        " return i && i.complete && i.naturalWidth > 0; }"
    )
    screenshot(page, "documents")

    with page.expect_download() as info:
        page.locator("[data-download]").first.click()
    download = info.value
    assert download.suggested_filename == "mahnung.pdf"
    assert Path(download.path()).stat().st_size == document.size_bytes

    page.locator("[data-open-document]").first.click()
    page.wait_for_url(re.compile(rf"/documents/{document.pk}/pages/1/"))
