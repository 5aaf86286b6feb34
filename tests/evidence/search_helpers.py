"""Helpers for the search, embedding and viewer tests: German letters as real
PDFs, run through the real ingestion pipeline (pages, chunks, embeddings)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pymupdf
from django.core.files.uploadedfile import SimpleUploadedFile

from cases.models import Case
from evidence.models import DocumentIngestion, SourceDocument

fitz: Any = pymupdf
PROBE = Path(__file__).resolve().parent.parent / "fixtures" / "search"
PROBE_FILE = PROBE / "german_legal_probe.json"


def probe() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(PROBE_FILE.read_text(encoding="utf-8"))
    return data


def letter_pdf(pages: list[list[str]]) -> bytes:
    """A PDF with one page per list of paragraphs (Helvetica, A4)."""
    doc = fitz.open()
    for paragraphs in pages:
        page = doc.new_page(width=595, height=842)
        y = 72.0
        for paragraph in paragraphs:
            rect = fitz.Rect(72, y, 523, 800)
            left = page.insert_textbox(rect, paragraph, fontsize=10.5, fontname="helv")
            if left < 0:
                raise ValueError(f"paragraph does not fit: {paragraph[:40]!r}")
            y += (rect.height - left) + 14
    return bytes(doc.tobytes(garbage=3, deflate=True))


def ingest(case: Case, data: bytes, filename: str = "brief.pdf") -> SourceDocument:
    """Upload and ingest a PDF in-process, as ``manage.py ingest`` does."""
    from evidence.services.ingest import documents_upload, source_document_ingest

    upload = SimpleUploadedFile(filename, data, content_type="application/pdf")
    (outcome,) = documents_upload(
        actor=None, case=case, uploads=[upload], dispatch=False
    )
    assert outcome.document is not None, outcome.message
    ingestion = source_document_ingest(document=outcome.document)
    assert ingestion.stage == DocumentIngestion.Stage.READY, ingestion.error_message
    return outcome.document
