"""Upload of source documents and the dispatch of their ingestion.

``documents_upload`` validates each file of an upload on its own (a refused
file never stops the others), stores accepted bytes content-addressed,
creates the immutable ``SourceDocument`` and its ``DocumentIngestion`` and
queues the ingestion task after commit. The pipeline itself
(``source_document_ingest``: pages → ocr → chunks → embeddings → ready) lives
in ``evidence.services.pipeline`` and is re-exported here."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cases.audit import audit_event_record
from cases.errors import DomainError
from cases.models import Case, Membership
from cases.selectors import require_role
from cases.work import work_stale_before, work_worker_alive
from evidence import storage, validation
from evidence.models import DocumentIngestion, SourceDocument, UploadRefusal
from evidence.services.pipeline import (
    _LOCK_INGEST,
    MAX_ATTEMPTS,
    IngestFailed,
    chunking_config,
    page_inputs,
    source_document_ingest,
)

__all__ = [
    "MAX_ATTEMPTS",
    "IngestFailed",
    "chunking_config",
    "page_inputs",
    "source_document_ingest",
]

logger = logging.getLogger(__name__)

Role = Membership.Role
UPLOADERS = (Role.LAWYER,)
Stage = DocumentIngestion.Stage

# Advisory-lock namespaces (first key of the two-key form).
_LOCK_SHA = 0x62_6C_67_01


class IngestionNotRetryable(DomainError):
    """Only a failed ingestion whose failure a new attempt may cure is retried."""

    code = "ingestion_not_retryable"
    http_status = 409


class UploadedFileLike(Protocol):
    @property
    def name(self) -> str | None: ...

    @property
    def size(self) -> int | None: ...

    def read(self, size: int = ..., /) -> bytes: ...

    def seek(self, offset: int, whence: int = ..., /) -> int: ...


@dataclass(frozen=True)
class UploadOutcome:
    """What happened to one file: ``stored``, ``duplicate`` or ``refused``."""

    filename: str
    status: str
    document: SourceDocument | None = None
    refusal: UploadRefusal | None = None
    code: str = ""
    message: str = ""


def _sha_lock(sha256: str) -> None:
    """Serialise writers (upload, erasure) of the same bytes in this transaction."""
    key = int.from_bytes(bytes.fromhex(sha256[:8]), "big", signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_LOCK_SHA, key])


def _read_upload(upload: UploadedFileLike) -> bytes:
    with contextlib.suppress(AttributeError, OSError):
        upload.seek(0)
    return upload.read()


def _filename(upload: UploadedFileLike) -> str:
    name = (upload.name or "").replace("\\", "/").rsplit("/", 1)[-1]
    return name[:255] or "upload.pdf"


@transaction.atomic
def upload_refusal_record(
    *, actor: Any, case: Case, filename: str, size: int, code: str, message: str
) -> UploadRefusal:
    refusal = UploadRefusal.objects.create(
        case=case,
        filename=filename,
        size_bytes=size,
        code=code,
        message=message,
        uploaded_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    audit_event_record(
        actor=actor,
        action="document.refused",
        target=refusal,
        case=case,
        data={"filename": filename, "size": size, "code": code},
    )
    return refusal


@transaction.atomic
def source_document_store(
    *, actor: Any, case: Case, filename: str, checked: validation.ValidatedPdf
) -> tuple[SourceDocument, bool]:
    """Store validated bytes and create the document. Returns (document,
    created); an existing document with the same bytes in this case is returned
    with created=False, also when two uploads race (unique constraint)."""
    sha256 = storage.sha256_hex(checked.data)
    _sha_lock(sha256)
    existing = SourceDocument.objects.filter(case=case, sha256=sha256).first()
    if existing is not None:
        return existing, False
    storage_name = storage.document_bytes_store(data=checked.data, sha256=sha256)
    try:
        with transaction.atomic():
            document = SourceDocument.objects.create(
                case=case,
                sha256=sha256,
                filename=filename,
                size_bytes=len(checked.data),
                page_count=checked.page_count,
                storage_name=storage_name,
                uploaded_by_id=actor.pk
                if getattr(actor, "is_authenticated", False)
                else None,
                has_javascript=checked.has_javascript,
                has_embedded_files=checked.has_embedded_files,
                metadata=checked.metadata,
            )
    except IntegrityError:
        return SourceDocument.objects.get(case=case, sha256=sha256), False
    DocumentIngestion.objects.create(document=document)
    audit_event_record(
        actor=actor,
        action="document.uploaded",
        target=document,
        case=case,
        data={
            "filename": filename,
            "sha256": sha256,
            "pages": checked.page_count,
            "size": len(checked.data),
            "has_javascript": checked.has_javascript,
            "has_embedded_files": checked.has_embedded_files,
        },
    )
    return document, True


def document_upload(
    *, actor: Any, case: Case, upload: UploadedFileLike, dispatch: bool = True
) -> UploadOutcome:
    """Validate and store one file. Refusals are recorded, never raised; with
    ``dispatch`` the ingestion task is queued once the document is committed."""
    filename = _filename(upload)
    declared = int(upload.size or 0)
    try:
        validation.check_declared_size(filename=filename, size=declared)
        checked = validation.validate_pdf(filename=filename, data=_read_upload(upload))
    except validation.UploadRefused as refused:
        refusal = upload_refusal_record(
            actor=actor,
            case=case,
            filename=filename,
            size=declared,
            code=refused.code,
            message=refused.message,
        )
        return UploadOutcome(
            filename=filename,
            status="refused",
            refusal=refusal,
            code=refused.code,
            message=refused.message,
        )
    with transaction.atomic():
        document, created = source_document_store(
            actor=actor, case=case, filename=filename, checked=checked
        )
        if created and dispatch:
            ingestion_dispatch(document=document)
    if not created:
        return UploadOutcome(
            filename=filename,
            status="duplicate",
            document=document,
            code="duplicate",
            message=_("“%(name)s” is already in this case as “%(existing)s”.")
            % {"name": filename, "existing": document.filename},
        )
    return UploadOutcome(filename=filename, status="stored", document=document)


def documents_upload(
    *,
    actor: Any,
    case: Case,
    uploads: Iterable[UploadedFileLike],
    dispatch: bool = True,
) -> list[UploadOutcome]:
    """Upload several files; each is decided on its own. ``actor`` None means the
    command line (trusted); users need the lawyer role. Raises RoleRequired."""
    if actor is not None:
        require_role(actor, *UPLOADERS)
    return [
        document_upload(actor=actor, case=case, upload=upload, dispatch=dispatch)
        for upload in uploads
    ]


def _dispatch(document_id: int) -> None:
    from evidence.tasks import source_document_ingest_task

    source_document_ingest_task.delay(document_id)


def ingestion_dispatch(*, document: SourceDocument) -> None:
    """Queue (again) the ingestion of a document once the transaction commits."""
    document_id = document.pk
    transaction.on_commit(lambda: _dispatch(document_id))


@transaction.atomic
def source_document_retry(*, actor: Any, document: SourceDocument) -> DocumentIngestion:
    """Queue a failed, retryable ingestion again (lawyers; ``actor`` None is the
    command line). The pipeline resumes where its rows end. Idempotent: an
    ingestion already queued, running or ready is returned unchanged and
    nothing is queued twice. Raises RoleRequired, IngestionNotRetryable."""
    if actor is not None:
        require_role(actor, *UPLOADERS)
    claimed = DocumentIngestion.objects.filter(
        document=document, stage=Stage.FAILED, retryable=True
    ).update(
        stage=Stage.STORED,
        error_code="",
        error_message="",
        retryable=False,
        attempts=0,
        finished_at=None,
        updated_at=timezone.now(),
    )
    ingestion = DocumentIngestion.objects.get(document=document)
    if claimed != 1:
        if ingestion.stage == Stage.FAILED:
            raise IngestionNotRetryable(
                _("This document cannot be read; a new attempt would fail again."),
                hint={"error_code": ingestion.error_code},
            )
        return ingestion
    audit_event_record(
        actor=actor,
        action="document.ingestion_retried",
        target=document,
        case=document.case,
        data={"document_id": document.pk},
    )
    ingestion_dispatch(document=document)
    return ingestion


def _ingest_worker_alive(document_id: int) -> bool:
    """Whether some session holds the document's ingestion lock."""
    return work_worker_alive(_LOCK_INGEST, document_id)


