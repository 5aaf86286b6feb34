"""Errors of the reports app (stable codes for the API and the pages)."""

from __future__ import annotations

from cases.errors import ConflictError, DomainError


class ReportNotDraft(ConflictError):
    code = "report_not_draft"


class ClaimNotInCase(DomainError):
    code = "claim_not_in_case"
    http_status = 400


class NoClaims(DomainError):
    code = "no_claims"
    http_status = 400


class UnknownExportFormat(DomainError):
    code = "unknown_export_format"
    http_status = 400
