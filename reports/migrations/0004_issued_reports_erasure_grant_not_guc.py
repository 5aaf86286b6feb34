"""Issued reports give way only to the whole-case erasure of their own case,
as recorded by ``belegt_case_erase`` for the current transaction
(``belegt_erasure_active``), no longer to the ``belegt.erasure`` setting that
any session could switch on."""

import importlib

from django.db import migrations

FORWARD = r"""
CREATE OR REPLACE FUNCTION reports_refuse_issued_change() RETURNS trigger AS $$
BEGIN
    IF OLD.status = 'issued' THEN
        IF TG_OP = 'DELETE' AND belegt_erasure_active(OLD.case_id) THEN
            RETURN OLD;
        END IF;
        RAISE EXCEPTION 'issued report % is immutable (% refused)', OLD.id, TG_OP
            USING ERRCODE = 'integrity_constraint_violation',
                  HINT = 'Regenerate: a new report is made.';
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION reports_refuse_child_change() RETURNS trigger AS $$
DECLARE
    report_ids bigint[];
    row_data jsonb;
BEGIN
    IF TG_OP = 'DELETE' THEN
        row_data := to_jsonb(OLD);
    ELSE
        row_data := to_jsonb(NEW);
    END IF;
    IF row_data ? 'report_id' THEN
        report_ids := ARRAY[(row_data->>'report_id')::bigint];
    ELSE
        SELECT array_agg(f.report_id) INTO report_ids
          FROM reports_finding f WHERE f.id = (row_data->>'finding_id')::bigint;
    END IF;
    IF TG_OP = 'UPDATE' THEN
        report_ids := report_ids || ARRAY[(to_jsonb(OLD)->>'report_id')::bigint];
    END IF;
    IF TG_TABLE_NAME = 'reports_reportstalemark' THEN
        IF TG_OP = 'INSERT' THEN
            RETURN NEW;
        END IF;
        IF TG_OP = 'UPDATE' THEN
            RAISE EXCEPTION 'stale marks are append-only (UPDATE refused)'
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
    END IF;
    -- During the erasure of a case only its own issued reports give way.
    IF EXISTS (SELECT 1 FROM reports_report r
               WHERE r.id = ANY(report_ids) AND r.status = 'issued'
                 AND NOT (TG_OP = 'DELETE' AND belegt_erasure_active(r.case_id))) THEN
        RAISE EXCEPTION 'rows of % belong to an issued report (% refused)',
            TG_TABLE_NAME, TG_OP
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
"""


def _reverse_sql() -> str:
    """The functions of 0002 (the setting), without its CREATE TRIGGERs."""
    old = importlib.import_module("reports.migrations.0002_issued_reports_immutable")
    return old.FORWARD.split("CREATE TRIGGER", 1)[0]


class Migration(migrations.Migration):
    dependencies = [
        ("evidence", "0004_case_erasure_through_definer_function"),
        ("reports", "0003_report_source_call_id"),
    ]
    operations = [migrations.RunSQL(FORWARD, _reverse_sql())]
