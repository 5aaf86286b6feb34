"""Rows for reports tests: a Verzugsschaden case with facts and evidence made
directly (fast), and a draft report."""

from __future__ import annotations

import itertools
from datetime import date
from typing import Any

from django.db import transaction

from cases.models import Claim, Party
from review.models import Fact, FactEvidence
from tests.review.helpers import fact_decided, make_chunk

_counter = itertools.count(1)

INVOICE = (
    "Rechnung Nr. 2026-0417\n\nRechnungsdatum: 01.04.2026\n\n"
    "Für die Lieferung von 40 Paletten berechnen wir 12.500,00 EUR. "
    "Zahlbar bis 30.04.2026."
)
REMINDER = (
    "1. Mahnung\n\nLeipzig, 08.05.2026\n\nTrotz Fälligkeit am 30.04.2026 ist "
    "die Rechnung Nr. 2026-0417 über 12.500,00 EUR nicht bezahlt."
)
RECEIPT = (
    "Sendungsverfolgung Einwurf-Einschreiben RT 1234 5678 9DE: zugestellt am "
    "10.05.2026 durch Einwurf in den Briefkasten."
)
FEE = "Kostennote: Rechtsanwaltskosten für die Mahnung 150,00 EUR."

VALUES = {
    "contract_concluded": ("date", "2026-01-10", INVOICE, "Rechnung Nr. 2026-0417"),
    "invoice_issued": ("date", "2026-04-01", INVOICE, "Rechnungsdatum: 01.04.2026"),
    "claim_amount": (
        "amount",
        {"cents": 1250000, "currency": "EUR"},
        INVOICE,
        "berechnen wir 12.500,00 EUR",
    ),
    "due_date": ("date", "2026-04-30", INVOICE, "Zahlbar bis 30.04.2026."),
    "reminder_sent": ("date", "2026-05-08", REMINDER, "Leipzig, 08.05.2026"),
    "reminder_received": ("date", "2026-05-10", RECEIPT, "zugestellt am 10.05.2026"),
    "delivery_evidence": (
        "text",
        "Einwurf-Einschreiben",
        RECEIPT,
        "Einwurf-Einschreiben RT 1234 5678 9DE",
    ),
    "damage_item": (
        "amount",
        {"cents": 15000, "currency": "EUR"},
        FEE,
        "Rechtsanwaltskosten für die Mahnung 150,00 EUR",
    ),
}

FILES = {INVOICE: "rechnung.pdf", REMINDER: "mahnung.pdf", RECEIPT: "sendung.pdf"}


def _json_value(kind: str, value: Any) -> dict[str, Any]:
    if kind == "amount":
        return dict(value)
    return {{"date": "date", "boolean": "boolean"}.get(kind, "text"): value}


def make_fact(case: Any, fact_type: str, *, status: str = "confirmed") -> Fact:
    kind, value, text, quote = VALUES[fact_type]
    chunk = make_chunk(
        case, text=text, filename=FILES.get(text, f"beleg-{next(_counter)}.pdf")
    )
    # one transaction: the database checks at commit that a new fact comes
    # with its decision (with autocommit, as in browser tests, too)
    with transaction.atomic():
        fact = Fact.objects.create(
            case=case,
            fact_type=fact_type,
            value=_json_value(kind, value),
            status=status,
        )
        FactEvidence.objects.create(fact=fact, chunk=chunk, quote=quote)
        fact_decided(fact)
    return fact


def verzug_case(
    case: Any, *, statuses: dict[str, str] | None = None, valid_at: date | None = None
) -> Claim:
    """Parties, a Verzugsschaden claim and confirmed facts for every element."""
    Party.objects.create(case=case, role="creditor", kind="business", name="Adler GmbH")
    Party.objects.create(case=case, role="debtor", kind="business", name="Berg KG")
    claim = Claim.objects.create(
        case=case,
        claim_type="verzugsschaden",
        jurisdiction="DE",
        valid_at=valid_at or date(2026, 6, 1),
    )
    for fact_type in VALUES:
        make_fact(case, fact_type, status=(statuses or {}).get(fact_type, "confirmed"))
    return claim


def make_report(case: Any) -> Any:
    """A draft report row without findings (tenancy registry)."""
    from reports.models import Report

    return Report.objects.create(case=case, title="Bericht", summary={"claims": []})


def make_build(case: Any) -> Any:
    """A queued report build row (tenancy registry)."""
    from reports.models import ReportBuild

    return ReportBuild.objects.create(case=case)
