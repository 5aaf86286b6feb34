"""The deployment files stay valid."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _compose_command() -> list[str] | None:
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    if shutil.which("docker"):
        probe = subprocess.run(
            ["docker", "compose", "version"], capture_output=True, check=False
        )
        if probe.returncode == 0:
            return ["docker", "compose"]
    return None


def test_docker_compose_file_is_accepted_by_compose():
    command = _compose_command()
    if command is None:
        pytest.skip("neither `docker compose` nor `docker-compose` is installed here")
    result = subprocess.run(
        [*command, "-f", str(ROOT / "docker-compose.yml"), "config"],
        capture_output=True,
        text=True,
        env={**os.environ, "DJANGO_SECRET_KEY": "compose-config-check"},
        check=False,
    )
    assert result.returncode == 0, result.stderr
    for service in ("web", "worker", "db", "redis"):
        assert f"{service}:" in result.stdout


def test_ci_script_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    readme = (ROOT / "README.md").read_text()
    assert "make test" in ci
    assert "make test" in readme and "make run" in readme
