"""``manage.py check --deploy`` under production settings reports nothing.

Production differs from development only by environment variables, so the
check runs in a subprocess with the settings module production uses
(``config.settings.base``) and the environment a deployment sets: no
DJANGO_DEBUG, DJANGO_SECURE=true, a long random secret key and the public host
name. DATABASE_URL points at a server that is never contacted (``check`` does
not open a connection without ``--database``), so the test does not depend on
the embedded PostgreSQL.
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parent.parent

# Warnings that a deployment reports by design, each explained in README.md.
# Empty: Belegt's production settings pass every deploy check.
DOCUMENTED_DEPLOY_WARNINGS: frozenset[str] = frozenset()

CHECK_ID = re.compile(r"^\?: \(([\w.]+)\)|^[\w.:-]+: \(([\w.]+)\)", re.MULTILINE)

# Variables that change what the check sees; the test sets each one itself.
_SETTINGS_VARIABLES = (
    "DJANGO_SETTINGS_MODULE",
    "DJANGO_DEBUG",
    "DJANGO_SECURE",
    "DJANGO_SECRET_KEY",
    "DJANGO_SECRET_KEY_FILE",
    "DJANGO_ALLOWED_HOSTS",
    "DJANGO_SSL_REDIRECT",
    "DJANGO_HSTS_SECONDS",
    "DATABASE_URL",
    # Set by tests/conftest.py for Playwright; never in a deployment.
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)


def _production_env(**overrides: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _SETTINGS_VARIABLES}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.base",
        DJANGO_SECURE="true",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
        DJANGO_ALLOWED_HOSTS="belegt.example.com",
        DATABASE_URL="postgres://belegt:unused@db.invalid:5432/belegt",
    )
    for name, value in overrides.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def _deploy_check(env: dict[str, str]) -> tuple[int, str, set[str]]:
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = result.stdout + result.stderr
    ids = {a or b for a, b in CHECK_ID.findall(output)}
    return result.returncode, output, ids


def test_deploy_check_passes_under_production_settings() -> None:
    returncode, output, ids = _deploy_check(_production_env())

    undocumented = ids - DOCUMENTED_DEPLOY_WARNINGS
    assert not undocumented, (
        f"check --deploy reported {sorted(undocumented)}:\n{output}"
    )
    if not DOCUMENTED_DEPLOY_WARNINGS:
        assert returncode == 0, output
        assert "no issues" in output, output


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        # Without TLS settings: no HSTS, no SSL redirect, cookies not secure.
        (
            {"DJANGO_SECURE": None},
            {"security.W004", "security.W008", "security.W012", "security.W016"},
        ),
        ({"DJANGO_SECRET_KEY": "short-and-guessable"}, {"security.W009"}),
        ({"DJANGO_DEBUG": "true"}, {"security.W018"}),
    ],
    ids=["without-DJANGO_SECURE", "short-secret", "debug-on"],
)
def test_deploy_check_notices_an_unsafe_environment(
    overrides: dict[str, str | None], expected: set[str]
) -> None:
    """The check above can fail: the same run with one unsafe variable reports
    exactly the warnings that variable causes."""
    returncode, output, ids = _deploy_check(_production_env(**overrides))

    assert returncode != 0, output
    assert expected <= ids, output


def test_without_a_secret_key_one_is_generated_once_and_kept_private() -> None:
    """Without DJANGO_SECRET_KEY manage.py uses var/secret_key (made on first
    use, mode 0600), so local runs keep their sessions and never fall back to a
    known key; the deploy check then passes on that key."""
    env = _production_env(DJANGO_SECRET_KEY=None)
    code = "from django.conf import settings; print(settings.SECRET_KEY)"
    keys = [
        subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", code],
            cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120,
            check=True,
        ).stdout.strip().splitlines()[-1]
        for _ in range(2)
    ]  # fmt: skip

    key_file = BASE_DIR / "var" / "secret_key"
    assert keys[0] == keys[1] == key_file.read_text().strip()
    assert len(keys[0]) >= 50
    assert key_file.stat().st_mode & 0o077 == 0
    returncode, output, _ = _deploy_check(env)
    assert returncode == 0, output
