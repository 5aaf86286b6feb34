"""The page viewer: PyMuPDF renders and caches the page, the chunk's boxes are
laid over it, OCR pages show their recognised text; another firm gets 404."""

from __future__ import annotations

import io
import re

import pymupdf
import pytest
from django.urls import reverse

from evidence.models import Chunk, Page
from evidence.search import search_case_evidence
from evidence.viewer import (
    chunk_boxes,
    chunk_text_segments,
    page_cache_clear,
    page_cache_dir,
    page_image_png,
)
from tests.evidence import pdfs
from tests.evidence.search_helpers import ingest

pytestmark = pytest.mark.django_db
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _png_size(png: bytes) -> tuple[int, int]:
    pixmap = pymupdf.Pixmap(io.BytesIO(png).getvalue())
    return pixmap.width, pixmap.height


@pytest.fixture
def letter(case):
    return ingest(case, pdfs.dunning_letter(), "mahnung.pdf")


def _page_url(case, document, number=1, **query):
    url = reverse(
        "evidence:page_view",
        kwargs={"case_id": case.pk, "document_id": document.pk, "number": number},
    )
    if query:
        url += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    return url


def _image_url(case, document, number=1):
    return reverse(
        "evidence:page_image",
        kwargs={"case_id": case.pk, "document_id": document.pk, "number": number},
    )


# --- rendering and cache -----------------------------------------------------------


def test_page_renders_as_png_at_the_requested_zoom_and_is_cached(letter):
    page_cache_clear(sha256=letter.sha256)
    png = page_image_png(document=letter, number=1, zoom=1.0)
    assert png.startswith(PNG_MAGIC)
    assert _png_size(png) == (595, 842)
    assert _png_size(page_image_png(document=letter, number=1, zoom=2.0)) == (
        1190,
        1684,
    )
    cached = page_cache_dir(letter.sha256) / "1@100.png"
    assert cached.read_bytes() == png
    # The second call reads the cache, not the PDF: change the cached file and
    # the change comes back.
    cached.write_bytes(png + b"cache-marker")
    assert page_image_png(document=letter, number=1, zoom=1.0).endswith(b"cache-marker")
    page_cache_clear(sha256=letter.sha256)
    assert not page_cache_dir(letter.sha256).exists()


def test_unknown_zoom_and_page_out_of_range_are_refused(letter):
    with pytest.raises(ValueError):
        page_image_png(document=letter, number=1, zoom=7.0)
    from evidence.viewer import PageNotRenderable

    with pytest.raises(PageNotRenderable):
        page_image_png(document=letter, number=2, zoom=1.0)


def test_chunk_boxes_are_scaled_to_percent_of_the_page(letter):
    chunk = Chunk.objects.filter(document=letter).order_by("ordinal")[0]
    page = Page.objects.get(document=letter, number=1)
    boxes = chunk_boxes(chunk=chunk, page=page)
    span_boxes = [b for s in chunk.spans if s["page"] == 1 for b in s["boxes"]]
    assert len(boxes) == len(span_boxes) > 0
    x0, y0, x1, y1 = span_boxes[0]
    assert boxes[0].left == pytest.approx(100 * x0 / page.width)
    assert boxes[0].top == pytest.approx(100 * y0 / page.height)
    assert boxes[0].width == pytest.approx(100 * (x1 - x0) / page.width)
    assert all(0 <= b.left <= 100 and 0 <= b.top <= 100 for b in boxes)


def test_text_segments_mark_exactly_the_chunk(letter):
    chunk = Chunk.objects.filter(document=letter).order_by("-ordinal")[0]
    page = Page.objects.get(document=letter, number=1)
    segments = chunk_text_segments(chunk=chunk, page=page)
    assert "".join(s["text"] for s in segments) == page.text
    span = chunk.spans[0]
    marked = "".join(s["text"] for s in segments if s["marked"])
    assert marked == page.text[span["start"] : span["end"]]


# --- views -------------------------------------------------------------------------


def test_page_view_lays_the_chunk_boxes_over_the_image(lawyer_client, case, letter):
    hit = search_case_evidence(case=case, query="Bote Briefkasten", k=1)[0]
    response = lawyer_client.get(hit.url)
    assert response.status_code == 200
    html = response.content.decode()
    # German locale must not turn the zoom into "1,5" (the image would 404)
    assert f'{_image_url(case, letter)}?zoom=1.5"' in html
    chunk = Chunk.objects.get(pk=hit.chunk_id)
    box_count = sum(len(s["boxes"]) for s in chunk.spans if s["page"] == 1)
    assert html.count("data-highlight") == box_count > 0
    # Boxes are SVG geometry in percent of the page (no style attribute: CSP).
    assert re.search(
        r'<rect[^>]*x="[\d.]+" y="[\d.]+" width="[\d.]+" height="[\d.]+"', html
    )
    assert "<mark>" in html  # the text layer marks the passage too


def test_page_view_without_chunk_has_no_boxes(lawyer_client, case, letter):
    response = lawyer_client.get(_page_url(case, letter))
    assert response.status_code == 200
    assert "data-highlight" not in response.content.decode()


def test_a_chunk_of_another_document_is_not_highlighted(
    lawyer_client, case, other_case, letter
):
    foreign = ingest(other_case, pdfs.dunning_letter(), "fremd.pdf")
    foreign_chunk = Chunk.objects.filter(document=foreign)[0]
    response = lawyer_client.get(_page_url(case, letter, chunk=foreign_chunk.pk))
    assert response.status_code == 200
    assert "data-highlight" not in response.content.decode()


