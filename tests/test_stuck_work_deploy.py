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
