"""The retry policy for transient database and broker errors, one rule for
every task.

A task that meets a dropped database connection or a broker outage retries
with an exponential backoff capped at ``BACKOFF_MAX`` seconds and an "equal"
jitter (half the delay fixed, half random), so that the workers of a
recovering server do not all return in the same second and the retries still
cover a known span: between ``schedule_bounds()[0]`` and ``[1]`` seconds
(7 to 14 minutes, about ten on average). Celery's own ``retry_jitter`` is a
full jitter whose total may be close to nothing, so the tasks use this."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerOperationalError

BACKOFF_MAX = 120
MAX_RETRIES = 13
TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (
    OperationalError,
    InterfaceError,
    BrokerOperationalError,
    ConnectionError,
)


def retry_delay(retries: int, *, rng: random.Random | None = None) -> float:
    """Seconds before retry number ``retries + 1`` (``retries`` done so far)."""
    base = float(min(BACKOFF_MAX, 2**retries))
    return base / 2 + (rng or random).uniform(0, base / 2)


def schedule_bounds() -> tuple[float, float]:
    """The shortest and the longest total wait over all retries."""
    total = sum(min(BACKOFF_MAX, 2**n) for n in range(MAX_RETRIES))
    return total / 2, float(total)


@contextmanager
def transient_retry(task: Any) -> Iterator[None]:
    """Inside a bound Celery task: turn a transient error into a retry on the
    schedule above (after ``MAX_RETRIES`` Celery re-raises the error)."""
    try:
        yield
    except TRANSIENT_ERRORS as exc:
        raise task.retry(
            exc=exc,
            countdown=retry_delay(int(task.request.retries or 0)),
            max_retries=MAX_RETRIES,
        ) from exc