def test_page_image_view_answers_png(lawyer_client, case, letter):
    response = lawyer_client.get(_image_url(case, letter) + "?zoom=1.0")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert response.content.startswith(PNG_MAGIC)
    assert "private" in response["Cache-Control"]
    bad_zoom = lawyer_client.get(_image_url(case, letter) + "?zoom=9")
    assert bad_zoom.status_code == 404


def test_ocr_page_shows_its_recognised_text_with_the_passage_marked(
    lawyer_client, case
):
    scan = ingest(case, pdfs.image_only(), "scan.pdf")
    page = Page.objects.get(document=scan, number=1)
    assert page.ocr
    hit = search_case_evidence(case=case, query="Mahnung", k=1)[0]
    assert hit.document_id == scan.pk
    html = lawyer_client.get(hit.url).content.decode()
    assert 'class="pageview__textlayer" open' in html
    assert "OCR" in html
    assert re.search(r"<mark>[^<]*\w", html)


def test_page_links_follow_a_passage_onto_the_next_page(lawyer_client, case):
    document = ingest(case, pdfs.letter_with_sentence_across_pages(), "zwei.pdf")
    chunk = Chunk.objects.get(document=document, page_start=1, page_end=2)
    html = lawyer_client.get(_page_url(case, document, chunk=chunk.pk)).content.decode()
    assert _page_url(case, document, 2, chunk=chunk.pk) in html.replace("&amp;", "&")
    page2 = lawyer_client.get(_page_url(case, document, 2, chunk=chunk.pk))
    assert page2.content.decode().count("data-highlight") == len(
        [b for s in chunk.spans if s["page"] == 2 for b in s["boxes"]]
    )


# --- tenancy -------------------------------------------------------------------------


def test_other_firm_gets_404_for_page_and_image(other_client, case, letter):
    assert other_client.get(_page_url(case, letter)).status_code == 404
    assert other_client.get(_image_url(case, letter)).status_code == 404


def test_document_of_another_case_under_own_case_id_is_404(
    lawyer_client, case, firm, letter
):
    from tests.factories import CaseFactory

    second = CaseFactory(organisation=firm, reference="7 C 2/26")
    assert lawyer_client.get(_page_url(second, letter)).status_code == 404
    assert lawyer_client.get(_image_url(second, letter)).status_code == 404


@pytest.mark.parametrize("zoom", ["abc", "9", "nan", ""])
def test_odd_zoom_values_fall_back_to_the_default(lawyer_client, case, letter, zoom):
    response = lawyer_client.get(_page_url(case, letter, zoom=zoom))
    assert response.status_code == 200
    assert "?zoom=1.5" in response.content.decode()
    image = lawyer_client.get(_image_url(case, letter) + f"?zoom={zoom}")
    assert image.status_code == (200 if zoom == "" else 404)


def test_missing_page_is_404(lawyer_client, case, letter):
    assert lawyer_client.get(_page_url(case, letter, 2)).status_code == 404
    assert lawyer_client.get(_image_url(case, letter, 2)).status_code == 404


def test_anonymous_is_sent_to_log_in(client, case, letter):
    response = client.get(_page_url(case, letter))
    assert response.status_code == 302
    assert "/login/" in response["Location"]


# --- lines with the search words ----------------------------------------------------


def _lines_containing(page, chunk, word):
    ranges = [(s["start"], s["end"]) for s in chunk.spans if s["page"] == page.number]
    return [
        line
        for block in page.blocks
        for line in block["lines"]
        if word in page.text[line["start"] : line["end"]]
        and any(line["start"] < e and s < line["end"] for s, e in ranges)
    ]


@pytest.mark.parametrize(
    ("query", "word"),
    [
        ("Briefkasten", "Briefkasten"),
        ("Mahnungen", "Mahnung"),
        ("4.250,00", "4.250,00"),
    ],
)
def test_lines_with_a_search_word_are_found_by_stem_and_verbatim(letter, query, word):
    from evidence.viewer import matching_line_boxes

    page = Page.objects.get(document=letter, number=1)
    chunk = next(c for c in Chunk.objects.filter(document=letter) if word in c.text)
    expected = _lines_containing(page, chunk, word)
    boxes = matching_line_boxes(chunk=chunk, page=page, query=query)
    assert len(boxes) == len(expected) > 0
    x0, y0, _, _ = expected[0]["bbox"]
    assert boxes[0].left == pytest.approx(100 * x0 / page.width)
    assert boxes[0].top == pytest.approx(100 * y0 / page.height)


def test_page_view_marks_the_lines_with_the_search_words(lawyer_client, case, letter):
    hit = search_case_evidence(case=case, query="Briefkasten", k=1)[0]
    html = lawyer_client.get(hit.url + "&q=Briefkasten").content.decode()
    assert html.count("data-match") == 1
    without_query = lawyer_client.get(hit.url).content.decode()
    assert "data-match" not in without_query


def test_erasing_the_case_removes_its_rendered_page_images(case, letter):
    from evidence.services.erasure import case_erase

    page_image_png(document=letter, number=1, zoom=1.0)
    assert page_cache_dir(letter.sha256).exists()
    case_erase(actor=None, case=case)
    assert not page_cache_dir(letter.sha256).exists()
