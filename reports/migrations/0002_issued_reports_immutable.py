"""An issued report and everything that belongs to it are immutable in the
database. UPDATE and DELETE of an issued report, and INSERT, UPDATE and DELETE
of its findings, citations, verdicts, exports and stale marks, are refused —
except DELETE inside the audited whole-case erasure (``belegt.erasure``).
Draft reports change freely; issuing is the conditional update
draft → issued (the trigger sees OLD.status = 'draft'). Stale marks are
appended to issued reports; they can be neither changed nor removed."""

from django.db import migrations

FORWARD = """
CREATE OR REPLACE FUNCTION reports_refuse_issued_change() RETURNS trigger AS $$
BEGIN
    IF OLD.status = 'issued' THEN
        IF TG_OP = 'DELETE'
           AND coalesce(current_setting('belegt.erasure', true), '') = 'on' THEN
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
    IF EXISTS (SELECT 1 FROM reports_report r
               WHERE r.id = ANY(report_ids) AND r.status = 'issued') THEN
        IF TG_OP = 'DELETE'
           AND coalesce(current_setting('belegt.erasure', true), '') = 'on' THEN
            RETURN OLD;
        END IF;
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

CREATE TRIGGER reports_report_issued_immutable
    BEFORE UPDATE OR DELETE ON reports_report
    FOR EACH ROW EXECUTE FUNCTION reports_refuse_issued_change();
"""

CHILDREN = (
    "reports_finding",
    "reports_findingcitation",
    "reports_gateverdict",
    "reports_reportexport",
    "reports_reportstalemark",
    "reports_report_claims",
)

FORWARD += "".join(
    f"""
CREATE TRIGGER {table}_issued_immutable
    BEFORE INSERT OR UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION reports_refuse_child_change();
"""
    for table in CHILDREN
)

REVERSE = (
    "".join(
        f"DROP TRIGGER IF EXISTS {table}_issued_immutable ON {table};\n"
        for table in CHILDREN
    )
    + "DROP TRIGGER IF EXISTS reports_report_issued_immutable ON reports_report;\n"
    + "DROP FUNCTION IF EXISTS reports_refuse_child_change();\n"
    + "DROP FUNCTION IF EXISTS reports_refuse_issued_change();\n"
)


class Migration(migrations.Migration):
    dependencies = [("reports", "0001_reports_findings_verdicts")]
    operations = [migrations.RunSQL(FORWARD, REVERSE)]
