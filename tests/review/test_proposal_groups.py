"""Identical proposals from separate agent runs (same case, fact kind, typed
value, chunk and quote) are one desk item: the desk lists it once and says
"aus 2 Läufen", a decision on it decides every proposal of the group through
the one decision service (each audited), and an undo takes back the group."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from cases.models import AuditEvent
from review.integrity import decisions_and_facts_verify
from review.models import Decision, ExtractionProposal, Fact, FactEvidence
from review.selectors import (
    QueueFilters,
    proposal_queue,
    proposal_twins,
    proposals_newer_count,
)
from review.services.decisions import (
    proposal_decide,
    proposal_reject,
    proposals_decide_bulk,
)
from review.services.undo import decision_undo
from tests.review.helpers import make_chunk, make_proposal

pytestmark = pytest.mark.django_db
Status = ExtractionProposal.Status


def _pair(case: Any) -> tuple[ExtractionProposal, ExtractionProposal]:
    chunk = make_chunk(case)
    first = make_proposal(case, chunk=chunk, agent_run_id=11)
    second = make_proposal(case, chunk=chunk, agent_run_id=12)
    return first, second


def test_an_identical_proposal_of_a_later_run_joins_the_item_not_supersedes_it(
    case: Any,
) -> None:
    first, second = _pair(case)
    first.refresh_from_db()
    assert (first.status, second.status) == (Status.PENDING, Status.PENDING)
    newer_reading = make_proposal(
        case, chunk=first.source_chunk, value={"date": "2026-05-08"}, agent_run_id=13
    )
    first.refresh_from_db()
    assert first.superseded_by_id == newer_reading.pk  # a different value does


def test_identical_proposals_of_two_runs_are_one_queue_item(
    case: Any, reviewer: Any
) -> None:
    first, second = _pair(case)
    other_value = make_proposal(
        case, chunk=first.source_chunk, fact_type="due_date", agent_run_id=12
    )

    items = proposal_queue(user=reviewer, filters=QueueFilters(case_id=case.pk))

    assert [p.pk for p in items] == [first.pk, other_value.pk]
    assert [p.pk for p in proposal_twins(proposal=first)] == [second.pk]
    assert proposals_newer_count(user=reviewer, case_id=case.pk, since_id=0) == 2


def test_a_different_quote_or_chunk_is_its_own_item(case: Any, reviewer: Any) -> None:
    first, _second = _pair(case)
    make_proposal(
        case, chunk=first.source_chunk, quote="Zahlungserinnerung", agent_run_id=12
    )
    make_proposal(case)  # same value and quote, another chunk
    items = proposal_queue(user=reviewer, filters=QueueFilters(case_id=case.pk))
    assert len(items) == 3


def test_accepting_the_item_accepts_every_proposal_of_the_group_each_audited(
    case: Any, reviewer: Any
) -> None:
    first, second = _pair(case)

    outcome = proposal_decide(proposal=first, reviewer=reviewer, action="accept")

    assert outcome.decided == (first.pk, second.pk)
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, second.status) == (Status.ACCEPTED, Status.ACCEPTED)
    fact = Fact.objects.get(case=case)
    assert fact.status == Fact.Status.CONFIRMED
    assert FactEvidence.objects.filter(fact=fact).count() == 1  # one chunk
    leader = Decision.objects.get(proposal=first)
    twin = Decision.objects.get(proposal=second)
    assert twin.group_leader_id == leader.pk and leader.group_leader_id is None
    events = AuditEvent.objects.filter(action="review.accept")
    assert sorted(e.data["proposal_id"] for e in events) == [first.pk, second.pk]
    assert proposal_queue(user=reviewer, filters=QueueFilters(case_id=case.pk)) == []
    assert list(decisions_and_facts_verify()) == []


def test_an_edit_or_a_rejection_decides_the_group_alike(
    case: Any, reviewer: Any
) -> None:
    first, second = _pair(case)
    proposal_decide(
        proposal=first,
        reviewer=reviewer,
        action="edit",
        value={"date": "2026-05-07"},
    )
    assert set(
        Decision.objects.filter(proposal__in=[first, second]).values_list(
            "kind", flat=True
        )
    ) == {"edit_accept"}
    assert Fact.objects.get(case=case).value == {"date": "2026-05-07"}

    third, fourth = _pair(case)
    proposal_decide(proposal=third, reviewer=reviewer, action="reject", reason="x")
    fourth.refresh_from_db()
    assert fourth.status == Status.REJECTED


def test_a_twin_decided_meanwhile_keeps_its_decision(
    case: Any, reviewer: Any, second_reviewer: Any
) -> None:
    first, second = _pair(case)
    proposal_reject(proposal=second, reviewer=second_reviewer)

    outcome = proposal_decide(proposal=first, reviewer=reviewer, action="accept")

    assert outcome.decided == (first.pk,)
    second.refresh_from_db()
    assert second.status == Status.REJECTED


def test_undo_takes_back_the_whole_group(case: Any, reviewer: Any) -> None:
    first, second = _pair(case)
    proposal_decide(proposal=first, reviewer=reviewer, action="accept")
    newest = Decision.objects.filter(actor=reviewer).order_by("-id").first()
    assert newest is not None and newest.proposal_id == second.pk

    undo = decision_undo(decision=newest, reviewer=reviewer)

    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, second.status) == (Status.PENDING, Status.PENDING)
    assert Fact.objects.get(case=case).status == Fact.Status.WITHDRAWN
    assert undo.kind == Decision.Kind.UNDO and undo.proposal_id == first.pk
    undone = AuditEvent.objects.filter(action="review.undo")
    assert sorted(e.data["proposal_id"] for e in undone) == [first.pk, second.pk]
    items = proposal_queue(user=reviewer, filters=QueueFilters(case_id=case.pk))
    assert [p.pk for p in items] == [first.pk]  # one item again
    assert list(decisions_and_facts_verify()) == []


def test_bulk_accept_counts_the_twins_once(case: Any, reviewer: Any) -> None:
    first, second = _pair(case)
    result = proposals_decide_bulk(
        proposals=[first, second], reviewer=reviewer, action="accept"
    )
    assert sorted(result.decided) == [first.pk, second.pk]
    assert result.conflicts == []


def test_the_desk_item_says_from_how_many_runs_and_lists_them(
    case: Any, reviewer_client: Any
) -> None:
    first, second = _pair(case)
    response = reviewer_client.get(
        reverse("review:case_review", kwargs={"case_id": case.pk}),
        HTTP_ACCEPT_LANGUAGE="de",
    )
    html = response.content.decode()
    assert f'data-group="{first.pk},{second.pk}"' in html
    assert "aus 2 Läufen" in html
    assert f'id="rq-row-{second.pk}"' not in html  # listed once
