"""The ``rules`` provider: the deterministic extractor of ``agents.extraction``
dressed as a model. It answers an episode with one ``propose_case_fact`` call
per new finding (one per fact: the same kind and value from several passages
is proposed once, from its first passage) and ``propose_term`` for document
types the ontology lacks, then finishes. Its calls go through the same gate as
any model's; its call ids are stable (a hash of chunk, fact and quote), so
re-running an extraction replays instead of duplicating. Documents that
address machines ("Hinweis an automatisierte Systeme …") are listed in
``instructed_documents``; nothing of those sentences is ever proposed.

For a compliance assessment (a case whose claims are GDPR, AI Act or DORA
checklists, ``Episode.claim_types``) it reads the dossier with
``agents.extraction.compliance`` instead: one proposal per element and
passage (policies, notices, contracts, registers, reports, minutes), never
from a recital, a marketing claim, a summary asserting compliance or text
addressed to machines. A case with a Verzug claim as well gets both readings.

The extractor proposes the fact kinds of the agreed vocabulary
(tests/ontology/scenarios/VOCABULARY.md)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from django.conf import settings

from agents.domain.gate import ToolCall
from agents.domain.loop import Episode, ProviderTurn
from agents.extraction.compliance import (
    COMPLIANCE_CLAIM_TYPES,
    ComplianceExtractor,
    regimes_of,
)
from agents.extraction.extractor import ChunkText, Extractor, Finding
from agents.extraction.terms import TermCandidateDraft, document_type_terms

RULES_MODEL_ID = "rules-de-en/2"


def _call_id(kind: str, payload: Mapping[str, Any]) -> str:
    canonical = json.dumps(payload, sort_keys=True, ensure_ascii=False)
    digest = hashlib.sha256(f"{RULES_MODEL_ID}|{kind}|{canonical}".encode()).hexdigest()
    return f"rules:{digest[:40]}"


class RulesProvider:
    name = "rules"
    call_id_scope: Literal["run", "global"] = "global"

    def __init__(self) -> None:
        self._extractor = Extractor()
        self._compliance: ComplianceExtractor | None = None
        self.terms: list[TermCandidateDraft] = []

    @property
    def instructed_documents(self) -> set[int]:
        """Ids of the documents read so far that address machines."""
        found = set(self._extractor.instructed_documents)
        if self._compliance is not None:
            found |= self._compliance.instructed_documents
        return found

    def _compliance_extractor(
        self, claim_types: tuple[str, ...]
    ) -> ComplianceExtractor:
        regimes = regimes_of(claim_types)
        if self._compliance is None or self._compliance.regimes != regimes:
            self._compliance = ComplianceExtractor(
                regimes=regimes,
                by_meaning=bool(settings.BELEGT_COMPLIANCE_BY_MEANING),
            )
        return self._compliance

    def next_turn(
        self, *, episode: Episode, messages: Sequence[Mapping[str, Any]]
    ) -> ProviderTurn:
        if len(messages) > len(episode.messages):  # our calls were answered
            return ProviderTurn(calls=(), text="done", model_id=RULES_MODEL_ID)
        chunks = [
            ChunkText(c.chunk_id, c.document_id, c.text, c.document)
            for c in episode.chunks
        ]
        compliance = [c for c in episode.claim_types if c in COMPLIANCE_CLAIM_TYPES]
        # A compliance assessment reads its dossier for element evidence; the
        # Verzug facts are read where the case has another claim (or, for
        # callers that name none, always: the provider's original contract).
        verzug = not compliance or any(
            c not in COMPLIANCE_CLAIM_TYPES for c in episode.claim_types
        )
        findings: list[Finding] = []
        if verzug:
            findings.extend(self._extractor.extract(chunks))
        if compliance:
            findings.extend(
                self._compliance_extractor(tuple(compliance)).extract(chunks)
            )
        calls: list[ToolCall] = []
        for finding in findings:
            args = {
                "fact_type": finding.fact_type,
                "source_chunk_id": finding.chunk_id,
                "quote": finding.quote,
                "value": finding.value,
                "confidence": finding.confidence,
            }
            key = {k: v for k, v in args.items() if k != "confidence"}
            calls.append(
                ToolCall(
                    _call_id("fact", key),
                    "propose_case_fact",
                    json.dumps(args, ensure_ascii=False),
                )
            )
        for chunk in chunks if verzug else ():
            for term in document_type_terms(chunk.chunk_id, chunk.text):
                self.terms.append(term)
                args_t = {
                    "label": term.label,
                    "kind": term.kind,
                    "source_chunk_id": term.chunk_id,
                }
                calls.append(
                    ToolCall(
                        _call_id("term", args_t),
                        "propose_term",
                        json.dumps(args_t, ensure_ascii=False),
                    )
                )
        if not calls:
            return ProviderTurn(calls=(), text="nothing found", model_id=RULES_MODEL_ID)
        return ProviderTurn(calls=calls, model_id=RULES_MODEL_ID)
