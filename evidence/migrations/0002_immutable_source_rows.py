"""Documents, pages and chunks are immutable at the database level. UPDATE is
always refused; DELETE only inside a transaction that ran
``SET LOCAL belegt.erasure = 'on'`` (the audited whole-case erasure service
``evidence.services.erasure.case_erase``). The search helper attaches the same
function to its embeddings table."""

from django.db import migrations

FUNCTION = """
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
"""

TABLES = ("evidence_sourcedocument", "evidence_page", "evidence_chunk")

FORWARD = FUNCTION + "".join(
    f"""
CREATE TRIGGER {table}_immutable
    BEFORE UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION belegt_refuse_change_unless_erasure();
"""
    for table in TABLES
)

REVERSE = (
    "".join(
        f"DROP TRIGGER IF EXISTS {table}_immutable ON {table};\n" for table in TABLES
    )
    + "DROP FUNCTION IF EXISTS belegt_refuse_change_unless_erasure();\n"
)


class Migration(migrations.Migration):
    dependencies = [("evidence", "0001_initial")]
    operations = [migrations.RunSQL(FORWARD, REVERSE)]
