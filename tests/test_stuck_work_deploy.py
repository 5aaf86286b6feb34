"""Beat, which runs the stuck-work sweep, is started wherever workers are:
by ``make run`` (embedded in the worker) and by the compose file (a service)."""

from __future__ import annotations

from pathlib import Path

import yaml

from config.launcher import worker_command

ROOT = Path(__file__).resolve().parent.parent


def test_make_run_starts_the_worker_with_beat_embedded():
    command = worker_command({})
    assert command[command.index("-A") + 1 : command.index("-A") + 3] == [
        "config",
        "worker",
    ]
    assert "--beat" in command
    schedule = Path(command[command.index("--schedule") + 1])
    assert schedule.parent.name == "var"


def test_compose_runs_one_beat_service_and_a_visibility_timeout_of_two_hours():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    beat = compose["services"]["beat"]
    assert beat["command"][:4] == ["celery", "-A", "config", "beat"]
    env = compose["x-app"]["environment"]
    assert env["CELERY_VISIBILITY_TIMEOUT"] == "${CELERY_VISIBILITY_TIMEOUT:-7200}"


def test_the_redis_visibility_timeout_outlasts_tasks_and_retry_countdowns(monkeypatch):
    """Default two hours (was one): longer than the longest task and than any
    retry countdown, and documented with that value in the README."""
    import importlib

    from cases.retry import BACKOFF_MAX
    from config.settings import base

    monkeypatch.delenv("CELERY_VISIBILITY_TIMEOUT", raising=False)
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:6390/0")
    fresh = importlib.reload(base)
    try:
        timeout = fresh.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
        assert timeout == fresh.CELERY_VISIBILITY_TIMEOUT == 7200
        assert timeout > 10 * BACKOFF_MAX
        assert timeout > fresh.BELEGT_STUCK_AFTER_SECONDS
    finally:
        monkeypatch.undo()
        importlib.reload(base)
    readme = (ROOT / "README.md").read_text()
    assert "| `CELERY_VISIBILITY_TIMEOUT` | `7200` |" in readme
    assert "| `BELEGT_STUCK_AFTER_SECONDS` | `300` |" in readme
