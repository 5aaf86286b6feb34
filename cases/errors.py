"""Domain errors: a stable ``code``, a ``message`` for people, and context an
API client or an agent can act on (``hint``, ``retryable``)."""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    code = "domain_error"
    http_status = 400
    retryable = False

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        hint: Any = None,
        retryable: bool | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.hint = hint
        if retryable is not None:
            self.retryable = retryable


class ConflictError(DomainError):
    code = "conflict"
    http_status = 409


class RoleRequired(DomainError):
    code = "role_required"
    http_status = 403
