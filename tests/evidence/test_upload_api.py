"""The documents API: multipart upload with a JSON answer per file, list and
retrieve with ingestion state, roles and tenancy."""

from __future__ import annotations

import pytest

from evidence.models import SourceDocument
from evidence.services.ingest import source_document_ingest
from tests.evidence import pdfs
from tests.evidence.pdfs import as_upload, document_storage  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("document_storage")]


def url(case, document_id=None):
    base = f"/api/v1/cases/{case.pk}/documents/"
    return f"{base}{document_id}/" if document_id else base


def test_multipart_upload_answers_per_file(lawyer_client, case):
    response = lawyer_client.post(
        url(case),
        {
            "files": [
                as_upload("mahnung.pdf", pdfs.dunning_letter()),
                as_upload("geheim.pdf", pdfs.encrypted()),
                as_upload("mahnung-kopie.pdf", pdfs.dunning_letter()),
            ]
        },
    )
    assert response.status_code == 201, response.content
    results = response.json()["results"]
    assert [r["status"] for r in results] == ["stored", "refused", "duplicate"]
    assert results[0]["document"]["ingestion"]["stage"] == "stored"
    assert results[0]["document"]["page_count"] == 1
    assert results[1]["code"] == "encrypted" and results[1]["message"]
    assert results[1]["document"] is None
    assert results[2]["document"]["id"] == results[0]["document"]["id"]


def test_all_refused_is_a_400_with_json_errors(lawyer_client, case):
    response = lawyer_client.post(
        url(case), {"files": [as_upload("leer.pdf", pdfs.zero_pages())]}
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "upload_refused"
    assert body["results"][0]["code"] == "no_pages"


def test_upload_without_files_is_a_validation_error(lawyer_client, case):
    response = lawyer_client.post(url(case), {})
    assert response.status_code == 400
    assert response.json()["code"] == "validation_error"


def test_reviewer_reads_but_cannot_upload(reviewer_client, lawyer_client, case):
    lawyer_client.post(
        url(case), {"files": [as_upload("a.pdf", pdfs.reminder_letter())]}
    )
    response = reviewer_client.post(
        url(case), {"files": [as_upload("b.pdf", pdfs.dunning_letter())]}
    )
    assert response.status_code == 403
    assert response.json()["code"] == "role_required"
    listing = reviewer_client.get(url(case))
    assert listing.status_code == 200
    assert [d["filename"] for d in listing.json()["results"]] == ["a.pdf"]


def test_retrieve_shows_the_ingestion_state(lawyer_client, case):
    created = lawyer_client.post(
        url(case), {"files": [as_upload("a.pdf", pdfs.with_empty_page())]}
    ).json()["results"][0]["document"]
    source_document_ingest(document=SourceDocument.objects.get(pk=created["id"]))
    body = lawyer_client.get(url(case, created["id"])).json()
    assert body["ingestion"]["stage"] == "ready"
    assert body["ingestion"]["pages"] == 2
    assert body["ingestion"]["percent"] == 100
    assert body["sha256"] == created["sha256"]


def test_other_firm_gets_404(other_client, lawyer_client, case):
    created = lawyer_client.post(
        url(case), {"files": [as_upload("a.pdf", pdfs.reminder_letter())]}
    ).json()["results"][0]["document"]
    assert other_client.get(url(case)).status_code == 404
    assert other_client.get(url(case, created["id"])).status_code == 404
    response = other_client.post(
        url(case), {"files": [as_upload("b.pdf", pdfs.dunning_letter())]}
    )
    assert response.status_code == 404
    assert SourceDocument.objects.count() == 1
