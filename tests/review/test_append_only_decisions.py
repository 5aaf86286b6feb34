"""Issue 13 item 12: decisions are append-only and a fact changes only with a
new decision about it, enforced by the database; ``audit_verify`` checks each
decision against its audit event and each fact against its decisions.

Deferred checks run at commit; the tests force them with ``SET CONSTRAINTS ALL
IMMEDIATE`` inside the test transaction."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction

from cases.audit import audit_integrity_verify
from review.models import Decision
from review.services.decisions import (
    fact_assert,
    fact_confirm,
    fact_dispute,
    proposal_accept,
    proposal_reject,
)
from tests.conftest import _member
from tests.review.helpers import make_proposal

pytestmark = pytest.mark.django_db


def _commit_checks() -> None:
    """Run the deferred constraint triggers now, as COMMIT would."""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")


def _sql(sql: str, params: list) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def _forge(sql: str, params: list) -> None:
    """A superuser switches the triggers off (as the audit tests do)."""
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
        try:
            cursor.execute(sql, params)
        finally:
            cursor.execute("SET session_replication_role = DEFAULT")


@pytest.fixture
def fact(case, reviewer):
    proposal = make_proposal(case)
    accepted = proposal_accept(proposal=proposal, reviewer=reviewer)
    _commit_checks()
    return accepted


def test_every_decision_path_satisfies_the_database_checks(case, reviewer, firm):
    firm.four_eyes_review = True
    firm.save()
    second = _member(firm, "reviewer", "zweite")
    asserted = fact_assert(
        case=case,
        fact_type="reminder_sent",
        value={"date": "2026-05-05"},
        reviewer=reviewer,
        reason="Mandantin sagt es",
    )
    _commit_checks()
    evidenced = proposal_accept(proposal=make_proposal(case), reviewer=reviewer)
    assert evidenced.pk == asserted.pk and evidenced.status == "evidenced"
    _commit_checks()
    fact_confirm(fact=evidenced, reviewer=second)
    _commit_checks()
    disputed = fact_dispute(fact=evidenced, reviewer=second, reason="bestritten")
    _commit_checks()
    proposal_reject(proposal=make_proposal(case, value={"date": "2026-06-01"}),
                    reviewer=reviewer)  # fmt: skip
    _commit_checks()

    disputed.refresh_from_db()
    newest = Decision.objects.filter(fact=disputed).order_by("-id").first()
    assert newest is not None
    assert disputed.last_decision_id == newest.pk
    assert newest.status_after == disputed.status == "disputed"
    assert audit_integrity_verify().ok


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE review_decision SET reason = 'umgeschrieben' WHERE fact_id = %s",
        "UPDATE review_decision SET status_after = 'rejected' WHERE fact_id = %s",
        "DELETE FROM review_decision WHERE fact_id = %s",
    ],
)
def test_decisions_cannot_be_rewritten_or_deleted(fact, sql):
    with pytest.raises(IntegrityError, match="append-only"):
        _sql(sql, [fact.pk])
    assert Decision.objects.filter(fact=fact).exclude(reason="umgeschrieben").exists()


@pytest.mark.parametrize(
    "sql",
    [
        """UPDATE review_fact SET value = '{"date": "2026-01-01"}'::jsonb
           WHERE id = %s""",
        "UPDATE review_fact SET fact_type = 'due_date' WHERE id = %s",
        "DELETE FROM review_fact WHERE id = %s",
    ],
)
def test_a_facts_value_type_and_existence_cannot_be_changed(fact, sql):
    with pytest.raises(IntegrityError, match="fact"):
        _sql(sql, [fact.pk])
    fact.refresh_from_db()
    assert fact.value == {"date": "2026-05-05"}


def test_a_fact_status_change_without_a_new_decision_is_refused(fact):
    with pytest.raises(IntegrityError, match="without a new decision"):
        _sql("UPDATE review_fact SET status = 'disputed' WHERE id = %s", [fact.pk])
    fact.refresh_from_db()
    assert fact.status == "confirmed"


def test_a_fact_cannot_point_at_a_decision_about_another_fact(case, reviewer, fact):
    other = proposal_accept(
        proposal=make_proposal(case, value={"date": "2026-07-01"}), reviewer=reviewer
    )
    with pytest.raises(IntegrityError, match="newer decision about it"):
        _sql(
            "UPDATE review_fact SET status = 'disputed', last_decision_id = %s "
            "WHERE id = %s",
            [other.last_decision_id, fact.pk],
        )


def test_a_forged_decision_that_does_not_match_the_fact_is_refused(fact):
    """Even a new decision row, if its result is not the fact's state."""
    with (
        pytest.raises(IntegrityError, match="without a new decision"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(
            "INSERT INTO review_decision (case_id, kind, fact_id, actor_label, "
            "reason, status_after, created_at) VALUES (%s, 'dispute', %s, "
            "'mallory', 'x', 'confirmed', now()) RETURNING id",
            [fact.case_id, fact.pk],
        )
        forged = cursor.fetchone()[0]
        cursor.execute(
            "UPDATE review_fact SET status = 'disputed', last_decision_id = %s "
            "WHERE id = %s",
            [forged, fact.pk],
        )
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def test_deleting_a_deciders_account_keeps_the_decision(fact, reviewer):
    decision = Decision.objects.get(fact=fact)
    label = decision.actor_label
    reviewer.delete()
    _commit_checks()

    decision.refresh_from_db()
    assert decision.actor_id is None and decision.actor_label == label


def test_audit_verify_detects_a_rewritten_decision_reason(fact):
    assert audit_integrity_verify().ok
    _forge(
        "UPDATE review_decision SET reason = 'umgeschrieben' WHERE fact_id = %s",
        [fact.pk],
    )

    report = audit_integrity_verify()

    assert not report.ok
    assert any(
        "differs from its audit event (reason)" in b.reason for b in report.breaks
    )
    with pytest.raises(CommandError, match="audit chain broken"):
        call_command("audit_verify")


@pytest.mark.parametrize(
    ("sql", "needle"),
    [
        (
            """UPDATE review_fact SET value = '{"date": "2026-01-01"}'::jsonb
               WHERE id = %s""",
            "value none of its decisions recorded",
        ),
        ("UPDATE review_fact SET status = 'disputed' WHERE id = %s", "is disputed"),
    ],
)
def test_audit_verify_detects_a_rewritten_fact(fact, sql, needle):
    _forge(sql, [fact.pk])

    report = audit_integrity_verify()

    assert [b.reason for b in report.breaks if needle in b.reason]
