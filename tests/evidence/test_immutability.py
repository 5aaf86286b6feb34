"""Documents, pages and chunks cannot be changed or removed by SQL; only the
audited whole-case erasure removes them, and the audit log keeps the record."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import IntegrityError, OperationalError, connection, transaction

from cases.audit import audit_event_prepare
from cases.errors import RoleRequired
from cases.models import AuditEvent, Case
from evidence import storage
from evidence.models import (
    Chunk,
    ChunkEmbedding,
    DocumentIngestion,
    Page,
    SourceDocument,
    UploadRefusal,
)
from evidence.services.erasure import _event_row, case_erase
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


@pytest.fixture
def document(lawyer, case):
    [outcome] = documents_upload(
        actor=lawyer,
        case=case,
        uploads=[as_upload("mahnung.pdf", pdfs.dunning_letter())],
        dispatch=False,
    )
    source_document_ingest(document=stored_document(outcome))
    return stored_document(outcome)


def run_sql(sql, params=None):
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params or [])


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE evidence_sourcedocument SET filename = 'x.pdf' WHERE id = %s",
        "DELETE FROM evidence_sourcedocument WHERE id = %s",
        "UPDATE evidence_page SET text = 'gefälscht' WHERE document_id = %s",
        "DELETE FROM evidence_page WHERE document_id = %s",
        "UPDATE evidence_chunk SET text = 'gefälscht' WHERE document_id = %s",
        "DELETE FROM evidence_chunk WHERE document_id = %s",
    ],
)
def test_raw_sql_cannot_change_or_remove_source_rows(document, sql):
    with pytest.raises(IntegrityError, match="immutable"):
        run_sql(sql, [document.pk])
    assert Page.objects.filter(document=document).exclude(text="gefälscht").exists()


def _erasure_grant(case: Case) -> dict[str, Any]:
    """Start the real erasure of ``case`` in the current transaction (the
    database function with the signed event), as ``case_erase`` does."""
    counts = {
        "embeddings": ChunkEmbedding.objects.filter(chunk__case=case).count(),
        "chunks": Chunk.objects.filter(case=case).count(),
        "pages": Page.objects.filter(document__case=case).count(),
        "refusals": 0,
        "documents": SourceDocument.objects.filter(case=case).count(),
    }
    DocumentIngestion.objects.filter(document__case=case).delete()
    event = audit_event_prepare(
        actor=None, action="case.erased", target=case, case=case,
        data={"counts": counts},
    )  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT belegt_case_erase(%s, %s::jsonb)",
            [case.pk, json.dumps(_event_row(event))],
        )
    return counts


def test_the_erasure_setting_no_longer_unlocks_deletes(document):
    """Issue 13 item 11: ``SET LOCAL belegt.erasure = 'on'`` used to switch the
    immutability off for any session."""
    with (
        pytest.raises(IntegrityError, match="immutable"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("SET LOCAL belegt.erasure = 'on'")
        cursor.execute(
            "DELETE FROM evidence_chunk WHERE document_id = %s", [document.pk]
        )
    assert Chunk.objects.filter(document=document).exists()


def test_erasure_function_refuses_without_its_audit_event(case, document):
    before = AuditEvent.objects.count()
    for event in ({}, {"action": "case.erased", "case_id": case.pk}):
        with (
            pytest.raises(IntegrityError, match="audit event"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(
                "SELECT belegt_case_erase(%s, %s::jsonb)", [case.pk, json.dumps(event)]
            )
    assert Chunk.objects.filter(document=document).exists()
    assert AuditEvent.objects.count() == before


def test_erasing_one_case_unlocks_neither_another_case_nor_updates(
    lawyer, case, document
):
    other = CaseFactory(organisation=case.organisation)
    for sql in (
        "DELETE FROM evidence_chunk WHERE case_id = %s",
        "DELETE FROM evidence_sourcedocument WHERE case_id = %s",
        "UPDATE evidence_chunk SET text = 'x' WHERE case_id = %s",
    ):
        with (
            pytest.raises(IntegrityError, match="immutable"),
            transaction.atomic(),
        ):
            _erasure_grant(other)
            run_sql(sql, [case.pk])
    assert Chunk.objects.filter(document=document).exists()


def test_erasure_counts_must_match_what_is_removed(case, document):
    with pytest.raises(OperationalError, match="changed while"), transaction.atomic():
        event = audit_event_prepare(
            actor=None, action="case.erased", target=case, case=case,
            data={"counts": {"embeddings": 0, "chunks": 0, "pages": 0,
                             "documents": 0}},
        )  # fmt: skip
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT belegt_case_erase(%s, %s::jsonb)",
                [case.pk, json.dumps(_event_row(event))],
            )
    assert Chunk.objects.filter(document=document).exists()


@pytest.mark.django_db(transaction=True)
def test_erasure_grant_does_not_outlive_its_transaction(document):
    with pytest.raises(IntegrityError), transaction.atomic():
        _erasure_grant(document.case)
        raise IntegrityError("roll the erasure back")
    with pytest.raises(IntegrityError):
        run_sql("DELETE FROM evidence_chunk WHERE document_id = %s", [document.pk])
    assert Chunk.objects.filter(document=document).exists()


def test_orm_update_is_refused_too(document):
    with pytest.raises(IntegrityError), transaction.atomic():
        SourceDocument.objects.filter(pk=document.pk).update(filename="neu.pdf")


def test_case_erasure_removes_everything_and_is_audited(
    admin_member, case, document, settings
):
    documents_upload(
        actor=admin_member,
        case=case,
        uploads=[as_upload("foto.pdf", pdfs.jpeg_image())],
        dispatch=False,
    )
    audit_before = list(AuditEvent.objects.values_list("id", "hash"))
    name = document.storage_name
    case_id = case.pk
    counts = case_erase(actor=admin_member, case=case)

    assert counts["documents"] == 1 and counts["pages"] == 1 and counts["files"] == 1
    assert counts["chunks"] >= 1
    assert not Case.objects.filter(pk=case.pk).exists()
    for model in (SourceDocument, Page, Chunk, DocumentIngestion, UploadRefusal):
        assert not model.objects.exists(), model
    assert not storage.document_storage().exists(name)
    # The audit log keeps every earlier row and records the erasure.
    audit_after = list(AuditEvent.objects.values_list("id", "hash"))
    assert audit_after[: len(audit_before)] == audit_before
    erased = AuditEvent.objects.get(action="case.erased")
    assert erased.case_id == case_id
    assert erased.data["counts"]["documents"] == 1


def test_erasure_keeps_bytes_another_case_still_uses(admin_member, lawyer, case):
    other = CaseFactory(organisation=case.organisation)
    data = pdfs.reminder_letter()
    for target in (case, other):
        documents_upload(
            actor=lawyer,
            case=target,
            uploads=[as_upload("e.pdf", data)],
            dispatch=False,
        )
    name = SourceDocument.objects.get(case=other).storage_name
    counts = case_erase(actor=admin_member, case=case)
    assert counts["files"] == 0
    assert storage.document_bytes_read(name) == data
    assert SourceDocument.objects.filter(case=other).count() == 1


def test_only_administrators_erase(lawyer, case, document):
    with pytest.raises(RoleRequired):
        case_erase(actor=lawyer, case=case)
    assert SourceDocument.objects.filter(pk=document.pk).exists()


def test_audit_rows_cannot_be_deleted_even_during_erasure(document):
    with pytest.raises(IntegrityError), transaction.atomic():
        _erasure_grant(document.case)
        run_sql("DELETE FROM cases_auditevent")
