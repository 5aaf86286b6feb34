"""The page viewer (issue 14 item 6): the quote's words are marked, not whole
lines; zoom and a full-width view; a way back to where the user came from that
nothing in the URL can point off the site; the manual-fact panel is offered
for a chunk of the page."""

from __future__ import annotations

import re
from typing import Any

import pymupdf
import pytest
from django.urls import reverse

from evidence.models import Chunk, Page
from evidence.viewer import (
    BACK_TARGETS,
    ViewerState,
    back_link,
    back_target,
    page_line_char_boxes,
    quote_boxes_on_page,
    quote_word_boxes,
    viewer_url,
)
from tests.evidence import pdfs
from tests.evidence.search_helpers import ingest

pytestmark = pytest.mark.django_db
QUOTE = "05.05.2026"


@pytest.fixture
def letter(case: Any) -> Any:
    return ingest(case, pdfs.dunning_letter(), "mahnung.pdf")


def _chunk_with(letter: Any, text: str) -> Chunk:
    return next(c for c in Chunk.objects.filter(document=letter) if text in c.text)


def _rects(html: str, marker: str) -> list[tuple[float, float, float, float]]:
    found = re.findall(
        rf'<rect class="[^"]*" {marker} x="([\d.]+)" y="([\d.]+)" '
        rf'width="([\d.]+)" height="([\d.]+)"',
        html,
    )
    return [tuple(float(v) for v in row) for row in found]  # type: ignore[misc]


def test_a_short_quote_is_marked_on_its_words_not_on_the_whole_line(
    letter: Any,
) -> None:
    page = Page.objects.get(document=letter, number=1)
    chunk = _chunk_with(letter, QUOTE)
    [box] = quote_boxes_on_page(chunk=chunk, page=page, quote=QUOTE)
    # where PyMuPDF itself finds the date on the page
    with pymupdf.open(stream=pdfs.dunning_letter(), filetype="pdf") as pdf:
        [hit] = pdf[0].search_for(QUOTE)
    assert box.left == pytest.approx(100 * hit.x0 / page.width, abs=0.3)
    assert box.width == pytest.approx(100 * (hit.x1 - hit.x0) / page.width, abs=0.3)
    line = next(
        line
        for block in page.blocks
        for line in block["lines"]
        if QUOTE in page.text[line["start"] : line["end"]]
    )
    line_width = 100 * (line["bbox"][2] - line["bbox"][0]) / page.width
    assert box.width < line_width / 3  # a date, not the line it stands in


def test_word_geometry_agrees_with_the_stored_lines(letter: Any) -> None:
    page = Page.objects.get(document=letter, number=1)
    per_line = page_line_char_boxes(document=letter, page=page)
    assert per_line is not None
    stored = [line for block in page.blocks for line in block["lines"]]
    assert [len(b) for b in per_line] == [ln["end"] - ln["start"] for ln in stored]


def test_without_the_pdf_the_quote_falls_back_to_proportional_line_cuts(
    letter: Any, settings: Any, tmp_path: Any
) -> None:
    page = Page.objects.get(document=letter, number=1)
    page.ocr = True  # an OCR page: the PDF has no text to measure
    start = page.text.index(QUOTE)
    boxes = quote_word_boxes(
        document=letter, page=page, start=start, end=start + len(QUOTE)
    )
    assert len(boxes) == 1
    assert boxes[0].width > 0


def test_the_viewer_draws_the_quote_boxes_from_the_url(
    lawyer_client: Any, case: Any, letter: Any
) -> None:
    chunk = _chunk_with(letter, QUOTE)
    url = viewer_url(
        case_id=case.pk,
        document_id=letter.pk,
        number=1,
        chunk_id=chunk.pk,
        quote=QUOTE,
    )
    html = lawyer_client.get(url).content.decode()
    assert len(_rects(html, "data-quote-box")) == 1
    assert "data-viewer-quote" in html
    missing = lawyer_client.get(
        viewer_url(
            case_id=case.pk,
            document_id=letter.pk,
            number=1,
            chunk_id=chunk.pk,
            quote="steht nirgends",
        )
    ).content.decode()
    assert "data-quote-box" not in missing
    assert "pageview__quote--missing" in missing


@pytest.mark.parametrize(("zoom", "render"), [("", "1.5"), ("2.0", "2.0")])
def test_zoom_renders_and_sizes_the_page(
    lawyer_client: Any, case: Any, letter: Any, zoom: str, render: str
) -> None:
    page = Page.objects.get(document=letter, number=1)
    width = round(page.width * float(render))
    url = viewer_url(case_id=case.pk, document_id=letter.pk, number=1)
    html = lawyer_client.get(url + (f"?zoom={zoom}" if zoom else "")).content.decode()
    assert f'image.png?zoom={render}"' in html
    img = re.search(r'<img src="[^"]*image.png[^>]*>', html)
    assert img is not None
    assert f'width="{width}"' in img.group(0), img.group(0)
    assert ("pageview__scroll--fit" in html) == (zoom == "")
    assert html.count("pageview__zoombtn") >= 5


def test_full_width_view_is_a_link_that_keeps_the_other_parameters(
    lawyer_client: Any, case: Any, letter: Any
) -> None:
    chunk = _chunk_with(letter, QUOTE)
    state = ViewerState(chunk_id=chunk.pk, quote=QUOTE, zoom="1.5")
    wide = state.url(case_id=case.pk, document_id=letter.pk, number=1, wide=True)
    assert f"chunk={chunk.pk}" in wide and "quote=" in wide and "wide=1" in wide
    html = lawyer_client.get(wide).content.decode()
    assert "pageview--wide" in html
    assert 'data-wide-toggle aria-pressed="true"' in html


def test_back_leads_to_the_fact_or_proposal_the_user_came_from(
    case: Any,
) -> None:
    fact_url = reverse("review:fact_detail", kwargs={"fact_id": 7})
    assert back_link(fact_url, query="", case_id=case.pk).label == str(
        BACK_TARGETS["review:fact_detail"]
    )
    proposal = reverse("review:proposal_detail", kwargs={"proposal_id": 3})
    assert back_link(proposal, query="", case_id=case.pk).url == proposal
    search = back_link("", query="Mahnung", case_id=case.pk)
    assert search.url.endswith("?q=Mahnung")


@pytest.mark.parametrize(
    "hostile",
    [
        "https://evil.example/review/facts/1/",
        "//evil.example/review/facts/1/",
        "/\\evil.example",
        "javascript:alert(1)",
        "/cases/",  # a page of the site, but not one the viewer leads back to
        "/no/such/page/",
        "/review/facts/1/\x00",
    ],
)
def test_back_never_leads_off_the_site_or_anywhere_unlisted(hostile: str) -> None:
    assert back_target(hostile) == ""
    state = ViewerState.from_params({"back": hostile}, chunk_id=None)
    assert state.back == ""


def test_the_viewer_offers_the_manual_fact_panel_for_a_chunk_of_the_page(
    lawyer_client: Any, case: Any, letter: Any
) -> None:
    url = viewer_url(case_id=case.pk, document_id=letter.pk, number=1)
    html = lawyer_client.get(url).content.decode()
    first = Chunk.objects.filter(document=letter).order_by("ordinal").first()
    assert first is not None
    panel = reverse("review:manual_fact", kwargs={"case_id": case.pk})
    assert f'hx-get="{panel}?chunk={first.pk}"' in html
    assert "js/pageviewer.js" in html


def test_another_firm_cannot_open_the_viewer_with_a_back_link(
    other_client: Any, case: Any, letter: Any
) -> None:
    url = viewer_url(
        case_id=case.pk,
        document_id=letter.pk,
        number=1,
        back=reverse("review:case_facts", kwargs={"case_id": case.pk}),
    )
    assert other_client.get(url).status_code == 404


@pytest.mark.parametrize(
    "params",
    [
        {"quote": "\u202e\ufeff", "back": "/%00", "zoom": "inf", "wide": "x"},
        {"quote": "ü" * 5000, "back": "/" * 3000, "zoom": "-1"},
        {"quote": "   ", "chunk": "999999999", "zoom": "1e309"},
    ],
)
def test_odd_viewer_parameters_never_answer_500(
    lawyer_client: Any, case: Any, letter: Any, params: dict[str, str]
) -> None:
    url = viewer_url(case_id=case.pk, document_id=letter.pk, number=1)
    response = lawyer_client.get(url, params)
    assert response.status_code == 200
    assert "data-quote-box" not in response.content.decode()
