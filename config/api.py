"""One exception handler for the whole API: every error is JSON with a stable
``code`` and a human ``message`` (plus ``fields`` for validation errors and
``hint``/``retryable`` for domain errors)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from cases.errors import DomainError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DomainError):
        body: dict[str, Any] = {"code": exc.code, "message": exc.message}
        if exc.hint is not None:
            body["hint"] = exc.hint
        body["retryable"] = exc.retryable
        return Response(body, status=exc.http_status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {
            "code": "validation_error",
            "message": "The request contains invalid data.",
            "fields": exc.detail,
        }
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        response.data = {"code": code, "message": str(exc.detail)}
    return response
