"""The thin database layer: a stored claim evaluated against its case's facts."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.http import Http404

from cases.models import Party
from ontology.selectors import (
    claim_context_for,
    claim_evaluation_for,
    claim_get_for_user,
    claim_missing_requirements_for,
)
from review.models import Fact
from tests import factories
from tests.review.helpers import fact_decided

ClaimFactory: Any = factories.ClaimFactory
PartyFactory: Any = factories.PartyFactory

pytestmark = pytest.mark.django_db


def _fact(
    case: Any, fact_type: str, value: Any, status: str = Fact.Status.CONFIRMED
) -> Fact:
    return fact_decided(
        Fact.objects.create(case=case, fact_type=fact_type, value=value, status=status)
    )


def test_party_kinds_come_from_the_case_parties(case: Any) -> None:
    PartyFactory(case=case, role=Party.Role.DEBTOR, kind=Party.Kind.BUSINESS)
    PartyFactory(case=case, role=Party.Role.DEBTOR, kind=Party.Kind.CONSUMER)
    PartyFactory(case=case, role=Party.Role.CREDITOR, kind=Party.Kind.BUSINESS)
    claim = ClaimFactory(case=case, valid_at=dt.date(2024, 1, 10))
    context = claim_context_for(claim=claim)
    assert (context.debtor_kind, context.creditor_kind) == ("consumer", "business")
    assert context.valid_at == dt.date(2024, 1, 10)


def test_stored_facts_are_evaluated_with_their_status(case: Any) -> None:
    PartyFactory(case=case, role=Party.Role.DEBTOR, kind=Party.Kind.BUSINESS)
    PartyFactory(case=case, role=Party.Role.CREDITOR, kind=Party.Kind.BUSINESS)
    claim = ClaimFactory(case=case, valid_at=dt.date(2024, 1, 10))
    due = _fact(case, "due_date", {"date": "2024-03-15"})
    _fact(case, "reminder_sent", {"date": "2024-04-02"})
    receipt = _fact(
        case, "reminder_received", {"date": "2024-04-04"}, Fact.Status.DISPUTED
    )
    _fact(case, "claim_amount", {"cents": 1_000_000, "currency": "EUR"})
    evaluation = claim_evaluation_for(claim=claim, interest_until=dt.date(2024, 8, 31))
    assert evaluation.requirement("faelligkeit").supporting_fact_ids == (due.pk,)
    mahnung = evaluation.requirement("mahnung")
    assert mahnung.status == "open"
    assert [m.fact_id for m in mahnung.unestablished] == [receipt.pk]
    missing = claim_missing_requirements_for(
        claim=claim, interest_until=dt.date(2024, 8, 31)
    )
    assert [m.requirement for m in missing] == ["mahnung", "schaden"]

    fact_decided(receipt, status=Fact.Status.CONFIRMED)
    evaluation = claim_evaluation_for(claim=claim, interest_until=dt.date(2024, 8, 31))
    assert evaluation.requirement("mahnung").status == "satisfied"
    assert evaluation.damage is not None and evaluation.damage.interest is not None


def test_other_firm_cannot_read_the_claim(
    case: Any, lawyer: Any, other_lawyer: Any
) -> None:
    claim = ClaimFactory(case=case)
    assert claim_get_for_user(user=lawyer, claim_id=claim.pk) == claim
    with pytest.raises(Http404):
        claim_get_for_user(user=other_lawyer, claim_id=claim.pk)
    with pytest.raises(Http404):
        claim_get_for_user(user=lawyer, claim_id="x")
