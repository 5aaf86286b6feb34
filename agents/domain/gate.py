"""The tool gate. Every tool call a model proposes passes, in this order:

1. schema     — known tool, arguments parse as JSON and validate against the
                tool's Pydantic model
2. authority  — the actor may act on the case; the tool is in the envelope
3. before     — the CHECK_BEFORE policies of the tool, in graph order
4. approval   — automatic · needs a human · rejected (envelope policy); a
                call that needs a human is prepared (stage 5, no side effect)
                and held with its prepared result, never run by the agent;
                ``handle(approved=…)`` runs it after a lawyer's approval
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
    BoundPolicy,
    CompiledPolicies,
    Evaluator,
    PolicyContext,
    PreparedResult,
    evaluate_bound,
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
    # What the message says, as values, for a page that says it in its own
    # language (``agents.templatetags.run_text``); not sent to the model.
    params: dict[str, Any] = {}


class ToolUnavailable(Exception):
    """The tool depends on a part of Belegt that is not built yet."""


class ToolRefusal(Exception):
    """The tool itself refused while preparing (not a policy)."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        hint: Any = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint
        self.params: dict[str, Any] = dict(params or {})


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
    # A held call (``approval_required``): what the tool prepared and the
    # policies that held it, for the approval queue.
    prepared: Mapping[str, Any] | None = None
    held_by: tuple[Mapping[str, str], ...] = ()

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
    params: Mapping[str, Any] | None = None,
) -> GateVerdict:
    rejection = Rejection(
        code=code,
        message=message,
        failed_policy=failed_policy,
        retryable=retryable,
        hint=hint,
        params=json.loads(json.dumps(dict(params or {}), default=str)),
    )
    return GateVerdict(
        status="rejected",
        stage=stage,
        observation=rejection.model_dump(mode="json", exclude={"params"}),
        rejection=rejection,
        arguments=arguments,
    )


@dataclass(frozen=True)
class ToolPlan:
    """Everything the gate looks up about one tool, joined once per run: the
    spec, whether the envelope allows it, its approval, its bound before- and
    after-policies (graph order) and its implementation."""

    spec: ToolSpec
    allowed: bool
    approval: Approval
    before: tuple[BoundPolicy, ...]
    after: tuple[BoundPolicy, ...]
    implementation: ToolImplementation | None


def _json(value: Mapping[str, Any]) -> dict[str, Any]:
    """A prepared payload as stored (JSON types), so a stored and a fresh one
    compare equal exactly when they say the same."""
    loaded: dict[str, Any] = json.loads(json.dumps(dict(value), default=str))
    return loaded


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
        # The policy graph's lookups, once per run instead of per call.
        self.plans: dict[str, ToolPlan] = {}
        for name, spec in tools.items():
            before, after = policies.bind(name, evaluators)
            self.plans[name] = ToolPlan(
                spec=spec,
                allowed=name in envelope.allowed_tools,
                approval=envelope.approval.for_tool(name),
                before=before,
                after=after,
                implementation=implementations.get(name),
            )
        self._tool_names = sorted(envelope.allowed_tools & set(tools))
        self._actor_may_act: bool | None = None

    def _actor_allowed(self) -> bool:
        """Asked once per run: the actor's membership does not change within
        one run's few minutes, and a run is started for a member."""
        if self._actor_may_act is None:
            self._actor_may_act = self.world.actor_may_act()
        return self._actor_may_act

    def handle(
        self, call: ToolCall, *, approved: Mapping[str, Any] | None = None
    ) -> GateVerdict:
        """Pass one call through the stages. ``approved`` is the prepared
        result a human approved for a held call: the approval stage then lets
        it through, the tool prepares again on the current case, and a result
        that differs from what the human saw is refused (``prepared_changed``)
        before the after-checks and the commit run."""
        # [1] schema
        plan = self.plans.get(call.name)
        if plan is None:
            return _reject(
                "schema",
                "unknown_tool",
                f"There is no tool {call.name!r}.",
                retryable=True,
                hint={"tools": self._tool_names},
                params={"tool": call.name},
            )
        spec = plan.spec
        try:
            raw = json.loads(call.arguments) if call.arguments.strip() else {}
        except (json.JSONDecodeError, RecursionError) as exc:
            return _reject(
                "schema",
                "bad_json",
                f"The arguments are not valid JSON: {exc}.",
                retryable=True,
                hint="Send the arguments as one JSON object.",
                params={"detail": str(exc)},
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
                params={"tool": spec.name},
            )
        arguments = args.model_dump(mode="json")

        # [2] authority
        if not self._actor_allowed():
            return _reject(
                "authority",
                "not_authorised",
                "The run's actor may not act on this case.",
                arguments=arguments,
            )
        if not plan.allowed:
            return _reject(
                "authority",
                "tool_not_allowed",
                f"The tool {spec.name!r} is not allowed in this task.",
                retryable=True,
                hint={"tools": sorted(self.envelope.allowed_tools)},
                arguments=arguments,
                params={"tool": spec.name},
            )

        # [3] before-policies
        ctx = PolicyContext(
            tool=spec.name, args=args, world=self.world, call_id=call.call_id
        )
        ref, outcome = evaluate_bound(plan.before, ctx)
        if ref is not None:
            return _reject(
                "before",
                outcome.code,
                outcome.message,
                failed_policy=ref.key,
                retryable=outcome.retryable,
                hint=outcome.hint,
                arguments=arguments,
                params=outcome.params,
            )

        # [4] approval boundary (a held call is prepared first, without a
        # side effect, so that the human sees what would be committed)
        approval = plan.approval
        if approval is Approval.REJECTED:
            return _reject(
                "approval",
                "approval_rejected",
                f"The approval policy of this task rejects {spec.name!r}.",
                arguments=arguments,
                params={"tool": spec.name},
            )
        hold = approval is Approval.HUMAN and approved is None

        # [5] prepare
        impl = plan.implementation
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
                "prepare",
                exc.code,
                exc.message,
                hint=exc.hint,
                arguments=arguments,
                params=exc.params,
            )
        if hold:
            if impl is not None:
                impl.discard(prepared)
            return GateVerdict(
                status="approval_required",
                stage="approval",
                observation={
                    "status": "approval_required",
                    "call_id": call.call_id,
                    "message": "A human must approve this call; it was not run. "
                    "The decision comes back as an observation.",
                },
                arguments=arguments,
                prepared=_json(prepared.payload),
                held_by=(
                    {
                        "key": "approval_policy",
                        "label": f"The task's approval policy: a human approves "
                        f"{spec.name}.",
                    },
                ),
            )
        if approved is not None and _json(prepared.payload) != _json(approved):
            if impl is not None:
                impl.discard(prepared)
            return _reject(
                "prepare",
                "prepared_changed",
                "The case changed since the call was held: the tool would now "
                "commit something other than what was approved.",
                hint={"approved": _json(approved), "now": _json(prepared.payload)},
                arguments=arguments,
            )

        # [6] after-policies
        ctx = PolicyContext(
            tool=spec.name,
            args=args,
            world=self.world,
            call_id=call.call_id,
            prepared=prepared,
        )
        ref, outcome = evaluate_bound(plan.after, ctx)
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
                params=outcome.params,
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
