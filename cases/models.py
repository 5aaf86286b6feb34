"""Firms, their members and roles, cases with parties and claims, and the
append-only audit log."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Organisation(models.Model):
    """A law firm (or a compliance team): the unit of tenancy."""

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    four_eyes_review = models.BooleanField(
        _("four-eyes review"),
        default=False,
        help_text=_("A second reviewer must confirm what the first accepted."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("organisation")
        verbose_name_plural = _("organisations")

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A person's place in exactly one firm, with one role."""

    class Role(models.TextChoices):
        LAWYER = "lawyer", _("Lawyer")
        REVIEWER = "reviewer", _("Reviewer")
        CURATOR = "curator", _("Curator")
        ADMIN = "admin", _("Administrator")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="membership"
    )
    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=16, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}, {self.organisation})"


class Case(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")
        ARCHIVED = "archived", _("Archived")

    organisation = models.ForeignKey(
        Organisation, on_delete=models.PROTECT, related_name="cases"
    )
    reference = models.CharField(_("file reference (Aktenzeichen)"), max_length=64)
    title = models.CharField(_("title"), max_length=255)
    client = models.CharField(_("client"), max_length=255)
    description = models.TextField(_("description"), blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.OPEN
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        verbose_name = _("case")
        verbose_name_plural = _("cases")
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "reference"], name="case_reference_unique"
            )
        ]
        indexes = [models.Index(fields=["organisation", "-updated_at"])]

    def __str__(self) -> str:
        return f"{self.reference} – {self.title}"


class Party(models.Model):
    class Role(models.TextChoices):
        CREDITOR = "creditor", _("Creditor (Gläubiger)")
        DEBTOR = "debtor", _("Debtor (Schuldner)")
        OTHER = "other", _("Other")

    class Kind(models.TextChoices):
        CONSUMER = "consumer", _("Consumer (Verbraucher)")
        BUSINESS = "business", _("Business (Unternehmer)")

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="parties")
    role = models.CharField(_("role"), max_length=16, choices=Role.choices)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    name = models.CharField(_("name"), max_length=255)
    address = models.TextField(_("address"), blank=True)

    class Meta:
        ordering = ["role", "name"]
        verbose_name = _("party")
        verbose_name_plural = _("parties")

    def __str__(self) -> str:
        return f"{self.name} ({self.get_role_display()})"


class Claim(models.Model):
    """A claim or compliance checklist the case is checked against."""

    class ClaimType(models.TextChoices):
        VERZUGSSCHADEN = "verzugsschaden", _("Verzugsschaden (§§ 280, 286 BGB)")
        AI_ACT_HIGH_RISK = "ai_act_high_risk", _("EU AI Act: high-risk provider")
        GDPR = "gdpr", _("GDPR / DSGVO")
        DORA = "dora", _("DORA")

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="claims")
    claim_type = models.CharField(
        _("claim type"), max_length=32, choices=ClaimType.choices
    )
    jurisdiction = models.CharField(_("jurisdiction"), max_length=8, default="DE")
    valid_at = models.DateField(
        _("valid at"), help_text=_("The date whose law applies.")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("claim")
        verbose_name_plural = _("claims")

    def __str__(self) -> str:
        return f"{self.get_claim_type_display()} ({self.jurisdiction}, {self.valid_at})"


class AuditEvent(models.Model):
    """Append-only: the database refuses UPDATE and DELETE (trigger in the
    migration). Each row carries the hash of the previous one, keyed with the
    audit key named by ``key_id`` (HMAC, ``cases.audit``), so a forged or
    removed row breaks the chain (``manage.py audit_verify``). Actor, case and
    organisation are stored as plain values, not foreign keys, so that the
    record outlives what it records (a case erasure is itself an event)."""

    created_at = models.DateTimeField()
    actor_id = models.BigIntegerField(null=True)
    actor_label = models.CharField(max_length=150)
    organisation_id = models.BigIntegerField(null=True, db_index=True)
    case_id = models.BigIntegerField(null=True, db_index=True)
    action = models.CharField(max_length=64)
    target_type = models.CharField(max_length=64, blank=True)
    target_id = models.CharField(max_length=64, blank=True)
    data = models.JSONField(default=dict)
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64, unique=True)
    # Which audit key signed the row; empty for rows from before keying.
    key_id = models.CharField(max_length=32, blank=True, default="")

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor_label} {self.action}"


class WorkerPing(models.Model):
    """A round trip through the task queue: the health page dispatches one and
    a worker marks it done, which proves a worker is consuming."""

    created_at = models.DateTimeField(auto_now_add=True)
    done_at = models.DateTimeField(null=True)
    worker = models.CharField(max_length=255, blank=True)

    def __str__(self) -> str:
        return f"ping {self.pk} ({'done' if self.done_at else 'pending'})"
