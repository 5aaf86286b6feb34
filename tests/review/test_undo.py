"""Undo of the last decision: a compensating, audited decision within a short
window; the proposal is open again, a fact it created is withdrawn (never
deleted), a fact that existed returns to its earlier status. Plus the desk's
undo and new-proposal endpoints."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import time_machine
from django.urls import reverse

from cases.models import AuditEvent
from review.errors import DecisionNotUndoable
from review.integrity import decisions_and_facts_verify
from review.models import Decision, ExtractionProposal, Fact, FactEvidence
from review.selectors import fact_records_for_case, facts_for_case
from review.services.decisions import (
    fact_assert,
    proposal_accept,
    proposal_dispute,
    proposal_reject,
)
from review.services.undo import UNDO_WINDOW, decision_undo
from tests.conftest import _member
from tests.review.helpers import make_proposal

pytestmark = pytest.mark.django_db
Status = ExtractionProposal.Status


def _last(reviewer: Any) -> Decision:
    decision = Decision.objects.filter(actor=reviewer).order_by("-id").first()
    assert decision is not None
    return decision


def test_undo_of_an_accept_reopens_the_proposal_and_withdraws_the_new_fact(
    case: Any, reviewer: Any
) -> None:
    proposal = make_proposal(case)
    fact = proposal_accept(proposal=proposal, reviewer=reviewer)
    accepted = _last(reviewer)

    undo = decision_undo(decision=accepted, reviewer=reviewer)

    proposal.refresh_from_db()
    fact.refresh_from_db()
    assert proposal.status == Status.PENDING
    assert fact.status == Fact.Status.WITHDRAWN
    assert not FactEvidence.objects.filter(fact=fact).exists()
    assert undo.kind == Decision.Kind.UNDO and undo.status_after == "withdrawn"
    # append-only: the accept is still there, unchanged
    assert Decision.objects.get(pk=accepted.pk).kind == Decision.Kind.ACCEPT
    event = AuditEvent.objects.get(action="review.undo")
    assert event.data["undoes_decision_id"] == accepted.pk
    assert fact not in facts_for_case(case=case)
    assert all(r.id != fact.pk for r in fact_records_for_case(case=case))
    assert list(decisions_and_facts_verify()) == []


def test_accepting_again_after_an_undo_revives_the_withdrawn_fact(
    case: Any, reviewer: Any
) -> None:
    proposal = make_proposal(case)
    fact = proposal_accept(proposal=proposal, reviewer=reviewer)
    decision_undo(decision=_last(reviewer), reviewer=reviewer)
    proposal.refresh_from_db()

    again = proposal_accept(proposal=proposal, reviewer=reviewer)

    assert again.pk == fact.pk
    assert again.status == Fact.Status.CONFIRMED
    assert FactEvidence.objects.filter(fact=fact).count() == 1


def test_undo_of_a_reject_reopens_the_proposal(case: Any, reviewer: Any) -> None:
    proposal = make_proposal(case)
    proposal_reject(proposal=proposal, reviewer=reviewer)

    undo = decision_undo(decision=_last(reviewer), reviewer=reviewer)

    proposal.refresh_from_db()
    assert proposal.status == Status.PENDING
    assert undo.status_after == Status.PENDING and undo.fact_id is None


def test_undo_of_a_dispute_returns_an_existing_fact_to_its_earlier_status(
    case: Any, reviewer: Any
) -> None:
    asserted = fact_assert(
        case=case,
        fact_type="reminder_sent",
        value={"date": "2026-05-05"},
        reviewer=reviewer,
        reason="Mandant sagt es",
    )
    proposal = make_proposal(case)
    proposal_dispute(proposal=proposal, reviewer=reviewer, reason="bestritten")

    decision_undo(decision=_last(reviewer), reviewer=reviewer)

    asserted.refresh_from_db()
    assert asserted.status == Fact.Status.ASSERTED
    assert asserted.dispute_reason == ""
    assert list(decisions_and_facts_verify()) == []


def test_undo_is_refused_after_the_window(case: Any, reviewer: Any) -> None:
    proposal = make_proposal(case)
    with time_machine.travel(dt.datetime(2026, 5, 1, 10, 0, tzinfo=dt.UTC)):
        proposal_accept(proposal=proposal, reviewer=reviewer)
    late = dt.datetime(2026, 5, 1, 10, 0, tzinfo=dt.UTC) + UNDO_WINDOW
    with (
        time_machine.travel(late + dt.timedelta(seconds=1)),
        pytest.raises(DecisionNotUndoable),
    ):
        decision_undo(decision=_last(reviewer), reviewer=reviewer)


def test_only_the_last_own_decision_can_be_undone_and_only_once(
    case: Any, reviewer: Any, firm: Any
) -> None:
    first = make_proposal(case)
    second = make_proposal(case, value={"date": "2026-05-06"})
    proposal_accept(proposal=first, reviewer=reviewer)
    earlier = _last(reviewer)
    proposal_accept(proposal=second, reviewer=reviewer)
    with pytest.raises(DecisionNotUndoable):
        decision_undo(decision=earlier, reviewer=reviewer)

    colleague = _member(firm, "reviewer", "rita.colleague")
    with pytest.raises(DecisionNotUndoable):
        decision_undo(decision=_last(reviewer), reviewer=colleague)

    last = _last(reviewer)
    decision_undo(decision=last, reviewer=reviewer)
    with pytest.raises(DecisionNotUndoable):
        decision_undo(decision=last, reviewer=reviewer)


def test_undo_button_posts_and_reopens_the_item(
    case: Any, reviewer: Any, reviewer_client: Any
) -> None:
    proposal = make_proposal(case)
    page = reverse("review:case_review", kwargs={"case_id": case.pk})
    response = reviewer_client.post(
        reverse("review:proposal_decide", kwargs={"proposal_id": proposal.pk}),
        {"action": "accept"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "data-undo" in body and "data-next-steps" in body
    decision = _last(reviewer)

    response = reviewer_client.post(
        reverse("review:decision_undo", kwargs={"decision_id": decision.pk}),
        {"next": page},
    )

    assert response.status_code == 302
    assert f"item={proposal.pk}" in response["Location"]
    proposal.refresh_from_db()
    assert proposal.status == Status.PENDING


def test_new_proposal_count_says_how_many_arrived_since_the_desk_opened(
    case: Any, reviewer_client: Any
) -> None:
    seen = make_proposal(case)
    url = reverse("review:case_new_proposals", kwargs={"case_id": case.pk})
    response = reviewer_client.get(url, {"since": seen.pk})
    assert 'data-new-proposals="0"' in response.content.decode()

    make_proposal(case, value={"date": "2026-05-07"})
    make_proposal(case, value={"date": "2026-05-08"})
    response = reviewer_client.get(url, {"since": seen.pk})

    body = response.content.decode()
    assert 'data-new-proposals="2"' in body
    assert "2 neue Vorschläge" in body
