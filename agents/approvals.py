"""The approval step of the gate (DESIGN §4, stage 4 "needs a human").

A call the task's approval policy holds is recorded as a ``HeldToolCall`` by
the run's recorder: arguments, the result the tool prepared without a side
effect, and the policies that held it. It is never executed by the run. A
lawyer of the case's firm decides it in the approval queue:

- approve: the gate runs the call again with the approved result
  (``Gate.handle(approved=…)``): schema, authority and before-policies on the
  case as it is now, prepare (a result that differs from what the lawyer saw
  is refused), after-policies, commit under the call id. The claim of the row
  is a conditional update in the same transaction, so a double click or a race
  commits once; the commit's call id makes even a replay add nothing.
- reject: recorded with its reason, as a structured rejection.

Either way the outcome is a step of the run and, while the run still goes,
an observation it receives before its next turn (``held_call_decisions_deliver``)."""

from __future__ import annotations

import json
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from agents.domain.envelope import TaskEnvelope
from agents.domain.gate import Gate, GateVerdict, Rejection, ToolCall
from agents.domain.loop import StepRecord
from agents.domain.policies import EVALUATORS
from agents.domain.tools import TOOL_SPECS
from agents.models import AgentRun, AgentStep, HeldToolCall
from agents.policy_graph import compiled_policies
from agents.tools import tool_implementations
from agents.world import DjangoWorld
from cases.audit import audit_event_record
from cases.errors import DomainError
from cases.models import Membership
from cases.selectors import require_role

DECIDERS = (Membership.Role.LAWYER,)
REJECTED_BY_HUMAN = "approval_rejected_by_human"


class HeldCallNotPending(DomainError):
    """The held call was decided already (by someone else, or a second click)."""

    code = "held_call_not_pending"
    http_status = 409


class RejectionReasonRequired(DomainError):
    code = "rejection_reason_required"
    http_status = 400


def gate_for_run(run: AgentRun) -> tuple[Gate, DjangoWorld]:
    """The gate of a run as its execution builds it: its envelope, its actor,
    the compiled policy graph (looked up once, in the gate's plans)."""
    envelope = TaskEnvelope.model_validate(run.envelope)
    world = DjangoWorld(
        case=run.case, actor=run.actor, document_id=envelope.document_id
    )
    world.run_id = run.pk
    world.model_id = run.model_id or run.provider
    gate = Gate(
        envelope=envelope,
        tools=TOOL_SPECS,
        implementations=tool_implementations(),
        policies=compiled_policies(),
        evaluators=EVALUATORS,
        world=world,
    )
    return gate, world


def held_call_record(
    *, run: AgentRun, step_id: int | None, record: StepRecord, verdict: GateVerdict
) -> bool:
    """Record a call the gate held (inside the step's transaction). Returns
    whether a new row was made: a replayed run holds the same call id once."""
    _held, created = HeldToolCall.objects.get_or_create(
        call_id=record.call_id[:200],
        defaults={
            "run": run,
            "case_id": run.case_id,
            "step_id": step_id,
            "tool": record.tool[:64],
            "arguments": dict(verdict.arguments or {}),
            "prepared": dict(verdict.prepared or {}),
            "held_by": [dict(policy) for policy in verdict.held_by],
        },
    )
    return created


def _decision_observation(held: HeldToolCall) -> dict[str, Any]:
    observation = dict(held.result or {})
    observation.setdefault("status", held.status)
    return {
        "call_id": held.call_id,
        "tool": held.tool,
        "decision": held.status,
        "observation": observation,
    }


def held_call_decisions_deliver(*, run: AgentRun) -> list[dict[str, Any]]:
    """The decided held calls of a run not yet handed to it, marked as
    delivered (each reaches the run once)."""
    decided = list(
        HeldToolCall.objects.filter(run=run, delivered_at__isnull=True)
        .exclude(status=HeldToolCall.Status.PENDING)
        .order_by("decided_at", "id")
    )
    if not decided:
        return []
    HeldToolCall.objects.filter(pk__in=[h.pk for h in decided]).update(
        delivered_at=timezone.now()
    )
    return [_decision_observation(held) for held in decided]


def _claim(held: HeldToolCall, *, actor: Any, status: str, reason: str = "") -> None:
    claimed = HeldToolCall.objects.filter(
        pk=held.pk, status=HeldToolCall.Status.PENDING
    ).update(status=status, decided_by=actor, decided_at=timezone.now(), reason=reason)
    held.refresh_from_db()
    if claimed != 1:
        who = held.decided_by.get_username() if held.decided_by else "?"
        raise HeldCallNotPending(
            _("This call was already decided (%(status)s) by %(who)s.")
            % {"status": held.get_status_display(), "who": who},
            hint={"status": held.status, "decided_by": who},
        )


