"""Issue 13 item 11: the application's database role can neither switch the
immutability off nor bypass it, and the whole-case erasure cannot be unlocked
with a setting.

Two ways in: inside the test database, ``SET LOCAL ROLE`` to an application
role that holds exactly the privileges ``config.db_roles`` grants (rolled back
with the test); and a scratch database set up by ``database_roles_ensure`` and
migrated by ``manage.py migrate`` as the owner role, checked from the outside."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.db import DatabaseError, IntegrityError, connection, transaction

from cases.audit import audit_integrity_verify
from cases.models import AuditEvent, Case
from config.db_roles import (
    APP_TABLE_PRIVILEGES,
    database_roles_ensure,
    url_with_role,
)
from evidence.models import Chunk, SourceDocument
from evidence.services.erasure import case_erase
from review.models import Decision, Fact
from review.services.decisions import fact_dispute, proposal_accept
from tests.evidence import pdfs
from tests.evidence.pdfs import as_upload, document_storage, stored_document  # noqa: F401
from tests.review.helpers import make_proposal

BASE_DIR = Path(__file__).resolve().parent.parent

# What an attacker with the application's connection would try first.
SWITCH_OFF = [
    "TRUNCATE evidence_chunk",
    "TRUNCATE cases_auditevent",
    "ALTER TABLE evidence_chunk DISABLE TRIGGER ALL",
    "ALTER TABLE review_decision DISABLE TRIGGER review_decision_append_only",
    "SET session_replication_role = replica",
    "DROP TRIGGER cases_auditevent_append_only ON cases_auditevent",
    "DROP FUNCTION belegt_erasure_active(bigint)",
    "CREATE OR REPLACE FUNCTION belegt_erasure_active(bigint) RETURNS boolean "
    "LANGUAGE sql AS 'SELECT true'",
    "INSERT INTO belegt_private.erasure_grant (xact, case_id) "
    "VALUES (pg_current_xact_id(), 1)",
    "CREATE TABLE public.smuggled (i int)",
]


def _app_role_in_this_transaction() -> str:
    """An application role with exactly the grants of ``config.db_roles``,
    active for the rest of the test's transaction (all of it rolls back)."""
    role = f"belegt_app_test_{uuid.uuid4().hex[:8]}"
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE ROLE {role} NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT"
        )
        cursor.execute(f"GRANT USAGE ON SCHEMA public TO {role}")
        cursor.execute(
            f"GRANT {APP_TABLE_PRIVILEGES} ON ALL TABLES IN SCHEMA public TO {role}"
        )
        cursor.execute(f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {role}")
        cursor.execute(f"SET LOCAL ROLE {role}")
    return role


@pytest.fixture
def document(lawyer, case, document_storage):  # noqa: F811
    from evidence.services.ingest import documents_upload, source_document_ingest

    [outcome] = documents_upload(
        actor=lawyer,
        case=case,
        uploads=[as_upload("mahnung.pdf", pdfs.dunning_letter())],
        dispatch=False,
    )
    source_document_ingest(document=stored_document(outcome))
    return stored_document(outcome)


@pytest.mark.django_db
@pytest.mark.parametrize("sql", SWITCH_OFF)
def test_the_app_role_cannot_switch_off_or_bypass_the_triggers(sql):
    _app_role_in_this_transaction()
    with (
        pytest.raises(DatabaseError, match="permission denied|must be owner"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql)


@pytest.mark.django_db
def test_the_app_role_setting_the_erasure_guc_cannot_delete_a_chunk(document):
    _app_role_in_this_transaction()
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


@pytest.mark.django_db
def test_the_erasure_service_works_as_the_app_role_and_is_audited(
    admin_member, reviewer, case, document
):
    chunk = Chunk.objects.filter(document=document).first()
    fact = proposal_accept(proposal=make_proposal(case, chunk=chunk), reviewer=reviewer)
    fact_dispute(fact=fact, reviewer=reviewer, reason="bestritten")
    case_id = case.pk
    _app_role_in_this_transaction()

    counts = case_erase(actor=admin_member, case=case)

    assert counts["documents"] == 1 and counts["chunks"] >= 1
    assert not Case.objects.filter(pk=case_id).exists()
    assert not SourceDocument.objects.filter(case_id=case_id).exists()
    assert not Fact.objects.filter(case_id=case_id).exists()
    assert not Decision.objects.filter(case_id=case_id).exists()
    erased = AuditEvent.objects.get(action="case.erased", case_id=case_id)
    assert erased.data["counts"]["documents"] == 1 and erased.key_id
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    assert audit_integrity_verify().ok


# ------------------------------------------------------------ a scratch database
def _admin_url(database: str) -> str:
    db = settings.DATABASES["default"]
    user, password = db.get("USER") or "postgres", db.get("PASSWORD") or ""
    host, port = db.get("HOST") or "", db.get("PORT") or ""
    auth = f"{user}:{password}@" if password else f"{user}@"
    if host.startswith("/"):
        return f"postgresql://{auth}/{database}?host={host}"
    return f"postgresql://{auth}{host}{':' + str(port) if port else ''}/{database}"


def _is_superuser() -> bool:
    with psycopg.connect(_admin_url("postgres")) as conn:
        row = conn.execute(
            "SELECT rolsuper FROM pg_roles WHERE rolname = current_user"
        ).fetchone()
    return bool(row and row[0])


@pytest.fixture
def scratch_database():
    """A database of its own with roles of their own, dropped afterwards."""
    if not _is_superuser():
        pytest.skip("needs a superuser connection to create roles and a database")
    suffix = uuid.uuid4().hex[:8]
    name = f"belegt_roles_{suffix}"
    owner, app = f"belegt_owner_{suffix}", f"belegt_app_{suffix}"
    with psycopg.connect(_admin_url("postgres"), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    with psycopg.connect(_admin_url(name), autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    try:
        yield {"name": name, "owner": owner, "app": app, "admin": _admin_url(name)}
    finally:
        with psycopg.connect(_admin_url("postgres"), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            for role in (app, owner):
                conn.execute(f'DROP ROLE IF EXISTS "{role}"')


def _try(url: str, sql: str) -> str:
    with psycopg.connect(url, autocommit=True) as conn:
        try:
            conn.execute(sql)
        except psycopg.Error as exc:
            return type(exc).__name__
    return "allowed"


@pytest.mark.django_db
def test_a_database_migrated_by_the_owner_leaves_the_app_role_rows_only(
    scratch_database,
):
    db: dict[str, Any] = scratch_database
    for _ in range(2):  # idempotent
        database_roles_ensure(admin_url=db["admin"], owner=db["owner"], app=db["app"])
    owner_url = url_with_role(db["admin"], db["owner"])
    app_url = url_with_role(db["admin"], db["app"])
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DATABASE_URL": app_url,
        "DATABASE_OWNER_URL": owner_url,
        "CELERY_BROKER_URL": "memory://",
    }
    migrated = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert migrated.returncode == 0, migrated.stderr[-3000:]

    with psycopg.connect(db["admin"]) as conn:
        owners: dict[str, str] = dict(
            conn.execute(
                "SELECT c.relname, pg_get_userbyid(c.relowner) FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = 'public' AND c.relkind = 'r'"
            ).fetchall()
        )
        erase_fn = conn.execute(
            "SELECT pg_get_userbyid(proowner), prosecdef FROM pg_proc "
            "WHERE proname = 'belegt_case_erase'"
        ).fetchone()
        app_attrs = conn.execute(
            "SELECT rolsuper, rolcreatedb, rolcreaterole, rolbypassrls "
            "FROM pg_roles WHERE rolname = %s",
            (db["app"],),
        ).fetchone()
        owned_by_app = conn.execute(
            "SELECT count(*) FROM pg_class WHERE relowner = %s::regrole", (db["app"],)
        ).fetchone() == (0,)
    assert set(owners.values()) == {db["owner"]}, owners
    assert erase_fn == (db["owner"], True)
    assert app_attrs == (False, False, False, False) and owned_by_app

    # The application works with rows ...
    with psycopg.connect(app_url, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO cases_auditevent (created_at, actor_label, action, "
            "target_type, target_id, data, prev_hash, hash, key_id) VALUES "
            "(now(), 'x', 'probe', '', '', '{}', 'p', 'h', '')"
        )
        assert conn.execute("SELECT count(*) FROM django_migrations").fetchone() != (0,)
    # ... and cannot switch anything off.
    refused = {sql: _try(app_url, sql) for sql in SWITCH_OFF}
    assert set(refused.values()) == {"InsufficientPrivilege"}, refused
    # The erasure setting unlocks nothing, and the grant table is out of reach.
    with psycopg.connect(app_url) as conn:
        with pytest.raises(psycopg.Error, match="immutable"):
            conn.execute("SET LOCAL belegt.erasure = 'on'")
            conn.execute("DELETE FROM cases_auditevent")
        conn.rollback()

    # A table a later migration (the owner) creates is granted by default.
    with psycopg.connect(owner_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE later_table (id bigserial PRIMARY KEY, v text)")
    assert _try(app_url, "INSERT INTO later_table (v) VALUES ('x')") == "allowed"
    assert _try(app_url, "TRUNCATE later_table") == "InsufficientPrivilege"
