"""Retrying a failed document from the document card (htmx button
"Erneut versuchen"), the API and ``manage.py retry_documents``: each queues
the ingestion again through ``source_document_retry``, once; a reviewer may
not, another firm gets 404, an unreadable document is refused with 409."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from evidence.models import DocumentIngestion, SourceDocument
from evidence.services import ingest
from evidence.services.ingest import documents_upload
from tests.evidence import pdfs
from tests.evidence.pdfs import as_upload, document_storage  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("document_storage")]

Stage = DocumentIngestion.Stage


@pytest.fixture
def dispatched(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    queued: list[int] = []
    monkeypatch.setattr(ingest, "_dispatch", queued.append)
    return queued


def _failed(lawyer, case, *, retryable=True, name="mahnung.pdf", data=None):
    [outcome] = documents_upload(
        actor=lawyer,
        case=case,
        uploads=[as_upload(name, data or pdfs.reminder_letter())],
        dispatch=False,
    )
    document = outcome.document
    assert isinstance(document, SourceDocument)
    DocumentIngestion.objects.filter(document=document).update(
        stage=Stage.FAILED,
        error_code="embedder_unavailable" if retryable else "damaged",
        error_message="Der Einbettungsdienst antwortet nicht.",
        retryable=retryable,
    )
    return document


def _stage(document) -> str:
    return DocumentIngestion.objects.get(document=document).stage


def test_the_card_of_a_failed_retryable_document_offers_the_retry_button(
    lawyer_client, lawyer, case
):
    document = _failed(lawyer, case)
    unreadable = _failed(
        lawyer, case, retryable=False, name="kaputt.pdf", data=pdfs.dunning_letter()
    )
    page = lawyer_client.get(reverse("evidence:case_documents", args=[case.pk]))
    html = page.content.decode()
    retry = reverse("evidence:document_retry", args=[case.pk, document.pk])
    assert f'hx-post="{retry}"' in html
    assert "Erneut versuchen" in html
    no_retry = reverse("evidence:document_retry", args=[case.pk, unreadable.pk])
    assert no_retry not in html


def test_the_button_queues_the_document_once_and_its_card_polls_again(
    lawyer_client, lawyer, case, dispatched, django_capture_on_commit_callbacks
):
    document = _failed(lawyer, case)
    url = reverse("evidence:document_retry", args=[case.pk, document.pk])

    with django_capture_on_commit_callbacks(execute=True):
        first = lawyer_client.post(url, HTTP_HX_REQUEST="true")
    with django_capture_on_commit_callbacks(execute=True):
        second = lawyer_client.post(url, HTTP_HX_REQUEST="true")

    assert first.status_code == 200 and second.status_code == 200
    assert dispatched == [document.pk]
    assert _stage(document) == Stage.STORED
    html = first.content.decode()
    assert 'data-stage="stored"' in html and 'hx-trigger="every 1s"' in html


def test_a_reviewer_sees_no_button_and_cannot_retry(
    reviewer_client, lawyer, case, dispatched
):
    document = _failed(lawyer, case)
    page = reviewer_client.get(reverse("evidence:case_documents", args=[case.pk]))
    assert "Erneut versuchen" not in page.content.decode()
    url = reverse("evidence:document_retry", args=[case.pk, document.pk])

    answer = reviewer_client.post(url, HTTP_HX_REQUEST="true")
    api = reviewer_client.post(
        f"/api/v1/cases/{case.pk}/documents/{document.pk}/retry/"
    )

    assert answer.status_code == 403 and api.status_code == 403
    assert api.json()["code"] == "role_required"
    assert dispatched == [] and _stage(document) == Stage.FAILED


def test_another_firm_gets_404_on_the_page_and_the_api(
    other_client, lawyer, case, dispatched
):
    document = _failed(lawyer, case)
    page = other_client.post(
        reverse("evidence:document_retry", args=[case.pk, document.pk])
    )
    api = other_client.post(f"/api/v1/cases/{case.pk}/documents/{document.pk}/retry/")
    assert page.status_code == 404 and api.status_code == 404
    assert dispatched == [] and _stage(document) == Stage.FAILED


def test_the_api_queues_a_failed_document_and_refuses_an_unreadable_one(
    lawyer_client, lawyer, case, dispatched, django_capture_on_commit_callbacks
):
    document = _failed(lawyer, case)
    unreadable = _failed(
        lawyer, case, retryable=False, name="kaputt.pdf", data=pdfs.dunning_letter()
    )
    base = f"/api/v1/cases/{case.pk}/documents/"

    with django_capture_on_commit_callbacks(execute=True):
        queued = lawyer_client.post(f"{base}{document.pk}/retry/")
        again = lawyer_client.post(f"{base}{document.pk}/retry/")
        refused = lawyer_client.post(f"{base}{unreadable.pk}/retry/")

    assert queued.status_code == 202, queued.content
    assert queued.json()["ingestion"]["stage"] == "stored"
    assert again.status_code == 200
    assert refused.status_code == 409
    assert refused.json()["code"] == "ingestion_not_retryable"
    assert dispatched == [document.pk]


def test_the_command_retries_the_failed_documents_of_a_case_or_one(
    lawyer, case, dispatched, capsys, django_capture_on_commit_callbacks
):
    first = _failed(lawyer, case)
    second = _failed(lawyer, case, name="b.pdf", data=pdfs.dunning_letter())

    with django_capture_on_commit_callbacks(execute=True):
        call_command("retry_documents", "--case", case.reference)

    assert sorted(dispatched) == sorted([first.pk, second.pk])
    assert "2 document(s) queued again" in capsys.readouterr().out
    unreadable = _failed(
        lawyer, case, retryable=False, name="c.pdf", data=pdfs.case_file(2)
    )
    with pytest.raises(CommandError, match="c.pdf"):
        call_command("retry_documents", "--document", str(unreadable.pk))
    with pytest.raises(CommandError, match="No document"):
        call_command("retry_documents", "--document", "999999")
