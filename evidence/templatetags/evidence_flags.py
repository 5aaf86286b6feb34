"""Flags on a document shown wherever the document is: its card and the
review queue."""

from __future__ import annotations

from typing import Any

from django import template

from evidence.domain.instructions import addresses_machines
from evidence.models import Page

register = template.Library()


@register.filter
def instructs_machines(document: Any) -> bool:
    """Whether a page of ``document`` addresses machines ("Hinweis an
    automatisierte Systeme …"); read once per document object."""
    if document is None or not getattr(document, "pk", None):
        return False
    cached = getattr(document, "_instructs_machines", None)
    if cached is None:
        texts = Page.objects.filter(document=document).values_list("text", flat=True)
        cached = any(addresses_machines(text) for text in texts.iterator())
        document._instructs_machines = cached
    return bool(cached)
