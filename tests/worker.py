"""A real Celery worker process for integration tests.

The worker is a separate OS process (``celery -A config worker``) connected to
the pytest test database and to the broker of this run: Redis when
``CELERY_BROKER_URL`` is set (CI), otherwise kombu's SQLAlchemy transport on the
embedded PostgreSQL. Each test session consumes from its own queue, so parallel
runs on one broker never take each other's tasks. Tests using it must be
``@pytest.mark.django_db(transaction=True)``: the worker only sees committed rows.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection

from config.celery import app as celery_app

BASE_DIR = Path(__file__).resolve().parent.parent


def _database_url(settings_dict: dict) -> str:
    user = quote(settings_dict.get("USER") or "postgres")
    password = settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{quote(password)}@" if password else f"{user}@"
    host = settings_dict.get("HOST") or ""
    name = settings_dict["NAME"]
    if host.startswith("/"):
        return f"postgresql://{auth}/{name}?host={host}"
    port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
    return f"postgresql://{auth}{host}{port}/{name}"


@dataclass
class WorkerProcess:
    process: subprocess.Popen
    queue: str
    env: dict[str, str]
    output: list[str] = field(default_factory=list)

    def log(self) -> str:
        return "".join(self.output[-200:])

    def wait_for(self, predicate, timeout: float = 60.0, interval: float = 0.1):
        """Poll ``predicate`` until it returns something truthy; fail with the
        worker's log otherwise."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            result = predicate()
            if result:
                return result
            if self.process.poll() is not None:
                pytest.fail(f"worker exited ({self.process.returncode}):\n{self.log()}")
            time.sleep(interval)
        pytest.fail(f"timed out after {timeout}s; worker log:\n{self.log()}")


def start_worker(queue: str, extra_env: dict[str, str] | None = None) -> WorkerProcess:
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(connection.settings_dict),
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DJANGO_SECRET_KEY": "integration-test-secret",
        "BELEGT_MEDIA_ROOT": str(settings.MEDIA_ROOT),
        "PYTHONUNBUFFERED": "1",
        # No extraction runs behind a test's back (a test that wants them says so):
        # a run still writing when the test database is flushed deadlocks it.
        "BELEGT_AGENT_AUTO_EXTRACT": "0",
        **(extra_env or {}),
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--loglevel",
            "INFO",
            "--concurrency",
            "1",
            "--pool",
            "prefork",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "--queues",
            queue,
            "--hostname",
            f"{queue}@%h",
        ],
        cwd=BASE_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    worker = WorkerProcess(process=process, queue=queue, env=env)

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            worker.output.append(line)

    threading.Thread(target=pump, daemon=True).start()
    worker.wait_for(
        lambda: any(" ready." in line for line in worker.output), timeout=90
    )
    return worker


def stop_worker(worker: WorkerProcess) -> None:
    if worker.process.poll() is None:
        worker.process.terminate()
        try:
            worker.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.process.kill()
            worker.process.wait()


def _use_default_queue(queue: str) -> None:
    """Send tasks to ``queue`` from now on. Celery caches the default queue and
    the router after the first send, so changing the setting alone would keep
    routing to the queue used first."""
    celery_app.conf.task_default_queue = queue
    for cached in ("queues", "default_queue", "router"):
        celery_app.amqp.__dict__.pop(cached, None)


@contextmanager
def tasks_routed_to(queue: str) -> Iterator[str]:
    """Route the tasks this process sends to ``queue`` (a worker of a test's
    own, with settings of its own), and back afterwards."""
    previous = celery_app.conf.task_default_queue
    _use_default_queue(queue)
    try:
        yield queue
    finally:
        _use_default_queue(previous)


@pytest.fixture(scope="session")
def celery_queue() -> Iterator[str]:
    """Route this session's tasks to a queue of its own."""
    with tasks_routed_to(f"test-{uuid.uuid4().hex[:10]}") as queue:
        yield queue


@pytest.fixture(scope="session")
def celery_worker(
    django_db_setup, django_db_blocker, celery_queue
) -> Iterator[WorkerProcess]:
    """One real worker process for the whole session; stopped before the test
    database is dropped."""
    with django_db_blocker.unblock():
        worker = start_worker(celery_queue)
    yield worker
    stop_worker(worker)
