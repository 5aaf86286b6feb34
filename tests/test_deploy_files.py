"""The deployment files describe a stack that can start: parsed, not grepped.

docker-compose.yml is read with PyYAML (anchors and ``<<`` merges resolved
as Compose resolves them), the Dockerfile as its list of instructions, the CI
script as the commands it runs. Where Compose itself is installed, it checks
the file too."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml
from django.urls import resolve

ROOT = Path(__file__).resolve().parent.parent
APP_SERVICES = ("migrate", "web", "worker")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def dockerfile_steps(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) per step, continuation lines joined."""
    steps: list[tuple[str, str]] = []
    logical = ""
    for line in text.splitlines():
        if not logical and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.rstrip().endswith("\\"):
            logical += line.rstrip()[:-1] + " "
            continue
        logical += line
        instruction, _, args = logical.strip().partition(" ")
        steps.append((instruction.upper(), " ".join(args.split())))
        logical = ""
    return steps


@pytest.fixture(scope="module")
def docker_steps() -> list[tuple[str, str]]:
    return dockerfile_steps((ROOT / "Dockerfile").read_text())


def _exec_form(args: str) -> list[str]:
    return list(yaml.safe_load(args)) if args.startswith("[") else shlex.split(args)


# ----------------------------------------------------------------- compose
def test_compose_runs_web_worker_migrations_database_and_broker(compose):
    services = compose["services"]
    assert set(services) == {"db", "redis", "migrate", "web", "worker", "beat"}
    # one scheduler for the stuck-work sweep, started after the migrations
    assert services["beat"]["command"][:4] == ["celery", "-A", "config", "beat"]
    assert services["beat"]["depends_on"] == {
        "migrate": {"condition": "service_completed_successfully"}
    }


def test_database_and_broker_report_health_and_apps_wait_for_it(compose):
    services = compose["services"]
    assert services["db"]["healthcheck"]["test"][-1].startswith("pg_isready")
    assert services["redis"]["healthcheck"]["test"][1:] == ["redis-cli", "ping"]
    assert services["migrate"]["depends_on"] == {
        "db": {"condition": "service_healthy"},
        "redis": {"condition": "service_healthy"},
    }
    for name in ("web", "worker"):  # they start after the migrations succeeded
        assert services[name]["depends_on"] == {
            "migrate": {"condition": "service_completed_successfully"}
        }


def test_migrations_run_once_and_web_and_worker_run_their_processes(compose):
    services = compose["services"]
    # the database roles first (config.db_roles), then migrate as their owner
    shell, flag, script = services["migrate"]["command"]
    assert (shell, flag) == ("sh", "-c")
    steps = [step.strip() for step in script.split("&&")]
    assert steps == ["python -m config.db_roles", "python manage.py migrate --noinput"]
    assert "DATABASE_ADMIN_URL" in services["migrate"]["environment"]
    owner = urlsplit(_without_variables(
        services["migrate"]["environment"]["DATABASE_OWNER_URL"]))  # fmt: skip
    assert owner.username == "belegt_owner"
    assert services["migrate"]["restart"] == "no"
    worker = services["worker"]["command"]
    assert worker[:4] == ["celery", "-A", "config", "worker"]
    assert "command" not in services["web"]  # the image's gunicorn
    for name in ("web", "worker"):
        assert services[name]["restart"] == "unless-stopped"


def test_web_healthcheck_probes_the_health_endpoint_of_the_app(compose):
    test = compose["services"]["web"]["healthcheck"]["test"]
    url = urlsplit(test[-1])
    assert test[:2] == ["CMD", "curl"] and "-f" in test[2]
    assert (url.hostname, url.port) == ("localhost", 8000)
    assert resolve(url.path).url_name == "healthz"
    worker = compose["services"]["worker"]["healthcheck"]["test"][-1]
    assert worker.startswith("celery -A config inspect ping")


def _without_variables(value: str) -> str:
    """Compose's ${VAR:?message} / ${VAR:-default} replaced by a plain word, so
    that a URL holding them parses (a "?" in the message reads as a query)."""
    return re.sub(r"\$\{[^}]*\}", "x", value)


def test_apps_reach_the_database_and_broker_services_by_name(compose):
    services = compose["services"]
    for name in APP_SERVICES:
        env = services[name]["environment"]
        database, broker = (
            urlsplit(_without_variables(env["DATABASE_URL"])),
            urlsplit(_without_variables(env["CELERY_BROKER_URL"])),
        )
        assert database.username == "belegt_app"  # owns nothing (config.db_roles)
        assert (database.scheme, database.hostname, database.port) == (
            "postgres", "db", 5432,
        )  # fmt: skip
        assert database.path == "/" + services["db"]["environment"]["POSTGRES_DB"]
        assert (broker.scheme, broker.hostname, broker.port) == ("redis", "redis", 6379)
        assert env["DJANGO_SECRET_KEY"].startswith("${DJANGO_SECRET_KEY:?")


def test_documents_database_and_broker_data_live_on_named_volumes(compose):
    services = compose["services"]
    declared = set(compose["volumes"])
    mounts = {
        name: dict(v.split(":", 1) for v in service.get("volumes", []))
        for name, service in services.items()
    }
    assert mounts["db"] == {"pgdata": "/var/lib/postgresql"}
    assert mounts["redis"] == {"redisdata": "/data"}
    assert "--appendonly" in services["redis"]["command"]
    for name in APP_SERVICES:  # uploaded documents survive a new container
        media = services[name]["environment"]["BELEGT_MEDIA_ROOT"]
        assert mounts[name] == {"documents": media}
    used = {volume for m in mounts.values() for volume in m}
    assert used == declared


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
        [
            *command,
            "-f",
            str(ROOT / "docker-compose.yml"),
            "config",
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "DJANGO_SECRET_KEY": "compose-config-check"},
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert set(yaml.safe_load(result.stdout)["services"]) >= {"web", "worker", "db"}


# --------------------------------------------------------------- Dockerfile
def test_image_uses_a_python_the_project_supports(docker_steps):
    [base] = [args for instruction, args in docker_steps if instruction == "FROM"]
    version = re.match(r"python:(\d+\.\d+)", base)
    assert version is not None, base
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "requires-python"
    ]
    low, high = re.findall(r"(\d+\.\d+)", requires)
    as_tuple = [tuple(map(int, v.split("."))) for v in (low, version[1], high)]
    assert as_tuple[0] <= as_tuple[1] < as_tuple[2]


def test_image_installs_dependencies_before_the_source_and_runs_from_it(docker_steps):
    """Dependencies come from pyproject.toml alone (a layer that survives source
    edits); then the whole tree, every package included, is copied and run in
    place from /app."""
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"][
        "setuptools"
    ]["packages"]["find"]["include"]
    copied: set[str] = set()
    installs: list[set[str]] = []
    for instruction, args in docker_steps:
        if instruction == "COPY":
            *sources, _target = args.split()
            copied |= {s.rstrip("/").removeprefix("./") for s in sources}
        if instruction == "RUN" and "pip install" in args:
            installs.append(set(copied))
    assert installs, "the image never installs the dependencies"
    assert installs[0] == {"pyproject.toml"}, installs[0]
    assert "." in copied  # afterwards: the source tree
    for package in packages:
        assert (ROOT / package.rstrip("*")).is_dir(), package
    env = " ".join(args for instruction, args in docker_steps if instruction == "ENV")
    assert "PYTHONPATH=/app" in env
