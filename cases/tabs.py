"""The tabs of a case page. Each tab is a page owned by the app that fills it;
its view takes ``case_id``, fetches the case with ``case_get_for_user`` and
renders a template that extends ``cases/case_tab.html`` (or only its
``tab-content`` partial when the request comes from htmx)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


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


def render_case_tab(
    request: HttpRequest,
    *,
    case: Any,
    tab: str,
    template: str,
    context: dict[str, Any] | None = None,
) -> HttpResponse:
    """Render a tab page, or only its content for an htmx tab switch."""
    full_context = {
        "case": case,
        "active_tab": tab,
        "case_tabs": CASE_TABS,
        **(context or {}),
    }
    if getattr(request, "htmx", False) and not request.htmx.boosted:  # type: ignore[attr-defined]
        return render(request, f"{template}#tab-content", full_context)
    return render(request, template, full_context)
