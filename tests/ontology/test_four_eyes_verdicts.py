"""Four-eyes that counts (issue 12 § 4), on one case in the database: with the
firm's four-eyes option on only confirmed facts count, so the verdict the
evidenced facts would carry stays open and names what awaits the second
review; switched off, the same evidenced facts count."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from cases.models import Party
from ontology.selectors import claim_evaluation_for
from review.models import Fact
from tests.ontology.factsdb import ClaimFactory, PartyFactory, accepted
from tests.review.helpers import make_chunk

pytestmark = pytest.mark.django_db
CONTRACT = (
    "Kaufvertrag vom 02.03.2026. Der Kaufpreis von 4.250,00 EUR ist am "
    "16.03.2026 zu zahlen."
)


def _calendar_case(case: Any, reviewer: Any) -> Any:
    PartyFactory(case=case, role=Party.Role.CREDITOR, kind=Party.Kind.BUSINESS)
    PartyFactory(case=case, role=Party.Role.DEBTOR, kind=Party.Kind.BUSINESS)
    claim = ClaimFactory(case=case, valid_at=dt.date(2026, 4, 30))
    chunk = make_chunk(case, text=CONTRACT, filename="vertrag.pdf")
    for fact_type, value, quote in (
        ("contract_concluded", {"date": "2026-03-02"}, "Kaufvertrag vom 02.03.2026"),
        ("calendar_payment_date", {"date": "2026-03-16"}, "am 16.03.2026 zu zahlen"),
        ("claim_amount", {"cents": 425_000, "currency": "EUR"}, "4.250,00 EUR"),
    ):
        accepted(
            case, reviewer, chunk=chunk, fact_type=fact_type, value=value, quote=quote
        )
    return claim


def test_four_eyes_on_leaves_the_verdict_open_until_the_second_review(
    case: Any, reviewer: Any
) -> None:
    organisation = case.organisation
    organisation.four_eyes_review = True
    organisation.save()
    claim = _calendar_case(case, reviewer)
    assert set(Fact.objects.filter(case=case).values_list("status", flat=True)) == {
        Fact.Status.EVIDENCED
    }
    on = claim_evaluation_for(claim=claim)
    faelligkeit = on.requirement("faelligkeit")
    assert faelligkeit.status == "open"
    assert "wartet auf Zweitprüfung" in faelligkeit.sentence_de
    assert on.summary == "offen" and on.recoverable_cents is None
    assert set(on.awaiting_review) == set(
        Fact.objects.filter(case=case).values_list("pk", flat=True)
    )

    organisation.four_eyes_review = False
    organisation.save()
    claim.case.organisation.refresh_from_db()
    off = claim_evaluation_for(claim=claim)
    assert off.requirement("faelligkeit").status == "satisfied"
    assert off.requirement("mahnung").basis == "§ 286 Abs. 2 Nr. 1 BGB"
    assert off.summary == "begruendet"
    assert off.default_from == dt.date(2026, 3, 17)
    assert off.recoverable_cents is not None and off.recoverable_cents > 4000
    assert not off.awaiting_review


def test_four_eyes_says_an_unconfirmed_fact_waits_not_that_it_is_belegt(
    case: Any, reviewer: Any
) -> None:
    organisation = case.organisation
    organisation.four_eyes_review = True
    organisation.save()
    PartyFactory(case=case, role=Party.Role.CREDITOR, kind=Party.Kind.BUSINESS)
    PartyFactory(case=case, role=Party.Role.DEBTOR, kind=Party.Kind.BUSINESS)
    claim = ClaimFactory(case=case, valid_at=dt.date(2026, 4, 30))
    chunk = make_chunk(case, text=CONTRACT, filename="vertrag.pdf")
    accepted(
        case,
        reviewer,
        chunk=chunk,
        fact_type="contract_concluded",
        value={"date": "2026-03-02"},
        quote="Kaufvertrag vom 02.03.2026",
    )
    sentence = claim_evaluation_for(claim=claim).requirement("faelligkeit").sentence_de
    assert "Vertragsschluss wartet auf Zweitprüfung" in sentence
    # the contract is "nicht belegt" (the wording for a missing item)
    # and never also "ist belegt": one reviewer's acceptance is said to wait
    assert "ist belegt" not in sentence
    assert "Vertragsschluss nicht belegt" in sentence
    assert "von einem Prüfer angenommen, wartet auf Zweitprüfung" in sentence


def test_a_pleaded_excuse_is_listed_once_as_supporting_not_also_as_unestablished(
    case: Any, reviewer: Any
) -> None:
    from tests.review.helpers import fact_decided

    claim = _calendar_case(case, reviewer)
    pleaded = Fact.objects.create(
        case=case,
        fact_type="exoneration_pleaded",
        value={"kind": "krankheit", "text": "Der Geschäftsführer war erkrankt."},
        status=Fact.Status.ASSERTED,
    )
    fact_decided(pleaded)
    verdict = claim_evaluation_for(claim=claim).requirement("vertretenmuessen")
    assert verdict.status == "open"
    assert pleaded.pk in verdict.supporting_fact_ids
    assert pleaded.pk not in {m.fact_id for m in verdict.unestablished}
    assert "krankheit" not in verdict.sentence_de
    assert "Krankheit" in verdict.sentence_de
