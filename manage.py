#!/usr/bin/env python
"""Django's command-line utility for administrative tasks.

Without DJANGO_SECRET_KEY it uses the local key (var/secret_key, made once);
without DATABASE_URL it starts the embedded PostgreSQL for the commands that
use a database (config/embedded_db.py)."""

import os
import sys

# Commands that never open a database connection: no embedded server for them.
NO_DATABASE_COMMANDS = frozenset(
    {
        "help",
        "version",
        "--help",
        "-h",
        "--version",
        "check",
        "collectstatic",
        "compilemessages",
        "makemessages",
        "diffsettings",
        "spectacular",
    }
)


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    from config.embedded_db import local_environment_prepare

    command = sys.argv[1] if len(sys.argv) > 1 else "help"
    needs_database = command not in NO_DATABASE_COMMANDS or "--database" in sys.argv
    local_environment_prepare(database=needs_database)
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
