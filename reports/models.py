"""Reports: a report of a case, its findings, the citations found in each
finding's final text, every gate verdict, and the exported files.

An issued report is immutable in the database: triggers (migration 0002)
refuse UPDATE and DELETE of an issued report and of the rows that belong to
it. The one change a report may still undergo after issuing — becoming stale
because the pinned corpus changed — is an appended ``ReportStaleMark`` row,
never an update of the report."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from cases.models import Case, Claim


class Report(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        ISSUED = "issued", _("issued")

    class Drafter(models.TextChoices):
        RULES = "rules", _("rules-based templates")
        MODEL = "model", _("model provider (approved evidence only)")

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="reports")
    claims = models.ManyToManyField(Claim, related_name="reports")
    title = models.CharField(_("title"), max_length=255)
    language = models.CharField(_("language"), max_length=5, default="en")
    drafter = models.CharField(
        _("drafted by"), max_length=8, choices=Drafter.choices, default="rules"
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.DRAFT
    )
    corpus_versions = models.JSONField(
        _("pinned corpus versions"),
        default=list,
        help_text=_("Instrument, language, valid from, label and SHA-256 of each."),
    )
    summary = models.JSONField(_("summary"), default=dict)
    model_refuter = models.CharField(_("model refuter"), max_length=200, blank=True)
    source_call_id = models.CharField(
        _("agent tool call"),
        max_length=200,
        blank=True,
        help_text=_("Idempotency key of the draft_argument call that made it."),
    )
    export_sha256 = models.JSONField(_("SHA-256 of the exported files"), default=dict)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    issued_at = models.DateTimeField(_("issued"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["source_call_id"],
                condition=~models.Q(source_call_id=""),
                name="reports_report_unique_call_id",
            )
        ]
        verbose_name = _("report")
        verbose_name_plural = _("reports")

    def __str__(self) -> str:
        return f"{self.title} ({self.get_status_display()})"

    @property
    def is_issued(self) -> bool:
        return self.status == self.Status.ISSUED


class Finding(models.Model):
    """One requirement (or alternative) of a claim in words, with the citations
    in its text and the evidence it rests on. ``outcome`` says whether both
    gates let it through (printed) or it waits for a human (flagged)."""

    class Outcome(models.TextChoices):
        PRINTED = "printed", _("printed")
        FLAGGED = "flagged", _("for human review")

    report = models.ForeignKey(
        Report, on_delete=models.CASCADE, related_name="findings"
    )
    position = models.PositiveIntegerField()
    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="+")
    claim_type = models.CharField(max_length=32)
    requirement_key = models.CharField(max_length=64)
    label = models.CharField(_("requirement"), max_length=300)
    verdict_status = models.CharField(_("verdict"), max_length=16)
    verdict_label = models.CharField(max_length=40)
    text = models.TextField(_("finding"))
    drafter = models.CharField(max_length=8)
    supporting_fact_ids = models.JSONField(default=list)
    evidence = models.JSONField(
        default=list,
        help_text=_("Facts with status, value, document, page, chunk and quote."),
    )
    outcome = models.CharField(_("outcome"), max_length=8, choices=Outcome.choices)
    flag_reason = models.TextField(_("reason"), blank=True)

    class Meta:
        ordering = ["report", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["report", "position"], name="reports_finding_unique_position"
            )
        ]

    def __str__(self) -> str:
        return f"{self.label}: {self.get_outcome_display()}"


class FindingCitation(models.Model):
    """A citation parsed from the finding's final text and its resolution."""

    finding = models.ForeignKey(
        Finding, on_delete=models.CASCADE, related_name="citations"
    )
    position = models.PositiveIntegerField()
    raw = models.CharField(max_length=300)
    canonical = models.CharField(max_length=300, blank=True)
    status = models.CharField(max_length=16)
    reason = models.TextField(blank=True)
    instrument = models.CharField(max_length=40, blank=True)
    version_label = models.CharField(max_length=300, blank=True)
    version_language = models.CharField(max_length=5, blank=True)
    version_valid_from = models.DateField(null=True, blank=True)
    version_sha256 = models.CharField(max_length=64, blank=True)
    provision_path = models.CharField(max_length=200, blank=True)
    heading = models.CharField(max_length=500, blank=True)
    text = models.TextField(blank=True)
    text_sha256 = models.CharField(max_length=64, blank=True)
    wording_confirmation = models.ForeignKey(
        "citations.WordingConfirmation",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text=_(
            "For a date before every pinned version: the lawyer's decision that "
            "this wording was in force then."
        ),
    )

    class Meta:
        ordering = ["finding", "position"]

    def __str__(self) -> str:
        return f"{self.raw}: {self.status}"


