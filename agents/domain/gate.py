"""The tool gate. Every tool call a model proposes passes, in this order:

1. schema     — known tool, arguments parse as JSON and validate against the
                tool's Pydantic model
2. authority  — the actor may act on the case; the tool is in the envelope
3. before     — the CHECK_BEFORE policies of the tool, in graph order
4. approval   — automatic · needs a human · rejected (envelope policy)
5. prepare    — the tool prepares its result without a side effect
6. after      — the CHECK_AFTER policies check the prepared result
7. commit     — with the call id as idempotency key (committing tools only)
8. observation — a structured answer for the model

A failure at any stage is a structured rejection
``{status, code, message, failed_policy, retryable, hint}`` and nothing after
it runs. The gate has no shortcut: the rules provider's proposals take the
same path as a hosted model's."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, ValidationError

from agents.domain.envelope import Approval, TaskEnvelope
from agents.domain.policies import (
    CompiledPolicies,
    Evaluator,
    PolicyContext,
    PreparedResult,
)
from agents.domain.tools import ToolKind, ToolSpec
from agents.domain.world import World

Stage = Literal[
    "schema", "authority", "before", "approval", "prepare", "after", "commit", "done"
]


class Rejection(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    status: Literal["rejected"] = "rejected"
    code: str
    message: str
    failed_policy: str | None = None
    retryable: bool = False
    hint: Any = None


class ToolUnavailable(Exception):
    """The tool depends on a part of Belegt that is not built yet."""


class ToolRefusal(Exception):
    """The tool itself refused while preparing (not a policy)."""

    def __init__(self, code: str, message: str, *, hint: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint


@dataclass(frozen=True)
class CommitResult:
    object_type: str
    object_id: int
    created: bool


class ToolImplementation(Protocol):
    def prepare(self, args: Any, world: World) -> PreparedResult: ...

    def commit(
        self, prepared: PreparedResult, *, call_id: str, world: World
    ) -> CommitResult: ...

    def discard(self, prepared: PreparedResult) -> None: ...


@dataclass(frozen=True)
class ToolCall:
    """A call as the model proposed it: the arguments are the raw text."""

    call_id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class GateVerdict:
    status: Literal["ok", "rejected", "approval_required", "unavailable"]
    stage: Stage
    observation: Mapping[str, Any]
    rejection: Rejection | None = None
    arguments: Mapping[str, Any] | None = None
    commit: CommitResult | None = None

    @property
    def failure_key(self) -> str | None:
        """What the circuit breaker counts: the failed policy, else the code."""
        if self.rejection is None:
            return None
        return self.rejection.failed_policy or self.rejection.code


def _reject(
    stage: Stage,
    code: str,
    message: str,
    *,
    failed_policy: str | None = None,
    retryable: bool = False,
    hint: Any = None,
    arguments: Mapping[str, Any] | None = None,
) -> GateVerdict:
    rejection = Rejection(
        code=code,
        message=message,
        failed_policy=failed_policy,
        retryable=retryable,
        hint=hint,
    )
    return GateVerdict(
        status="rejected",
        stage=stage,
        observation=rejection.model_dump(mode="json"),
        rejection=rejection,
        arguments=arguments,
    )


class Gate:
    def __init__(
        self,
        *,
        envelope: TaskEnvelope,
        tools: Mapping[str, ToolSpec],
        implementations: Mapping[str, ToolImplementation],
        policies: CompiledPolicies,
        evaluators: Mapping[str, Evaluator],
        world: World,
    ) -> None:
        self.envelope = envelope
        self.tools = tools
        self.implementations = implementations
        self.policies = policies
        self.evaluators = evaluators
        self.world = world

    def handle(self, call: ToolCall) -> GateVerdict:
        # [1] schema
        spec = self.tools.get(call.name)
        if spec is None:
            return _reject(
                "schema",
                "unknown_tool",
                f"There is no tool {call.name!r}.",
                retryable=True,
                hint={"tools": sorted(self.envelope.allowed_tools & set(self.tools))},
            )
        try:
            raw = json.loads(call.arguments) if call.arguments.strip() else {}
        except (json.JSONDecodeError, RecursionError) as exc:
            return _reject(
                "schema",
                "bad_json",
                f"The arguments are not valid JSON: {exc}.",
                retryable=True,
                hint="Send the arguments as one JSON object.",
            )
        if not isinstance(raw, dict):
            return _reject(
                "schema",
                "bad_json",
                "The arguments must be a JSON object.",
                retryable=True,
            )
        try:
            args = spec.args_model.model_validate(raw)
        except ValidationError as exc:
            return _reject(
                "schema",
                "schema_invalid",
                f"The arguments do not match the schema of {spec.name}.",
                retryable=True,
                hint=[
                    {"loc": list(e["loc"]), "msg": e["msg"]}
                    for e in exc.errors(include_url=False, include_input=False)
                ],
            )
        arguments = args.model_dump(mode="json")

        # [2] authority
        if not self.world.actor_may_act():
            return _reject(
                "authority",
                "not_authorised",
                "The run's actor may not act on this case.",
                arguments=arguments,
            )
        if spec.name not in self.envelope.allowed_tools:
            return _reject(
                "authority",
                "tool_not_allowed",
                f"The tool {spec.name!r} is not allowed in this task.",
                retryable=True,
                hint={"tools": sorted(self.envelope.allowed_tools)},
                arguments=arguments,
            )

        # [3] before-policies
        ctx = PolicyContext(
            tool=spec.name, args=args, world=self.world, call_id=call.call_id
        )
        ref, outcome = self.policies.evaluate("before", ctx, self.evaluators)
        if ref is not None:
            return _reject(
                "before",
                outcome.code,
                outcome.message,
                failed_policy=ref.key,
                retryable=outcome.retryable,
                hint=outcome.hint,
                arguments=arguments,
            )

        # [4] approval boundary
        approval = self.envelope.approval.for_tool(spec.name)
        if approval is Approval.REJECTED:
            return _reject(
                "approval",
                "approval_rejected",
                f"The approval policy of this task rejects {spec.name!r}.",
                arguments=arguments,
            )
        if approval is Approval.HUMAN:
            return GateVerdict(
                status="approval_required",
                stage="approval",
                observation={
                    "status": "approval_required",
                    "message": "A human must approve this call; it was not run.",
                },
                arguments=arguments,
            )

        # [5] prepare
        impl = self.implementations.get(spec.name)
        try:
            if impl is None:
                raise ToolUnavailable(f"{spec.name} has no implementation yet")
            prepared = impl.prepare(args, self.world)
        except ToolUnavailable as exc:
            return GateVerdict(
                status="unavailable",
                stage="prepare",
                observation={
                    "status": "unavailable",
                    "code": "not_available_yet",
                    "message": str(exc),
                    "retryable": False,
                },
                arguments=arguments,
            )
        except ToolRefusal as exc:
            return _reject(
                "prepare", exc.code, exc.message, hint=exc.hint, arguments=arguments
            )

        # [6] after-policies
        ctx = PolicyContext(
            tool=spec.name,
            args=args,
            world=self.world,
            call_id=call.call_id,
            prepared=prepared,
        )
        ref, outcome = self.policies.evaluate("after", ctx, self.evaluators)
        if ref is not None:
            if impl is not None:
                impl.discard(prepared)
            return _reject(
                "after",
                outcome.code,
                outcome.message,
                failed_policy=ref.key,
                retryable=outcome.retryable,
                hint=outcome.hint,
                arguments=arguments,
            )

        # [7] commit, [8] observation
        if spec.kind is ToolKind.READ_ONLY:
            return GateVerdict(
                status="ok",
                stage="done",
                observation={"status": "ok", "result": dict(prepared.payload)},
                arguments=arguments,
            )
        assert impl is not None
        committed = impl.commit(prepared, call_id=call.call_id, world=self.world)
        return GateVerdict(
            status="ok",
            stage="done",
            observation={
                "status": "ok",
                "result": {
                    "type": committed.object_type,
                    "id": committed.object_id,
                    "created": committed.created,
                    "note": "Proposed for human review; not a fact."
                    if committed.created
                    else "Replay of an earlier call; nothing new was written.",
                },
            },
            arguments=arguments,
            commit=committed,
        )
