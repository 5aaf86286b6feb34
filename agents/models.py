"""Records of agent runs: one ``AgentRun`` per task envelope, one
``AgentStep`` per model turn outcome (each tool call with the gate's verdict,
the finish, a provider error or a limit). Steps keep what the model proposed
verbatim, so a run can be inspected and replayed in the browser."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from cases.models import Case
from evidence.models import SourceDocument


class AgentRun(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        STEP_LIMIT = "step_limit", _("Step limit reached")
        BUDGET_EXHAUSTED = "budget_exhausted", _("Budget exhausted")
        HUMAN_REVIEW_REQUIRED = "human_review_required", _("Human review required")
        FAILED = "failed", _("Failed")

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="agent_runs")
    document = models.ForeignKey(
        SourceDocument,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="agent_runs",
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("started by"),
    )
    provider = models.CharField(_("provider"), max_length=32)
    model_id = models.CharField(_("model"), max_length=200, blank=True)
    goal = models.TextField(_("goal"))
    # The goal as a stable code and parameters (``extraction`` with the claim
    # type), shown in the reader's language; ``goal`` is the English text the
    # model is given. Runs stored before the code existed show ``goal``.
    goal_code = models.CharField(_("goal code"), max_length=32, blank=True)
    goal_params = models.JSONField(default=dict, blank=True)
    envelope = models.JSONField(_("task envelope"))
    status = models.CharField(
        _("status"), max_length=32, choices=Status.choices, default=Status.QUEUED
    )
    reason = models.TextField(_("reason"), blank=True)
    # A stable code for a failure the page explains in the user's language
    # (``worker_lost``); the free-text ``reason`` keeps the technical detail.
    failure_code = models.CharField(_("failure code"), max_length=32, blank=True)
    # Why the run ended as a stable code (``step_limit``, ``token_budget``,
    # ``provider_error``, ``worker_lost``…) and its parameters, shown in the
    # reader's language (agents/templatetags/run_text.py). Empty on runs
    # stored before the code existed: their ``reason`` is shown as it is.
    reason_code = models.CharField(_("reason code"), max_length=32, blank=True)
    reason_params = models.JSONField(default=dict, blank=True)
    # Recovery after a killed worker: each execution claims the run (the task
    # id), counts an attempt and beats while it works. A redelivered task (same
    # id) or the stuck-work sweeper takes over a claim whose worker is gone.
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    claimed_by = models.CharField(_("claimed by"), max_length=200, blank=True)
    heartbeat_at = models.DateTimeField(_("last sign of life"), null=True, blank=True)
    steps = models.PositiveIntegerField(_("steps"), default=0)
    accepted = models.PositiveIntegerField(_("accepted calls"), default=0)
    rejected = models.PositiveIntegerField(_("rejected calls"), default=0)
    proposals_created = models.PositiveIntegerField(_("new proposals"), default=0)
    # Progress while the run goes: chunks handed to the model so far (of all
    # the run pages through), held calls waiting for a lawyer.
    chunks_total = models.PositiveIntegerField(_("chunks to read"), default=0)
    chunks_read = models.PositiveIntegerField(_("chunks read"), default=0)
    held = models.PositiveIntegerField(_("calls held for approval"), default=0)
    rejections_by_code = models.JSONField(default=dict, blank=True)
    tokens_in = models.PositiveBigIntegerField(default=0)
    tokens_out = models.PositiveBigIntegerField(default=0)
    cost_cents = models.FloatField(default=0)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("agent run")
        verbose_name_plural = _("agent runs")
        indexes = [
            models.Index(fields=["case", "-created_at"]),
            models.Index(fields=["status", "heartbeat_at"], name="agentrun_stuck_idx"),
        ]

    def __str__(self) -> str:
        return f"run {self.pk} ({self.provider}, {self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status not in (self.Status.QUEUED, self.Status.RUNNING)


class AgentStep(models.Model):
    class Kind(models.TextChoices):
        TOOL_CALL = "tool_call", _("Tool call")
        FINISH = "finish", _("Finish")
        PROVIDER_ERROR = "provider_error", _("Provider error")
        LIMIT = "limit", _("Stop")

    run = models.ForeignKey(
        AgentRun, on_delete=models.CASCADE, related_name="step_rows"
    )
    index = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    call_id = models.CharField(max_length=200, blank=True)
    tool = models.CharField(max_length=64, blank=True)
    raw_proposal = models.TextField(blank=True)
    arguments = models.JSONField(null=True, blank=True)
    verdict = models.CharField(max_length=32, blank=True)
    stage = models.CharField(max_length=16, blank=True)
    rejection = models.JSONField(null=True, blank=True)
    observation = models.JSONField(null=True, blank=True)
    committed_type = models.CharField(max_length=64, blank=True)
    committed_id = models.BigIntegerField(null=True, blank=True)
    tokens_in = models.PositiveIntegerField(default=0)
    tokens_out = models.PositiveIntegerField(default=0)
    latency_ms = models.FloatField(default=0)
    model_id = models.CharField(max_length=200, blank=True)
    prompt_hash = models.CharField(max_length=64, blank=True)
    note = models.TextField(blank=True)
    # A limit step's reason as a code and parameters (as on the run).
    note_code = models.CharField(max_length=32, blank=True)
    note_params = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["run_id", "id"]
        verbose_name = _("agent step")
        verbose_name_plural = _("agent steps")
        indexes = [models.Index(fields=["run", "verdict"])]

    def __str__(self) -> str:
        return f"step {self.index} of run {self.run_id}: {self.tool or self.kind}"


class HeldToolCall(models.Model):
    """A tool call the task's approval policy holds for a human: recorded with
    its arguments, the result the tool prepared (without a side effect) and
    the policies that held it, and never executed until a lawyer approves.
    Approval runs the gate's after-checks and the commit then, under the
    call id (so a second approval commits nothing twice); a rejection is
    recorded with its reason and returned to the run as an observation."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for approval")
        APPROVED = "approved", _("Approved and executed")
        FAILED = "failed", _("Approved, refused by a check")
        REJECTED = "rejected", _("Rejected")

    run = models.ForeignKey(
        AgentRun, on_delete=models.CASCADE, related_name="held_calls"
    )
    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="+")
    step = models.ForeignKey(
        AgentStep, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    call_id = models.CharField(_("call id"), max_length=200, unique=True)
    tool = models.CharField(_("tool"), max_length=64)
    arguments = models.JSONField(_("arguments"))
    prepared = models.JSONField(_("prepared result"))
    held_by = models.JSONField(_("holding policies"), default=list)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
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
    # The observation the decision produced (the gate's verdict after an
    # approval, the structured rejection after a rejection).
    result = models.JSONField(_("result"), null=True, blank=True)
    # When a running run picked the decision up as an observation.
    delivered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("held tool call")
        verbose_name_plural = _("held tool calls")
        indexes = [models.Index(fields=["case", "status"])]

    def __str__(self) -> str:
        return f"held {self.tool} ({self.status}) of run {self.run_id}"
