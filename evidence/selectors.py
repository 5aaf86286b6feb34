"""Reads of documents and their ingestion, scoped to the user's firm through
the case (``case_get_for_user`` / ``scope_to_user``): another firm's document
is not found."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404

from cases.models import Case
from cases.selectors import scope_to_user
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


def quote_pages(*, chunk: Chunk, quote: str) -> list[int]:
    """The 1-based page numbers a quote lies on. A chunk across a page break
    has one span per page; each span's text is found in the chunk text to
    tell where the break is."""
    if chunk.page_start == chunk.page_end or not chunk.spans:
        return [chunk.page_start]
    numbers = [int(s["page"]) for s in chunk.spans]
    texts = dict(
        Page.objects.filter(
            document_id=chunk.document_id, number__in=numbers
        ).values_list("number", "text")
    )
    pieces: list[tuple[int, int, int]] = []
    cursor = 0
    for span in chunk.spans:
        piece = texts.get(int(span["page"]), "")[int(span["start"]) : int(span["end"])]
        at = chunk.text.find(piece, cursor) if piece else -1
        if at < 0:
            return list(range(chunk.page_start, chunk.page_end + 1))
        pieces.append((int(span["page"]), at, at + len(piece)))
        cursor = at + len(piece)
    start = chunk.text.find(quote)
    if start < 0:
        return list(range(chunk.page_start, chunk.page_end + 1))
    end = start + len(quote)
    pages = [page for page, s, e in pieces if s < end and start < e]
    return pages or [chunk.page_start]
