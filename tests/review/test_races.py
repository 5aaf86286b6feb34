"""Two reviewers deciding the same item at once, on two real database
connections (one per thread): exactly one wins, the other gets a conflict,
and nothing is lost or doubled."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction

from cases.errors import DomainError
from cases.models import AuditEvent
from review.models import Decision, ExtractionProposal, Fact
from review.services.decisions import fact_confirm, proposal_accept, proposal_reject
from tests.review.helpers import make_proposal

pytestmark = pytest.mark.django_db(transaction=True)


def _run_together(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls in threads released by one barrier; each result is the
    return value or the DomainError raised."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def worker(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            results[index] = call()
        except DomainError as exc:
            results[index] = exc
        finally:
            connection.close()

    threads = [
        threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


@pytest.mark.parametrize("round_", range(5))
def test_simultaneous_accept_and_reject_one_wins(
    round_: int, case: Any, reviewer: Any, second_reviewer: Any
) -> None:
    proposal = make_proposal(case, value={"date": f"2026-05-1{round_}"})
    a = ExtractionProposal.objects.get(pk=proposal.pk)
    b = ExtractionProposal.objects.get(pk=proposal.pk)

    results = _run_together(
        lambda: proposal_accept(proposal=a, reviewer=reviewer),
        lambda: proposal_reject(proposal=b, reviewer=second_reviewer),
    )

    errors = [r for r in results if isinstance(r, DomainError)]
    assert len(errors) == 1, results
    assert errors[0].code == "proposal_not_pending"
    assert errors[0].http_status == 409
    proposal.refresh_from_db()
    assert Decision.objects.filter(proposal=proposal).count() == 1
    decision = Decision.objects.get(proposal=proposal)
    if proposal.status == ExtractionProposal.Status.ACCEPTED:
        assert decision.kind == "accept"
        assert Fact.objects.filter(case=case).count() == 1
    else:
        assert decision.kind == "reject"
        assert not Fact.objects.filter(case=case).exists()
    assert AuditEvent.objects.filter(action__startswith="review.").count() == 1


def test_the_second_waits_for_the_first_then_gets_the_conflict(
    case: Any, reviewer: Any, second_reviewer: Any
) -> None:
    """Deterministic interleaving: A has updated the row but not committed; B's
    conditional update waits on the row lock, then finds nothing pending."""
    proposal = make_proposal(case)
    updated = threading.Event()
    release = threading.Event()
    outcome: dict[str, Any] = {}

    def first() -> None:
        try:
            with transaction.atomic():
                proposal_accept(
                    proposal=ExtractionProposal.objects.get(pk=proposal.pk),
                    reviewer=reviewer,
                )
                updated.set()
                release.wait(timeout=10)
        finally:
            connection.close()

    def second() -> None:
        updated.wait(timeout=10)
        try:
            proposal_accept(
                proposal=ExtractionProposal.objects.get(pk=proposal.pk),
                reviewer=second_reviewer,
            )
            outcome["second"] = "won"
        except DomainError as exc:
            outcome["second"] = exc
        finally:
            connection.close()

    a = threading.Thread(target=first)
    b = threading.Thread(target=second)
    a.start()
    b.start()
    updated.wait(timeout=10)
    b.join(timeout=0.5)
    assert b.is_alive(), "the second decision should wait for the first's lock"
    release.set()
    a.join(timeout=10)
    b.join(timeout=10)

    error = outcome["second"]
    assert isinstance(error, DomainError) and error.code == "proposal_not_pending"
    assert reviewer.get_username() in error.message
    fact = Fact.objects.get(case=case)
    assert fact.evidenced_by == reviewer
    assert Decision.objects.count() == 1


def test_two_second_reviewers_confirming_at_once_confirm_once(
    four_eyes_firm: Any, case: Any, reviewer: Any, second_reviewer: Any
) -> None:
    from tests.conftest import _member

    third = _member(four_eyes_firm, "reviewer", "tina.third")
    fact = proposal_accept(proposal=make_proposal(case), reviewer=reviewer)
    results = _run_together(
        lambda: fact_confirm(
            fact=Fact.objects.get(pk=fact.pk), reviewer=second_reviewer
        ),
        lambda: fact_confirm(fact=Fact.objects.get(pk=fact.pk), reviewer=third),
    )
    errors = [r for r in results if isinstance(r, DomainError)]
    assert len(errors) == 1 and errors[0].code == "fact_status_conflict"
    assert Decision.objects.filter(fact_id=fact.pk, kind="confirm").count() == 1