class GateVerdict(models.Model):
    """Every verdict of every gate on every finding, kept."""

    class Gate(models.TextChoices):
        CITATIONS = "citations", _("citation gate")
        REFUTATION = "refutation", _("refutation")

    class Verdict(models.TextChoices):
        UPHELD = "upheld", _("upheld")
        REFUTED = "refuted", _("refuted")
        UNCERTAIN = "uncertain", _("uncertain")

    finding = models.ForeignKey(
        Finding, on_delete=models.CASCADE, related_name="verdicts"
    )
    gate = models.CharField(max_length=12, choices=Gate.choices)
    refuter = models.CharField(max_length=40)
    verdict = models.CharField(max_length=10, choices=Verdict.choices)
    reason = models.TextField(blank=True)
    passage = models.TextField(blank=True)
    model_id = models.CharField(max_length=200, blank=True)
    raw = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["finding", "id"]

    def __str__(self) -> str:
        return f"{self.refuter}: {self.verdict}"


class ReportExport(models.Model):
    """The exported file of an issued report: bytes and their SHA-256."""

    class Format(models.TextChoices):
        DOCX = "docx", "Word (.docx)"
        XLSX = "xlsx", "Excel (.xlsx)"

    report = models.ForeignKey(Report, on_delete=models.CASCADE, related_name="exports")
    format = models.CharField(max_length=4, choices=Format.choices)
    filename = models.CharField(max_length=255)
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField()
    content = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["report", "format"], name="reports_export_one_per_format"
            )
        ]

    def __str__(self) -> str:
        return f"{self.filename} ({self.sha256[:12]})"


class ReportStaleMark(models.Model):
    """Appended when a new pinned version of a cited instrument changes the
    text of a provision this report cites. The report itself stays as issued."""

    report = models.ForeignKey(
        Report, on_delete=models.CASCADE, related_name="stale_marks"
    )
    instrument = models.CharField(max_length=40)
    provisions = models.JSONField(default=list)
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["report", "id"]

    def __str__(self) -> str:
        return f"stale: {self.reason}"


class ReportBuild(models.Model):
    """One request to build a report, executed by a Celery worker
    (``report_build_task``) so that no web request waits for the drafting,
    the gates and a model refuter. The page and the API poll it.

    Like an agent run it carries an attempt counter, the claim of the task
    executing it (a redelivered task keeps its id) and a heartbeat, so that a
    redelivery takes it over and the stuck-work sweep ends or re-dispatches a
    build whose worker is gone. The report it made is keyed by the build
    (``Report.source_call_id``): a replay finds it and makes no second one."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        SUCCEEDED = "succeeded", _("done")
        FAILED = "failed", _("failed")

    class Stage(models.TextChoices):
        QUEUED = "queued", _("waiting for a worker")
        DRAFTING = "drafting", _("drafting the findings")
        GATING = "gating", _("checking citations and refuting findings")
        STORING = "storing", _("storing the report")
        DONE = "done", _("done")

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="+")
    claim_ids = models.JSONField(
        _("claims"), default=list, help_text=_("Empty: every claim of the case.")
    )
    language = models.CharField(_("language"), max_length=5, default="en")
    drafter = models.CharField(
        _("drafted by"),
        max_length=8,
        choices=Report.Drafter.choices,
        default=Report.Drafter.RULES,
    )
    title = models.CharField(_("title"), max_length=255, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    stage = models.CharField(
        _("stage"), max_length=10, choices=Stage.choices, default=Stage.QUEUED
    )
    progress_done = models.PositiveIntegerField(_("findings checked"), default=0)
    progress_total = models.PositiveIntegerField(_("findings"), default=0)
    # A stable code the page explains in the user's language; ``reason`` is
    # the message recorded in the worker (for codes the page does not know).
    failure_code = models.CharField(_("failure code"), max_length=40, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    claimed_by = models.CharField(_("claimed by"), max_length=200, blank=True)
    heartbeat_at = models.DateTimeField(_("last sign of life"), null=True, blank=True)
    report = models.OneToOneField(
        Report,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="build",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(
                fields=["status", "heartbeat_at"], name="reportbuild_stuck_idx"
            )
        ]
        verbose_name = _("report build")
        verbose_name_plural = _("report builds")

    def __str__(self) -> str:
        return f"report build {self.pk} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.SUCCEEDED, self.Status.FAILED)

    @property
    def call_id(self) -> str:
        """The idempotency key of the report this build makes."""
        return f"report-build-{self.pk}"
