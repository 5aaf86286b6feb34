"""Template helpers for the case pages."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

register = template.Library()

AUDIT_ACTION_LABELS = {
    "case.created": _("Case opened"),
    "case.updated": _("Case master data changed"),
    "case.erased": _("Case erased"),
    "party.created": _("Party added"),
    "party.updated": _("Party changed"),
    "party.deleted": _("Party removed"),
    "claim.created": _("Claim added"),
    "claim.updated": _("Claim changed"),
    "claim.deleted": _("Claim removed"),
    "document.uploaded": _("Document uploaded"),
    "document.refused": _("Upload refused"),
    "agent_run.created": _("Agent run started"),
    "agent_run.finished": _("Agent run finished"),
    "proposal.created": _("Fact proposed"),
    "review.accept": _("Proposal accepted"),
    "review.edit_accept": _("Proposal edited and accepted"),
    "review.reject": _("Proposal rejected"),
    "review.dispute": _("Fact disputed"),
    "review.confirm": _("Fact confirmed"),
    "review.assert": _("Fact recorded as asserted"),
    "review.undo": _("Decision undone"),
    "term_candidate.created": _("Term candidate found"),
    "term_candidate.synonym": _("Term accepted as a synonym"),
    "term_candidate.subclass": _("Term accepted as a subclass"),
    "term_candidate.noise": _("Term rejected as noise"),
    "report.created": _("Report created"),
    "report.issued": _("Report issued"),
    "report.stale": _("Report marked stale"),
}


@register.filter
def audit_action_label(action: str) -> str:
    """A readable name for an audit action; unknown actions show their code, so
    events that other apps add later still appear."""
    return str(AUDIT_ACTION_LABELS.get(action, action))


@register.simple_tag
def audit_value(value: Any) -> SafeString:
    """A ``{"from": a, "to": b}`` change as "a → b"; anything else as is."""
    if isinstance(value, dict) and set(value) == {"from", "to"}:
        return format_html(
            '<span class="kv__from">{}</span> → <span class="kv__to">{}</span>',
            _blank(value["from"]),
            _blank(value["to"]),
        )
    return format_html("{}", _blank(value))


def _blank(value: Any) -> str:
    return "–" if value in (None, "") else str(value)
