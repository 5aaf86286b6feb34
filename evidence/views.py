"""The Documents tab of a case: upload (several PDFs, drag and drop), a progress
bar per document that polls its ingestion, and the refused files with their
reasons. Thin: services decide, selectors fetch."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
)
from django_htmx.http import HttpResponseStopPolling

from cases.errors import DomainError, RoleRequired
from cases.models import Case, Membership
from cases.selectors import case_get_for_user, user_has_role
from cases.tabs import is_fragment_request, render_case_tab
from evidence import selectors
from evidence.services.ingest import documents_upload, source_document_retry
from evidence.storage import document_storage
from evidence.validation import max_pages, max_upload_bytes

TEMPLATE = "evidence/documents.html"


def _tab_context(request: HttpRequest, case: Case) -> dict[str, object]:
    return {
        "documents": selectors.document_list_for_case(case=case),
        "refusals": selectors.refusal_list_for_case(case=case),
        "can_upload": user_has_role(request.user, Membership.Role.LAWYER),
        "max_upload_bytes": max_upload_bytes(),
        "max_pages": max_pages(),
    }


@login_required
@require_http_methods(["GET", "POST"])
def case_documents(request: HttpRequest, case_id: int) -> HttpResponse:
    """The tab; a POST uploads the selected files, each decided on its own."""
    case = case_get_for_user(user=request.user, case_id=case_id)
    if request.method == "POST":
        files = request.FILES.getlist("files")
        try:
            outcomes = documents_upload(actor=request.user, case=case, uploads=files)
        except RoleRequired as exc:
            if is_fragment_request(request):
                return render(
                    request,
                    f"{TEMPLATE}#upload-results",
                    {"case": case, "error": exc.message},
                    status=403,
                )
            messages.error(request, exc.message)
            return redirect("evidence:case_documents", case_id=case.pk)
        if is_fragment_request(request):
            # The per-file answers, and the document list swapped out of band
            # so that each stored file shows up once, with its progress bar.
            return render(
                request,
                f"{TEMPLATE}#upload-results",
                {
                    "case": case,
                    "outcomes": outcomes,
                    "empty": not files,
                    **_tab_context(request, case),
                },
            )
        for outcome in outcomes:
            if outcome.status == "stored":
                messages.success(
                    request, _("“%(name)s” stored.") % {"name": outcome.filename}
                )
            else:
                messages.error(request, outcome.message)
        if not files:
            messages.error(request, _("Choose at least one PDF file."))
        return redirect("evidence:case_documents", case_id=case.pk)
    context = _tab_context(request, case)
    if is_fragment_request(request) and request.GET.get("part") == "documents":
        return render(request, f"{TEMPLATE}#document-table", {"case": case, **context})
    return render_case_tab(
        request, case=case, tab="documents", template=TEMPLATE, context=context
    )


@login_required
@require_GET
def document_progress(
    request: HttpRequest, case_id: int, document_id: int
) -> HttpResponse:
    """One document's row with its progress; polled by htmx until the
    ingestion is ready or failed, then polling stops (HTTP 286)."""
    document = selectors.document_get_for_user(
        user=request.user, case_id=case_id, document_id=document_id
    )
    context = {
        "case": document.case,
        "document": document,
        "can_upload": user_has_role(request.user, Membership.Role.LAWYER),
    }
    if document.ingestion.is_finished:
        response = render(request, f"{TEMPLATE}#document-progress", context)
        stop = HttpResponseStopPolling(response.content)
        stop["Content-Type"] = response["Content-Type"]
        return stop
    return render(request, f"{TEMPLATE}#document-progress", context)


@login_required
@require_POST
def document_retry(
    request: HttpRequest, case_id: int, document_id: int
) -> HttpResponse:
    """Queue a failed, retryable ingestion again (lawyers). Answers the
    document's row, which polls again; a refusal is shown on the row."""
    document = selectors.document_get_for_user(
        user=request.user, case_id=case_id, document_id=document_id
    )
    error = ""
    status = 200
    try:
        source_document_retry(actor=request.user, document=document)
    except DomainError as exc:  # RoleRequired (403), IngestionNotRetryable (409)
        error, status = exc.message, exc.http_status
    document.ingestion.refresh_from_db()
    if not is_fragment_request(request):
        if error:
            messages.error(request, error)
        else:
            messages.success(
                request, _("“%(name)s” is queued again.") % {"name": document.filename}
            )
        return redirect("evidence:case_documents", case_id=document.case_id)
    context = {
        "case": document.case,
        "document": document,
        "can_upload": user_has_role(request.user, Membership.Role.LAWYER),
        "retry_error": error,
    }
    return render(request, f"{TEMPLATE}#document-progress", context, status=status)


@login_required
@require_GET
def document_download(
    request: HttpRequest, case_id: int, document_id: int
) -> StreamingHttpResponse:
    """The original file, byte for byte, as a download. Authorised by the one
    tenancy selector (another firm's document is 404). Never rendered inline:
    uploaded bytes are the client's or the opponent's, not ours, so the browser
    is told to save them (``attachment``), not to sniff a type, and to run
    nothing from them (``sandbox``)."""
    document = selectors.document_get_for_user(
        user=request.user, case_id=case_id, document_id=document_id
    )
    handle = document_storage().open(document.storage_name, "rb")
    response = StreamingHttpResponse(
        iter(lambda: handle.read(64 * 1024), b""),
        content_type="application/octet-stream",
    )
    response["Content-Disposition"] = (
        content_disposition_header(as_attachment=True, filename=document.filename)
        or "attachment"
    )
    response["Content-Length"] = str(document.size_bytes)
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = (
        "sandbox; default-src 'none'; object-src 'none'"
    )
    response["Cache-Control"] = "private, no-store"
    return response
