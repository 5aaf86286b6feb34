"""An upload larger than the request limit is refused with 413 on its declared
Content-Length, before a byte of the body is read or spooled to disk, on every
upload route (the Documents page, with and without htmx, and the API)."""

from __future__ import annotations

import io

import pytest
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart
from django.urls import reverse

from evidence.models import SourceDocument, UploadRefusal
from tests.evidence import pdfs
from tests.evidence.pdfs import as_upload, document_storage  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("document_storage")]

ONE_GIB = 1024**3


class CountingInput(io.BytesIO):
    """A WSGI body that counts what the server read from it."""

    bytes_read = 0

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        self.bytes_read += len(data)
        return data

    def readline(self, size: int | None = -1) -> bytes:
        data = super().readline(size)
        self.bytes_read += len(data)
        return data


def _page_url(case) -> str:
    return reverse("evidence:case_documents", kwargs={"case_id": case.pk})


def _api_url(case) -> str:
    return reverse("evidence-api:case-documents", kwargs={"case_id": case.pk})


def _post_claiming(client, url: str, declared: int, **extra):
    body = encode_multipart(
        BOUNDARY, {"files": [as_upload("gross.pdf", pdfs.dunning_letter())]}
    )
    stream = CountingInput(body)
    response = client.generic(
        "POST",
        url,
        CONTENT_TYPE=MULTIPART_CONTENT,
        CONTENT_LENGTH=str(declared),
        **{"wsgi.input": stream},
        **extra,
    )
    return response, stream


@pytest.mark.parametrize(
    ("route", "extra"),
    [
        ("page", {}),
        ("page", {"HTTP_HX_REQUEST": "true"}),
        ("api", {}),
    ],
)
def test_a_body_claiming_one_gib_is_refused_before_it_is_read(
    lawyer_client, case, route, extra
):
    url = _page_url(case) if route == "page" else _api_url(case)
    response, stream = _post_claiming(lawyer_client, url, ONE_GIB, **extra)
    assert response.status_code == 413
    assert stream.bytes_read == 0
    assert not SourceDocument.objects.filter(case=case).exists()
    assert not UploadRefusal.objects.filter(case=case).exists()
    if route == "api":
        body = response.json()
        assert body["code"] == "request_too_large"
        assert "1,0\xa0GB" in body["message"] and body["limit_bytes"] > 0
    else:
        text = response.content.decode()
        assert "zu groß" in text and "Nichts wurde gespeichert" in text


def test_a_body_within_the_limit_is_still_uploaded(lawyer_client, case, settings):
    body = encode_multipart(
        BOUNDARY, {"files": [as_upload("mahnung.pdf", pdfs.dunning_letter())]}
    )
    settings.BELEGT_MAX_REQUEST_BYTES = len(body)
    response, stream = _post_claiming(lawyer_client, _api_url(case), len(body))
    assert response.status_code == 201, response.content
    assert stream.bytes_read > 0  # read as usual (up to the closing boundary)
    assert SourceDocument.objects.filter(case=case).count() == 1


def test_one_byte_over_the_limit_is_refused(lawyer_client, case, settings):
    settings.BELEGT_MAX_REQUEST_BYTES = 1000
    response, stream = _post_claiming(lawyer_client, _api_url(case), 1001)
    assert response.status_code == 413 and stream.bytes_read == 0
