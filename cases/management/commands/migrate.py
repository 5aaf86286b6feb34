"""``migrate`` as the schema's owner role (issue 13 item 11).

The application connects as a role that may only read and write rows; the
tables, triggers and functions belong to the owner role, so migrations must run
as the owner. With ``BELEGT_DATABASE_OWNER`` (from ``DATABASE_OWNER_URL``, or the
embedded server's ``belegt_owner``) this command swaps the connection's
credentials for its run; the database and every other setting stay. Without it,
it is Django's ``migrate`` unchanged."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.core.management.commands.migrate import Command as DjangoMigrate
from django.db import connections


@contextmanager
def database_owner_connection(alias: str) -> Iterator[None]:
    """Connect ``alias`` as the owner role until the block ends."""
    owner = getattr(settings, "BELEGT_DATABASE_OWNER", None)
    if not owner:
        yield
        return
    connection = connections[alias]
    saved = {key: connection.settings_dict.get(key) for key in owner}
    connection.close()
    connection.settings_dict.update(owner)
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.update(saved)


class Command(DjangoMigrate):
    help = DjangoMigrate.help + " Runs as the owner role (DATABASE_OWNER_URL)."

    def handle(self, *args: Any, **options: Any) -> None:
        with database_owner_connection(options["database"]):
            super().handle(*args, **options)
