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
from ontology.value_messages import value_invalid_text

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


# -- gate rejections ------------------------------------------------------------
# A rejection is stored as the gate made it: a stable ``code``, the English
# ``message`` the model was given, a ``hint`` for the model and ``params``
# (the values the message names). A page says it with these filters; a code
# not listed here (a domain error a tool passed on) shows its stored message.


def _ids(values: Any) -> str:
    if not isinstance(values, list | tuple):
        raise TypeError(values)
    return ", ".join(f"#{v}" for v in values)


def _names(values: Any) -> str:
    if not isinstance(values, list | tuple):
        raise TypeError(values)
    return ", ".join(str(v) for v in values)


def _value_reason(p: Params) -> str:
    text = value_invalid_text(code=str(p.get("reason", "")), params=p)
    if not text:
        raise KeyError("reason")
    return gettext("The value does not fit the fact type: %(reason)s") % {
        "reason": text
    }


REJECTIONS: dict[str, Callable[[Params], str]] = {
    "unknown_tool": lambda p: (
        gettext("There is no tool %(tool)s.") % {"tool": p["tool"]}
    ),
    "bad_json": lambda p: gettext("The arguments are not one valid JSON object."),
    "schema_invalid": lambda p: (
        gettext("The arguments do not match the schema of the tool %(tool)s.")
        % {"tool": p["tool"]}
    ),
    "not_authorised": lambda p: gettext("The run's actor may not act on this case."),
    "tool_not_allowed": lambda p: (
        gettext("The tool %(tool)s is not allowed in this task.") % {"tool": p["tool"]}
    ),
    "chunk_not_in_case": lambda p: (
        gettext("Passage #%(chunk)s is not a passage of this case.")
        % {"chunk": p.get("chunk_id", p.get("source_chunk_id"))}
    ),
    "quote_not_in_chunk": lambda p: gettext(
        "The quote does not occur word for word in the passage."
    ),
    "unknown_fact_type": lambda p: (
        gettext("The ontology has no fact type %(fact_type)s.")
        % {"fact_type": p["fact_type"]}
    ),
    "invalid_value": _value_reason,
    "duplicate_proposal": lambda p: gettext(
        "The same fact from the same passage has already been proposed."
    ),
    "evidence_not_confirmed": lambda p: (
        gettext(
            "Only confirmed facts of this case can support an argument; "
            "not confirmed: %(ids)s."
        )
        % {"ids": _ids(p["fact_ids"])}
    ),
    "claim_not_in_case": lambda p: (
        gettext("Claim #%(claim)s is not a claim of this case.")
        % {"claim": p["claim_id"]}
    ),
    "fact_not_in_case": lambda p: (
        gettext("Fact #%(fact)s is not a fact of this case.") % {"fact": p["fact_id"]}
    ),
    "label_not_in_chunk": lambda p: gettext(
        "A term candidate must appear in the passage it comes from."
    ),
    "nothing_prepared": lambda p: gettext(
        "The after-check ran without a prepared result."
    ),
    "prepared_mismatch": lambda p: (
        gettext("The prepared result differs from the request in: %(keys)s.")
        % {"keys": _names(p["keys"])}
    ),
    "approval_rejected": lambda p: (
        gettext("The approval policy of this task rejects the tool %(tool)s.")
        % {"tool": p["tool"]}
    ),
    "prepared_changed": lambda p: gettext(
        "The case changed since the call was held: the tool would now save "
        "something other than what was approved."
    ),
    "already_evidence": lambda p: gettext(
        "This passage is already evidence for the fact."
    ),
    "claim_version_not_found": lambda p: gettext(
        "No version of the claim's requirements is valid for its jurisdiction at "
        "that date."
    ),
    "approval_rejected_by_human": lambda p: (
        gettext("Rejected by a person: %(reason)s") % {"reason": p["message"]}
    ),
}

