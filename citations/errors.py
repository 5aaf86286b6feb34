"""Errors of the citations app (stable codes, rendered by the API handler)."""

from __future__ import annotations

from cases.errors import DomainError


class CorpusFileMissing(DomainError):
    code = "corpus_file_missing"


class CorpusPinMismatch(DomainError):
    code = "corpus_pin_mismatch"
    http_status = 409


class CorpusCountMismatch(DomainError):
    code = "corpus_count_mismatch"
    http_status = 409


class CorpusFetchFailed(DomainError):
    code = "corpus_fetch_failed"
    retryable = True


class UnknownInstrument(DomainError):
    code = "unknown_instrument"


class WordingDecisionInvalid(DomainError):
    """A wording confirmation that cannot be recorded as asked (no reason, a
    range that is not before the version, a provision the version lacks)."""

    code = "wording_decision_invalid"


class CitationInputTooLarge(DomainError):
    code = "citation_input_too_large"
    http_status = 400


class CitationCheckRateLimited(DomainError):
    code = "citation_check_rate_limited"
    http_status = 429
    retryable = True
