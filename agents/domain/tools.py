"""Tool specifications: a name, an argument model (its JSON schema is exactly
what a model sees), a description, and the kind of effect.

A read-only tool is prepared and returned; a prepare/commit tool prepares its
result without a side effect, is checked again, and only then committed (or
discarded) by the gate."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ontology.domain.values import value_shapes_description


class ToolKind(StrEnum):
    READ_ONLY = "read_only"
    PREPARE_COMMIT = "prepare_commit"


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class SearchCaseEvidenceArgs(_Args):
    query: str = Field(min_length=1, max_length=500, description="Search words.")


class GetClaimRequirementsArgs(_Args):
    claim_type: str = Field(min_length=1, max_length=64)
    jurisdiction: str = Field(min_length=2, max_length=8)
    valid_at: dt.date = Field(description="The date whose law applies (ISO 8601).")


# Documented from the ontology's one value schema, not restated here.
VALUE_DESCRIPTION = value_shapes_description()


class ProposeCaseFactArgs(_Args):
    fact_type: str = Field(min_length=1, max_length=64)
    source_chunk_id: int = Field(gt=0)
    quote: str = Field(
        min_length=1,
        max_length=2000,
        description="Verbatim text from the source chunk that shows the fact.",
    )
    value: dict[str, Any] = Field(description=VALUE_DESCRIPTION)
    confidence: float = Field(ge=0.0, le=1.0)


class LinkEvidenceProposalArgs(_Args):
    fact_id: int = Field(gt=0)
    source_chunk_id: int = Field(gt=0)
    quote: str = Field(
        min_length=1,
        max_length=2000,
        description="Verbatim text from the source chunk that evidences the fact.",
    )
    confidence: float = Field(ge=0.0, le=1.0)


class GetMissingRequirementsArgs(_Args):
    claim_id: int = Field(gt=0)


class DraftArgumentArgs(_Args):
    claim_id: int = Field(gt=0)
    approved_evidence_ids: list[int] = Field(min_length=1, max_length=200)


class ProposeTermArgs(_Args):
    label: str = Field(min_length=1, max_length=200)
    kind: Literal["document_type", "concept_label"]
    source_chunk_id: int = Field(gt=0)


@dataclass(frozen=True)
class ToolSpec:
    name: str
    args_model: type[BaseModel]
    description: str
    kind: ToolKind

    def json_schema(self) -> dict[str, Any]:
        return self.args_model.model_json_schema()

    def openai_tool(self) -> dict[str, Any]:
        """The ``tools`` entry of an OpenAI-compatible chat request."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.json_schema(),
            },
        }


TOOL_SPECS: Mapping[str, ToolSpec] = {
    spec.name: spec
    for spec in (
        ToolSpec(
            "search_case_evidence",
            SearchCaseEvidenceArgs,
            "Search the passages of this case's documents. Returns chunk ids, "
            "documents, pages and snippets.",
            ToolKind.READ_ONLY,
        ),
        ToolSpec(
            "get_claim_requirements",
            GetClaimRequirementsArgs,
            "The legal requirements of a claim type in a jurisdiction at a date.",
            ToolKind.READ_ONLY,
        ),
        ToolSpec(
            "propose_case_fact",
            ProposeCaseFactArgs,
            "Propose a fact found in one chunk of this case, with a verbatim quote. "
            "A human reviews every proposal; nothing becomes a fact by this call.",
            ToolKind.PREPARE_COMMIT,
        ),
        ToolSpec(
            "link_evidence_proposal",
            LinkEvidenceProposalArgs,
            "Propose a chunk of this case as further evidence for an existing fact.",
            ToolKind.PREPARE_COMMIT,
        ),
        ToolSpec(
            "get_missing_requirements",
            GetMissingRequirementsArgs,
            "Which requirements of one of this case's claims are still open.",
            ToolKind.READ_ONLY,
        ),
        ToolSpec(
            "draft_argument",
            DraftArgumentArgs,
            "Draft an argument for a claim from confirmed facts of this case only.",
            ToolKind.PREPARE_COMMIT,
        ),
        ToolSpec(
            "propose_term",
            ProposeTermArgs,
            "Propose a new ontology term (an unknown document type or a new label "
            "for a known concept) seen in a chunk of this case.",
            ToolKind.PREPARE_COMMIT,
        ),
    )
}

EXTRACTION_TOOLS: frozenset[str] = frozenset(
    {"search_case_evidence", "propose_case_fact", "propose_term"}
)
