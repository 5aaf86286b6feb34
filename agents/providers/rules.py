"""The ``rules`` provider: the deterministic extractor of
``agents.domain.rules`` dressed as a model. It answers an episode with one
``propose_case_fact`` call per candidate (and ``propose_term`` for document
types the ontology lacks), then finishes. Its calls go through the same gate
as any model's; its call ids are stable (a hash of chunk, fact and quote), so
re-running an extraction replays instead of duplicating."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from agents.domain.gate import ToolCall
from agents.domain.loop import Episode, ProviderTurn
from agents.domain.rules import ChunkText, RulesExtractor

RULES_MODEL_ID = "rules-de-en/1"


def _call_id(kind: str, payload: Mapping[str, Any]) -> str:
    canonical = json.dumps(payload, sort_keys=True, ensure_ascii=False)
    digest = hashlib.sha256(f"{RULES_MODEL_ID}|{kind}|{canonical}".encode()).hexdigest()
    return f"rules:{digest[:40]}"


class RulesProvider:
    name = "rules"
    call_id_scope: Literal["run", "global"] = "global"

    def __init__(self) -> None:
        self._extractor = RulesExtractor()

    def next_turn(
        self, *, episode: Episode, messages: Sequence[Mapping[str, Any]]
    ) -> ProviderTurn:
        if len(messages) > len(episode.messages):  # our calls were answered
            return ProviderTurn(calls=(), text="done", model_id=RULES_MODEL_ID)
        chunks = [ChunkText(c.chunk_id, c.document_id, c.text) for c in episode.chunks]
        terms_before = len(self._extractor.terms)
        calls: list[ToolCall] = []
        for cand in self._extractor.extract(chunks):
            args = {
                "fact_type": cand.fact_type,
                "source_chunk_id": cand.chunk_id,
                "quote": cand.quote,
                "value": cand.value,
                "confidence": cand.confidence,
            }
            key = {k: v for k, v in args.items() if k != "confidence"}
            calls.append(
                ToolCall(
                    _call_id("fact", key),
                    "propose_case_fact",
                    json.dumps(args, ensure_ascii=False),
                )
            )
        for term in self._extractor.terms[terms_before:]:
            args = {
                "label": term.label,
                "kind": term.kind,
                "source_chunk_id": term.chunk_id,
            }
            calls.append(
                ToolCall(
                    _call_id("term", args),
                    "propose_term",
                    json.dumps(args, ensure_ascii=False),
                )
            )
        if not calls:
            return ProviderTurn(calls=(), text="nothing found", model_id=RULES_MODEL_ID)
        return ProviderTurn(calls=calls, model_id=RULES_MODEL_ID)
