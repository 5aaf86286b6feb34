"""A Verzugsschaden case in the database for the view, API and command tests:
parties, a claim and facts made through the review app's own services (a
proposal from a chunk, accepted by a reviewer), so evidence links are real."""

from __future__ import annotations

import datetime as dt
from typing import Any

from cases.models import Party
from review.models import ExtractionProposal, Fact
from review.services.decisions import proposal_accept
from tests import factories
from tests.review.helpers import make_chunk, make_proposal

ClaimFactory: Any = factories.ClaimFactory
PartyFactory: Any = factories.PartyFactory

INVOICE = (
    "Rechnung Nr. 2026-0417\n\nDer Rechnungsbetrag von 4.250,00 EUR ist zahlbar "
    "bis zum 26.04.2026."
)
LETTER = (
    "Mahnung\n\nmit Schreiben vom 05.05.2026 mahnen wir die Zahlung an.\n\n"
    "Zugegangen am 08.05.2026 per Einwurf-Einschreiben."
)


def accepted(case: Any, reviewer: Any, **kwargs: Any) -> Fact:
    """A fact established the way the review queue establishes one."""
    return proposal_accept(proposal=make_proposal(case, **kwargs), reviewer=reviewer)


def verzug_case(case: Any, reviewer: Any) -> dict[str, Any]:
    """Due date, principal and a reminder are established; the reminder's
    receipt is only proposed (pending), so the Mahnung is still open."""
    PartyFactory(case=case, role=Party.Role.CREDITOR, kind=Party.Kind.BUSINESS)
    PartyFactory(case=case, role=Party.Role.DEBTOR, kind=Party.Kind.BUSINESS)
    claim = ClaimFactory(case=case, valid_at=dt.date(2026, 6, 15))  # Stichtag
    invoice = make_chunk(case, text=INVOICE, filename="rechnung.pdf")
    letter = make_chunk(case, text=LETTER, filename="mahnung.pdf")
    due = accepted(
        case,
        reviewer,
        chunk=invoice,
        fact_type="due_date",
        value={"date": "2026-04-26"},
        quote="zahlbar bis zum 26.04.2026",
    )
    amount = accepted(
        case,
        reviewer,
        chunk=invoice,
        fact_type="claim_amount",
        value={"cents": 425_000, "currency": "EUR"},
        quote="4.250,00 EUR",
    )
    reminder = accepted(
        case,
        reviewer,
        chunk=letter,
        fact_type="reminder_sent",
        value={"date": "2026-05-05"},
        quote="Schreiben vom 05.05.2026",
    )
    receipt: ExtractionProposal = make_proposal(
        case,
        chunk=letter,
        fact_type="reminder_received",
        value={"date": "2026-05-08"},
        quote="Zugegangen am 08.05.2026",
    )
    return {
        "claim": claim,
        "invoice": invoice,
        "letter": letter,
        "due": due,
        "amount": amount,
        "reminder": reminder,
        "receipt_proposal": receipt,
    }
