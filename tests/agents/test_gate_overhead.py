"""Issue 16 item 9: the gate's lookups happen once per run, not per call. A
gated proposal costs the database no more than the bare service call, and the
policy graph is joined with its evaluators when the gate is built."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from agents.domain.gate import Gate, ToolCall
from agents.domain.policies import EVALUATORS, CompiledPolicies
from agents.domain.tools import TOOL_SPECS
from agents.policy_graph import compiled_policies
from agents.services import envelope_for_extraction
from agents.tools import tool_implementations
from agents.world import DjangoWorld
from review.models import ExtractionProposal
from review.services.proposals import proposal_create
from tests.agents.helpers import fact

pytestmark = pytest.mark.django_db


def _gate(case, lawyer):
    world = DjangoWorld(case=case, actor=lawyer)
    gate = Gate(
        envelope=envelope_for_extraction(case=case, actor=lawyer),
        tools=TOOL_SPECS,
        implementations=tool_implementations(),
        policies=compiled_policies(),
        evaluators=EVALUATORS,
        world=world,
    )
    return gate


def _args(chunk, cents):
    return fact(
        chunk,
        fact_type="damage_item",
        quote="Mahnkosten 5,00 €",
        value={"cents": cents, "currency": "EUR"},
    )


def test_a_gated_proposal_needs_no_query_beyond_the_bare_call(
    case, lawyer, letter_chunk
):
    gate = _gate(case, lawyer)
    first = gate.handle(
        ToolCall("c-0", "propose_case_fact", json.dumps(_args(letter_chunk, 500)))
    )
    assert first.status == "ok"
    with CaptureQueriesContext(connection) as gated:
        verdict = gate.handle(
            ToolCall("c-1", "propose_case_fact", json.dumps(_args(letter_chunk, 501)))
        )
    assert verdict.status == "ok", verdict.observation
    a = _args(letter_chunk, 502)
    with CaptureQueriesContext(connection) as bare:
        proposal_create(
            case=case,
            fact_type=a["fact_type"],
            value=a["value"],
            source_chunk=letter_chunk,
            quote=a["quote"],
            confidence=a["confidence"],
            call_id="bare-1",
            agent_run_id=None,
            agent_step_id=None,
            model_id="bare",
            actor=lawyer,
        )
    assert len(gated.captured_queries) <= len(bare.captured_queries)


def test_duplicates_are_still_refused_within_and_across_runs(
    case, lawyer, letter_chunk
):
    gate = _gate(case, lawyer)
    raw = json.dumps(_args(letter_chunk, 700))
    assert gate.handle(ToolCall("d-1", "propose_case_fact", raw)).status == "ok"
    again = gate.handle(ToolCall("d-2", "propose_case_fact", raw))
    assert again.rejection is not None and again.rejection.code == "duplicate_proposal"
    replay = gate.handle(ToolCall("d-1", "propose_case_fact", raw))
    assert replay.status == "ok"  # the same call id is a replay, not a duplicate
    later = _gate(case, lawyer)  # a later run reads the case's proposals afresh
    other = later.handle(ToolCall("d-3", "propose_case_fact", raw))
    assert other.rejection is not None and other.rejection.code == "duplicate_proposal"
    assert ExtractionProposal.objects.count() == 1


def test_the_policy_graph_is_joined_once_when_the_gate_is_built(
    case, lawyer, letter_chunk, monkeypatch
):
    gate = _gate(case, lawyer)
    plan = gate.plans["propose_case_fact"]
    assert [ref.key for ref, _ in plan.before][:2] == [
        "chunk_belongs_to_case",
        "quote_in_chunk",
    ]

    def no_lookup(*args, **kwargs):
        raise AssertionError("the gate looked the policy graph up per call")

    monkeypatch.setattr(CompiledPolicies, "evaluate", no_lookup)
    monkeypatch.setattr(CompiledPolicies, "bind", no_lookup)
    verdict = gate.handle(
        ToolCall("p-1", "propose_case_fact", json.dumps(_args(letter_chunk, 900)))
    )
    assert verdict.status == "ok", verdict.observation
