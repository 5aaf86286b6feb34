"""An agent run's goal and the reason it ended, in the page's language.

Runs store them as stable codes with parameters (``AgentRun.goal_code``,
``reason_code``, ``AgentStep.note_code``); the English texts next to them are
what the model is given and what logs show. A code this module does not know,
or a run stored before codes existed, is shown by its stored text as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext

from cases.templatetags.display import status_label

register = template.Library()

Params = Mapping[str, Any]


def _number(value: Any) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(number_format(value, use_l10n=True, force_grouping=True))
    return str(value)


def _count(params: Params) -> int:
    count = params["count"]
    if not isinstance(count, int):
        raise TypeError(count)
    return count


GOALS: dict[str, Callable[[Params], str]] = {
    "extraction": lambda p: (
        gettext(
            "Propose the facts of this %(claim_type)s case found in its documents: "
            "contract, invoice and due dates, reminders and their delivery, refusals "
            "to pay, amounts, damage items, interest and excuses."
        )
        % {"claim_type": p["claim_type"]}
    ),
    "compliance": lambda p: (
        gettext(
            "Propose the element evidence of this compliance assessment "
            "(%(regimes)s) found in its documents: policies, notices, contracts, "
            "registers, reports and minutes, one proposal per element and passage."
        )
        % {"regimes": ", ".join(_regime(r) for r in p["regimes"])}
    ),
}


def _regime(code: str) -> str:
    """A regime's name in the page's language (the German short forms are
    the legal terms: DSGVO, KI-VO)."""
    names = {"gdpr": gettext("GDPR"), "aia": gettext("AI Act"), "dora": "DORA"}
    return names[code]


REASONS: dict[str, Callable[[Params], str]] = {
    "finished": lambda p: gettext("Every passage was read."),
    "step_limit": lambda p: (
        gettext("Step limit of %(limit)s steps reached.")
        % {"limit": _number(p["limit"])}
    ),
    "turn_limit": lambda p: (
        gettext("Limit of %(limit)s model turns for one batch of passages reached.")
        % {"limit": _number(p["limit"])}
    ),
    "token_budget": lambda p: (
        gettext("Token budget of %(budget)s tokens exhausted.")
        % {"budget": _number(p["budget"])}
    ),
    "cost_budget": lambda p: (
        gettext("Cost budget of %(budget)s cents exhausted.")
        % {"budget": _number(p["budget"])}
    ),
    "identical_failures": lambda p: (
        ngettext(
            "The check %(check)s failed %(count)s time in a row.",
            "The check %(check)s failed %(count)s times in a row.",
            _count(p),
        )
        % {"check": p["check"], "count": _count(p)}
    ),
    "provider_error": lambda p: (
        gettext("The model provider failed: %(detail)s") % {"detail": p["detail"]}
    ),
    "provider_unavailable": lambda p: (
        gettext("The model provider could not be used: %(detail)s")
        % {"detail": p["detail"]}
    ),
    "crashed": lambda p: (
        gettext("An internal error stopped the run: %(error)s") % {"error": p["error"]}
    ),
    "worker_lost": lambda p: (
        ngettext(
            "The worker executing the run was lost %(count)s time.",
            "The worker executing the run was lost %(count)s times.",
            _count(p),
        )
        % {"count": _count(p)}
    ),
    "resumed": lambda p: (
        gettext("Resumed after a lost worker (attempt %(attempt)s).")
        % {"attempt": _number(p["attempt"])}
    ),
}


def _say(
    table: Mapping[str, Callable[[Params], str]],
    code: str,
    params: Any,
    fallback: str,
) -> str:
    """The code's text with its parameters, else the stored fallback (an
    unknown code, or parameters missing from an odd row)."""
    render = table.get(code or "")
    if render is None or not isinstance(params, Mapping):
        return fallback
    try:
        return render(params)
    except (KeyError, TypeError, ValueError):
        return fallback


@register.filter
def run_goal(run: Any) -> str:
    """The run's goal in the page's language (its stored text if it has no
    code)."""
    return _say(GOALS, run.goal_code, run.goal_params, run.goal)


@register.filter
def run_reason(run: Any) -> str:
    """Why the run ended, in the page's language; a run stored before reason
    codes shows its stored reason (a bare status code in words)."""
    return _say(REASONS, run.reason_code, run.reason_params, status_label(run.reason))


@register.filter
def step_note(step: Any) -> str:
    """A step's note (a limit's reason) in the page's language; a note without
    a code (the model's closing text, a provider's message) as it is."""
    return _say(REASONS, step.note_code, step.note_params, step.note)
