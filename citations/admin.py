"""Read-only admin views of the pinned corpus (changes only via import_corpus)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from citations.models import Instrument, InstrumentVersion


class _ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Instrument)
class InstrumentAdmin(_ReadOnly):
    list_display = ("key", "ident", "abbreviation", "name_de", "unit_style")
    search_fields = ("key", "ident", "name_de", "name_en")


@admin.register(InstrumentVersion)
class InstrumentVersionAdmin(_ReadOnly):
    list_display = ("instrument", "language", "valid_from", "text_kind", "sha256")
    list_filter = ("instrument", "language", "text_kind")
