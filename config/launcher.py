"""``make run``: the whole application on one machine.

Starts the embedded PostgreSQL + pgvector (unless DATABASE_URL is set), applies
migrations, collects static files, creates the demo firm, imports the pinned
legal corpus when its folder is there (``BELEGT_CORPUS_DIR``, default
``../shared/corpus``; ``BELEGT_IMPORT_CORPUS=0`` skips it) and loads the demo
case (``BELEGT_DEMO_CASE=0`` skips it), then runs a real Celery worker (with
beat embedded, for the stuck-work sweep) and the web server (gunicorn) side by
side until Ctrl-C, when it stops them and the database cleanly. The broker is
kombu's SQLAlchemy transport on the same PostgreSQL unless CELERY_BROKER_URL
names Redis or RabbitMQ.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType

from config.embedded_db import embedded_data_dir, local_environment_prepare

BASE_DIR = Path(__file__).resolve().parent.parent
VAR = BASE_DIR / "var"


def _manage(*args: str, env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, check=True
    )


def _optional(*args: str, env: dict[str, str]) -> None:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env)
    if done.returncode:
        print(f"{' '.join(args)} failed (exit {done.returncode}); continuing.")


def worker_command(env: dict[str, str]) -> list[str]:
    """The Celery worker of ``make run``, with beat embedded (``--beat``): the
    stuck-work sweep it schedules is what recovers a killed worker's document
    or agent run on the default broker, which never redelivers such a task."""
    return [
        sys.executable, "-m", "celery", "-A", "config", "worker",
        "--loglevel", env.get("CELERY_LOG_LEVEL", "INFO"),
        "--concurrency", env.get("BELEGT_WORKER_CONCURRENCY", "2"),
        "--beat", "--schedule", str(VAR / "celerybeat-schedule"),
    ]  # fmt: skip


def main() -> int:
    try:
        return _run()
    except subprocess.CalledProcessError as exc:
        print(f"\nSet-up step failed: {' '.join(exc.cmd[1:])} (exit {exc.returncode})")
        return exc.returncode or 1


def _run() -> int:
    VAR.mkdir(exist_ok=True)
    # The local secret key and, without DATABASE_URL, the embedded server: this
    # process holds the server's handle, so it stops when we exit. Every child
    # inherits both through the environment.
    if local_environment_prepare(base_dir=BASE_DIR):
        print(f"Embedded PostgreSQL + pgvector: data in {embedded_data_dir(BASE_DIR)}")
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    env.setdefault("PYTHONUNBUFFERED", "1")
    port = env.get("PORT", "8000")
    bind = env.get("BIND", "127.0.0.1")

    _manage("migrate", "--noinput", env=env)
    _manage("collectstatic", "--noinput", "-v", "0", env=env)
    _manage("seed_demo", env=env)
    # Optional steps: a failure is reported and never stops start-up.
    corpus = Path(env.get("BELEGT_CORPUS_DIR") or BASE_DIR.parent / "shared" / "corpus")
    if env.get("BELEGT_IMPORT_CORPUS", "1") != "0" and corpus.is_dir():
        # The pinned legal texts the reports cite (idempotent; read in place).
        _optional("import_corpus", env=env)
    if env.get("BELEGT_DEMO_CASE", "1") != "0":
        # The demo case file; returns at once when it is loaded. Its ingestion
        # is queued for the worker started below.
        _optional("seed_demo_case", env=env)

    worker = subprocess.Popen(worker_command(env), cwd=BASE_DIR, env=env)
    web = subprocess.Popen(
        [
            sys.executable, "-m", "gunicorn", "config.wsgi",
            "--bind", f"{bind}:{port}",
            "--workers", env.get("WEB_CONCURRENCY", "2"),
            "--threads", "4", "--timeout", "120",
            "--access-logfile", "-",
        ],
        cwd=BASE_DIR, env=env,
    )  # fmt: skip
    children = {"web server": web, "worker": worker}
    stopping = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    host = "localhost" if bind == "127.0.0.1" else bind
    print(
        f"\nBelegt runs at http://{host}:{port}/  (Ctrl-C stops everything)\n",
        flush=True,
    )

    exit_code = 0
    while not stopping:
        for name, child in children.items():
            if child.poll() is not None:
                print(f"The {name} exited with {child.returncode}; stopping.")
                exit_code = child.returncode or 1
                stopping = True
        time.sleep(0.5)

    print("\nStopping web server and worker …", flush=True)
    for child in children.values():
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 20
    for child in children.values():
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
    print("Stopped. The embedded database shuts down with this process.", flush=True)
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
