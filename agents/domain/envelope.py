"""The task envelope: every run has exactly one, and nothing runs without it."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Approval(StrEnum):
    """What happens at the approval boundary (gate stage 4)."""

    AUTOMATIC = "automatic"
    HUMAN = "human"
    REJECTED = "rejected"


class ApprovalPolicy(BaseModel):
    """Per-tool approval; tools not named get ``default``. Proposals are not
    facts (a human reviews every one), so automatic is the usual default."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    default: Approval = Approval.AUTOMATIC
    per_tool: dict[str, Approval] = Field(default_factory=dict)

    def for_tool(self, name: str) -> Approval:
        return self.per_tool.get(name, self.default)


class TaskEnvelope(BaseModel):
    """Goal, actor, case, allowed tools, limits and the approval policy of one
    run. ``actor_id`` is the user the run acts for; the gate checks that this
    user may act on ``case_id`` before any policy runs."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    goal: str = Field(min_length=1, max_length=2000)
    actor_id: int
    case_id: int
    allowed_tools: frozenset[str] = Field(min_length=1)
    step_limit: int = Field(gt=0, le=1_000_000)
    token_budget: int = Field(ge=0)
    cost_budget_cents: float = Field(ge=0)
    identical_failure_limit: int = Field(gt=0, le=1000)
    approval: ApprovalPolicy = Field(default_factory=ApprovalPolicy)
    document_id: int | None = None

    @model_validator(mode="after")
    def _approval_names_allowed_tools(self) -> TaskEnvelope:
        unknown = set(self.approval.per_tool) - set(self.allowed_tools)
        if unknown:
            raise ValueError(
                f"approval policy names tools outside the envelope: {sorted(unknown)}"
            )
        return self
