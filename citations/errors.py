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
