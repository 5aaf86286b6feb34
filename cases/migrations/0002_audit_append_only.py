"""The audit log is append-only at the database level: UPDATE and DELETE raise."""

from django.db import migrations

FORWARD = """
CREATE OR REPLACE FUNCTION belegt_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'rows of % are immutable (% refused)', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER cases_auditevent_append_only
    BEFORE UPDATE OR DELETE ON cases_auditevent
    FOR EACH ROW EXECUTE FUNCTION belegt_refuse_change();
"""

REVERSE = """
DROP TRIGGER IF EXISTS cases_auditevent_append_only ON cases_auditevent;
DROP FUNCTION IF EXISTS belegt_refuse_change();
"""


class Migration(migrations.Migration):
    dependencies = [("cases", "0001_initial")]
    operations = [migrations.RunSQL(FORWARD, REVERSE)]
