"""Each chunk's full-text vector also holds its case's lexeme ("case:17"), so
per-case full text is one GIN scan of "query words AND this case" instead of
reading and testing every chunk of the case (issue 14 item 9,
benchmarks/README.md).

PostgreSQL 17+ recomputes a stored generated column in place (``SET
EXPRESSION``: the table is rewritten, existing chunks get the lexeme, the GIN
index on the column is rebuilt); Django cannot alter a generated field, so the
database part is SQL and the state part the model's new expression. A table
rewrite fires no row triggers: the chunks' immutability is untouched.
Reversible: the reverse sets the former expression."""

import django.contrib.postgres.search
from django.db import migrations, models

import evidence.models.documents

TEXT_VECTOR = (
    "to_tsvector('german'::regconfig, COALESCE(text, ''::text))"
    " || to_tsvector('simple'::regconfig, COALESCE(text, ''::text))"
)
CASE_LEXEME = "array_to_tsvector(ARRAY['case:'::text || (case_id)::text])"

FORWARD = (
    "ALTER TABLE evidence_chunk ALTER COLUMN search_vector"
    f" SET EXPRESSION AS (({TEXT_VECTOR}) || {CASE_LEXEME})"
)
BACKWARD = (
    "ALTER TABLE evidence_chunk ALTER COLUMN search_vector"
    f" SET EXPRESSION AS ({TEXT_VECTOR})"
)


class Migration(migrations.Migration):
    dependencies = [
        ("evidence", "0005_ingestion_retryable"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(FORWARD, BACKWARD),
                migrations.RunSQL("ANALYZE evidence_chunk", migrations.RunSQL.noop),
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="chunk",
                    name="search_vector",
                    field=models.GeneratedField(
                        db_persist=True,
                        expression=django.contrib.postgres.search.CombinedSearchVector(
                            django.contrib.postgres.search.CombinedSearchVector(
                                django.contrib.postgres.search.SearchVector(
                                    "text", config="german"
                                ),
                                "||",
                                django.contrib.postgres.search.SearchVector(
                                    "text", config="simple"
                                ),
                                django.contrib.postgres.search.SearchConfig("german"),
                            ),
                            "||",
                            evidence.models.documents.CaseLexeme("case_id"),
                            django.contrib.postgres.search.SearchConfig("german"),
                        ),
                        output_field=django.contrib.postgres.search.SearchVectorField(),
                    ),
                ),
            ],
        ),
    ]
