"""The right to erasure: the only way source rows ever leave the database.

``case_erase`` removes a whole case in one transaction: embeddings, chunks,
pages, documents, ingestion state, refusals, the case with its facts,
decisions, reports, parties and claims, and the stored bytes that no other case
uses. The source rows are deleted by the database function
``belegt_case_erase`` (SECURITY DEFINER, owned by the migration owner role; see
``evidence/migrations/0004_*``), which also inserts the signed ``case.erased``
audit event: no session can switch the immutability triggers off, and no
erasure happens without its event. The audit log itself is never erased."""

from __future__ import annotations

import json
from datetime import UTC
from typing import Any

from django.db import connection, transaction
from django.http import Http404

from cases.audit import audit_event_prepare, audit_event_written
from cases.models import AuditEvent, Case, Membership
from cases.selectors import require_role
from evidence import storage
from evidence.models import (
    Chunk,
    ChunkEmbedding,
    DocumentIngestion,
    Page,
    SourceDocument,
    UploadRefusal,
)
from evidence.services.ingest import _sha_lock

Role = Membership.Role


def _event_row(event: AuditEvent) -> dict[str, Any]:
    """The prepared (signed, unsaved) audit event as the database function
    takes it."""
    return {
        "created_at": event.created_at.astimezone(UTC).isoformat(),
        "actor_id": event.actor_id,
        "actor_label": event.actor_label,
        "organisation_id": event.organisation_id,
        "case_id": event.case_id,
        "action": event.action,
        "target_type": event.target_type,
        "target_id": event.target_id,
        "data": event.data,
        "prev_hash": event.prev_hash,
        "hash": event.hash,
        "key_id": event.key_id,
    }


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
    shas = sorted({sha for _pk, sha, _name in documents})
    for sha256 in shas:
        _sha_lock(sha256)
    counts: dict[str, int] = {
        "embeddings": ChunkEmbedding.objects.filter(chunk__case=case).count(),
        "chunks": Chunk.objects.filter(case=case).count(),
        "pages": Page.objects.filter(document__case=case).count(),
        "refusals": UploadRefusal.objects.filter(case=case).count(),
        "documents": len(documents),
    }
    DocumentIngestion.objects.filter(document__case=case).delete()
    # The database function checks the signed event, deletes the source rows,
    # inserts the event and lets the other immutable rows of this case (facts,
    # decisions, issued reports) go for the rest of this transaction only.
    event = audit_event_prepare(
        actor=actor,
        action="case.erased",
        target=case,
        case=case,
        data={"reference": case.reference, "counts": counts, "sha256": shas},
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT belegt_case_erase(%s, %s::jsonb)",
            [case.pk, json.dumps(_event_row(event))],
        )
        raw = cursor.fetchone()[0]
    removed_rows = raw if isinstance(raw, dict) else json.loads(raw)
    audit_event_written(event_id=removed_rows["event_id"])
    UploadRefusal.objects.filter(case=case).delete()
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

    for sha256 in shas:
        page_cache_clear(sha256=sha256)
    return counts
