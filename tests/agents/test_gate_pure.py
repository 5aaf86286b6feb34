"""The gate without a database: a fake world and fake tools, to pin the order
of the stages and the after-check on the prepared result."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from agents.domain.envelope import TaskEnvelope
from agents.domain.gate import CommitResult, Gate, ToolCall
from agents.domain.policies import EVALUATORS, PreparedResult
from agents.domain.tools import TOOL_SPECS
from agents.domain.world import ChunkView
from agents.policy_graph import compiled_policies
from ontology.vocabulary import Vocabulary, vocabulary_base

TEXT = "Die Rechnung ist zahlbar bis zum 26.04.2026."


class FakeWorld:
    case_id = 1

    def __init__(self, *, may_act: bool = True) -> None:
        self.may_act = may_act

    def actor_may_act(self) -> bool:
        return self.may_act

    def case_chunk(self, chunk_id: int) -> ChunkView | None:
        return ChunkView(7, 1, TEXT) if chunk_id == 7 else None

    def case_chunk_ids(self, *, limit: int) -> list[int]:
        return [7]

    def vocabulary(self) -> Vocabulary:
        return vocabulary_base()

    def fact_types(self) -> Mapping[str, str]:
        return {"due_date": "date"}

    def party_names(self) -> set[str]:
        return set()

    def party_ids(self) -> set[int]:
        return set()

    def proposal_exists(self, **kwargs: Any) -> bool:
        return False

    def confirmed_fact_ids(self) -> set[int]:
        return set()

    def case_fact_ids(self) -> set[int]:
        return set()

    def case_claim_ids(self) -> set[int]:
        return set()


class RecordingTool:
    def __init__(self, *, tamper: bool = False) -> None:
        self.tamper = tamper
        self.events: list[str] = []

    def prepare(self, args: Any, world: Any) -> PreparedResult:
        self.events.append("prepare")
        echo = args.model_dump(mode="json")
        if self.tamper:  # a tool that "helpfully" changes what it was asked
            echo = {**echo, "value": {"date": "2026-04-27"}}
        return PreparedResult(echo=echo, payload=echo)

    def commit(
        self, prepared: PreparedResult, *, call_id: str, world: Any
    ) -> CommitResult:
        self.events.append(f"commit {call_id}")
        return CommitResult("extraction_proposal", 1, True)

    def discard(self, prepared: PreparedResult) -> None:
        self.events.append("discard")


def _gate(tool: RecordingTool, *, world: FakeWorld | None = None, tools=None) -> Gate:
    envelope = TaskEnvelope(
        goal="test",
        actor_id=1,
        case_id=1,
        allowed_tools=frozenset(tools or {"propose_case_fact"}),
        step_limit=10,
        token_budget=0,
        cost_budget_cents=0,
        identical_failure_limit=3,
    )
    return Gate(
        envelope=envelope,
        tools=TOOL_SPECS,
        implementations={"propose_case_fact": tool},
        policies=compiled_policies(),
        evaluators=EVALUATORS,
        world=world or FakeWorld(),
    )


def _call(**changes: Any) -> ToolCall:
    args = {
        "fact_type": "due_date",
        "source_chunk_id": 7,
        "quote": "zahlbar bis zum 26.04.2026",
        "value": {"date": "2026-04-26"},
        "confidence": 0.9,
        **changes,
    }
    return ToolCall("c1", "propose_case_fact", json.dumps(args))


def test_a_clean_call_is_prepared_then_committed_with_its_call_id():
    tool = RecordingTool()
    verdict = _gate(tool).handle(_call())
    assert verdict.status == "ok"
    assert tool.events == ["prepare", "commit c1"]


def test_prepared_result_differing_from_the_request_is_discarded_not_committed():
    tool = RecordingTool(tamper=True)
    verdict = _gate(tool).handle(_call())
    assert verdict.status == "rejected" and verdict.stage == "after"
    assert verdict.rejection is not None
    assert verdict.rejection.failed_policy == "prepared_equals_request"
    assert "value" in verdict.rejection.message
    assert tool.events == ["prepare", "discard"]


def test_schema_is_checked_before_authority():
    tool = RecordingTool()
    verdict = _gate(tool, world=FakeWorld(may_act=False)).handle(_call(confidence=7))
    assert (verdict.stage, verdict.rejection.code) == ("schema", "schema_invalid")  # type: ignore[union-attr]


def test_authority_is_checked_before_policies():
    tool = RecordingTool()
    verdict = _gate(tool, world=FakeWorld(may_act=False)).handle(
        _call(source_chunk_id=8)
    )
    assert verdict.rejection is not None and verdict.rejection.code == "not_authorised"
    assert tool.events == []


def test_policies_run_in_graph_order_and_stop_at_the_first_failure():
    tool = RecordingTool()
    verdict = _gate(tool).handle(_call(source_chunk_id=8, fact_type="nonsense"))
    assert verdict.rejection is not None
    assert verdict.rejection.failed_policy == "chunk_belongs_to_case"
    assert tool.events == []


def test_rejection_has_the_structured_fields():
    verdict = _gate(RecordingTool()).handle(_call(quote="nicht im Text"))
    assert set(verdict.observation) == {
        "status",
        "code",
        "message",
        "failed_policy",
        "retryable",
        "hint",
    }
    assert verdict.observation["status"] == "rejected"
