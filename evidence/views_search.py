"""The Evidence tab (search inside one case) and the page viewer. Every view
fetches the case through ``case_get_for_user`` and every document, page and
chunk through that case: another firm's case answers 404, and so does a
document id that belongs to another case."""

from __future__ import annotations

from datetime import date
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from cases.dates import NotACalendarDay, date_placeholder, typed_date
from cases.models import Case
from cases.selectors import case_get_for_user
from cases.tabs import is_fragment_request, render_case_tab
from evidence.models import Chunk, Page, SourceDocument
from evidence.search import SearchFilters, search_case_evidence
from evidence.viewer import (
    DEFAULT_ZOOM,
    ZOOM_CHOICES,
    PageNotRenderable,
    RenderBusy,
    ViewerState,
    back_link,
    chunk_boxes,
    chunk_text_segments,
    matching_line_boxes,
    page_image_png,
    quote_boxes_on_page,
)

DEFAULT_K = 10
MAX_K = 50


def _int_param(value: str | None, default: int, low: int, high: int) -> int:
    try:
        number = int(value) if value else default
    except ValueError:
        number = default
    return max(low, min(number, high))


def _date_param(value: str | None, errors: list[str]) -> date | None:
    """A typed filter date (``cases.dates.typed_date``); text that is no date
    is named in ``errors`` and the filter is left out."""
    text = (value or "").strip()
    if not text:
        return None
    try:
        day = typed_date(text)
    except NotACalendarDay:
        day = None
    if day is None:
        errors.append(
            _("“%(value)s” is not a date (%(format)s): this filter is left out.")
            % {"value": text, "format": date_placeholder()}
        )
    return day


#: Why a hit matched, in words (codes from ``SearchHit.reasons``).
REASONS = {
    "all_words": gettext_lazy("contains all search words"),
    "some_words": gettext_lazy("contains some of the search words"),
    "similar": gettext_lazy("similar in meaning"),
}


@login_required
@require_GET
def case_evidence(request: HttpRequest, case_id: int) -> HttpResponse:
    """The Evidence tab: a search box, filters by document and upload date,
    and the hits of the case with why each matched; "more hits" asks for ten
    more. The form submits by htmx into ``#search-results`` (the URL follows,
    so Back returns to the query) and keeps a plain GET fallback."""
    case = case_get_for_user(user=request.user, case_id=case_id)
    query = request.GET.get("q", "").strip()
    k = _int_param(request.GET.get("k"), DEFAULT_K, 1, MAX_K)
    document_raw = request.GET.get("document", "")
    filter_errors: list[str] = []
    filters = SearchFilters(
        document_id=int(document_raw) if document_raw.isdecimal() else None,
        uploaded_from=_date_param(request.GET.get("from"), filter_errors),
        uploaded_until=_date_param(request.GET.get("until"), filter_errors),
    )
    hits = (
        search_case_evidence(case=case, query=query, k=k, filters=filters)
        if query
        else []
    )
    params = {
        key: value
        for key, value in (
            ("q", query),
            ("document", document_raw if filters.document_id else ""),
            (
                "from",
                filters.uploaded_from.isoformat() if filters.uploaded_from else "",
            ),
            (
                "until",
                filters.uploaded_until.isoformat() if filters.uploaded_until else "",
            ),
        )
        if value
    }
    more_url = (
        f"{request.path}?{urlencode({**params, 'k': min(k + DEFAULT_K, MAX_K)})}"
        if query and len(hits) == k and k < MAX_K
        else ""
    )
    context = {
        "query": query,
        "k": k,
        "hits": [
            {"hit": hit, "reasons": [str(REASONS[r]) for r in hit.reasons]}
            for hit in hits
        ],
        "filters": filters,
        "filter_errors": filter_errors,
        "documents": list(
            SourceDocument.objects.filter(case=case)
            .order_by("filename")
            .values_list("pk", "filename")
        ),
        "more_url": more_url,
        "searchable": Chunk.objects.filter(case=case).exists(),
    }
    if (
        is_fragment_request(request)
        and request.headers.get("HX-Target") == "search-results"
    ):
        # The same URL answers the fragment and the page: without Vary the
        # browser's Back shows the cached fragment alone (issue 14 §8).
        response = render(
            request, "evidence/search.html#results", {"case": case, **context}
        )
        patch_vary_headers(response, ("HX-Request",))
        return response
    return render_case_tab(
        request,
        case=case,
        tab="evidence",
        template="evidence/search.html",
        context=context,
    )