def source_documents_recover_stuck() -> dict[str, int]:
    """The evidence part of the stuck-work sweep (Celery beat): every ingestion
    between ``stored`` and ``ready`` without progress for
    ``BELEGT_STUCK_AFTER_SECONDS`` whose lock no worker holds is dispatched
    again. A killed worker's task is never redelivered by the SQLAlchemy
    transport and only after the visibility timeout by Redis; a database
    outage longer than the task's retries strands a document the same way.
    Idempotent: the dispatch is marked on the row by a conditional update (so
    the next sweep waits another timeout), the pipeline resumes where its rows
    end, and ``MAX_ATTEMPTS`` still ends a document that kills its worker."""
    stale = work_stale_before()
    stuck = DocumentIngestion.objects.exclude(
        stage__in=(Stage.READY, Stage.FAILED)
    ).filter(updated_at__lt=stale)
    redispatched = 0
    for ingestion in stuck.select_related("document").order_by("pk"):
        if _ingest_worker_alive(ingestion.document_id):
            continue
        with transaction.atomic():
            marked = DocumentIngestion.objects.filter(
                pk=ingestion.pk,
                stage=ingestion.stage,
                updated_at=ingestion.updated_at,
            ).update(updated_at=timezone.now())
            if marked:
                ingestion_dispatch(document=ingestion.document)
                redispatched += 1
    return {"redispatched": redispatched}


@transaction.atomic
def case_for_ingest_command(
    *, reference: str, organisation_slug: str = "", create: bool = False
) -> Case:
    """The case for ``manage.py ingest``: by reference (within the firm, if
    named), created on request. Raises DomainError with a clear message."""
    from cases.models import Organisation

    cases = Case.objects.filter(reference=reference)
    if organisation_slug:
        cases = cases.filter(organisation__slug=organisation_slug)
    found = list(cases[:2])
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise DomainError(
            f"Reference {reference!r} exists in several firms; name one with --firm.",
            code="case_ambiguous",
        )
    if not create:
        raise DomainError(
            f"No case with reference {reference!r} (use --create).",
            code="case_not_found",
        )
    organisations = Organisation.objects.all()
    if organisation_slug:
        organisations = organisations.filter(slug=organisation_slug)
    firms = list(organisations[:2])
    if len(firms) != 1:
        raise DomainError(
            "Name the firm of the new case with --firm SLUG.", code="firm_required"
        )
    case = Case.objects.create(
        organisation=firms[0], reference=reference, title=reference, client=""
    )
    audit_event_record(
        actor=None,
        action="case.created",
        target=case,
        case=case,
        data={"reference": reference, "source": "manage.py ingest"},
    )
    return case
