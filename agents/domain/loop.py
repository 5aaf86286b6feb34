"""The agent loop: ask the provider for a turn, pass every proposed call
through the gate, feed the observations back, stop on finish, on the step,
token or cost limit, or when the same policy fails ``identical_failure_limit``
times in a row (circuit breaker → ``human_review_required``).

Work comes in episodes (for extraction: one batch of chunks each) that share
the run's counters, so a 500-page case never needs one endless conversation."""

from __future__ import annotations

import functools
import hashlib
import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal, Protocol

from agents.domain.envelope import TaskEnvelope
from agents.domain.gate import Gate, GateVerdict, ToolCall


class RunStatus(StrEnum):
    RUNNING = "running"
    FINISHED = "finished"
    STEP_LIMIT = "step_limit"
    BUDGET_EXHAUSTED = "budget_exhausted"
    HUMAN_REVIEW_REQUIRED = "human_review_required"
    FAILED = "failed"


@dataclass(frozen=True)
class ChunkInput:
    """A chunk handed to the model as data (never as instructions)."""

    chunk_id: int
    document_id: int
    document: str
    pages: tuple[int, ...]
    text: str


@dataclass
class Episode:
    """One conversation: the opening messages and the chunks they carry."""

    messages: list[dict[str, Any]]
    chunks: Sequence[ChunkInput] = ()
    # The claim types of the case (``Claim.ClaimType`` values): a compliance
    # assessment reads its documents for element evidence, not Verzug facts.
    claim_types: tuple[str, ...] = ()


@dataclass(frozen=True)
class ProviderTurn:
    calls: Sequence[ToolCall]
    text: str = ""
    tokens_in: int = 0
    tokens_out: int = 0
    model_id: str = ""
    raw: str = ""

    @property
    def finished(self) -> bool:
        return not self.calls


class ProviderError(Exception):
    """The provider could not produce a turn (network, protocol, refusal)."""


class Provider(Protocol):
    name: str
    # "run": call ids are only unique within a run (hosted models number their
    # calls per conversation); "global": the provider makes stable ids, so
    # re-running the same extraction replays instead of duplicating.
    call_id_scope: Literal["run", "global"]

    def next_turn(
        self, *, episode: Episode, messages: Sequence[Mapping[str, Any]]
    ) -> ProviderTurn: ...


@dataclass(frozen=True)
class StepRecord:
    index: int
    kind: Literal["tool_call", "finish", "provider_error", "limit"]
    call_id: str = ""
    tool: str = ""
    raw: str = ""
    verdict: GateVerdict | None = None
    tokens_in: int = 0
    tokens_out: int = 0
    latency_ms: float = 0.0
    model_id: str = ""
    prompt_hash: str = ""
    note: str = ""
    # A stable code for the note (a limit's reason) and its parameters, so a
    # page can say it in the reader's language; ``note`` keeps English text.
    note_code: str = ""
    note_params: Mapping[str, Any] = field(default_factory=dict)


class Recorder(Protocol):
    def around_call(
        self, *, index: int, call: ToolCall, execute: Callable[[], GateVerdict]
    ) -> GateVerdict:
        """Run one tool call through the gate and record its step (``execute``
        calls ``step``). A database recorder makes this one transaction, so a
        call's proposal, audit event and step record commit together."""
        ...

    def step(self, record: StepRecord) -> None: ...


@dataclass
class RunOutcome:
    status: RunStatus = RunStatus.RUNNING
    reason: str = ""
    # Why the run ended as a stable code (``step_limit``, ``token_budget``…)
    # with its parameters; ``reason`` is the same in English plus detail.
    reason_code: str = ""
    reason_params: dict[str, Any] = field(default_factory=dict)
    steps: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost_cents: float = 0.0
    accepted: int = 0
    rejected: int = 0
    rejections_by_code: dict[str, int] = field(default_factory=dict)
    model_id: str = ""


@dataclass(frozen=True)
class Pricing:
    """Cents per 1,000 tokens (0 for local models and the rules provider)."""

    input_per_1k: float = 0.0
    output_per_1k: float = 0.0


