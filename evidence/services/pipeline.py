"""The ingestion pipeline of one document: pages → ocr → chunks → embeddings →
ready. ``source_document_ingest`` is idempotent: every insert is keyed by a
unique constraint and skips what exists, chunking is deterministic, and a
finished document is left alone; so a redelivered task after a killed worker
completes the work without duplicates. Upload and dispatch live in
``evidence.services.ingest``."""

from __future__ import annotations

import contextlib
import hashlib
import logging
import time
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from cases.errors import DomainError
from cases.work import work_lock
from evidence import extraction, storage
from evidence.domain.chunking import ChunkingConfig, LineBox, PageInput, chunk_pages
from evidence.domain.running import BlockBox, PageLayout, page_flows
from evidence.models import (
    Chunk,
    ChunkEmbedding,
    DocumentIngestion,
    Page,
    SourceDocument,
)
from evidence.search import chunk_embeddings_create
from evidence.signals import document_ready

logger = logging.getLogger(__name__)

Stage = DocumentIngestion.Stage

# Interrupted runs (a killed worker) before a document is given up as failed.
MAX_ATTEMPTS = 5

# Advisory-lock namespace (first key of the two-key form).
_LOCK_INGEST = 0x62_6C_67_02


class IngestFailed(DomainError):
    """A failure of one document's ingestion (recorded on it; ``retryable``
    when a new attempt may cure it)."""

    code = "ingest_failed"


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


def _ingest_lock(document_id: int) -> contextlib.AbstractContextManager[bool]:
    """A session lock per document (the one rule of ``cases.work``): a
    redelivered task that finds the original still running leaves it alone.
    The lock dies with a killed worker's connection."""
    return work_lock(_LOCK_INGEST, document_id)


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
    """The document's pages as the chunker reads them: text, line boxes and
    the flow without the running headers and footers between pages (detected
    per document from the stored layout; the page text keeps them)."""
    rows = list(
        Page.objects.filter(document=document)
        .order_by("number")
        .values_list("number", "text", "blocks", "height")
    )
    layouts = [
        PageLayout(
            number=number,
            height=float(height or 0),
            text=text,
            blocks=tuple(
                BlockBox(
                    start=int(block["start"]),
                    end=int(block["end"]),
                    top=float(block["bbox"][1]),
                    bottom=float(block["bbox"][3]),
                )
                for block in blocks or []
            ),
        )
        for number, text, blocks, height in rows
    ]
    flows = {flow.number: flow for flow in page_flows(layouts)}
    inputs = []
    for number, text, blocks, _height in rows:
        lines = tuple(
            LineBox(start=line["start"], end=line["end"], bbox=tuple(line["bbox"]))
            for block in blocks or []
            for line in block.get("lines", [])
        )
        flow = flows[number]
        inputs.append(
            PageInput(
                number=number, text=text, lines=lines, flow=(flow.start, flow.end)
            )
        )
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
