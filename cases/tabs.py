"""The tabs of a case page. Each tab is a page owned by the app that fills it.

The contract for a tab view:

- take ``case_id``, fetch the case with ``case_get_for_user`` (404 for another
  firm's case) and return ``render_case_tab(request, case=..., tab=<key>,
  template=...)``;
- the template extends ``cases/case_tab.html`` and fills ``{% block tab_body %}``
  (and, if it likes, ``{% block tab_title %}`` and ``{% block extra_head %}``).

A full request gets the whole page: base layout, case header, tab navigation
and the tab's content inside ``<section id="tab-content">``. An htmx tab switch
(the tab links send ``hx-get`` with ``hx-target="#tab-content"``) gets only
that section plus the tab navigation as an out-of-band swap, so the active tab
follows. This works through template inheritance, not a named partial:
``cases/case_tab.html`` extends ``{{ case_tab_base }}``, which is
``base.html`` for a page and ``cases/partials/tab_fragment.html`` (which only
renders the ``tab_panel`` block) for htmx. So a tab template's
``tab_body`` block appears in both without further work. Partials a tab
defines for its own htmx requests (``{% partialdef %}`` inside ``tab_body``)
render as usual with ``"<template>#<partial>"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django_htmx.middleware import HtmxDetails

from cases.models import Membership
from cases.selectors import user_has_role

PAGE_BASE = "base.html"
FRAGMENT_BASE = "cases/partials/tab_fragment.html"


@dataclass(frozen=True)
class CaseTab:
    key: str
    label: str | Promise
    url_name: str


CASE_TABS = (
    CaseTab("documents", _("Documents"), "evidence:case_documents"),
    CaseTab("evidence", _("Evidence"), "evidence:case_evidence"),
    CaseTab("review", _("Review"), "review:case_review"),
    CaseTab("requirements", _("Requirements"), "ontology:case_requirements"),
    CaseTab("reports", _("Reports"), "reports:case_reports"),
)


def is_fragment_request(request: HttpRequest) -> bool:
    """An htmx request that wants a piece of a page. Boosted links and history
    restores (back button after the htmx cache was evicted) want the page.
    The one test of "is this an htmx request" for every view (django-htmx's
    middleware sets ``request.htmx``)."""
    htmx: HtmxDetails | None = getattr(request, "htmx", None)
    if not htmx:
        return False
    return not htmx.boosted and not htmx.history_restore_request


def render_case_tab(
    request: HttpRequest,
    *,
    case: Any,
    tab: str,
    template: str,
    context: dict[str, Any] | None = None,
) -> HttpResponse:
    """Render a tab page, or only its content for an htmx tab switch."""
    active = next((t for t in CASE_TABS if t.key == tab), None)
    full_context = {
        "case": case,
        "active_tab": tab,
        "active_tab_label": active.label if active else "",
        "case_tabs": CASE_TABS,
        "case_tab_base": FRAGMENT_BASE if is_fragment_request(request) else PAGE_BASE,
        "can_edit_case": user_has_role(request.user, Membership.Role.LAWYER),
        **(context or {}),
    }
    response = render(request, template, full_context)
    patch_vary_headers(response, ("HX-Request",))
    return response