def prompt_hash(messages: Sequence[Mapping[str, Any]]) -> str:
    canonical = json.dumps(messages, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _tool_message(call: ToolCall, verdict: GateVerdict) -> dict[str, Any]:
    return {
        "role": "tool",
        "tool_call_id": call.call_id,
        "content": json.dumps(dict(verdict.observation), ensure_ascii=False),
    }


def _assistant_message(turn: ProviderTurn) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": turn.text or None}
    if turn.calls:
        message["tool_calls"] = [
            {
                "id": c.call_id,
                "type": "function",
                "function": {"name": c.name, "arguments": c.arguments},
            }
            for c in turn.calls
        ]
    return message


class AgentLoop:
    def __init__(
        self,
        *,
        envelope: TaskEnvelope,
        provider: Provider,
        gate: Gate,
        recorder: Recorder,
        run_key: str,
        pricing: Pricing = Pricing(),
        max_turns_per_episode: int = 50,
    ) -> None:
        self.envelope = envelope
        self.provider = provider
        self.gate = gate
        self.recorder = recorder
        self.run_key = run_key
        self.pricing = pricing
        self.max_turns_per_episode = max_turns_per_episode
        self.outcome = RunOutcome()
        self._streak_key: str | None = None
        self._streak = 0

    # -- limits -------------------------------------------------------------------
    def _over_budget(self) -> tuple[str, str, dict[str, Any]] | None:
        """(code, English reason, parameters) of an exhausted budget."""
        o, e = self.outcome, self.envelope
        if o.tokens_in + o.tokens_out > e.token_budget:
            budget = {"budget": e.token_budget}
            return "token_budget", f"token budget of {e.token_budget} exhausted", budget
        if o.cost_cents > e.cost_budget_cents:
            cents = {"budget": e.cost_budget_cents}
            return (
                "cost_budget",
                f"cost budget of {e.cost_budget_cents} cents exhausted",
                cents,
            )
        return None

    def _stop(self, status: RunStatus, code: str, reason: str, **params: Any) -> None:
        self.outcome.status = status
        self.outcome.reason = reason
        self.outcome.reason_code = code
        self.outcome.reason_params = dict(params)
        self.recorder.step(
            StepRecord(
                index=self.outcome.steps,
                kind="limit",
                note=reason,
                note_code=code,
                note_params=dict(params),
            )
        )

    def _stop_step_limit(self) -> None:
        self._stop(
            RunStatus.STEP_LIMIT,
            "step_limit",
            "step limit reached",
            limit=self.envelope.step_limit,
        )

    def _count_failure(self, verdict: GateVerdict) -> bool:
        """Update the circuit breaker; True when it trips."""
        key = verdict.failure_key
        if key is None:
            self._streak_key, self._streak = None, 0
            return False
        if key == self._streak_key:
            self._streak += 1
        else:
            self._streak_key, self._streak = key, 1
        return self._streak >= self.envelope.identical_failure_limit

    def _call_id(self, call: ToolCall) -> str:
        if self.provider.call_id_scope == "global":
            return call.call_id
        return f"{self.run_key}:{call.call_id}"

    def _execute(
        self,
        *,
        scoped: ToolCall,
        call: ToolCall,
        turn: ProviderTurn,
        first: bool,
        latency: float,
        digest: str,
    ) -> GateVerdict:
        """Gate one call and record its step (inside ``around_call``)."""
        verdict = self.gate.handle(scoped)
        self.recorder.step(
            StepRecord(
                index=self.outcome.steps,
                kind="tool_call",
                call_id=scoped.call_id,
                tool=call.name,
                raw=json.dumps(
                    {"name": call.name, "arguments": call.arguments},
                    ensure_ascii=False,
                ),
                verdict=verdict,
                tokens_in=turn.tokens_in if first else 0,
                tokens_out=turn.tokens_out if first else 0,
                latency_ms=latency if first else 0.0,
                model_id=turn.model_id,
                prompt_hash=digest,
            )
        )
        return verdict

    def _deliver_decisions(self, messages: list[dict[str, Any]]) -> None:
        """A human's decisions on held calls of this run, as structured
        observations before the next turn (an approved call's result, a
        rejection with its reason)."""
        inbox = getattr(self.recorder, "decisions", None)
        if inbox is None:
            return
        for decision in inbox():
            messages.append(
                {
                    "role": "user",
                    "content": json.dumps(
                        {"type": "approval_decision", **decision},
                        ensure_ascii=False,
                        default=str,
                    ),
                }
            )

    # -- the loop -----------------------------------------------------------------
    def run(self, episodes: Iterable[Episode]) -> RunOutcome:
        for episode in episodes:
            if not self._run_episode(episode):
                return self.outcome
        self.outcome.status = RunStatus.FINISHED
        self.outcome.reason = self.outcome.reason or "finished"
        self.outcome.reason_code = self.outcome.reason_code or "finished"
        return self.outcome

    def _run_episode(self, episode: Episode) -> bool:
        """False when the run must stop."""
        messages: list[dict[str, Any]] = list(episode.messages)
        for _ in range(self.max_turns_per_episode):
            if self.outcome.steps >= self.envelope.step_limit:
                self._stop_step_limit()
                return False
            over = self._over_budget()
            if over:
                self._stop(RunStatus.BUDGET_EXHAUSTED, over[0], over[1], **over[2])
                return False
            digest = prompt_hash(messages)
            started = time.perf_counter()
            try:
                turn = self.provider.next_turn(episode=episode, messages=messages)
            except ProviderError as exc:
                latency = (time.perf_counter() - started) * 1000
                self.recorder.step(
                    StepRecord(
                        index=self.outcome.steps,
                        kind="provider_error",
                        latency_ms=latency,
                        prompt_hash=digest,
                        note=str(exc),
                    )
                )
                self.outcome.status = RunStatus.FAILED
                self.outcome.reason = f"provider error: {exc}"
                self.outcome.reason_code = "provider_error"
                self.outcome.reason_params = {"detail": str(exc)[:1000]}
                return False
            latency = (time.perf_counter() - started) * 1000
            o = self.outcome
            o.model_id = turn.model_id or o.model_id
            o.tokens_in += turn.tokens_in
            o.tokens_out += turn.tokens_out
            o.cost_cents += (
                turn.tokens_in * self.pricing.input_per_1k
                + turn.tokens_out * self.pricing.output_per_1k
            ) / 1000
            if turn.finished:
                self.recorder.step(
                    StepRecord(
                        index=o.steps,
                        kind="finish",
                        raw=turn.raw or turn.text,
                        tokens_in=turn.tokens_in,
                        tokens_out=turn.tokens_out,
                        latency_ms=latency,
                        model_id=turn.model_id,
                        prompt_hash=digest,
                        note=turn.text[:500],
                    )
                )
                return True
            over = self._over_budget()
            if over:  # the turn itself broke the budget: run none of its calls
                self._stop(RunStatus.BUDGET_EXHAUSTED, over[0], over[1], **over[2])
                return False
            messages.append(_assistant_message(turn))
            for position, call in enumerate(turn.calls):
                if o.steps >= self.envelope.step_limit:
                    self._stop_step_limit()
                    return False
                scoped = ToolCall(self._call_id(call), call.name, call.arguments)
                execute = functools.partial(
                    self._execute,
                    scoped=scoped,
                    call=call,
                    turn=turn,
                    first=position == 0,
                    latency=latency,
                    digest=digest,
                )
                verdict = self.recorder.around_call(
                    index=o.steps, call=scoped, execute=execute
                )
                o.steps += 1
                if verdict.status == "rejected" and verdict.rejection is not None:
                    o.rejected += 1
                    code = verdict.rejection.code
                    o.rejections_by_code[code] = o.rejections_by_code.get(code, 0) + 1
                elif verdict.status == "ok":
                    o.accepted += 1
                messages.append(_tool_message(call, verdict))
                if self._count_failure(verdict):
                    self._stop(
                        RunStatus.HUMAN_REVIEW_REQUIRED,
                        "identical_failures",
                        f"{verdict.failure_key} failed {self._streak} times in a row",
                        check=str(verdict.failure_key),
                        count=self._streak,
                    )
                    return False
            # After the turn's observations (never before an episode's first
            # turn, which a provider may read as its opening).
            self._deliver_decisions(messages)
        self._stop(
            RunStatus.STEP_LIMIT,
            "turn_limit",
            "turn limit of one episode reached",
            limit=self.max_turns_per_episode,
        )
        return False
