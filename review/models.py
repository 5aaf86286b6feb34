"""The review queue: what agents propose (``ExtractionProposal``,
``TermCandidate``). Agents write these only through the tool gate (the services
in ``review.services.proposals``); only a reviewer's decision turns a proposal
into a fact. Agent runs are referenced by plain integers: ``review`` must not
depend on ``agents``."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cases.models import Case, Organisation
from evidence.models import Chunk
from ontology.domain.facts import fact_status_established

# How long a reviewer's claim on a proposal keeps others away.
CLAIM_TTL = timedelta(minutes=15)


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
    # Added by the review app: who works on it (claim) and when it was decided.
    assignee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("assignee"),
    )
    claimed_at = models.DateTimeField(_("claimed"), null=True, blank=True)
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    superseded_by = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("superseded by"),
    )

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("extraction proposal")
        verbose_name_plural = _("extraction proposals")
        indexes = [
            models.Index(fields=["case", "status"]),
            models.Index(fields=["case", "fact_type", "source_chunk"]),
            # The queues: "next pending item" per case and firm-wide, keyset on id.
            models.Index(
                fields=["case", "status", "id"], name="review_prop_case_queue_idx"
            ),
            models.Index(fields=["status", "id"], name="review_prop_queue_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(confidence__gte=0) & models.Q(confidence__lte=1),
                name="proposal_confidence_0_1",
            )
        ]

    def __str__(self) -> str:
        return f"{self.fact_type} ({self.get_status_display()})"

    def claim_active(self, now: datetime | None = None) -> bool:
        """Whether someone holds an unexpired claim on this proposal."""
        moment = now if now is not None else timezone.now()
        return (
            self.assignee_id is not None
            and self.claimed_at is not None
            and self.claimed_at > moment - CLAIM_TTL
        )


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

    class Resolution(models.TextChoices):
        SYNONYM = "synonym", _("Synonym of an existing concept")
        SUBCLASS = "subclass", _("New subclass of an existing concept")
        NOISE = "noise", _("Noise")

    case = models.ForeignKey(
        Case, on_delete=models.CASCADE, related_name="term_candidates"
    )
    # The firm whose vocabulary an accepted term extends (the case's firm).
    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="term_candidates"
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
    # Added by the review app: the curator's decision.
    resolution = models.CharField(
        _("resolution"), max_length=16, choices=Resolution.choices, blank=True
    )
    target_concept = models.CharField(_("concept"), max_length=300, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    extension_version = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("term candidate")
        verbose_name_plural = _("term candidates")
        indexes = [models.Index(fields=["case", "status"])]

    def __str__(self) -> str:
        return f"{self.label} ({self.kind})"


class Fact(models.Model):
    """A fact of the case graph. Only a human decision creates or changes one
    (services in ``review.services.decisions``); agents never do. ``value`` has
    the proposal's typed JSON shape ({"date": ...}, {"cents", "currency"}, ...).
    ``evidenced_by`` is the first reviewer who accepted it: under four-eyes
    review a different reviewer must confirm."""

    class Status(models.TextChoices):
        ASSERTED = "asserted", _("Asserted")
        DISPUTED = "disputed", _("Disputed")
        EVIDENCED = "evidenced", _("Evidenced")
        CONFIRMED = "confirmed", _("Confirmed")
        # The decision that brought the fact into being was undone: the row
        # stays (facts are never deleted), it counts for nothing and pages
        # leave it out; accepting the same value again revives it.
        WITHDRAWN = "withdrawn", _("Withdrawn")

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="facts")
    fact_type = models.CharField(_("fact type"), max_length=64)
    value = models.JSONField(_("value"))
    status = models.CharField(_("status"), max_length=16, choices=Status.choices)
    proposal = models.ForeignKey(
        ExtractionProposal,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="facts",
        verbose_name=_("first proposal"),
    )
    evidenced_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    disputed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    dispute_reason = models.TextField(_("reason of the dispute"), blank=True)
    # The decision that brought the fact into its current state. The database
    # refuses a new or changed fact unless this points, by commit, at a newer
    # decision about it whose resulting status is the fact's (review migration
    # 0005); case, type and value never change.
    last_decision = models.ForeignKey(
        "Decision",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["fact_type", "id"]
        verbose_name = _("fact")
        verbose_name_plural = _("facts")
        indexes = [
            models.Index(fields=["case", "status"]),
            models.Index(fields=["case", "fact_type"]),
        ]

    def __str__(self) -> str:
        return f"{self.fact_type} ({self.get_status_display()})"

    @property
    def established(self) -> bool:
        """Whether the fact counts: the ontology's one rule
        (``ontology.domain.facts.fact_status_established``)."""
        return fact_status_established(
            self.status, four_eyes=self.case.organisation.four_eyes_review
        )


class FactEvidence(models.Model):
    """A chunk that evidences a fact, with the quote and the proposal that
    pointed at it."""

    fact = models.ForeignKey(Fact, on_delete=models.CASCADE, related_name="evidence")
    chunk = models.ForeignKey(Chunk, on_delete=models.PROTECT, related_name="+")
    quote = models.TextField(_("quote"), blank=True)
    proposal = models.ForeignKey(
        ExtractionProposal,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["fact", "chunk"], name="fact_evidence_unique_chunk"
            )
        ]

    def __str__(self) -> str:
        return f"fact {self.fact_id} ← chunk {self.chunk_id}"


class Decision(models.Model):
    """One human decision on a proposal or a fact. Append-only: the database
    refuses UPDATE and DELETE (review migration 0005) except for the whole-case
    erasure; each one is also an audit event."""

    class Kind(models.TextChoices):
        ACCEPT = "accept", _("Accept")
        EDIT_ACCEPT = "edit_accept", _("Edit, then accept")
        DISPUTE = "dispute", _("Dispute")
        REJECT = "reject", _("Reject")
        CONFIRM = "confirm", _("Confirm")
        ASSERT = "assert", _("Record as asserted")
        # A reviewer's own fact from a passage marked in the page viewer.
        MANUAL = "manual", _("Entered from a marked passage")
        # A compensating decision: the reviewer took back their last decision
        # within the undo window (review.services.undo).
        UNDO = "undo", _("Undo")

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("decision"), max_length=16, choices=Kind.choices)
    proposal = models.ForeignKey(
        ExtractionProposal,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="decisions",
    )
    fact = models.ForeignKey(
        Fact, on_delete=models.SET_NULL, null=True, blank=True, related_name="decisions"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    actor_label = models.CharField(max_length=150)
    reason = models.TextField(_("reason"), blank=True)
    value_before = models.JSONField(null=True, blank=True)
    value_after = models.JSONField(null=True, blank=True)
    status_after = models.CharField(max_length=16, blank=True)
    # A decision on a desk item that groups identical proposals of several
    # runs: the first proposal's decision leads, each twin's decision names
    # it, and an undo takes back the whole group (review.services.undo).
    group_leader = models.ForeignKey(
        "self",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="group_members",
    )
    created_at = models.DateTimeField(_("decided"), auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("decision")
        verbose_name_plural = _("decisions")
        indexes = [models.Index(fields=["case", "created_at"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} by {self.actor_label}"


class OntologyExtension(models.Model):
    """One version of the curator-accepted extension graph (Turtle). Each
    accepted term makes a new version holding the whole graph; the core
    ontology files are never rewritten. Per firm: a firm's curator extends
    only the firm's vocabulary, versions count per firm."""

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="ontology_extensions"
    )
    version = models.PositiveIntegerField()
    turtle = models.TextField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    term_candidate = models.ForeignKey(
        TermCandidate, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        ordering = ["organisation", "-version"]
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "version"],
                name="ontology_extension_version_per_organisation",
            )
        ]
        verbose_name = _("ontology extension")
        verbose_name_plural = _("ontology extensions")

    def __str__(self) -> str:
        return f"extension v{self.version}"
