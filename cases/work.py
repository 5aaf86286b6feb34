"""Claimed work: how a long job (an ingestion, an agent run, a report build)
shows that its worker is alive, so that the stuck-work sweep can tell a busy
job from one whose worker was killed.

The rule: a worker holds a PostgreSQL session advisory lock on the job while
it executes it (the lock dies with a killed worker's connection) and writes a
heartbeat as it goes. A job counts as stuck when its heartbeat is older than
``BELEGT_STUCK_AFTER_SECONDS`` and nobody holds its lock."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone


@contextlib.contextmanager
def work_lock(namespace: int, key: int) -> Iterator[bool]:
    """Try to take the session lock ``(namespace, key)``; yields whether it was
    taken and releases it on the way out."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [namespace, key])
        acquired = bool(cursor.fetchone()[0])
    try:
        yield acquired
    finally:
        if acquired:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [namespace, key])


def work_worker_alive(namespace: int, key: int) -> bool:
    """Whether some session holds the job's lock (its worker still runs)."""
    with work_lock(namespace, key) as acquired:
        return not acquired


def work_stale_before() -> datetime:
    """Heartbeats older than this are silent (``BELEGT_STUCK_AFTER_SECONDS``)."""
    return timezone.now() - timedelta(seconds=int(settings.BELEGT_STUCK_AFTER_SECONDS))
