"""Runs of a real size: a 2,000-page file of 1,700+ chunks (letters among
empty pages, OCR noise and filler) is paged through within the run's
budgets, its page shows progress while it runs, and every quote the run
proposes is verbatim in its chunk (the one quote matcher)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import pytest
from django.urls import reverse

from agents.domain.loop import Episode, ProviderTurn
from agents.models import AgentRun
from agents.services import extraction_run_start
from evidence.domain.quotes import quote_span
from evidence.models import Chunk, Page, SourceDocument
from review.models import ExtractionProposal

pytestmark = pytest.mark.django_db

PAGES = 2000
LETTER = (
    "Leipzig, {day:02d}.05.2026\n1. Mahnung\n\nSehr geehrter Herr Schmidt,\n"
    "unsere Rechnung Nr. 2026-{n:04d} war zahlbar bis zum 26.04.2026. "
    "Mahnkosten 5,00 €"
)
NOISE = "~~ ,,; ll1I ||| Zal-lung ĂĽber f~llig .. §§ 2B6 — ııı {n}"
FILLER = (
    "Blatt {n}: Der Sachstand wurde am {d}.05.2026 mit der Mandantin besprochen; "
    "weitere Unterlagen werden nachgereicht."
)


def _big_file(case: Any) -> SourceDocument:
    """2,000 pages written through the models, one chunk per non-empty page:
    a letter every 50 pages, OCR noise every 7th, every 13th page empty."""
    rng = random.Random(16)
    document = SourceDocument.objects.create(
        case=case,
        sha256=hashlib.sha256(f"big-{case.pk}".encode()).hexdigest(),
        filename="akte-2000.pdf",
        size_bytes=10_000_000,
        page_count=PAGES,
        storage_name="test/big.pdf",
    )
    pages, chunks = [], []
    ordinal = 0
    for n in range(1, PAGES + 1):
        if n % 13 == 0:
            text = ""
        elif n % 50 == 0:
            text = LETTER.format(n=n, day=n // 50 % 28 + 1)  # distinct reminders
        elif n % 7 == 0:
            text = NOISE.format(n=n)
        else:
            text = FILLER.format(n=n, d=rng.randint(10, 28))
        pages.append(
            Page(document=document, number=n, width=595, height=842, text=text)
        )
        if text:
            chunks.append(
                Chunk(
                    case=case,
                    document=document,
                    ordinal=ordinal,
                    page_start=n,
                    page_end=n,
                    text=text,
                    spans=[{"page": n, "start": 0, "end": len(text), "boxes": []}],
                )
            )
            ordinal += 1
    Page.objects.bulk_create(pages, batch_size=500)
    Chunk.objects.bulk_create(chunks, batch_size=500)
    assert len(chunks) >= 1700
    return document


@pytest.fixture
def big_case(case, parties, settings):
    settings.BELEGT_AGENT_CHUNK_PAGE = 150
    _big_file(case)
    return case


def test_rules_run_pages_through_1700_chunks_and_every_quote_is_verbatim(
    big_case, lawyer
):
    run = extraction_run_start(
        case=big_case, actor=lawyer, provider="rules", run_async=False
    )
    total = Chunk.objects.filter(case=big_case).count()
    assert run.status == AgentRun.Status.FINISHED, run.reason
    assert (run.chunks_total, run.chunks_read) == (total, total)
    proposals = list(ExtractionProposal.objects.filter(case=big_case))
    assert proposals  # the letters among the noise were found
    assert run.proposals_created == len(proposals)
    for proposal in proposals:
        chunk = Chunk.objects.get(pk=proposal.source_chunk_id)
        assert quote_span(chunk.text, proposal.quote) is not None, proposal.quote
    # Nothing came from an empty page, the noise or the filler.
    assert all(
        p.source_chunk.text.startswith("Leipzig, ") and "Mahnung" in p.source_chunk.text
        for p in proposals
    )


def test_a_run_over_its_step_budget_stops_with_a_clear_status(
    big_case, lawyer, settings
):
    settings.BELEGT_AGENT_STEP_LIMIT = 5
    run = extraction_run_start(
        case=big_case, actor=lawyer, provider="rules", run_async=False
    )
    assert run.status == AgentRun.Status.STEP_LIMIT
    assert run.reason == "step limit reached"
    assert run.steps == 5
    assert 0 < run.chunks_read < run.chunks_total


class _WatchingProvider:
    """Finishes every episode at once; on the fifth it fetches the run's page
    (the poll fragment a browser would ask for) while the run is going."""

    name = "watching"
    call_id_scope: Literal["run", "global"] = "run"

    def __init__(self, client: Any, url: str) -> None:
        self.client = client
        self.url = url
        self.episodes = 0
        self.snapshot = ""

    def next_turn(
        self, *, episode: Episode, messages: Sequence[Mapping[str, Any]]
    ) -> ProviderTurn:
        self.episodes += 1
        if self.episodes == 5:
            response = self.client.get(
                f"{self.url}?poll=1", HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="de"
            )
            assert response.status_code == 200
            self.snapshot = response.content.decode()
        return ProviderTurn(calls=(), text="nothing here", model_id="watch/1")


def test_run_page_shows_progress_while_the_run_goes(big_case, lawyer, lawyer_client):
    from agents.services import agent_run_execute

    run = extraction_run_start(
        case=big_case, actor=lawyer, provider="rules", run_async=True
    )
    url = reverse("agents:run_detail", args=[big_case.pk, run.pk])
    provider = _WatchingProvider(lawyer_client, url)
    finished = agent_run_execute(run=run, provider=provider)
    assert finished.status == AgentRun.Status.FINISHED
    snapshot = provider.snapshot
    assert 'id="run-progress"' in snapshot
    total = finished.chunks_total
    assert f"von {total} Abschnitten gelesen" in snapshot
    assert f"{total} von {total}" not in snapshot  # partway, not done
    assert "Vorschläge gemacht" in snapshot and "Zurückweisungen" in snapshot
    assert 'hx-trigger="every 2s"' in snapshot  # still polling


def test_a_case_with_only_unreadable_pages_ends_finished_with_nothing_read(
    case, parties, lawyer
):
    """Pages without text (a blank scan, a page OCR could not read) get no
    chunks at ingestion: the run ends finished, says so by its counts and
    invents nothing."""
    document = SourceDocument.objects.create(
        case=case,
        sha256=hashlib.sha256(b"blank").hexdigest(),
        filename="leer.pdf",
        size_bytes=1000,
        page_count=3,
        storage_name="test/blank.pdf",
    )
    Page.objects.bulk_create(
        Page(document=document, number=n, width=595, height=842, text="", ocr=True)
        for n in (1, 2, 3)
    )
    run = extraction_run_start(
        case=case, actor=lawyer, provider="rules", run_async=False
    )
    assert run.status == AgentRun.Status.FINISHED, run.reason
    assert (run.chunks_read, run.chunks_total) == (0, 0)
    assert run.steps == 0
    assert not ExtractionProposal.objects.filter(case=case).exists()
