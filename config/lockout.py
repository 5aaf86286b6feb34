"""The answer to a locked-out log-in (django-axes calls ``lockout_response``).

After AXES_FAILURE_LIMIT wrong passwords for one user name from one address,
both the log-in page and the token endpoint refuse that pair for
AXES_COOLOFF_TIME, even with the right password: the page shows why and for
how long (German by default), the API answers 429 with code ``locked_out``."""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def _cool_off() -> timedelta:
    value = settings.AXES_COOLOFF_TIME
    if isinstance(value, timedelta):
        return value
    return timedelta(hours=float(value))


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    minutes = max(1, math.ceil(_cool_off().total_seconds() / 60))
    retry_after = str(int(_cool_off().total_seconds()))
    message = _(
        "Too many failed log-in attempts. This account is locked for "
        "%(minutes)s minutes from this address; try again later or ask an "
        "administrator to unlock it."
    ) % {"minutes": minutes}
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"code": "locked_out", "message": message, "retryable": True},
            status=429,
        )
    else:
        response = render(
            request,
            "registration/locked_out.html",
            {"message": message, "minutes": minutes},
            status=429,
        )
    response["Retry-After"] = retry_after
    return response


def client_ip(request: HttpRequest) -> str:
    """The client address the lockout counts by: REMOTE_ADDR, or behind the
    TLS proxy (DJANGO_SECURE, which sets SECURE_PROXY_SSL_HEADER) the last
    X-Forwarded-For hop, the one our proxy appended (earlier hops are the
    client's to forge)."""
    if getattr(settings, "SECURE_PROXY_SSL_HEADER", None):
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-1]
    return str(request.META.get("REMOTE_ADDR", ""))
