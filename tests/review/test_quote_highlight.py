"""A quote the gate accepts is the quote the reviewer sees marked: the gate,
the page highlight and the page look-up use one matcher. Regression: a PDF
text layer with a soft hyphen ("zahl\\u00adbar") let the gate accept
"zahlbar" while the highlight found nothing and the page fell back to both."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from django.urls import reverse

from evidence.models import Chunk, Page, SourceDocument
from evidence.selectors import quote_pages
from review.models import ExtractionProposal
from review.selectors import chunk_highlight
from tests.agents.helpers import fact, run_scripted

pytestmark = pytest.mark.django_db

PAGE_1 = "Leipzig, 08.05.2026\n1. Mahnung\n\nSehr geehrter Herr Schmidt,"
PAGE_2 = "unsere Rechnung war zahl\u00adbar bis zum 26.04.2026.\nMahnkosten 5,00 €"
QUOTE = "unsere Rechnung war zahlbar bis zum 26.04.2026."  # no soft hyphen


def _lines(text: str, top: float) -> list[dict[str, Any]]:
    """One block per text line, 20 pt apart, 6 pt per character."""
    blocks, offset = [], 0
    for index, line in enumerate(text.split("\n")):
        start, end = offset, offset + len(line)
        box = [72.0, top + 20 * index, 72.0 + 6 * len(line), top + 20 * index + 12]
        blocks.append(
            {
                "bbox": box,
                "start": start,
                "end": end,
                "lines": [{"bbox": box, "start": start, "end": end}],
            }
        )
        offset = end + 1
    return blocks


def _two_page_chunk(case: Any) -> Chunk:
    document = SourceDocument.objects.create(
        case=case,
        sha256=hashlib.sha256(f"{case.pk}-softhyphen".encode()).hexdigest(),
        filename="mahnung.pdf",
        size_bytes=1000,
        page_count=2,
        storage_name="test/softhyphen.pdf",
    )
    for number, text in ((1, PAGE_1), (2, PAGE_2)):
        Page.objects.create(
            document=document,
            number=number,
            width=600,
            height=800,
            text=text,
            blocks=_lines(text, 100),
        )
    second = PAGE_2.index("\nMahnkosten")
    return Chunk.objects.create(
        case=case,
        document=document,
        ordinal=0,
        page_start=1,
        page_end=2,
        text=PAGE_1 + "\n\n" + PAGE_2[:second],
        spans=[
            {"page": 1, "start": 0, "end": len(PAGE_1), "boxes": []},
            {"page": 2, "start": 0, "end": second, "boxes": []},
        ],
    )


def test_quote_the_gate_accepts_across_a_soft_hyphen_is_highlighted_on_its_page(
    case: Any, lawyer: Any, reviewer_client: Any
) -> None:
    chunk = _two_page_chunk(case)
    run_scripted(
        case=case,
        actor=lawyer,
        turns=[[("propose_case_fact", fact(chunk, quote=QUOTE))]],
    )
    [proposal] = ExtractionProposal.objects.filter(case=case)  # the gate accepted

    highlight = chunk_highlight(chunk=chunk, quote=proposal.quote)
    assert highlight.page is not None and highlight.page.number == 2
    assert highlight.quote_found
    [box] = highlight.quote_boxes  # the first line of page 2, up to "2026."
    assert (box.left, box.top) == (12.0, 12.5)
    assert box.width == pytest.approx(100 * 6 * len(PAGE_2.split("\n")[0]) / 600)
    assert quote_pages(chunk=chunk, quote=proposal.quote) == [2]

    response = reviewer_client.get(
        reverse("review:proposal_detail", kwargs={"proposal_id": proposal.pk}),
        HTTP_HX_REQUEST="true",
    )
    assert response.content.decode().count("data-quote-box") == 1


def test_quote_across_the_page_break_lies_on_both_pages(case: Any) -> None:
    chunk = _two_page_chunk(case)
    quote = "Sehr geehrter Herr Schmidt, unsere Rechnung"
    assert quote_pages(chunk=chunk, quote=quote) == [1, 2]
    highlight = chunk_highlight(chunk=chunk, quote=quote)
    assert highlight.page is not None and highlight.page.number == 1
    assert len(highlight.quote_boxes) == 1  # "Sehr geehrter Herr Schmidt,"


def test_quote_not_in_the_chunk_marks_nothing_and_names_every_page(case: Any) -> None:
    chunk = _two_page_chunk(case)
    highlight = chunk_highlight(chunk=chunk, quote="Wir zahlen nicht.")
    assert highlight.page is not None and highlight.page.number == 1
    assert not highlight.quote_found and highlight.quote_boxes == []
    assert quote_pages(chunk=chunk, quote="Wir zahlen nicht.") == [1, 2]
