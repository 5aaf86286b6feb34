"""The right to erasure: the only way source rows ever leave the database.

``case_erase`` removes a whole case in one transaction: embeddings, chunks,
pages, documents (the immutability triggers let the deletes through because
the transaction sets ``belegt.erasure``), ingestion state, refusals, the case
with its parties and claims, and the stored bytes that no other case uses. The
audit log records the erasure and is itself never erased."""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.db import connection, transaction
from django.http import Http404

from cases.audit import audit_event_record
from cases.models import Case, Membership
from cases.selectors import require_role
from evidence import storage
from evidence.models import (
    Chunk,
    DocumentIngestion,
    Page,
    SourceDocument,
    UploadRefusal,
)
from evidence.services.ingest import _sha_lock

Role = Membership.Role


@transaction.atomic
def case_erase(*, actor: Any, case: Case) -> dict[str, int]:
    """Erase a case and everything ingested for it. Administrators only (actor
    None: the command line). Returns the counts removed. Raises RoleRequired;
    a row of another app that still protects the case aborts the whole
    erasure (nothing is removed)."""
    if actor is not None:
        require_role(actor, Role.ADMIN)
        membership = actor.membership
        if membership.organisation_id != case.organisation_id:
            raise Http404("No such case.")
    documents = list(
        SourceDocument.objects.filter(case=case).values_list(
            "pk", "sha256", "storage_name"
        )
    )
    for sha256 in sorted({sha for _pk, sha, _name in documents}):
        _sha_lock(sha256)
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL belegt.erasure = 'on'")
    counts: dict[str, int] = {}
    try:
        embedding_model = apps.get_model("evidence", "ChunkEmbedding")
    except LookupError:
        embedding_model = None
    if embedding_model is not None:
        counts["embeddings"] = embedding_model.objects.filter(
            chunk__case=case
        )._raw_delete(connection.alias)
    counts["chunks"] = Chunk.objects.filter(case=case)._raw_delete(connection.alias)
    counts["pages"] = Page.objects.filter(document__case=case)._raw_delete(
        connection.alias
    )
    DocumentIngestion.objects.filter(document__case=case).delete()
    counts["refusals"] = UploadRefusal.objects.filter(case=case).delete()[0]
    counts["documents"] = SourceDocument.objects.filter(case=case)._raw_delete(
        connection.alias
    )
    audit_event_record(
        actor=actor,
        action="case.erased",
        target=case,
        case=case,
        data={
            "reference": case.reference,
            "counts": counts,
            "sha256": sorted({sha for _pk, sha, _name in documents}),
        },
    )
    case.delete()
    # Bytes go last, still under the hash locks: an upload of the same bytes
    # to another case waits for this transaction and then stores them anew.
    removed = 0
    for name in sorted({name for _pk, _sha, name in documents}):
        if not SourceDocument.objects.filter(storage_name=name).exists():
            storage.document_bytes_delete(name)
            removed += 1
    counts["files"] = removed
    # Rendered page images of the erased documents (the viewer's disk cache).
    from evidence.viewer import page_cache_clear

    for sha256 in sorted({sha for _pk, sha, _name in documents}):
        page_cache_clear(sha256=sha256)
    return counts