def _document_for(case: Case, document_id: int) -> SourceDocument:
    return get_object_or_404(SourceDocument, pk=document_id, case=case)


@login_required
@require_GET
def page_view(
    request: HttpRequest, case_id: int, document_id: int, number: int
) -> HttpResponse:
    """One page as an image with the chunk's boxes laid over it (``?chunk=``),
    the quote's words marked (``?quote=``), zoom (``?zoom=``, else fitted to
    the column) and a full-width view (``?wide=1``), a link back to where the
    user came from (``?back=``, a page of this site), the text layer, and the
    review app's panel to record a fact from a marked passage of a chunk of
    this page (loaded by htmx: evidence does not import review)."""
    case = case_get_for_user(user=request.user, case_id=case_id)
    document = _document_for(case, document_id)
    page = get_object_or_404(Page, document=document, number=number)
    chunk = None
    chunk_param = request.GET.get("chunk", "")
    if chunk_param.isdigit():
        # Only a chunk of this very document: any other id is ignored.
        chunk = Chunk.objects.filter(pk=int(chunk_param), document=document).first()
    state = ViewerState.from_params(request.GET, chunk_id=chunk.pk if chunk else None)
    query = state.query

    def link(n: int, **changes: Any) -> str:
        return state.url(case_id=case.pk, document_id=document.pk, number=n, **changes)

    page_chunks = list(
        Chunk.objects.filter(
            document=document, page_start__lte=number, page_end__gte=number
        ).order_by("ordinal")
    )
    panel_chunk = chunk if chunk is not None else next(iter(page_chunks), None)
    quote_boxes = (
        quote_boxes_on_page(chunk=chunk, page=page, quote=state.quote)
        if chunk and state.quote
        else []
    )
    context = {
        "document": document,
        "page": page,
        "chunk": chunk,
        "boxes": chunk_boxes(chunk=chunk, page=page) if chunk else [],
        "match_boxes": (
            matching_line_boxes(chunk=chunk, page=page, query=query) if chunk else []
        ),
        "quote_boxes": quote_boxes,
        "quote": state.quote,
        "quote_missing": bool(chunk and state.quote and not quote_boxes),
        "segments": chunk_text_segments(chunk=chunk, page=page),
        "zoom": state.zoom,
        "render_zoom": state.render_zoom,
        "display_width": state.display_width(page.width),
        "display_height": state.display_height(page.height),
        "wide": state.wide,
        "zoom_links": [
            {
                "label": label,
                "url": link(number, zoom=value),
                "current": value == state.zoom,
            }
            for value, label in ZOOM_CHOICES
        ],
        "wide_url": link(number, wide=not state.wide),
        "back": back_link(state.back, query=query, case_id=case.pk),
        "previous_url": link(number - 1) if number > 1 else "",
        "next_url": link(number + 1) if number < document.page_count else "",
        "chunk_pages": (
            [
                {"number": n, "url": link(n)}
                for n in range(chunk.page_start, chunk.page_end + 1)
            ]
            if chunk and chunk.page_end > chunk.page_start
            else []
        ),
        "page_chunks": [
            {
                "chunk": c,
                "url": link(number, chunk_id=c.pk, quote=""),
                "current": panel_chunk is not None and c.pk == panel_chunk.pk,
            }
            for c in page_chunks
        ],
        "panel_chunk": panel_chunk,
        "query": query,
    }
    return render_case_tab(
        request,
        case=case,
        tab="evidence",
        template="evidence/page.html",
        context=context,
    )


@login_required
@require_GET
def page_image(
    request: HttpRequest, case_id: int, document_id: int, number: int
) -> HttpResponse:
    """The rendered page as PNG (cached on disk; private to the firm)."""
    case = case_get_for_user(user=request.user, case_id=case_id)
    document = _document_for(case, document_id)
    try:
        zoom = float(request.GET.get("zoom") or DEFAULT_ZOOM)
        png = page_image_png(document=document, number=number, zoom=zoom)
    except (ValueError, PageNotRenderable) as exc:
        raise Http404("No such page image.") from exc
    except RenderBusy:
        busy = HttpResponse(
            _("Too many pages are being rendered; try again in a moment."),
            status=503,
            content_type="text/plain; charset=utf-8",
        )
        busy["Retry-After"] = "5"
        return busy
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = "private, max-age=86400, immutable"
    return response
