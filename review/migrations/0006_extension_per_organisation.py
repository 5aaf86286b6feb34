"""Term candidates and extension versions belong to a firm (issue 13 item 6).

Existing rows move to their case's firm. The former global chain of extension
versions mixed the firms' terms (each version held the whole graph), so each
firm's chain is rebuilt by replaying that firm's accepted terms in their
former order, numbered 1..n per firm; a version whose term candidate is gone
(its case was erased) has no firm and is dropped with it. The reverse numbers
the per-firm versions in one global sequence again (by creation order) and
keeps each firm's graph.
"""

from __future__ import annotations

from typing import Any

import django.db.models.deletion
from django.db import migrations, models


def _forward(apps: Any, schema_editor: Any) -> None:
    from ontology.domain.vocabulary import vocabulary_graph
    from review.domain.extension import extension_term_add

    TermCandidate = apps.get_model("review", "TermCandidate")
    OntologyExtension = apps.get_model("review", "OntologyExtension")
    for candidate in TermCandidate.objects.select_related("case").iterator():
        candidate.organisation_id = candidate.case.organisation_id
        candidate.save(update_fields=["organisation"])
    rows = list(
        OntologyExtension.objects.select_related("term_candidate__case").order_by(
            "version"
        )
    )
    OntologyExtension.objects.all().delete()
    core = vocabulary_graph()
    turtle_by_org: dict[int, str] = {}
    versions: dict[int, int] = {}
    for row in rows:
        candidate = row.term_candidate
        if candidate is None:
            continue
        org_id = candidate.case.organisation_id
        version = versions.get(org_id, 0) + 1
        versions[org_id] = version
        turtle, _added = extension_term_add(
            turtle=turtle_by_org.get(org_id, ""),
            core=core,
            label=candidate.label,
            resolution=candidate.resolution,
            concept_iri=candidate.target_concept,
            version=version,
        )
        turtle_by_org[org_id] = turtle
        created = OntologyExtension.objects.create(
            organisation_id=org_id,
            version=version,
            turtle=turtle,
            created_by_id=row.created_by_id,
            term_candidate=candidate,
        )
        OntologyExtension.objects.filter(pk=created.pk).update(
            created_at=row.created_at
        )
        TermCandidate.objects.filter(pk=candidate.pk).update(extension_version=version)


def _reverse(apps: Any, schema_editor: Any) -> None:
    TermCandidate = apps.get_model("review", "TermCandidate")
    OntologyExtension = apps.get_model("review", "OntologyExtension")
    rows = list(OntologyExtension.objects.order_by("created_at", "id"))
    for number, row in enumerate(rows, start=1):
        OntologyExtension.objects.filter(pk=row.pk).update(version=number)
        if row.term_candidate_id is not None:
            TermCandidate.objects.filter(pk=row.term_candidate_id).update(
                extension_version=number
            )


class Migration(migrations.Migration):
    dependencies = [
        ("cases", "0002_audit_append_only"),
        ("review", "0005_decisions_append_only_facts_change_by_decision"),
    ]

    operations = [
        migrations.AddField(
            model_name="termcandidate",
            name="organisation",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="term_candidates",
                to="cases.organisation",
            ),
        ),
        migrations.AddField(
            model_name="ontologyextension",
            name="organisation",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="ontology_extensions",
                to="cases.organisation",
            ),
        ),
        migrations.AlterField(
            model_name="ontologyextension",
            name="version",
            field=models.PositiveIntegerField(),
        ),
        migrations.RunPython(_forward, _reverse),
        migrations.AlterField(
            model_name="termcandidate",
            name="organisation",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="term_candidates",
                to="cases.organisation",
            ),
        ),
        migrations.AlterField(
            model_name="ontologyextension",
            name="organisation",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="ontology_extensions",
                to="cases.organisation",
            ),
        ),
        migrations.AlterModelOptions(
            name="ontologyextension",
            options={
                "ordering": ["organisation", "-version"],
                "verbose_name": "ontology extension",
                "verbose_name_plural": "ontology extensions",
            },
        ),
        migrations.AddConstraint(
            model_name="ontologyextension",
            constraint=models.UniqueConstraint(
                fields=("organisation", "version"),
                name="ontology_extension_version_per_organisation",
            ),
        ),
    ]
