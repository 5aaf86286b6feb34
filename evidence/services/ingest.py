"""Upload and ingestion of source documents.

``documents_upload`` validates each file of an upload on its own (a refused
file never stops the others), stores accepted bytes content-addressed,
creates the immutable ``SourceDocument`` and its ``DocumentIngestion`` and
queues the ingestion task after commit. ``source_document_ingest`` runs the
pipeline stages pages → ocr → chunks → embeddings → ready. It is idempotent:
every insert is keyed by a unique constraint and skips what exists, chunking is
deterministic, and a finished document is left alone; so a redelivered task
after a killed worker completes the work without duplicates."""

from __future__ import annotations

import contextlib
import hashlib
import logging
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Protocol

from django.conf import settings
from django.db import (
    IntegrityError,
    InterfaceError,
    OperationalError,
    connection,
    transaction,
)
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from cases.audit import audit_event_record
from cases.errors import DomainError
from cases.models import Case, Membership
from cases.selectors import require_role
from evidence import extraction, storage, validation
from evidence.domain.chunking import ChunkingConfig, LineBox, PageInput, chunk_pages
from evidence.models import (
    Chunk,
    ChunkEmbedding,
    DocumentIngestion,
    Page,
    SourceDocument,
    UploadRefusal,
)
from evidence.search import chunk_embeddings_create
from evidence.signals import document_ready

logger = logging.getLogger(__name__)

Role = Membership.Role
UPLOADERS = (Role.LAWYER,)
Stage = DocumentIngestion.Stage

# Interrupted runs (a killed worker) before a document is given up as failed.
MAX_ATTEMPTS = 5

# Advisory-lock namespaces (first key of the two-key form).
_LOCK_SHA = 0x62_6C_67_01
_LOCK_INGEST = 0x62_6C_67_02


class IngestFailed(DomainError):
    """A failure of one document's ingestion (recorded on it; ``retryable``
    when a new attempt may cure it)."""

    code = "ingest_failed"


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
    with _ingest_lock(document_id) as acquired:
        return not acquired


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
    stale = timezone.now() - timedelta(seconds=int(settings.BELEGT_STUCK_AFTER_SECONDS))
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


# --- the pipeline ---------------------------------------------------------------


def _set_stage(ingestion: DocumentIngestion, stage: str, **fields: Any) -> None:
    fields["stage"] = stage
    fields["updated_at"] = timezone.now()
    DocumentIngestion.objects.filter(pk=ingestion.pk).update(**fields)
    for name, value in fields.items():
        setattr(ingestion, name, value)


def _refresh_counts(ingestion: DocumentIngestion, document: SourceDocument) -> None:
    pages = Page.objects.filter(document=document)
    _set_stage(
        ingestion,
        ingestion.stage,
        pages=pages.count(),
        ocr_pages=pages.filter(ocr=True).count(),
        chunks=Chunk.objects.filter(document=document).count(),
        embedded=_embedded_count(document),
    )


def _embedded_count(document: SourceDocument) -> int:
    return int(
        ChunkEmbedding.objects.filter(chunk__document=document)
        .values("chunk_id")
        .distinct()
        .count()
    )


