"""One exception handler for the whole API: every error is JSON with a stable
``code`` and a human ``message`` (plus ``fields`` for validation errors and
``hint``/``retryable`` for domain errors).

- DomainError (cases/errors.py) → its ``http_status``, ``code``, ``message``.
- Validation errors → 400 ``validation_error`` with ``fields``: field name →
  list of messages; nested input nests, items of a list are keyed by their
  index (only the faulty ones: ``{"parties": {"1": {"name": [...]}}}``);
  ``non_field_errors`` holds errors of the whole request.
- Http404 / PermissionDenied from Django → 404 ``not_found`` / 403
  ``permission_denied``; DRF's own errors keep their codes (``not_authenticated``,
  ``method_not_allowed``, ``parse_error``, ``throttled``, ...) and headers
  (WWW-Authenticate, Retry-After).
- Anything else is a bug: logged with its traceback and answered with 500
  ``server_error`` (in DEBUG, Django's traceback page instead).
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from cases.errors import DomainError

logger = logging.getLogger("belegt.api")

VALIDATION_MESSAGE = "The request contains invalid data."


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DomainError):
        body: dict[str, Any] = {"code": exc.code, "message": exc.message}
        if exc.hint is not None:
            body["hint"] = exc.hint
        body["retryable"] = exc.retryable
        set_rollback()
        return Response(body, status=exc.http_status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    response = drf_exception_handler(exc, context)
    if response is None:
        return _server_error(exc, context)
    if isinstance(exc, exceptions.ValidationError):
        detail = exc.detail
        if not isinstance(detail, dict):
            detail = {"non_field_errors": detail}
        response.data = {
            "code": "validation_error",
            "message": VALIDATION_MESSAGE,
            "fields": detail,
        }
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        response.data = {"code": code, "message": str(exc.detail)}
    return response


def _server_error(exc: Exception, context: dict[str, Any]) -> Response | None:
    """An unexpected exception: JSON for API clients, but never silently."""
    if settings.DEBUG:
        return None  # Django's technical 500 page, with the traceback
    request = context.get("request")
    logger.error(
        "Unhandled API error on %s %s",
        getattr(request, "method", "?"),
        getattr(request, "path", "?"),
        exc_info=exc,
    )
    set_rollback()
    return Response(
        {
            "code": "server_error",
            "message": "An unexpected error occurred. It has been logged.",
            "retryable": False,
        },
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )
