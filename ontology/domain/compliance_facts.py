"""Which facts of a compliance assessment count, and typed reads of their values.

One rule (ELEMENTS.md §2, README of the compliance scenarios): a fact counts if
its status is ``evidenced`` or ``confirmed`` (with four-eyes review only
``confirmed``); an ``asserted`` fact never counts, nor does a fact whose source
is a marketing claim, a summary, a recital or an instruction addressed to
machines, whatever its status; a fact dated after the Stichtag does not count.
Pure: no Django.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ontology.domain.facts import FactStatus, fact_status_established

NEVER_EVIDENCE: frozenset[str] = frozenset(
    {"marketing_claim", "summary", "recital", "machine_instruction"}
)
IgnoreReason = Literal[
    "marketing_claim",
    "summary",
    "recital",
    "machine_instruction",
    "asserted",
    "disputed",
    "after_stichtag",
    "awaiting_review",
]


class ComplianceFact(BaseModel):
    """One fact of the assessment: an element, context, determination or
    instrument fact (key from the compliance vocabulary) with its value."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    ref: str
    key: str
    value: dict[str, Any] = Field(default_factory=dict)
    status: FactStatus
    source_kind: str | None = None


class ComplianceInput(BaseModel):
    """What the evaluator judges: the facts as of the Stichtag."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    valid_at: dt.date
    facts: tuple[ComplianceFact, ...]
    four_eyes: bool = False
    regimes: tuple[str, ...] = ("gdpr", "aia", "dora")


def parse_date(raw: Any) -> dt.date | None:
    if isinstance(raw, dt.date):
        return raw
    if not isinstance(raw, str) or not raw:
        return None
    try:
        return dt.date.fromisoformat(raw[:10])
    except ValueError:
        return None


def parse_datetime(raw: Any) -> dt.datetime | None:
    if not isinstance(raw, str) or not raw:
        return None
    try:
        return dt.datetime.fromisoformat(raw)
    except ValueError:
        return None


def as_list(raw: Any) -> list[str]:
    """A list value; the vocabulary stores lists as comma-separated text."""
    if raw is None:
        return []
    if isinstance(raw, str):
        return [p.strip() for p in raw.split(",") if p.strip()]
    if isinstance(raw, list | tuple):
        return [str(p) for p in raw]
    return [str(raw)]


def as_bool(raw: Any) -> bool | None:
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.lower() in ("true", "false"):
        return raw.lower() == "true"
    return None


def as_int(raw: Any) -> int | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str) and raw.strip().isdigit():
        return int(raw.strip())
    return None


def _fact_date(fact: ComplianceFact) -> dt.date | None:
    """The date a fact reports an act on (a submission, a dated step)."""
    for name in ("submitted_at", "date"):
        found = parse_date(fact.value.get(name))
        if found is not None:
            return found
    return None


def ignore_reason(
    fact: ComplianceFact, *, valid_at: dt.date, four_eyes: bool
) -> IgnoreReason | None:
    """Why a fact does not count, or None if it counts."""
    if fact.source_kind in NEVER_EVIDENCE:
        return fact.source_kind  # type: ignore[return-value]
    if not fact_status_established(fact.status):
        return "disputed" if fact.status == "disputed" else "asserted"
    dated = _fact_date(fact)
    if dated is not None and dated > valid_at and "_ctx_" not in fact.key:
        return "after_stichtag"
    # Four-eyes (ELEMENTS.md §2): the one rule of facts.established_statuses;
    # an evidenced fact then awaits its second review.
    if not fact_status_established(fact.status, four_eyes=four_eyes):
        return "awaiting_review"
    return None


@dataclass
class FactBase:
    """The counting facts of one assessment by key, and why the others do not
    count."""

    valid_at: dt.date
    counting: dict[str, list[ComplianceFact]] = field(default_factory=dict)
    ignored: dict[str, IgnoreReason] = field(default_factory=dict)
    pending: dict[str, list[ComplianceFact]] = field(default_factory=dict)
    after_stichtag: dict[str, list[ComplianceFact]] = field(default_factory=dict)

    @classmethod
    def build(cls, data: ComplianceInput) -> FactBase:
        base = cls(valid_at=data.valid_at)
        for fact in data.facts:
            reason = ignore_reason(
                fact, valid_at=data.valid_at, four_eyes=data.four_eyes
            )
            if reason is None:
                base.counting.setdefault(fact.key, []).append(fact)
            elif reason == "awaiting_review":
                base.pending.setdefault(fact.key, []).append(fact)
            elif reason == "after_stichtag":
                base.after_stichtag.setdefault(fact.key, []).append(fact)
            else:
                base.ignored[fact.ref] = reason
        return base

    def all(self, key: str) -> list[ComplianceFact]:
        return list(self.counting.get(key, ()))

    def for_subject(self, subject: str) -> FactBase:
        """The counting facts of one subject (one AI system of several): those
        tied to it and those tied to none (the organisation's role, a policy
        for all its systems); a fact tied to another subject is left out.
        Why the others do not count stays as it is."""
        return FactBase(
            valid_at=self.valid_at,
            counting={
                key: kept
                for key, facts in self.counting.items()
                if (kept := [f for f in facts if fact_subject(f) in (None, subject)])
            },
            ignored=self.ignored,
            pending=self.pending,
            after_stichtag=self.after_stichtag,
        )

    def first(self, key: str) -> ComplianceFact | None:
        found = self.counting.get(key)
        return found[0] if found else None

    def flag(self, key: str, name: str = "value") -> tuple[bool | None, list[str]]:
        """A yes/no context value and the refs that carry it."""
        fact = self.first(key)
        if fact is None:
            return None, []
        return as_bool(fact.value.get(name)), [fact.ref]


def fact_subject(fact: ComplianceFact) -> str | None:
    """The subject a fact is tied to: its ``subject``; an AI system's
    description (``aia_ctx_system``) is its own subject, named by ``subject``
    or else by its ``name``."""
    own = fact.value.get("subject")
    if own is None and fact.key == "aia_ctx_system":
        own = fact.value.get("name")
    return str(own) if own not in (None, "") else None


def refs(facts: Iterable[ComplianceFact]) -> list[str]:
    return [f.ref for f in facts]


def compliance_input_from_json(data: dict[str, Any]) -> ComplianceInput:
    """An assessment in the JSON form of the scenario suite and the corpus
    ground truth (``assessment.valid_at``, ``regimes``, ``four_eyes``,
    ``facts``). Raises pydantic.ValidationError on a malformed fact."""
    return ComplianceInput(
        valid_at=dt.date.fromisoformat(data["assessment"]["valid_at"]),
        four_eyes=bool(data.get("four_eyes")),
        regimes=tuple(data.get("regimes") or ("gdpr", "aia", "dora")),
        facts=tuple(ComplianceFact.model_validate(f) for f in data["facts"]),
    )
