"""The whole-case erasure no longer hangs on a setting any session can switch
(``SET LOCAL belegt.erasure = 'on'``). Instead:

- ``belegt_private.erasure_grant`` records, per transaction, the cases being
  erased. The schema is the owner's; the application role has no access to it.
- ``belegt_case_erase(case_id, event)`` (SECURITY DEFINER, so it runs as the
  owner role that ran this migration) checks the signed ``case.erased`` audit
  event it is given, records the grant for this transaction, deletes the case's
  embeddings, chunks, pages and documents, checks the counts against the event
  and inserts the event. There is no erasure without its audit event.
- ``belegt_erasure_active(case_id)`` (SECURITY DEFINER, read-only) tells the
  immutability triggers whether this transaction is erasing that case; the
  rest of the case (facts, decisions, issued reports) is then deleted by the
  service in the same transaction.
The triggers of the evidence tables now ask ``belegt_erasure_active`` for the
row's own case."""

from django.db import migrations

FORWARD = r"""
CREATE SCHEMA IF NOT EXISTS belegt_private;
REVOKE ALL ON SCHEMA belegt_private FROM PUBLIC;

CREATE TABLE belegt_private.erasure_grant (
    xact xid8 NOT NULL,
    case_id bigint NOT NULL,
    granted_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (xact, case_id)
);
REVOKE ALL ON belegt_private.erasure_grant FROM PUBLIC;

CREATE OR REPLACE FUNCTION belegt_erasure_active(p_case_id bigint)
RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT p_case_id IS NOT NULL AND EXISTS (
        SELECT 1 FROM belegt_private.erasure_grant g
         WHERE g.xact = pg_current_xact_id() AND g.case_id = p_case_id)
$$;

CREATE OR REPLACE FUNCTION belegt_case_erase(p_case_id bigint, p_event jsonb)
RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    counts jsonb := p_event -> 'data' -> 'counts';
    n_embeddings bigint;
    n_chunks bigint;
    n_pages bigint;
    n_documents bigint;
    event_id bigint;
BEGIN
    IF p_case_id IS NULL
       OR p_event ->> 'action' IS DISTINCT FROM 'case.erased'
       OR p_event ->> 'target_type' IS DISTINCT FROM 'cases.case'
       OR p_event ->> 'target_id' IS DISTINCT FROM p_case_id::text
       OR (p_event ->> 'case_id')::bigint IS DISTINCT FROM p_case_id
       OR coalesce(p_event ->> 'hash', '') = ''
       OR jsonb_typeof(counts) IS DISTINCT FROM 'object' THEN
        RAISE EXCEPTION 'erasing case % needs its case.erased audit event', p_case_id
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    PERFORM 1 FROM cases_case WHERE id = p_case_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no case %', p_case_id
            USING ERRCODE = 'no_data_found';
    END IF;
    INSERT INTO belegt_private.erasure_grant (xact, case_id)
    VALUES (pg_current_xact_id(), p_case_id) ON CONFLICT DO NOTHING;

    DELETE FROM evidence_chunkembedding e USING evidence_chunk c
     WHERE e.chunk_id = c.id AND c.case_id = p_case_id;
    GET DIAGNOSTICS n_embeddings = ROW_COUNT;
    DELETE FROM evidence_chunk WHERE case_id = p_case_id;
    GET DIAGNOSTICS n_chunks = ROW_COUNT;
    DELETE FROM evidence_page p USING evidence_sourcedocument d
     WHERE p.document_id = d.id AND d.case_id = p_case_id;
    GET DIAGNOSTICS n_pages = ROW_COUNT;
    DELETE FROM evidence_sourcedocument WHERE case_id = p_case_id;
    GET DIAGNOSTICS n_documents = ROW_COUNT;

    -- The event states what was removed; a row added meanwhile aborts it all.
    IF (counts ->> 'embeddings')::bigint IS DISTINCT FROM n_embeddings
       OR (counts ->> 'chunks')::bigint IS DISTINCT FROM n_chunks
       OR (counts ->> 'pages')::bigint IS DISTINCT FROM n_pages
       OR (counts ->> 'documents')::bigint IS DISTINCT FROM n_documents THEN
        RAISE EXCEPTION 'case % changed while it was being erased', p_case_id
            USING ERRCODE = 'serialization_failure',
                  HINT = 'Nothing was removed; try again.';
    END IF;

    INSERT INTO cases_auditevent (
        created_at, actor_id, actor_label, organisation_id, case_id, action,
        target_type, target_id, data, prev_hash, hash, key_id)
    VALUES (
        (p_event ->> 'created_at')::timestamptz,
        (p_event ->> 'actor_id')::bigint,
        p_event ->> 'actor_label',
        (p_event ->> 'organisation_id')::bigint,
        p_case_id,
        'case.erased',
        'cases.case',
        p_case_id::text,
        p_event -> 'data',
        p_event ->> 'prev_hash',
        p_event ->> 'hash',
        coalesce(p_event ->> 'key_id', ''))
    RETURNING id INTO event_id;

    RETURN jsonb_build_object(
        'event_id', event_id,
        'embeddings', n_embeddings,
        'chunks', n_chunks,
        'pages', n_pages,
        'documents', n_documents);
END;
$$;

CREATE OR REPLACE FUNCTION belegt_refuse_change_unless_erasure() RETURNS trigger AS $$
DECLARE
    old_row jsonb;
    row_case bigint;
BEGIN
    IF TG_OP = 'DELETE' THEN
        old_row := to_jsonb(OLD);
        IF old_row ? 'case_id' THEN
            row_case := (old_row ->> 'case_id')::bigint;
        ELSIF old_row ? 'document_id' THEN
            SELECT d.case_id INTO row_case FROM evidence_sourcedocument d
             WHERE d.id = (old_row ->> 'document_id')::bigint;
        ELSIF old_row ? 'chunk_id' THEN
            SELECT c.case_id INTO row_case FROM evidence_chunk c
             WHERE c.id = (old_row ->> 'chunk_id')::bigint;
        END IF;
        IF belegt_erasure_active(row_case) THEN
            RETURN OLD;
        END IF;
    END IF;
    RAISE EXCEPTION 'rows of % are immutable (% refused)', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'integrity_constraint_violation',
              HINT = 'Only the audited whole-case erasure may delete them.';
END;
$$ LANGUAGE plpgsql;
"""

# Back to the switchable setting of 0002 (only for migrating backwards).
REVERSE = r"""
CREATE OR REPLACE FUNCTION belegt_refuse_change_unless_erasure() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE'
       AND coalesce(current_setting('belegt.erasure', true), '') = 'on' THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'rows of % are immutable (% refused)', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'integrity_constraint_violation',
              HINT = 'Only the audited whole-case erasure may delete them.';
END;
$$ LANGUAGE plpgsql;
DROP FUNCTION IF EXISTS belegt_case_erase(bigint, jsonb);
DROP FUNCTION IF EXISTS belegt_erasure_active(bigint);
DROP TABLE IF EXISTS belegt_private.erasure_grant;
DROP SCHEMA IF EXISTS belegt_private;
"""


class Migration(migrations.Migration):
    dependencies = [
        ("cases", "0003_auditevent_key_id"),
        ("evidence", "0003_chunk_embeddings"),
    ]
    operations = [migrations.RunSQL(FORWARD, REVERSE)]
