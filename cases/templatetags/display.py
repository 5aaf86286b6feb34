"""Showing stored codes and JSON values to people, in the page's language.

Status codes (of proposals, facts, agent runs and steps, citations) are stored
in English and stay so; pages show them through ``status_label``. JSON values
(a decision's ``value_after``, a proposal's value, an audit event's data) are
shown through ``plain_value`` as words and German-formatted numbers and dates,
never as a Python ``{'date': …}`` dump. The labels are plain strings here
because ``cases`` imports no other app (DESIGN §2).
"""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal
from typing import Any

from django import template
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext_lazy as _

register = template.Library()

STATUS_LABELS = {
    # proposals and facts
    "pending": _("Pending"),
    "accepted": _("Accepted"),
    "rejected": _("Rejected"),
    "superseded": _("Superseded"),
    "asserted": _("Asserted"),
    "disputed": _("Disputed"),
    "evidenced": _("Evidenced"),
    "confirmed": _("Confirmed"),
    "withdrawn": _("Withdrawn"),
    # agent runs and steps
    "queued": _("Queued"),
    "running": _("Running"),
    "finished": _("Finished"),
    "step_limit": _("Step limit reached"),
    "budget_exhausted": _("Budget exhausted"),
    "human_review_required": _("Human review required"),
    "failed": _("Failed"),
    "ok": _("admitted"),
    "approval_required": _("needs approval"),
    "unavailable": _("unavailable"),
    "tool_call": _("Tool call"),
    "finish": _("Finish"),
    "provider_error": _("Provider error"),
    # citations
    "resolved": _("resolved"),
    "unpinned_at_date": _("no pinned version at that date"),
    "not_found": _("not found"),
    "bad_unit": _("no such unit"),
    "ambiguous": _("ambiguous"),
    "not_checked": _("not checked"),
    "no_such_paragraph": _("no such paragraph"),
    "no_such_article": _("no such article"),
    "no_such_section": _("no such section"),
    "no_such_unit": _("no such unit"),
}

KEY_LABELS = {
    "date": _("date"),
    "cents": _("amount"),
    "currency": _("currency"),
    "party": _("party"),
    "reason": _("reason"),
    "decision_id": _("decision"),
    "proposal_id": _("proposal"),
    "fact_id": _("fact"),
    "fact_status": _("fact status"),
    "value_before": _("value before"),
    "value_after": _("value after"),
    "undoes_decision_id": _("undoes decision"),
    "status": _("status"),
    "from": _("from"),
    "to": _("to"),
    "superseded": _("replaces proposals"),
    "agent_run_id": _("agent run"),
    "chunk_id": _("passage"),
    "fact_type": _("fact type"),
    "model_id": _("model"),
    "kind": _("kind"),
    "label": _("label"),
}

_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_CODE = re.compile(r"^([a-z][a-z0-9]*(?:_[a-z0-9]+)*)(?::\s*(.*))?$", re.S)


@register.filter
def status_label(code: Any) -> str:
    """A status code in words; ``"code: detail"`` keeps its detail. Unknown
    codes are shown as they are."""
    text = "" if code is None else str(code)
    match = _CODE.match(text)
    if not match or match.group(1) not in STATUS_LABELS:
        return text
    label = str(STATUS_LABELS[match.group(1)])
    detail = match.group(2)
    return f"{label}: {detail}" if detail else label


def _key(key: Any) -> str:
    return str(KEY_LABELS.get(str(key), str(key).replace("_", " ")))


@register.filter
def plain_value(value: Any) -> str:
    """A JSON value in words: an amount as "4.250,00 EUR", an ISO date as
    "05.05.2026", a mapping as "Datum: 05.05.2026", a list joined by commas,
    a status code in words."""
    if value is None or value == "":
        return "–"
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if isinstance(value, dict):
        if set(value) == {"cents", "currency"} and isinstance(value["cents"], int):
            amount = Decimal(value["cents"]) / 100
            formatted = number_format(amount, 2, use_l10n=True, force_grouping=True)
            return f"{formatted} {value['currency']}"
        if set(value) == {"from", "to"}:
            return f"{plain_value(value['from'])} → {plain_value(value['to'])}"
        if len(value) == 1:
            (only,) = value.values()
            return plain_value(only)
        return "; ".join(f"{_key(k)}: {plain_value(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(plain_value(v) for v in value)
    if isinstance(value, str):
        if _ISO_DATE.match(value):
            try:
                return date_format(date.fromisoformat(value), "SHORT_DATE_FORMAT")
            except ValueError:
                return value
        return status_label(value)
    return str(value)


@register.filter
def key_label(key: Any) -> str:
    """A JSON key in words (audit event data)."""
    return _key(key)
