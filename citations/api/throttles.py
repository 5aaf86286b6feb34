"""One rate limit for checking citations, per user, for the page and the API
alike (the same bucket in Django's default cache)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.throttling import UserRateThrottle
from rest_framework.views import APIView

DEFAULT_RATE = "20/min"


class CitationCheckThrottle(UserRateThrottle):
    """DRF throttle scope ``citation_check``; the rate is the setting
    ``CITATION_CHECK_RATE`` (default 20 checks a minute)."""

    scope = "citation_check"

    def get_rate(self) -> str | None:
        return str(getattr(settings, "CITATION_CHECK_RATE", DEFAULT_RATE))


def citation_check_allowed(request: Any) -> tuple[bool, float | None]:
    """For the page (a plain Django request): whether this user may check
    now, and if not, in how many seconds again. Counts the check."""
    throttle = CitationCheckThrottle()
    if throttle.allow_request(request, APIView()):
        return True, None
    return False, throttle.wait()
