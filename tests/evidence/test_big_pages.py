"""A 14,400-pt page (the largest a PDF allows) neither exhausts memory nor
answers 500: the viewer scales the image down to the pixel cap, shows a
placeholder if MuPDF still refuses, renders a bounded number of pages at once,
and ingestion reports such a scan as too large for OCR (permanent), not as
"OCR not available" (retryable)."""

from __future__ import annotations

import math
import threading
import time
from typing import Any

import pymupdf
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from evidence import viewer
from evidence.extraction import PageTooLarge, ocr_dpi
from evidence.models import DocumentIngestion
from evidence.services.ingest import documents_upload, source_document_ingest
from evidence.viewer import page_cache_clear, page_image_png
from tests.evidence.pdfs import document_storage  # noqa: F401
from tests.evidence.search_helpers import ingest

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("document_storage")]

fitz: Any = pymupdf
HUGE = 14400.0
CAP = 40_000_000


def huge_text_page() -> bytes:
    doc = fitz.open()
    page = doc.new_page(width=HUGE, height=HUGE)
    page.insert_text((200, 400), "Riesige Seite mit Mahnung", fontsize=200)
    return bytes(doc.tobytes())


def huge_scan() -> bytes:
    """A page of 14,400 pt with only an image on it: it needs OCR."""
    pixmap = fitz.Pixmap(fitz.csRGB, fitz.IRect(0, 0, 64, 64), False)
    pixmap.set_rect(pixmap.irect, (200, 200, 200))
    doc = fitz.open()
    page = doc.new_page(width=HUGE, height=HUGE)
    page.insert_image(page.rect, stream=pixmap.tobytes("png"))
    return bytes(doc.tobytes())


def _size(png: bytes) -> tuple[int, int]:
    pixmap = fitz.Pixmap(png)
    return pixmap.width, pixmap.height


@pytest.fixture
def huge(case):
    return ingest(case, huge_text_page(), "plakat.pdf")


def _image_url(case, document, zoom="1.5") -> str:
    url = reverse(
        "evidence:page_image",
        kwargs={"case_id": case.pk, "document_id": document.pk, "number": 1},
    )
    return f"{url}?zoom={zoom}"


def test_huge_page_renders_at_the_default_zoom_within_the_pixel_cap(
    lawyer_client, case, huge
):
    response = lawyer_client.get(_image_url(case, huge))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    width, height = _size(response.content)
    assert width * height <= CAP
    assert width == height and width > 5000  # scaled, not a thumbnail


def test_huge_page_api_image_is_capped_too(lawyer, case, huge):
    client = APIClient()
    client.force_authenticate(lawyer)
    url = reverse(
        "evidence-api:page-image",
        kwargs={"case_id": case.pk, "document_id": huge.pk, "number": 1},
    )
    response = client.get(url, {"zoom": "3.0"})
    assert response.status_code == 200
    width, height = _size(response.content)
    assert width * height <= CAP


def test_a_normal_page_keeps_its_zoom(settings):
    assert viewer.render_scale(width=595, height=842, zoom=1.5) == 1.5
    settings.BELEGT_MAX_RENDER_PIXELS = 1000
    scale = viewer.render_scale(width=100, height=100, zoom=1.0)
    assert 0.3 < scale < 0.317
    assert math.ceil(100 * scale) ** 2 <= 1000


def test_unrenderable_page_answers_a_placeholder_not_500(
    lawyer_client, case, huge, monkeypatch
):
    original = fitz.Page.get_pixmap

    def refuse(self, *args, **kwargs):
        if "matrix" in kwargs:  # the page render, not the placeholder's
            raise RuntimeError("code=5: Overly large image")  # as FzErrorLimit
        return original(self, *args, **kwargs)

    page_cache_clear(sha256=huge.sha256)
    monkeypatch.setattr(fitz.Page, "get_pixmap", refuse)
    response = lawyer_client.get(_image_url(case, huge))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    monkeypatch.undo()
    text = fitz.open(
        stream=fitz.open("png", response.content).convert_to_pdf(), filetype="pdf"
    )
    assert text.page_count == 1
    # Not cached: once MuPDF can render it, the real image is served.
    assert not list(viewer.page_cache_dir(huge.sha256).glob("1@150.png"))


def test_renders_are_bounded_per_process(case, huge, settings, monkeypatch):
    settings.BELEGT_MAX_CONCURRENT_RENDERS = 2
    active = peak = 0
    lock = threading.Lock()
    original = viewer._render

    def slow_render(*args, **kwargs):
        nonlocal active, peak
        with lock:
            active += 1
            peak = max(peak, active)
        time.sleep(0.3)
        try:
            return original(*args, **kwargs)
        finally:
            with lock:
                active -= 1

    monkeypatch.setattr(viewer, "_render", slow_render)
    settings.BELEGT_MAX_RENDER_PIXELS = 10_000  # small images: the test is fast
    page_cache_clear(sha256=huge.sha256)
    errors: list[BaseException] = []

    def render(zoom: float) -> None:
        try:
            page_image_png(document=huge, number=1, zoom=zoom)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=render, args=(z,)) for z in viewer.ZOOMS * 2]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert peak == 2


def test_a_request_without_a_free_render_slot_gets_503(
    lawyer_client, lawyer, case, huge, settings, monkeypatch
):
    settings.BELEGT_MAX_CONCURRENT_RENDERS = 1
    monkeypatch.setattr(viewer, "RENDER_SLOT_WAIT", 0.05)
    page_cache_clear(sha256=huge.sha256)
    slots = viewer.render_slots()
    assert slots.acquire(timeout=1)
    try:
        page = lawyer_client.get(_image_url(case, huge))
        client = APIClient()
        client.force_authenticate(lawyer)
        api = client.get(
            reverse(
                "evidence-api:page-image",
                kwargs={"case_id": case.pk, "document_id": huge.pk, "number": 1},
            )
        )
    finally:
        slots.release()
    assert page.status_code == 503 and page["Retry-After"]
    assert api.status_code == 503 and api.json()["code"] == "render_busy"


def test_ocr_resolution_is_scaled_to_the_cap_or_refused():
    assert ocr_dpi(width=595, height=842, number=1) == 300
    # A0 (2384 x 3370 pt) at 300 dpi would be 139 Mpx: scaled down.
    a0 = ocr_dpi(width=2384, height=3370, number=1)
    assert 100 <= a0 < 300
    assert (2384 / 72 * a0) * (3370 / 72 * a0) <= CAP
    with pytest.raises(PageTooLarge) as refused:
        ocr_dpi(width=HUGE, height=HUGE, number=3)
    assert refused.value.code == "page_too_large" and not refused.value.retryable
    assert "3" in refused.value.message and "508" in refused.value.message


def test_huge_scan_fails_ingestion_as_too_large_not_as_ocr_unavailable(case):
    upload = SimpleUploadedFile("plakat.pdf", huge_scan(), "application/pdf")
    (outcome,) = documents_upload(
        actor=None, case=case, uploads=[upload], dispatch=False
    )
    assert outcome.document is not None, outcome.message
    ingestion = source_document_ingest(document=outcome.document)
    assert ingestion.stage == DocumentIngestion.Stage.FAILED
    assert ingestion.error_code == "page_too_large", ingestion.error_message
    assert "zu groß" in ingestion.error_message or "too large" in (
        ingestion.error_message
    )
