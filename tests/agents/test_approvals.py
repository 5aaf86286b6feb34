"""The approval step of the gate is real: a call the approval policy holds is
recorded with its arguments, prepared result and holding policies, never
executed by the run; a lawyer's approval runs the remaining checks and the
commit once under the call id; a rejection is recorded with its reason and
reaches the run as a structured observation."""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection
from django.urls import reverse

from agents.approvals import (
    REJECTED_BY_HUMAN,
    HeldCallNotPending,
    RejectionReasonRequired,
    held_call_approve,
    held_call_reject,
)
from agents.models import AgentRun, AgentStep, HeldToolCall
from cases.errors import RoleRequired
from cases.models import AuditEvent
from review.models import ExtractionProposal
from tests.agents.helpers import fact, make_held_call, run_scripted, tool_steps

pytestmark = pytest.mark.django_db

HOLD = {"per_tool": {"propose_case_fact": "human"}}


def _held_run(case, lawyer, letter_chunk, **changes):
    run, steps, provider = run_scripted(
        case=case,
        actor=lawyer,
        turns=[[("propose_case_fact", fact(letter_chunk, **changes))]],
        approval=HOLD,
    )
    return run, steps, HeldToolCall.objects.get(run=run)


def test_held_call_is_recorded_with_arguments_prepared_result_and_policies(
    case, lawyer, letter_chunk
):
    run, steps, held = _held_run(case, lawyer, letter_chunk)
    [step] = tool_steps(steps)
    assert (step.verdict, step.stage) == ("approval_required", "approval")
    assert held.status == HeldToolCall.Status.PENDING
    assert held.step_id == step.pk and held.call_id == step.call_id
    assert held.arguments == fact(letter_chunk)
    assert held.prepared["quote"] == fact(letter_chunk)["quote"]
    assert [p["key"] for p in held.held_by] == ["approval_policy"]
    assert not ExtractionProposal.objects.exists()  # never executed by the run
    assert AgentRun.objects.get(pk=run.pk).held == 1


def test_approval_runs_the_checks_and_commits_under_the_call_id(
    case, lawyer, letter_chunk
):
    run, _steps, held = _held_run(case, lawyer, letter_chunk)
    approved = held_call_approve(held=held, actor=lawyer)
    assert approved.status == HeldToolCall.Status.APPROVED
    proposal = ExtractionProposal.objects.get()
    assert proposal.call_id == held.call_id
    assert proposal.quote == fact(letter_chunk)["quote"]
    step = AgentStep.objects.get(run=run, committed_id=proposal.pk)
    assert (step.verdict, step.committed_type) == ("ok", "extraction_proposal")
    assert proposal.agent_step_id == step.pk
    assert approved.result is not None
    assert approved.result["result"]["id"] == proposal.pk
    assert AgentRun.objects.get(pk=run.pk).proposals_created == 1
    assert AuditEvent.objects.filter(action="held_call.approved").count() == 1


