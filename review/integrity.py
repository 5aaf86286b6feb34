"""What ``audit_verify`` checks of the review records: every decision against
the audit event written with it (kind, fact, status, reason and values), and
every fact's current state against its decisions (the newest one is the fact's
``last_decision`` and its resulting status is the fact's; every value a
decision recorded is the fact's value). The audit events are chained with the
audit key, so a decision or fact rewritten in the database shows here even
when the triggers were switched off to do it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cases.audit import ChainBreak
from cases.models import AuditEvent
from review.models import Decision, Fact


def _decision_events() -> dict[int, tuple[int, str, dict[str, Any]]]:
    events: dict[int, tuple[int, str, dict[str, Any]]] = {}
    rows = (
        AuditEvent.objects.filter(action__startswith="review.")
        .values_list("id", "action", "data")
        .iterator(chunk_size=2000)
    )
    for event_id, action, data in rows:
        decision_id = (data or {}).get("decision_id")
        if isinstance(decision_id, int):
            events[decision_id] = (event_id, action, data)
    return events


def decisions_and_facts_verify() -> Iterator[ChainBreak]:
    """Yield one break per decision that differs from its audit event and per
    fact whose state its decisions do not explain."""
    events = _decision_events()
    latest: dict[int, Decision] = {}
    values: dict[int, list[Any]] = {}
    for decision in Decision.objects.order_by("id").iterator(chunk_size=2000):
        found = events.get(decision.pk)
        if found is None:
            yield ChainBreak(0, f"decision {decision.pk} has no audit event")
        else:
            event_id, action, data = found
            recorded = {
                "action": f"review.{decision.kind}",
                "fact_id": decision.fact_id,
                "fact_status": decision.status_after
                if decision.fact_id is not None
                else None,
                "reason": decision.reason,
                "value_before": decision.value_before,
                "value_after": decision.value_after,
            }
            logged = {**{k: data.get(k) for k in recorded}, "action": action}
            differs = sorted(k for k in recorded if recorded[k] != logged.get(k))
            if differs:
                yield ChainBreak(
                    event_id,
                    f"decision {decision.pk} differs from its audit event "
                    f"({', '.join(differs)})",
                )
        if decision.fact_id is not None:
            latest[decision.fact_id] = decision
            if decision.value_after is not None:
                values.setdefault(decision.fact_id, []).append(decision.value_after)
    for fact in Fact.objects.order_by("id").iterator(chunk_size=2000):
        newest = latest.get(fact.pk)
        if newest is None:
            yield ChainBreak(0, f"fact {fact.pk} has no decision")
            continue
        event_id = events.get(newest.pk, (0, "", {}))[0]
        if fact.last_decision_id != newest.pk:
            yield ChainBreak(
                event_id,
                f"fact {fact.pk} names decision {fact.last_decision_id}, its "
                f"newest decision is {newest.pk}",
            )
        if fact.status != newest.status_after:
            yield ChainBreak(
                event_id,
                f"fact {fact.pk} is {fact.status}, its newest decision "
                f"{newest.pk} made it {newest.status_after}",
            )
        if any(value != fact.value for value in values.get(fact.pk, [])):
            yield ChainBreak(
                event_id,
                f"fact {fact.pk} has a value none of its decisions recorded",
            )
