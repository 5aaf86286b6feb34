"""Run a scripted provider through the real service, gate and records."""

from __future__ import annotations

from typing import Any

from agents.models import AgentRun, AgentStep
from agents.providers.scripted import ScriptedProvider
from agents.services import agent_run_create, agent_run_execute, envelope_for_extraction


def run_scripted(
    *,
    case,
    actor,
    turns,
    document=None,
    call_ids=None,
    tokens_per_turn: int = 0,
    **overrides: Any,
) -> tuple[AgentRun, list[AgentStep], ScriptedProvider]:
    envelope = envelope_for_extraction(
        case=case, actor=actor, document=document, **overrides
    )
    run = agent_run_create(
        case=case,
        actor=actor,
        provider="scripted",
        envelope=envelope,
        document=document,
    )
    provider = ScriptedProvider(
        turns, tokens_per_turn=tokens_per_turn, call_ids=call_ids
    )
    run = agent_run_execute(run=run, provider=provider)
    steps = list(run.step_rows.order_by("id"))
    return run, steps, provider


def tool_steps(steps: list[AgentStep]) -> list[Any]:
    """Tool-call steps (typed loosely: tests index their JSON fields)."""
    return [s for s in steps if s.kind == "tool_call"]


def fact(chunk, **changes: Any) -> dict[str, Any]:
    """A valid propose_case_fact call on the fixture's Mahnung chunk."""
    args: dict[str, Any] = {
        "fact_type": "due_date",
        "source_chunk_id": chunk.pk,
        "quote": "unsere Rechnung war zahlbar bis zum 26.04.2026.",
        "value": {"date": "2026-04-26"},
        "confidence": 0.8,
    }
    args.update(changes)
    return args


def make_held_call(case, *, tool: str = "propose_case_fact", call_id: str = "") -> Any:
    """A pending held call of ``case`` (a bare run and row, no gate): for the
    tenancy walk and list views."""
    from agents.models import HeldToolCall

    run = AgentRun.objects.create(case=case, provider="rules", goal="x", envelope={})
    return HeldToolCall.objects.create(
        run=run,
        case=case,
        call_id=call_id or f"held-{run.pk}",
        tool=tool,
        arguments={"fact_type": "due_date"},
        prepared={"fact_type": "due_date"},
        held_by=[{"key": "approval_policy", "label": "human"}],
    )