def _step(run: AgentRun, held: HeldToolCall, note: str) -> AgentStep:
    return AgentStep.objects.create(
        run=run,
        index=run.steps,
        kind=AgentStep.Kind.TOOL_CALL,
        call_id=held.call_id,
        tool=held.tool,
        raw_proposal=json.dumps(
            {"name": held.tool, "arguments": held.arguments}, ensure_ascii=False
        ),
        note=note,
    )


@transaction.atomic
def held_call_approve(*, held: HeldToolCall, actor: Any) -> HeldToolCall:
    """Approve a held call: the gate's checks and the commit run now, under
    the call id. A check that fails now ends the call ``failed`` with the
    structured rejection (nothing is committed). Raises RoleRequired,
    HeldCallNotPending."""
    require_role(actor, *DECIDERS)
    _claim(held, actor=actor, status=HeldToolCall.Status.APPROVED)
    run = AgentRun.objects.select_related("case", "actor").get(pk=held.run_id)
    gate, world = gate_for_run(run)
    step = _step(run, held, f"approved by {actor.get_username()}")
    world.current_step_id = step.pk
    verdict = gate.handle(
        ToolCall(held.call_id, held.tool, json.dumps(held.arguments)),
        approved=held.prepared,
    )
    fields: dict[str, Any] = {
        "verdict": verdict.status,
        "stage": verdict.stage,
        "arguments": dict(verdict.arguments) if verdict.arguments else None,
        "observation": dict(verdict.observation),
        "rejection": verdict.rejection.model_dump(mode="json")
        if verdict.rejection
        else None,
    }
    if verdict.commit is not None:
        fields.update(
            committed_type=verdict.commit.object_type,
            committed_id=verdict.commit.object_id,
        )
    AgentStep.objects.filter(pk=step.pk).update(**fields)
    status = (
        HeldToolCall.Status.APPROVED
        if verdict.status == "ok"
        else HeldToolCall.Status.FAILED
    )
    HeldToolCall.objects.filter(pk=held.pk).update(
        status=status, result=dict(verdict.observation)
    )
    counters: dict[str, Any] = {}
    if verdict.status == "ok":
        counters["accepted"] = F("accepted") + 1
        commit = verdict.commit
        if commit and commit.created and commit.object_type == "extraction_proposal":
            counters["proposals_created"] = F("proposals_created") + 1
    else:
        counters["rejected"] = F("rejected") + 1
    AgentRun.objects.filter(pk=run.pk).update(**counters)
    audit_event_record(
        actor=actor,
        action="held_call.approved",
        target=held,
        case=run.case,
        data={
            "call_id": held.call_id,
            "tool": held.tool,
            "run_id": run.pk,
            "outcome": verdict.status,
            "committed_id": verdict.commit.object_id if verdict.commit else None,
        },
    )
    held.refresh_from_db()
    return held


@transaction.atomic
def held_call_reject(*, held: HeldToolCall, actor: Any, reason: str) -> HeldToolCall:
    """Reject a held call with a reason: nothing runs; the run gets the
    rejection as a structured observation. Raises RoleRequired,
    RejectionReasonRequired, HeldCallNotPending."""
    require_role(actor, *DECIDERS)
    reason = (reason or "").strip()
    if not reason:
        raise RejectionReasonRequired(_("Say why the call is rejected."))
    reason = reason[:2000]
    _claim(held, actor=actor, status=HeldToolCall.Status.REJECTED, reason=reason)
    rejection = Rejection(
        code=REJECTED_BY_HUMAN,
        message=reason,
        failed_policy="approval_policy",
        retryable=False,
        hint={"decided_by": actor.get_username()},
    )
    observation = rejection.model_dump(mode="json")
    run = AgentRun.objects.select_related("case").get(pk=held.run_id)
    step = _step(run, held, f"rejected by {actor.get_username()}")
    AgentStep.objects.filter(pk=step.pk).update(
        verdict="rejected",
        stage="approval",
        arguments=held.arguments,
        rejection=observation,
        observation=observation,
    )
    HeldToolCall.objects.filter(pk=held.pk).update(result=observation)
    AgentRun.objects.filter(pk=run.pk).update(rejected=F("rejected") + 1)
    audit_event_record(
        actor=actor,
        action="held_call.rejected",
        target=held,
        case=run.case,
        data={
            "call_id": held.call_id,
            "tool": held.tool,
            "run_id": run.pk,
            "reason": reason,
        },
    )
    held.refresh_from_db()
    return held
