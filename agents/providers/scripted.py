"""Scripted providers for tests and benchmarks: a fixed list of turns, each a
list of tool calls (name, arguments as raw text). They misbehave on purpose
(bad JSON, unknown tools, invented chunk ids, quotes, repeated violations,
obeying injected instructions) to prove the gate holds."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from agents.domain.gate import ToolCall
from agents.domain.loop import Episode, ProviderTurn

Call = tuple[str, str | Mapping[str, Any]]
TurnScript = (
    Sequence[Call] | Callable[[Episode, Sequence[Mapping[str, Any]]], Sequence[Call]]
)


class ScriptedProvider:
    name = "scripted"
    call_id_scope: Literal["run", "global"] = "run"

    def __init__(
        self,
        turns: Sequence[TurnScript],
        *,
        tokens_per_turn: int = 0,
        model_id: str = "scripted/1",
        call_ids: Sequence[str] | None = None,
    ) -> None:
        self.turns = list(turns)
        self.tokens_per_turn = tokens_per_turn
        self.model_id = model_id
        self.call_ids = list(call_ids or [])
        self.seen_messages: list[list[Mapping[str, Any]]] = []
        self._counter = 0

    def next_turn(
        self, *, episode: Episode, messages: Sequence[Mapping[str, Any]]
    ) -> ProviderTurn:
        self.seen_messages.append(list(messages))
        if not self.turns:
            return ProviderTurn(calls=(), text="finished", model_id=self.model_id)
        script = self.turns.pop(0)
        planned = script(episode, messages) if callable(script) else script
        calls = []
        for name, arguments in planned:
            raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
            call_id = self.call_ids.pop(0) if self.call_ids else f"call_{self._counter}"
            self._counter += 1
            calls.append(ToolCall(call_id, name, raw))
        return ProviderTurn(
            calls=calls,
            tokens_in=self.tokens_per_turn,
            tokens_out=self.tokens_per_turn // 4,
            model_id=self.model_id,
            raw=json.dumps([[n, a] for n, a in planned], default=str),
        )
