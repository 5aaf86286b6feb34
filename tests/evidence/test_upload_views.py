"""The Documents tab: upload several files (refused ones shown per file),
progress polling that stops when a document is ready, roles and tenancy."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from evidence.models import SourceDocument, UploadRefusal
from evidence.services.ingest import documents_upload, source_document_ingest
from tests import factories
from tests.evidence import pdfs
from tests.evidence.pdfs import (  # noqa: F401
    as_upload,
    document_storage,
    stored_document,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("document_storage")]

# factory_boy is untyped.
CaseFactory: Any = factories.CaseFactory

HTMX = {"HTTP_HX_REQUEST": "true"}


def tab_url(case):
    return reverse("evidence:case_documents", args=[case.pk])


def test_lawyer_sees_the_upload_form(lawyer_client, case):
    response = lawyer_client.get(tab_url(case))
    assert response.status_code == 200
    body = response.content.decode()
    assert 'type="file"' in body and "multiple" in body
    assert "cases/case_tab.html" in [t.name for t in response.templates]


def test_reviewer_reads_documents_but_gets_no_upload_form(
    reviewer_client, lawyer, case
):
    documents_upload(
        actor=lawyer,
        case=case,
        uploads=[as_upload("mahnung.pdf", pdfs.dunning_letter())],
        dispatch=False,
    )
    response = reviewer_client.get(tab_url(case))
    assert response.status_code == 200
    body = response.content.decode()
    assert "mahnung.pdf" in body
    assert 'type="file"' not in body


def test_htmx_upload_answers_per_file_and_stores_the_good_ones(
    lawyer_client, case, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        response = lawyer_client.post(
            tab_url(case),
            {
                "files": [
                    as_upload("erinnerung.pdf", pdfs.reminder_letter()),
                    as_upload("foto.pdf", pdfs.jpeg_image()),
                    as_upload("mahnung.pdf", pdfs.dunning_letter()),
                ]
            },
            **HTMX,
        )
    assert response.status_code == 200
    body = response.content.decode()
    assert body.count('data-outcome="refused"') == 1
    assert 'data-code="not_pdf"' in body and "JPEG" in body
    assert body.count("data-document-id=") == 2
    assert 'hx-trigger="every 1s"' in body
    assert SourceDocument.objects.filter(case=case).count() == 2
    assert len(callbacks) == 2  # one ingestion task per stored document


def test_plain_post_redirects_back_to_the_tab(lawyer_client, case):
    response = lawyer_client.post(
        tab_url(case), {"files": [as_upload("z.pdf", pdfs.zip_archive())]}
    )
    assert response.status_code == 302
    assert UploadRefusal.objects.filter(case=case, code="not_pdf").exists()
    page = lawyer_client.get(tab_url(case)).content.decode()
    assert "z.pdf" in page and 'data-code="not_pdf"' in page


def test_reviewer_cannot_upload(reviewer_client, case):
    response = reviewer_client.post(
        tab_url(case),
        {"files": [as_upload("a.pdf", pdfs.reminder_letter())]},
        **HTMX,
    )
    assert response.status_code == 403
    assert not SourceDocument.objects.exists()


def test_progress_polls_until_ready_then_stops(lawyer, lawyer_client, case):
    [outcome] = documents_upload(
        actor=lawyer,
        case=case,
        uploads=[as_upload("m.pdf", pdfs.dunning_letter())],
        dispatch=False,
    )
    url = reverse(
        "evidence:document_progress", args=[case.pk, stored_document(outcome).pk]
    )
    pending = lawyer_client.get(url, **HTMX)
    assert pending.status_code == 200
    assert 'data-stage="stored"' in pending.content.decode()
    assert "<progress" in pending.content.decode()

    source_document_ingest(document=stored_document(outcome))
    done = lawyer_client.get(url, **HTMX)
    assert done.status_code == 286  # htmx stops polling
    body = done.content.decode()
    assert 'data-stage="ready"' in body and "hx-trigger" not in body


def test_failed_document_shows_its_error(lawyer, lawyer_client, case):
    from evidence import storage

    [outcome] = documents_upload(
        actor=lawyer,
        case=case,
        uploads=[as_upload("m.pdf", pdfs.dunning_letter())],
        dispatch=False,
    )
    storage.document_storage().delete(stored_document(outcome).storage_name)
    source_document_ingest(document=stored_document(outcome))
    body = lawyer_client.get(tab_url(case)).content.decode()
    assert 'data-stage="failed"' in body and "storage_missing" in body


def test_other_firm_gets_404(other_client, lawyer, case):
    [outcome] = documents_upload(
        actor=lawyer,
        case=case,
        uploads=[as_upload("m.pdf", pdfs.reminder_letter())],
        dispatch=False,
    )
    assert other_client.get(tab_url(case)).status_code == 404
    progress = reverse(
        "evidence:document_progress", args=[case.pk, stored_document(outcome).pk]
    )
    assert other_client.get(progress).status_code == 404
    response = other_client.post(
        tab_url(case), {"files": [as_upload("x.pdf", pdfs.dunning_letter())]}
    )
    assert response.status_code == 404
    assert SourceDocument.objects.count() == 1


def test_document_of_another_case_is_not_found_under_this_case(
    lawyer, lawyer_client, case
):

    other = CaseFactory(organisation=case.organisation)
    [outcome] = documents_upload(
        actor=lawyer,
        case=other,
        uploads=[as_upload("m.pdf", pdfs.reminder_letter())],
        dispatch=False,
    )
    url = reverse(
        "evidence:document_progress", args=[case.pk, stored_document(outcome).pk]
    )
    assert lawyer_client.get(url).status_code == 404
