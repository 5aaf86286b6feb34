"""The review queue: what agents propose (``ExtractionProposal``,
``TermCandidate``). Agents write these only through the tool gate (the services
in ``review.services.proposals``); only a reviewer's decision turns a proposal
into a fact. Agent runs are referenced by plain integers: ``review`` must not
depend on ``agents``."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from cases.models import Case
from evidence.models import Chunk


class ExtractionProposal(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        ACCEPTED = "accepted", _("Accepted")
        REJECTED = "rejected", _("Rejected")
        SUPERSEDED = "superseded", _("Superseded")

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="proposals")
    fact_type = models.CharField(_("fact type"), max_length=64)
    value = models.JSONField(_("value"))
    source_chunk = models.ForeignKey(
        Chunk, on_delete=models.PROTECT, related_name="proposals"
    )
    quote = models.TextField(_("quote"))
    confidence = models.FloatField(_("confidence"))
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
    agent_run_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    agent_step_id = models.BigIntegerField(null=True, blank=True)
    model_id = models.CharField(_("model"), max_length=200, blank=True)
    call_id = models.CharField(max_length=200, unique=True)
    created_at = models.DateTimeField(_("proposed"), auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("extraction proposal")
        verbose_name_plural = _("extraction proposals")
        indexes = [
            models.Index(fields=["case", "status"]),
            models.Index(fields=["case", "fact_type", "source_chunk"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(confidence__gte=0) & models.Q(confidence__lte=1),
                name="proposal_confidence_0_1",
            )
        ]

    def __str__(self) -> str:
        return f"{self.fact_type} ({self.get_status_display()})"


class TermCandidate(models.Model):
    """A bottom-up suggestion for the ontology: an unknown document type or a
    new label for a known concept, seen in a chunk of a case."""

    class Kind(models.TextChoices):
        DOCUMENT_TYPE = "document_type", _("Document type")
        CONCEPT_LABEL = "concept_label", _("Label for a known concept")

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        ACCEPTED = "accepted", _("Accepted")
        REJECTED = "rejected", _("Rejected")

    case = models.ForeignKey(
        Case, on_delete=models.CASCADE, related_name="term_candidates"
    )
    label = models.CharField(_("label"), max_length=200)
    kind = models.CharField(_("kind"), max_length=32, choices=Kind.choices)
    source_chunk = models.ForeignKey(
        Chunk, on_delete=models.PROTECT, related_name="term_candidates"
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
    agent_run_id = models.BigIntegerField(null=True, blank=True)
    agent_step_id = models.BigIntegerField(null=True, blank=True)
    model_id = models.CharField(_("model"), max_length=200, blank=True)
    call_id = models.CharField(max_length=200, unique=True)
    created_at = models.DateTimeField(_("proposed"), auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("term candidate")
        verbose_name_plural = _("term candidates")
        indexes = [models.Index(fields=["case", "status"])]

    def __str__(self) -> str:
        return f"{self.label} ({self.kind})"