#: Hints that are fixed instructions to the model, by code.
HINT_TEXTS: dict[str, Callable[[], str]] = {
    "bad_json": lambda: gettext("Send the arguments as one JSON object."),
    "quote_not_in_chunk": lambda: gettext(
        "Copy the quote character for character from the passage; only "
        "whitespace, line breaks, hyphenation at a line end, soft hyphens and "
        "ligatures may differ."
    ),
    "duplicate_proposal": lambda: gettext("Move on to another fact."),
}

#: A structured hint's keys, in words.
HINT_KEYS: dict[str, Callable[[Any], str]] = {
    "tools": lambda v: gettext("Tools of this task: %(names)s") % {"names": _names(v)},
    "allowed_chunk_ids": lambda v: (
        gettext("Passages of this case: %(ids)s") % {"ids": _ids(v)}
    ),
    "fact_types": lambda v: (
        ngettext(
            "The ontology knows %(count)s fact type.",
            "The ontology knows %(count)s fact types.",
            len(v),
        )
        % {"count": len(v)}
    ),
    "confirmed_fact_ids": lambda v: (
        gettext("Confirmed facts: %(ids)s") % {"ids": _ids(v) or "—"}
    ),
    "claim_ids": lambda v: gettext("Claims of this case: %(ids)s") % {"ids": _ids(v)},
    "fact_id": lambda v: gettext("Fact #%(id)s") % {"id": v},
    "source_chunk_id": lambda v: gettext("Passage #%(id)s") % {"id": v},
    "decided_by": lambda v: gettext("Decided by %(name)s") % {"name": v},
    "approved": lambda v: gettext("Approved result and current result differ."),
}


def _rejection_params(rejection: Mapping[str, Any], step: Any) -> dict[str, Any]:
    params: dict[str, Any] = {}
    arguments = getattr(step, "arguments", None)
    if isinstance(arguments, Mapping):
        params.update(arguments)
    tool = getattr(step, "tool", "")
    if tool:
        params["tool"] = tool
    stored = rejection.get("params")
    if isinstance(stored, Mapping):
        params.update(stored)
    params["message"] = rejection.get("message", "")
    return params


@register.filter
def rejection_text(rejection: Any, step: Any = None) -> str:
    """Why the gate (or a person) refused the call, in the page's language:
    ``{{ step.rejection|rejection_text:step }}``."""
    if not isinstance(rejection, Mapping):
        return ""
    fallback = str(rejection.get("message", ""))
    return _say(
        REJECTIONS,
        str(rejection.get("code", "")),
        _rejection_params(rejection, step),
        fallback,
    )


@register.filter
def rejection_hint(rejection: Any) -> str:
    """The rejection's hint in words ("Abschnitte dieser Akte: #3, #4"), or ""
    when it only repeats the message for the model (a value's shape, a
    schema's field errors)."""
    if not isinstance(rejection, Mapping):
        return ""
    code = str(rejection.get("code", ""))
    hint = rejection.get("hint")
    if code in HINT_TEXTS:
        return HINT_TEXTS[code]()
    if isinstance(hint, Mapping):
        parts = []
        for key, value in hint.items():
            render = HINT_KEYS.get(str(key))
            if render is None:
                continue
            try:
                parts.append(render(value))
            except (TypeError, ValueError):
                continue
        return " · ".join(parts)
    if code == "schema_invalid" and isinstance(hint, list):
        fields = [
            ".".join(str(p) for p in item.get("loc", ()))
            for item in hint
            if isinstance(item, Mapping)
        ]
        return gettext("Inputs with errors: %(fields)s") % {
            "fields": ", ".join(f for f in fields if f) or "—"
        }
    return ""


@register.filter
def held_by_label(policy: Any, tool: str = "") -> str:
    """Why a call is held, in the page's language."""
    if not isinstance(policy, Mapping):
        return ""
    if policy.get("key") == "approval_policy" and tool:
        return gettext("The task's approval policy: a person approves %(tool)s.") % {
            "tool": tool
        }
    return str(policy.get("label", ""))
