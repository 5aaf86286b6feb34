"""Reads of documents and their ingestion, scoped to the user's firm through
the case (``case_get_for_user`` / ``scope_to_user``): another firm's document
is not found."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404

from cases.models import Case
from cases.selectors import scope_to_user
from evidence.models import SourceDocument, UploadRefusal


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
