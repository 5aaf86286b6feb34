"""Reads of documents and their ingestion, scoped to the user's firm through
the case (``case_get_for_user`` / ``scope_to_user``): another firm's document
is not found."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import QuerySet
from django.http import Http404

from cases.models import Case
from cases.selectors import scope_to_user
from evidence.domain.quotes import PageRange, quote_page_ranges
from evidence.models import Chunk, Page, SourceDocument, UploadRefusal


def document_list_for_case(*, case: Case) -> QuerySet[SourceDocument]:
    """The documents of a case the caller already fetched through
    ``case_get_for_user``, newest first, with their ingestion state."""
    return (
        SourceDocument.objects.filter(case=case)
        .select_related("ingestion")
        .order_by("-created_at", "-id")
    )


def document_get_for_user(
    *, user: Any, case_id: int | str, document_id: int | str
) -> SourceDocument:
    """A document of the given case if the case belongs to the user's firm;
    Http404 otherwise."""
    try:
        case_pk, document_pk = int(case_id), int(document_id)
    except (TypeError, ValueError) as exc:
        raise Http404("No such document.") from exc
    document = (
        scope_to_user(SourceDocument.objects.all(), user)
        .select_related("ingestion", "case")
        .filter(pk=document_pk, case_id=case_pk)
        .first()
    )
    if document is None:
        raise Http404("No such document.")
    return document


def refusal_list_for_case(*, case: Case, limit: int = 50) -> list[UploadRefusal]:
    return list(UploadRefusal.objects.filter(case=case).order_by("-id")[:limit])


def quote_page_ranges_for_chunk(
    *, chunk: Chunk, quote: str, pages: Mapping[int, Page] | None = None
) -> list[PageRange]:
    """Where a chunk's quote lies on its pages (see
    ``evidence.domain.quotes.quote_page_ranges``): one range of page text per
    page it covers, empty if it is found nowhere. ``pages`` may pass the
    chunk's pages the caller already loaded."""
    spans = chunk.spans or [
        {"page": chunk.page_start, "start": 0, "end": len(chunk.text)}
    ]
    numbers = {int(s["page"]) for s in spans}
    if pages is None or not numbers <= pages.keys():
        texts = dict(
            Page.objects.filter(
                document_id=chunk.document_id, number__in=numbers
            ).values_list("number", "text")
        )
    else:
        texts = {n: pages[n].text or "" for n in numbers}
    return quote_page_ranges(
        chunk_text=chunk.text, spans=spans, page_texts=texts, quote=quote
    )


def quote_pages(*, chunk: Chunk, quote: str) -> list[int]:
    """The 1-based page numbers a quote lies on: the chunk's only page, or,
    for a chunk across a page break, the pages the quote covers (all of the
    chunk's pages if it is found nowhere)."""
    if chunk.page_start == chunk.page_end or not chunk.spans:
        return [chunk.page_start]
    ranges = quote_page_ranges_for_chunk(chunk=chunk, quote=quote)
    if not ranges:
        return list(range(chunk.page_start, chunk.page_end + 1))
    return sorted({r.page for r in ranges})
