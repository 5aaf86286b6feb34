"""Domain errors of the ontology app (stable codes)."""

from __future__ import annotations

from datetime import date

from cases.errors import DomainError


class ClaimDefinitionInvalid(DomainError):
    """A claim file or its SHACL shapes are malformed. Raised at load time so a
    broken shape never silently passes or fails a requirement."""

    code = "claim_definition_invalid"
    http_status = 500


class ClaimVersionNotFound(DomainError):
    """No version of the claim type is valid for the jurisdiction at the date."""

    code = "claim_version_not_found"
    http_status = 404


class BaseRateUnknown(DomainError):
    """The Basiszinssatz table has no value for a day of the interest period."""

    code = "base_rate_unknown"

    def __init__(self, message: str, *, day: date, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.day = day
