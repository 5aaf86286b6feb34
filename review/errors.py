"""Errors of the review app: stable codes for the API, the UI and tests."""

from __future__ import annotations

from cases.errors import ConflictError, DomainError


class ProposalNotPending(ConflictError):
    """Someone decided the proposal first (or it was superseded)."""

    code = "proposal_not_pending"


class ProposalClaimed(ConflictError):
    """Another reviewer holds an unexpired claim on the proposal."""

    code = "proposal_claimed"


class FactStatusConflict(ConflictError):
    """The fact is not (any more) in the status the decision needs."""

    code = "fact_status_conflict"


class FourEyesViolation(DomainError):
    """The reviewer who accepted a fact may not also confirm it."""

    code = "four_eyes_same_reviewer"
    http_status = 403


class ReasonRequired(DomainError):
    code = "reason_required"


class InvalidValue(DomainError):
    code = "invalid_value"


class InvalidDecision(DomainError):
    """An unknown decision, or an edit without its value."""

    code = "invalid_decision"


class UnknownFactType(DomainError):
    code = "unknown_fact_type"


class TermNotPending(ConflictError):
    code = "term_not_pending"


class UnknownConcept(DomainError):
    code = "unknown_concept"


class QuoteNotVerbatim(DomainError):
    """A reviewer's marked passage does not occur verbatim in the chunk it is
    said to come from (the one quote matcher, ``evidence.domain.quotes``)."""

    code = "quote_not_verbatim"


class ChunkNotInCase(DomainError):
    """The chunk a manual fact should rest on belongs to another case."""

    code = "chunk_not_in_case"
    http_status = 404


class DecisionNotUndoable(ConflictError):
    """The decision is not the reviewer's last one, is too old, was not theirs,
    or someone acted on its proposal or fact since."""

    code = "decision_not_undoable"
