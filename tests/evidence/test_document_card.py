"""A document in the Documents tab: its name opens page 1 in the viewer, a
page-1 thumbnail, and the original bytes as a download (never rendered
inline; another firm's document is 404)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.evidence.pdfs import document_storage, ingested_document  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("document_storage")]


def _bytes(response: Any) -> bytes:
    return b"".join(response.streaming_content)


def test_download_gives_the_original_bytes_as_an_attachment(
    case: Any, lawyer_client: Any
) -> None:
    document = ingested_document(case)
    url = reverse(
        "evidence:document_download",
        kwargs={"case_id": case.pk, "document_id": document.pk},
    )
    response = lawyer_client.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    assert "mahnung.pdf" in response["Content-Disposition"]
    assert response["Content-Type"] == "application/octet-stream"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "sandbox" in response["Content-Security-Policy"]
    from evidence.storage import sha256_hex

    assert sha256_hex(_bytes(response)) == document.sha256


def test_other_firm_cannot_download_a_document(case: Any, other_client: Any) -> None:
    document = ingested_document(case)
    url = reverse(
        "evidence:document_download",
        kwargs={"case_id": case.pk, "document_id": document.pk},
    )
    assert other_client.get(url).status_code == 404


def test_document_card_links_name_to_the_viewer_shows_thumbnail_and_download(
    case: Any, lawyer_client: Any
) -> None:
    document = ingested_document(case)
    response = lawyer_client.get(
        reverse("evidence:case_documents", kwargs={"case_id": case.pk})
    )
    html = response.content.decode()
    viewer = reverse(
        "evidence:page_view",
        kwargs={"case_id": case.pk, "document_id": document.pk, "number": 1},
    )
    assert f'<a class="doc__name" href="{viewer}" data-open-document>' in html
    thumb = reverse(
        "evidence:page_image",
        kwargs={"case_id": case.pk, "document_id": document.pk, "number": 1},
    )
    assert f'src="{thumb}?zoom=1"' in html
    download = reverse(
        "evidence:document_download",
        kwargs={"case_id": case.pk, "document_id": document.pk},
    )
    assert f'href="{download}"' in html
