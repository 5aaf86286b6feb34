"""Each fact names the decision that brought it into its current state
(backfilled with the newest decision about it)."""

import django.db.models.deletion
from django.db import migrations, models

BACKFILL = """
UPDATE review_fact f
   SET last_decision_id = (SELECT max(d.id) FROM review_decision d
                            WHERE d.fact_id = f.id)
 WHERE f.last_decision_id IS NULL;
"""


class Migration(migrations.Migration):
    dependencies = [
        ("review", "0003_decision_kind_assert"),
    ]

    operations = [
        migrations.AddField(
            model_name="fact",
            name="last_decision",
            field=models.ForeignKey(
                blank=True,
                editable=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="review.decision",
            ),
        ),
        migrations.RunSQL(BACKFILL, migrations.RunSQL.noop),
    ]
