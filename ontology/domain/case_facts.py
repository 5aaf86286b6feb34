"""The facts of a case grouped by fact type, with the witness rules the
sentences use (which established facts support a condition)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from ontology.domain.claims import Condition
from ontology.domain.facts import ClaimContext, FactRecord
from ontology.domain.vocabulary import fact_types_all, value_classes


@dataclass
class CaseFacts:
    facts: Sequence[FactRecord]
    context: ClaimContext
    by_type: dict[str, list[FactRecord]]

    @classmethod
    def of(cls, facts: Sequence[FactRecord], context: ClaimContext) -> CaseFacts:
        by_type: dict[str, list[FactRecord]] = {}
        for fact in facts:
            by_type.setdefault(fact.fact_type, []).append(fact)
        for group in by_type.values():
            group.sort(key=lambda f: (str(f.value), f.id))
        return cls(facts=facts, context=context, by_type=by_type)

    def established(self, key: str) -> list[FactRecord]:
        return [f for f in self.by_type.get(key, []) if f.established]

    def unestablished(self, key: str) -> list[FactRecord]:
        return [f for f in self.by_type.get(key, []) if not f.established]

    def dates(self, key: str) -> list[date]:
        return sorted(d for f in self.established(key) if (d := f.date_value))

    def earliest(self, key: str) -> date | None:
        found = self.dates(key)
        return found[0] if found else None

    def effective_reminders(self) -> list[FactRecord]:
        """Established reminders dated on or after the earliest established due
        date (a reminder before the claim falls due does not count)."""
        due = self.earliest("due_date")
        return [
            f
            for f in self.established("reminder_sent")
            if due is None or (f.date_value is not None and f.date_value >= due)
        ]

    def witnesses(
        self, condition: Condition, key: str, passed: bool
    ) -> list[FactRecord]:
        facts = self.established(key)
        if key == "delivery_evidence":
            classes = value_classes()
            facts = [
                f
                for f in facts
                if str(getattr(f.value, "kind", f.value)).strip().casefold() in classes
            ]
        elif key == "reminder_sent" and passed:
            # a reminder before the claim fell due supports nothing when a later
            # one exists
            facts = self.effective_reminders() or facts
        info = fact_types_all().get(key)
        if info is not None and info.value_kind == "boolean":
            facts = [f for f in facts if f.value is passed]
        return facts
