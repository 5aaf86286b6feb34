"""Decisions on proposals and facts: each transition, conflicts, four-eyes
rules, superseding, claims, bulk decisions and what other apps read."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import time_machine

from cases.errors import RoleRequired
from cases.models import AuditEvent
from review.errors import (
    FactStatusConflict,
    FourEyesViolation,
    InvalidValue,
    ProposalClaimed,
    ProposalNotPending,
    ReasonRequired,
)
from review.models import Decision, ExtractionProposal, Fact, FactEvidence
from review.selectors import confirmed_fact_ids, fact_records_for_case
from review.services.decisions import (
    fact_assert,
    fact_confirm,
    fact_dispute,
    proposal_accept,
    proposal_claim,
    proposal_dispute,
    proposal_reject,
    proposal_release,
    proposals_decide_bulk,
)
from review.signals import facts_changed
from tests.review.helpers import make_chunk, make_proposal

pytestmark = pytest.mark.django_db
Status = ExtractionProposal.Status


def test_accept_makes_a_confirmed_fact_with_evidence_decision_and_audit(
    case: Any, reviewer: Any
) -> None:
    proposal = make_proposal(case)
    fact = proposal_accept(proposal=proposal, reviewer=reviewer)

    proposal.refresh_from_db()
    assert proposal.status == Status.ACCEPTED
    assert fact.status == Fact.Status.CONFIRMED
    assert fact.value == {"date": "2026-05-05"}
    [evidence] = FactEvidence.objects.filter(fact=fact)
    assert evidence.chunk_id == proposal.source_chunk_id
    assert evidence.quote == proposal.quote
    [decision] = Decision.objects.filter(fact=fact)
    assert decision.kind == Decision.Kind.ACCEPT
    assert decision.actor == reviewer
    event = AuditEvent.objects.get(action="review.accept")
    assert event.data["fact_id"] == fact.pk
    assert event.actor_id == reviewer.pk


def test_edit_then_accept_records_both_values(case: Any, reviewer: Any) -> None:
    proposal = make_proposal(case)
    fact = proposal_accept(
        proposal=proposal,
        reviewer=reviewer,
        value={"date": "2026-05-06"},
        reason="Datum im Briefkopf",
    )
    assert fact.value == {"date": "2026-05-06"}
    decision = Decision.objects.get(fact=fact)
    assert decision.kind == Decision.Kind.EDIT_ACCEPT
    assert decision.value_before == {"date": "2026-05-05"}
    assert decision.value_after == {"date": "2026-05-06"}
    assert decision.reason == "Datum im Briefkopf"


def test_an_invalid_edit_changes_nothing(case: Any, reviewer: Any) -> None:
    proposal = make_proposal(case)
    with pytest.raises(InvalidValue) as error:
        proposal_accept(proposal=proposal, reviewer=reviewer, value={"date": "5.5.26"})
    assert error.value.code == "invalid_value"
    proposal.refresh_from_db()
    assert proposal.status == Status.PENDING
    assert not Fact.objects.exists()


@pytest.mark.parametrize(
    ("fact_type", "value", "ok"),
    [
        ("claim_amount", {"cents": 425000, "currency": "EUR"}, True),
        ("claim_amount", {"cents": 0, "currency": "EUR"}, False),
        ("claim_amount", {"cents": 100, "currency": "euro"}, False),
        ("consumer_notice_in_invoice", {"boolean": True}, True),
        ("consumer_notice_in_invoice", {"boolean": "yes"}, False),
        ("delivery_evidence", {"kind": "rueckschein"}, True),
        ("delivery_evidence", {"kind": "Fax"}, False),
        ("reminder_sent", {"date": "2026-02-30"}, False),
    ],
)
def test_values_are_checked_by_value_kind(
    case: Any, reviewer: Any, fact_type: str, value: dict[str, Any], ok: bool
) -> None:
    proposal = make_proposal(case, fact_type=fact_type, value=value)
    if ok:
        assert proposal_accept(proposal=proposal, reviewer=reviewer).value == value
    else:
        with pytest.raises(InvalidValue):
            proposal_accept(proposal=proposal, reviewer=reviewer)


def test_reject_makes_no_fact(case: Any, reviewer: Any) -> None:
    proposal = make_proposal(case)
    decision = proposal_reject(proposal=proposal, reviewer=reviewer, reason="Entwurf")
    proposal.refresh_from_db()
    assert proposal.status == Status.REJECTED
    assert decision.kind == Decision.Kind.REJECT
    assert not Fact.objects.exists()
    assert AuditEvent.objects.filter(action="review.reject").count() == 1


def test_dispute_needs_a_reason_and_never_counts_as_established(
    case: Any, reviewer: Any
) -> None:
    proposal = make_proposal(case)
    with pytest.raises(ReasonRequired):
        proposal_dispute(proposal=proposal, reviewer=reviewer, reason="  ")
    fact = proposal_dispute(
        proposal=proposal, reviewer=reviewer, reason="Schuldner bestreitet Zugang"
    )
    assert fact.status == Fact.Status.DISPUTED
    assert fact.disputed_by == reviewer
    assert fact.dispute_reason == "Schuldner bestreitet Zugang"
    assert confirmed_fact_ids(case=case) == set()
    [record] = fact_records_for_case(case=case)
    assert record.status == "disputed"
    assert not record.established


def test_disputing_a_confirmed_fact_takes_it_out_of_the_established(
    case: Any, reviewer: Any
) -> None:
    fact = proposal_accept(proposal=make_proposal(case), reviewer=reviewer)
    assert confirmed_fact_ids(case=case) == {fact.pk}
    fact_dispute(fact=fact, reviewer=reviewer, reason="Gegenseite bestreitet")
    assert confirmed_fact_ids(case=case) == set()
    with pytest.raises(FactStatusConflict):
        fact_dispute(fact=fact, reviewer=reviewer, reason="nochmal")
    kinds = list(Decision.objects.filter(fact=fact).values_list("kind", flat=True))
    assert kinds == ["accept", "dispute"]


def test_the_second_decision_is_a_conflict_naming_who_won(
    case: Any, reviewer: Any, second_reviewer: Any
) -> None:
    proposal = make_proposal(case)
    stale = ExtractionProposal.objects.get(pk=proposal.pk)
    proposal_accept(proposal=proposal, reviewer=reviewer)
    with pytest.raises(ProposalNotPending) as error:
        proposal_reject(proposal=stale, reviewer=second_reviewer)
    assert error.value.http_status == 409
    assert reviewer.get_username() in error.value.message
    stale.refresh_from_db()
    assert stale.status == Status.ACCEPTED
    assert Decision.objects.count() == 1


def test_lawyers_and_curators_cannot_decide(
    case: Any, lawyer: Any, curator: Any
) -> None:
    proposal = make_proposal(case)
    for user in (lawyer, curator):
        with pytest.raises(RoleRequired):
            proposal_accept(proposal=proposal, reviewer=user)
    proposal.refresh_from_db()
    assert proposal.status == Status.PENDING


def test_the_same_value_twice_is_one_fact_with_two_pieces_of_evidence(
    case: Any, reviewer: Any
) -> None:
    first = proposal_accept(proposal=make_proposal(case), reviewer=reviewer)
    second = proposal_accept(proposal=make_proposal(case), reviewer=reviewer)
    assert first.pk == second.pk
    assert FactEvidence.objects.filter(fact=first).count() == 2


# --- four eyes -------------------------------------------------------------------


def test_four_eyes_acceptance_is_evidenced_and_another_reviewer_confirms(
    four_eyes_firm: Any, case: Any, reviewer: Any, second_reviewer: Any
) -> None:
    fact = proposal_accept(proposal=make_proposal(case), reviewer=reviewer)
    assert fact.status == Fact.Status.EVIDENCED
    assert fact.evidenced_by == reviewer
    # under four-eyes an evidenced fact awaits its second review: it counts not
    assert confirmed_fact_ids(case=case) == set()

    with pytest.raises(FourEyesViolation) as error:
        fact_confirm(fact=fact, reviewer=reviewer)
    assert error.value.code == "four_eyes_same_reviewer"
    fact.refresh_from_db()
    assert fact.status == Fact.Status.EVIDENCED

    fact = fact_confirm(fact=fact, reviewer=second_reviewer, reason="geprüft")
    assert fact.status == Fact.Status.CONFIRMED
    assert fact.confirmed_by == second_reviewer
    assert confirmed_fact_ids(case=case) == {fact.pk}
    assert AuditEvent.objects.filter(action="review.confirm").count() == 1
    with pytest.raises(FactStatusConflict):
        fact_confirm(fact=fact, reviewer=second_reviewer)


def test_a_disputed_fact_cannot_be_confirmed(
    four_eyes_firm: Any, case: Any, reviewer: Any, second_reviewer: Any
) -> None:
    fact = proposal_accept(proposal=make_proposal(case), reviewer=reviewer)
    fact_dispute(fact=fact, reviewer=second_reviewer, reason="Zugang bestritten")
    with pytest.raises(FactStatusConflict):
        fact_confirm(fact=fact, reviewer=second_reviewer)


def test_without_four_eyes_acceptance_confirms(case: Any, reviewer: Any) -> None:
    fact = proposal_accept(proposal=make_proposal(case), reviewer=reviewer)
    assert fact.status == Fact.Status.CONFIRMED
    assert fact.confirmed_by == reviewer


# --- superseding ---------------------------------------------------------------------


def test_a_newer_proposal_supersedes_the_pending_one_for_the_same_type_and_chunk(
    case: Any, reviewer: Any
) -> None:
    chunk = make_chunk(case)
    older = make_proposal(case, chunk=chunk, value={"date": "2026-05-05"})
    other_type = make_proposal(
        case, chunk=chunk, fact_type="due_date", value={"date": "2026-04-26"}
    )
    newer = make_proposal(case, chunk=chunk, value={"date": "2026-05-08"})
    older.refresh_from_db()
    other_type.refresh_from_db()
    assert older.status == Status.SUPERSEDED
    assert older.superseded_by_id == newer.pk
    assert other_type.status == Status.PENDING
    with pytest.raises(ProposalNotPending) as error:
        proposal_accept(proposal=older, reviewer=reviewer)
    assert error.value.hint["status"] == "superseded"
    assert f"#{newer.pk}" in error.value.message


def test_proposals_of_one_run_do_not_supersede_each_other(case: Any) -> None:
    """One letter may list several damage items: same type, same chunk, one run."""
    chunk = make_chunk(case)
    first = make_proposal(
        case,
        chunk=chunk,
        fact_type="damage_item",
        value={"cents": 4000, "currency": "EUR"},
        agent_run_id=5,
    )
    make_proposal(
        case,
        chunk=chunk,
        fact_type="damage_item",
        value={"cents": 15000, "currency": "EUR"},
        agent_run_id=5,
    )
    first.refresh_from_db()
    assert first.status == Status.PENDING


def test_a_decided_proposal_is_not_superseded(case: Any, reviewer: Any) -> None:
    chunk = make_chunk(case)
    older = make_proposal(case, chunk=chunk)
    proposal_accept(proposal=older, reviewer=reviewer)
    make_proposal(case, chunk=chunk, value={"date": "2026-05-08"})
    older.refresh_from_db()
    assert older.status == Status.ACCEPTED


# --- claims --------------------------------------------------------------------------


def test_a_claim_keeps_other_reviewers_away_until_it_expires(
    case: Any, reviewer: Any, second_reviewer: Any
) -> None:
    proposal = make_proposal(case)
    with time_machine.travel(dt.datetime(2026, 6, 1, 9, 0, tzinfo=dt.UTC)):
        proposal_claim(proposal=proposal, reviewer=reviewer)
        with pytest.raises(ProposalClaimed) as error:
            proposal_claim(proposal=proposal, reviewer=second_reviewer)
        assert reviewer.get_username() in error.value.message
        with pytest.raises(ProposalClaimed):
            proposal_accept(proposal=proposal, reviewer=second_reviewer)
    with time_machine.travel(dt.datetime(2026, 6, 1, 9, 16, tzinfo=dt.UTC)):
        proposal_accept(proposal=proposal, reviewer=second_reviewer)
    proposal.refresh_from_db()
    assert proposal.assignee == second_reviewer


def test_claiming_the_next_item_releases_the_previous_one(
    case: Any, reviewer: Any, second_reviewer: Any
) -> None:
    first = make_proposal(case)
    second = make_proposal(case, fact_type="due_date", value={"date": "2026-04-26"})
    proposal_claim(proposal=first, reviewer=reviewer)
    proposal_claim(proposal=second, reviewer=reviewer)
    first.refresh_from_db()
    assert first.assignee is None
    proposal_claim(proposal=first, reviewer=second_reviewer)  # free again


def test_releasing_a_claim_frees_the_item(
    case: Any, reviewer: Any, second_reviewer: Any
) -> None:
    proposal = make_proposal(case)
    proposal_claim(proposal=proposal, reviewer=reviewer)
    proposal_release(proposal=proposal, reviewer=second_reviewer)  # not theirs
    with pytest.raises(ProposalClaimed):
        proposal_claim(proposal=proposal, reviewer=second_reviewer)
    proposal_release(proposal=proposal, reviewer=reviewer)
    proposal_claim(proposal=proposal, reviewer=second_reviewer)


# --- bulk ----------------------------------------------------------------------------


def test_bulk_decides_the_rest_and_reports_conflicts(
    case: Any, reviewer: Any, second_reviewer: Any
) -> None:
    proposals = [
        make_proposal(case, value={"date": f"2026-05-0{i}"}) for i in range(1, 4)
    ]
    proposal_reject(proposal=proposals[1], reviewer=second_reviewer)
    result = proposals_decide_bulk(
        proposals=proposals, reviewer=reviewer, action="accept"
    )
    assert result.decided == [proposals[0].pk, proposals[2].pk]
    assert [c["id"] for c in result.conflicts] == [proposals[1].pk]
    assert result.conflicts[0]["code"] == "proposal_not_pending"
    assert Fact.objects.count() == 2


# --- what other apps read ------------------------------------------------------------


def test_a_decision_signals_after_commit(
    case: Any, reviewer: Any, django_capture_on_commit_callbacks: Any
) -> None:
    received: list[int] = []

    def listener(sender: Any, case_id: int, **kwargs: Any) -> None:
        received.append(case_id)

    facts_changed.connect(listener)
    try:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            proposal_accept(proposal=make_proposal(case), reviewer=reviewer)
        assert received == []
        for callback in callbacks:
            callback()
        assert received == [case.pk]
    finally:
        facts_changed.disconnect(listener)


def test_fact_records_carry_typed_values_and_evidence(case: Any, reviewer: Any) -> None:
    from ontology.domain.vocabulary import Amount

    date_fact = proposal_accept(proposal=make_proposal(case), reviewer=reviewer)
    amount_fact = proposal_accept(
        proposal=make_proposal(
            case,
            fact_type="claim_amount",
            value={"cents": 425000, "currency": "EUR"},
            quote="4.250,00 EUR",
        ),
        reviewer=reviewer,
    )
    records = {r.id: r for r in fact_records_for_case(case=case)}
    assert records[date_fact.pk].date_value == dt.date(2026, 5, 5)
    assert records[amount_fact.pk].value == Amount(cents=425000, currency="EUR")
    [ref] = records[amount_fact.pk].evidence
    assert ref.document == "mahnung.pdf"
    assert ref.page == 1
    assert ref.quote == "4.250,00 EUR"
    assert all(r.established for r in records.values())


def test_an_asserted_fact_is_not_established_until_a_proposal_evidences_it(
    case: Any, reviewer: Any
) -> None:
    with pytest.raises(ReasonRequired):
        fact_assert(
            case=case,
            fact_type="reminder_sent",
            value={"date": "2026-05-05"},
            reviewer=reviewer,
            reason="",
        )
    fact = fact_assert(
        case=case,
        fact_type="reminder_sent",
        value={"date": "2026-05-05"},
        reviewer=reviewer,
        reason="Mandant sagt, er habe am 5.5. gemahnt",
    )
    assert fact.status == Fact.Status.ASSERTED
    assert confirmed_fact_ids(case=case) == set()
    with pytest.raises(FactStatusConflict):
        fact_assert(
            case=case,
            fact_type="reminder_sent",
            value={"date": "2026-05-05"},
            reviewer=reviewer,
            reason="nochmal",
        )
    evidenced = proposal_accept(proposal=make_proposal(case), reviewer=reviewer)
    assert evidenced.pk == fact.pk
    assert evidenced.status == Fact.Status.CONFIRMED
    assert confirmed_fact_ids(case=case) == {fact.pk}
    kinds = list(Decision.objects.filter(fact=fact).values_list("kind", flat=True))
    assert kinds == ["assert", "accept"]
