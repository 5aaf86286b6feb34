"""The site itself as an app: creates the database cache table after every
``migrate`` (throttle counters and other shared cache entries live there
unless a Redis cache is configured)."""

from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate


def cache_table_create(**kwargs: Any) -> None:
    """``createcachetable`` is idempotent: it creates missing tables only."""
    from django.core.management import call_command

    call_command("createcachetable", database=kwargs.get("using", "default"))


class SiteConfig(AppConfig):
    name = "config"
    label = "site"
    verbose_name = "Belegt site"

    def ready(self) -> None:
        # Sent once per app with models (this app has none); the command is
        # cheap when the table exists.
        post_migrate.connect(cache_table_create, dispatch_uid="belegt-cache-table")