@contextlib.contextmanager
def _ingest_lock(document_id: int) -> Iterator[bool]:
    """A session lock per document: a redelivered task that finds the original
    still running leaves it alone. The lock dies with a killed worker's
    connection."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_try_advisory_lock(%s, %s)", [_LOCK_INGEST, document_id]
        )
        acquired = bool(cursor.fetchone()[0])
    try:
        yield acquired
    finally:
        if acquired:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_advisory_unlock(%s, %s)", [_LOCK_INGEST, document_id]
                )


def _page_row(document: SourceDocument, page: extraction.ExtractedPage) -> Page:
    return Page(
        document=document,
        number=page.number,
        width=page.width,
        height=page.height,
        text=page.text,
        blocks=page.blocks,
        ocr=page.ocr,
    )


def _insert_pages(document: SourceDocument, rows: list[Page]) -> None:
    if rows:
        with transaction.atomic():
            Page.objects.bulk_create(rows, ignore_conflicts=True)


def _stage_pages(
    document: SourceDocument, ingestion: DocumentIngestion, pdf: Any
) -> list[int]:
    """Insert the pages that have a text layer (or nothing at all); return the
    numbers of the pages that need OCR."""
    _set_stage(ingestion, Stage.PAGES)
    done = set(Page.objects.filter(document=document).values_list("number", flat=True))
    todo = [n for n in range(1, document.page_count + 1) if n not in done]
    needs_ocr: list[int] = []
    batch: list[Page] = []
    batch_size = max(1, int(settings.BELEGT_INGEST_PAGE_BATCH))
    delay = float(settings.BELEGT_INGEST_PAGE_DELAY)
    for page in extraction.iter_pages(pdf, todo, allow_ocr=False):
        if page.needs_ocr:
            needs_ocr.append(page.number)
        else:
            batch.append(_page_row(document, page))
        if delay:
            time.sleep(delay)
        if len(batch) >= batch_size:
            _insert_pages(document, batch)
            batch = []
            _set_stage(
                ingestion,
                Stage.PAGES,
                pages=Page.objects.filter(document=document).count(),
            )
    _insert_pages(document, batch)
    _refresh_counts(ingestion, document)
    return needs_ocr


def _stage_ocr(
    document: SourceDocument,
    ingestion: DocumentIngestion,
    pdf: Any,
    numbers: list[int],
) -> None:
    _set_stage(ingestion, Stage.OCR)
    for number in numbers:
        page = pdf.load_page(number - 1)
        try:
            text, blocks = extraction.ocr_page_layout(page)
        except extraction.OcrUnavailable as exc:
            raise IngestFailed(
                _("OCR is not available: %(error)s") % {"error": exc},
                code="ocr_unavailable",
                retryable=True,
            ) from exc
        _insert_pages(
            document,
            [
                _page_row(
                    document,
                    extraction.ExtractedPage(
                        number=number,
                        width=round(page.rect.width, 2),
                        height=round(page.rect.height, 2),
                        text=text,
                        blocks=blocks,
                        ocr=True,
                    ),
                )
            ],
        )
        _refresh_counts(ingestion, document)


def chunking_config() -> ChunkingConfig:
    return ChunkingConfig(
        target_chars=int(settings.BELEGT_CHUNK_TARGET_CHARS),
        overlap_chars=int(settings.BELEGT_CHUNK_OVERLAP_CHARS),
    )


def page_inputs(document: SourceDocument) -> list[PageInput]:
    inputs = []
    for number, text, blocks in (
        Page.objects.filter(document=document)
        .order_by("number")
        .values_list("number", "text", "blocks")
    ):
        lines = tuple(
            LineBox(start=line["start"], end=line["end"], bbox=tuple(line["bbox"]))
            for block in blocks or []
            for line in block.get("lines", [])
        )
        inputs.append(PageInput(number=number, text=text, lines=lines))
    return inputs


def _stage_chunks(document: SourceDocument, ingestion: DocumentIngestion) -> None:
    _set_stage(ingestion, Stage.CHUNKS)
    specs = chunk_pages(page_inputs(document), chunking_config())
    rows = [
        Chunk(
            case_id=document.case_id,
            document=document,
            ordinal=spec.ordinal,
            page_start=spec.page_start,
            page_end=spec.page_end,
            text=spec.text,
            spans=[span.as_json() for span in spec.spans],
        )
        for spec in specs
    ]
    with transaction.atomic():
        Chunk.objects.bulk_create(rows, batch_size=500, ignore_conflicts=True)
    _refresh_counts(ingestion, document)


def _stage_embeddings(document: SourceDocument, ingestion: DocumentIngestion) -> None:
    _set_stage(ingestion, Stage.EMBEDDINGS)

    def progress(total: int) -> None:
        _set_stage(ingestion, Stage.EMBEDDINGS, embedded=_embedded_count(document))

    try:
        chunk_embeddings_create(document=document, on_batch=progress)
    except DomainError as exc:
        # The embedder is missing, misconfigured or down: the pages and chunks
        # stand, and a retry once it is back only embeds.
        raise IngestFailed(exc.message, code=exc.code, retryable=True) from exc
    except (OperationalError, InterfaceError):
        raise  # transient database trouble: the task retries
    except Exception as exc:
        raise IngestFailed(
            _("Computing the embeddings failed: %(error)s") % {"error": exc},
            code="embedding_failed",
            retryable=True,
        ) from exc
    _refresh_counts(ingestion, document)


def _fail(
    ingestion: DocumentIngestion, *, code: str, message: str, retryable: bool = False
) -> None:
    _set_stage(
        ingestion,
        Stage.FAILED,
        error_code=code,
        error_message=message[:2000],
        retryable=retryable,
        finished_at=timezone.now(),
    )


def source_document_ingest(*, document: SourceDocument) -> DocumentIngestion:
    """Run (or resume) the pipeline of one document. Safe to re-run: a ready
    document is left alone, a failed or interrupted one resumes where its rows
    end. Permanent problems (damaged pages, missing OCR) end as ``failed`` with
    a code and a message; transient database errors propagate for a retry."""
    ingestion, _created = DocumentIngestion.objects.get_or_create(document=document)
    if ingestion.stage == Stage.READY:
        return ingestion
    with _ingest_lock(document.pk) as acquired:
        if not acquired:
            logger.info("document %s is being ingested elsewhere", document.pk)
            return ingestion
        ingestion.refresh_from_db()
        if ingestion.stage == Stage.READY:
            return ingestion
        if ingestion.attempts >= MAX_ATTEMPTS and ingestion.stage != Stage.FAILED:
            # A file that kills its worker every time (a MuPDF crash) would be
            # redelivered for ever: stop after a few tries.
            _fail(
                ingestion,
                code="too_many_attempts",
                message=_(
                    "Ingestion was interrupted %(n)d times; the file may crash "
                    "the PDF reader."
                )
                % {"n": ingestion.attempts},
            )
            return ingestion
        DocumentIngestion.objects.filter(pk=ingestion.pk).update(
            attempts=F("attempts") + 1,
            started_at=timezone.now(),
            error_code="",
            error_message="",
            retryable=False,
            finished_at=None,
        )
        ingestion.refresh_from_db()
        try:
            _run_stages(document, ingestion)
        except DomainError as exc:  # IngestFailed, an embedder's error, ...
            _fail(
                ingestion, code=exc.code, message=exc.message, retryable=exc.retryable
            )
        except (OperationalError, InterfaceError):
            raise  # transient: the task retries, the state stays where it was
        except (RuntimeError, ValueError) as exc:
            # MuPDF reports a broken page as RuntimeError/ValueError.
            logger.exception("ingestion of document %s failed", document.pk)
            _fail(
                ingestion,
                code="damaged",
                message=_("The document could not be read: %(error)s") % {"error": exc},
            )
        except Exception as exc:
            # A bug must not leave the document polling forever: record it,
            # with the traceback in the log, and let the worker go on. A fixed
            # release may read the file, so the failure is retryable.
            logger.exception("ingestion of document %s crashed", document.pk)
            _fail(
                ingestion,
                code="internal_error",
                message=_("Ingestion stopped with an internal error: %(error)s")
                % {"error": exc.__class__.__name__},
                retryable=True,
            )
    return ingestion


def _run_stages(document: SourceDocument, ingestion: DocumentIngestion) -> None:
    try:
        data = storage.document_bytes_read(document.storage_name)
    except OSError as exc:
        raise IngestFailed(
            _("The stored file is missing: %(error)s") % {"error": exc},
            code="storage_missing",
        ) from exc
    if hashlib.sha256(data).hexdigest() != document.sha256:
        raise IngestFailed(
            _("The stored file does not match its SHA-256."), code="storage_corrupt"
        )
    pdf: Any = extraction.open_pdf(data)
    try:
        needs_ocr = _stage_pages(document, ingestion, pdf)
        if needs_ocr:
            _stage_ocr(document, ingestion, pdf, needs_ocr)
    finally:
        pdf.close()
    _stage_chunks(document, ingestion)
    _stage_embeddings(document, ingestion)
    _refresh_counts(ingestion, document)
    _set_stage(ingestion, Stage.READY, finished_at=timezone.now())
    transaction.on_commit(
        lambda: document_ready.send(sender=SourceDocument, document=document)
    )


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
