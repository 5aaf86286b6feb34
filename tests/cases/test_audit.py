import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, transaction
from django.db.utils import IntegrityError, InternalError

from cases.audit import GENESIS_HASH, audit_chain_verify, audit_event_record
from cases.models import AuditEvent
from cases.services import case_create

pytestmark = pytest.mark.django_db


def _record(n: int = 3) -> list[AuditEvent]:
    events = []
    for i in range(n):
        with transaction.atomic():
            events.append(
                audit_event_record(
                    actor=None, action="test.event", data={"i": i, "ä": "ü"}
                )
            )
    return events


def test_events_form_a_hash_chain():
    events = _record(3)

    first = AuditEvent.objects.order_by("id").first()
    assert first is not None and first.prev_hash == GENESIS_HASH
    assert events[1].prev_hash == events[0].hash
    assert events[2].prev_hash == events[1].hash
    assert audit_chain_verify().ok


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE cases_auditevent SET action = 'forged' WHERE id = %s",
        "DELETE FROM cases_auditevent WHERE id = %s",
    ],
)
def test_database_refuses_update_and_delete_of_audit_rows(sql):
    event = _record(1)[0]

    with (
        pytest.raises((IntegrityError, InternalError)) as exc_info,
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql, [event.pk])
    assert "immutable" in str(exc_info.value)
    assert AuditEvent.objects.get(pk=event.pk).action == "test.event"


def _forge(sql: str, params: list) -> None:
    """An attacker with superuser rights can switch triggers off; the chain
    still gives them away."""
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
        try:
            cursor.execute(sql, params)
        finally:
            cursor.execute("SET session_replication_role = DEFAULT")


def test_chain_detects_a_forged_row():
    events = _record(3)
    _forge(
        "UPDATE cases_auditevent SET data = '{\"i\": 99}'::jsonb WHERE id = %s",
        [events[1].pk],
    )

    report = audit_chain_verify()

    assert not report.ok
    assert report.breaks[0].event_id == events[1].pk
    assert "content" in report.breaks[0].reason


def test_chain_detects_a_removed_row():
    events = _record(3)
    _forge("DELETE FROM cases_auditevent WHERE id = %s", [events[1].pk])

    report = audit_chain_verify()

    assert [b.event_id for b in report.breaks] == [events[2].pk]


def test_audit_verify_command_reports_intact_and_broken_chains(capsys):
    events = _record(2)
    call_command("audit_verify")
    assert "audit chain intact" in capsys.readouterr().out

    _forge(
        "UPDATE cases_auditevent SET actor_label = 'mallory' WHERE id = %s",
        [events[0].pk],
    )
    with pytest.raises(CommandError, match="audit chain broken"):
        call_command("audit_verify")


@pytest.mark.django_db(transaction=True)
def test_recording_outside_a_transaction_is_refused():
    with pytest.raises(RuntimeError):
        audit_event_record(actor=None, action="test.event")


def test_audit_event_is_rolled_back_with_the_change_it_records(lawyer):
    before = AuditEvent.objects.count()

    with pytest.raises(RuntimeError), transaction.atomic():
        case_create(actor=lawyer, reference="1 O 1/26", title="T", client="C")
        raise RuntimeError("the change fails after the audit write")

    assert AuditEvent.objects.count() == before