def test_second_approval_is_refused_and_commits_nothing_twice(
    case, lawyer, letter_chunk
):
    _run, _steps, held = _held_run(case, lawyer, letter_chunk)
    held_call_approve(held=held, actor=lawyer)
    with pytest.raises(HeldCallNotPending) as exc:
        held_call_approve(held=HeldToolCall.objects.get(pk=held.pk), actor=lawyer)
    assert exc.value.hint["status"] == HeldToolCall.Status.APPROVED
    assert ExtractionProposal.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_approvals_commit_once(case, lawyer, letter_chunk):
    _run, _steps, held = _held_run(case, lawyer, letter_chunk)
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def approve() -> None:
        try:
            barrier.wait()
            held_call_approve(held=HeldToolCall.objects.get(pk=held.pk), actor=lawyer)
            outcomes.append("approved")
        except HeldCallNotPending:
            outcomes.append("conflict")
        finally:
            connection.close()

    threads = [threading.Thread(target=approve) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["approved", "conflict"]
    assert ExtractionProposal.objects.count() == 1


def test_approval_after_the_case_changed_fails_the_check_and_commits_nothing(
    case, lawyer, letter_chunk
):
    """Someone proposed the same fact from the same chunk meanwhile: the
    no-duplicate policy refuses the call at approval time."""
    _run, _steps, held = _held_run(case, lawyer, letter_chunk)
    run_scripted(
        case=case, actor=lawyer, turns=[[("propose_case_fact", fact(letter_chunk))]]
    )
    assert ExtractionProposal.objects.count() == 1
    approved = held_call_approve(held=held, actor=lawyer)
    assert approved.status == HeldToolCall.Status.FAILED
    assert approved.result is not None
    assert approved.result["code"] == "duplicate_proposal"
    assert ExtractionProposal.objects.count() == 1


def test_rejection_is_recorded_with_its_reason_as_a_structured_observation(
    case, lawyer, letter_chunk
):
    run, _steps, held = _held_run(case, lawyer, letter_chunk)
    rejected = held_call_reject(held=held, actor=lawyer, reason="Falsche Rechnung")
    assert rejected.status == HeldToolCall.Status.REJECTED
    assert rejected.reason == "Falsche Rechnung"
    assert rejected.result is not None
    assert rejected.result["status"] == "rejected"
    assert rejected.result["code"] == REJECTED_BY_HUMAN
    assert rejected.result["message"] == "Falsche Rechnung"
    step = AgentStep.objects.filter(run=run).order_by("-id").first()
    assert step is not None and step.rejection is not None
    assert step.rejection["code"] == REJECTED_BY_HUMAN
    assert not ExtractionProposal.objects.exists()
    with pytest.raises(HeldCallNotPending):
        held_call_approve(held=HeldToolCall.objects.get(pk=held.pk), actor=lawyer)


def test_rejection_needs_a_reason(case, lawyer, letter_chunk):
    _run, _steps, held = _held_run(case, lawyer, letter_chunk)
    with pytest.raises(RejectionReasonRequired):
        held_call_reject(held=held, actor=lawyer, reason="   ")
    assert HeldToolCall.objects.get(pk=held.pk).status == HeldToolCall.Status.PENDING


def test_reviewer_cannot_decide_a_held_call(case, lawyer, reviewer, letter_chunk):
    _run, _steps, held = _held_run(case, lawyer, letter_chunk)
    with pytest.raises(RoleRequired):
        held_call_approve(held=held, actor=reviewer)
    with pytest.raises(RoleRequired):
        held_call_reject(held=held, actor=reviewer, reason="nein")
    assert HeldToolCall.objects.get(pk=held.pk).status == HeldToolCall.Status.PENDING


def test_decision_reaches_the_running_run_as_an_observation(case, lawyer, letter_chunk):
    def approve_then_continue(episode, messages):
        held = HeldToolCall.objects.get(status=HeldToolCall.Status.PENDING)
        held_call_reject(held=held, actor=lawyer, reason="Nicht belegt")
        return [("propose_case_fact", fact(letter_chunk, confidence=0.6))]

    run, _steps, provider = run_scripted(
        case=case,
        actor=lawyer,
        turns=[
            [("propose_case_fact", fact(letter_chunk))],
            approve_then_continue,
            [],
        ],
        approval=HOLD,
    )
    decisions = [
        json.loads(m["content"])
        for m in provider.seen_messages[2]
        if m["role"] == "user" and "approval_decision" in (m.get("content") or "")
    ]
    assert len(decisions) == 1
    [decision] = decisions
    assert decision["decision"] == "rejected"
    assert decision["observation"]["code"] == REJECTED_BY_HUMAN
    assert decision["observation"]["message"] == "Nicht belegt"
    assert HeldToolCall.objects.filter(run=run, delivered_at__isnull=False).count() == 1


# --- pages -------------------------------------------------------------------------


def test_case_queue_shows_the_held_call_in_german(
    lawyer_client, case, lawyer, letter_chunk
):
    _run, _steps, held = _held_run(case, lawyer, letter_chunk)
    response = lawyer_client.get(
        reverse("agents:case_approvals", args=[case.pk]), HTTP_ACCEPT_LANGUAGE="de"
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert f'id="held-{held.pk}"' in body
    assert "Freigabe" in body
    assert "26.04.2026" in body  # the arguments and the prepared result
    assert reverse("agents:held_approve", args=[case.pk, held.pk]) in body


def test_approve_from_the_queue_executes_the_call(
    lawyer_client, case, lawyer, letter_chunk
):
    _run, _steps, held = _held_run(case, lawyer, letter_chunk)
    response = lawyer_client.post(
        reverse("agents:held_approve", args=[case.pk, held.pk])
    )
    assert response.status_code == 302
    assert ExtractionProposal.objects.filter(call_id=held.call_id).exists()


def test_reject_without_reason_from_the_queue_keeps_the_call_pending(
    lawyer_client, case, lawyer, letter_chunk
):
    _run, _steps, held = _held_run(case, lawyer, letter_chunk)
    response = lawyer_client.post(
        reverse("agents:held_reject", args=[case.pk, held.pk]),
        {"reason": ""},
        follow=True,
    )
    assert response.status_code == 200
    assert HeldToolCall.objects.get(pk=held.pk).status == HeldToolCall.Status.PENDING


def test_reviewer_sees_the_case_queue_without_buttons_and_cannot_post(
    reviewer_client, case, lawyer, letter_chunk
):
    _run, _steps, held = _held_run(case, lawyer, letter_chunk)
    page = reviewer_client.get(reverse("agents:case_approvals", args=[case.pk]))
    assert page.status_code == 200
    assert reverse("agents:held_approve", args=[case.pk, held.pk]) not in (
        page.content.decode()
    )
    response = reviewer_client.post(
        reverse("agents:held_approve", args=[case.pk, held.pk])
    )
    assert response.status_code == 403
    assert not ExtractionProposal.objects.exists()


def test_firm_wide_queue_lists_the_firms_held_calls_only(
    lawyer_client, case, other_case
):
    mine = make_held_call(case, call_id="mine-1")
    foreign = make_held_call(other_case, call_id="foreign-1")
    response = lawyer_client.get(reverse("agents:approvals"))
    assert response.status_code == 200
    body = response.content.decode()
    assert f'id="held-{mine.pk}"' in body
    assert f'id="held-{foreign.pk}"' not in body
    assert "foreign-1" not in body


def test_firm_wide_queue_is_for_lawyers(reviewer_client):
    assert reviewer_client.get(reverse("agents:approvals")).status_code == 403
