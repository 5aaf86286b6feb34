import itertools
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, transaction
from django.db.utils import IntegrityError, InternalError

from cases.audit import (
    GENESIS_HASH,
    AuditKey,
    _event_hash,
    _hashed_fields,
    audit_chain_verify,
    audit_event_record,
)
from cases.audit_checkpoints import audit_checkpoint_latest, audit_checkpoint_write
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


# --------------------------------------------------------------- keyed chain (HMAC)
KEY_A = "audit-key-a-0123456789abcdef"
KEY_B = "audit-key-b-fedcba9876543210"


@pytest.fixture
def checkpoints(settings, tmp_path):
    """Checkpoints of this test only, in a storage folder of its own."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.BELEGT_AUDIT_CHECKPOINT_DIR = "audit-checkpoints"
    return tmp_path / "media" / "audit-checkpoints"


def _recompute_chain_without_the_key(from_id: int, *, sign) -> None:
    """What an attacker with the database but not the key can do: rewrite
    every hash from ``from_id`` on with an algorithm of their choice."""
    rows = list(
        AuditEvent.objects.filter(id__gte=from_id - 1).order_by("id")
        if from_id > 1
        else AuditEvent.objects.order_by("id")
    )
    prev = GENESIS_HASH
    for row in rows:
        if row.pk < from_id:
            prev = row.hash
            continue
        row.prev_hash = prev
        row.hash = sign(row)
        _forge(
            "UPDATE cases_auditevent SET prev_hash = %s, hash = %s, key_id = %s "
            "WHERE id = %s",
            [row.prev_hash, row.hash, row.key_id, row.pk],
        )
        prev = row.hash


def _plain_sha256(row: AuditEvent) -> str:
    row.key_id = ""
    return _event_hash(fields=_hashed_fields(row), prev_hash=row.prev_hash, key=None)


def _guessed_key(row: AuditEvent) -> str:
    key = AuditKey.from_secret("a-guess-of-the-attacker-0000")
    row.key_id = key.key_id
    return _event_hash(fields=_hashed_fields(row), prev_hash=row.prev_hash, key=key)


def _same_key_id_wrong_secret(row: AuditEvent) -> str:
    key = AuditKey(key_id=row.key_id, secret=b"not-the-real-secret-at-all")
    return _event_hash(fields=_hashed_fields(row), prev_hash=row.prev_hash, key=key)


@pytest.fixture
def test_key(settings) -> str:
    """The suite's own key signs rows other tests committed earlier."""
    return settings.BELEGT_AUDIT_KEY


def test_events_are_signed_with_the_configured_key(settings, test_key):
    settings.BELEGT_AUDIT_KEY = KEY_A
    settings.BELEGT_AUDIT_RETIRED_KEYS = [test_key]
    event = _record(1)[0]

    assert event.key_id == AuditKey.from_secret(KEY_A).key_id
    assert KEY_A not in str(AuditEvent.objects.filter(pk=event.pk).values().get())
    assert audit_chain_verify().ok


@pytest.mark.parametrize(
    "sign", [_plain_sha256, _guessed_key, _same_key_id_wrong_secret]
)
def test_a_chain_recomputed_after_an_edit_without_the_key_is_detected(sign):
    events = _record(4)
    _forge(
        "UPDATE cases_auditevent SET data = '{\"i\": 99}'::jsonb WHERE id = %s",
        [events[1].pk],
    )
    _recompute_chain_without_the_key(events[1].pk, sign=sign)
    # The recomputed chain is internally consistent ...
    rows = list(AuditEvent.objects.filter(id__gte=events[1].pk).order_by("id"))
    assert all(b.prev_hash == a.hash for a, b in itertools.pairwise(rows))

    report = audit_chain_verify()

    # ... and still every re-signed event is reported.
    assert not report.ok
    assert {b.event_id for b in report.breaks} >= {e.pk for e in events[1:]}


def test_a_whole_chain_rewritten_unkeyed_is_detected_by_the_checkpoint(checkpoints):
    events = _record(3)
    call_command("audit_verify", "--checkpoint")
    _forge(
        "UPDATE cases_auditevent SET actor_label = 'mallory' WHERE id = %s",
        [events[0].pk],
    )
    # Every row rewritten as if written before keying (the accepted prefix).
    _recompute_chain_without_the_key(
        AuditEvent.objects.order_by("id").values_list("pk", flat=True)[0],
        sign=_plain_sha256,
    )

    report = audit_chain_verify()

    assert not report.ok
    assert any("checkpoint" in b.reason for b in report.breaks)


def test_deleting_the_newest_events_is_detected_by_the_checkpoint(checkpoints, capsys):
    events = _record(4)
    call_command("audit_verify", "--checkpoint")
    out = capsys.readouterr().out
    assert f"checkpoint written: event {events[-1].pk}" in out
    # The newest two events go; what remains is a consistent, shorter chain.
    _forge("DELETE FROM cases_auditevent WHERE id >= %s", [events[2].pk])
    assert audit_chain_verify(with_checkpoint=False).ok

    report = audit_chain_verify()

    assert not report.ok
    assert report.breaks[-1].event_id == events[-1].pk
    assert "events were deleted" in report.breaks[-1].reason
    with pytest.raises(CommandError, match="audit chain broken"):
        call_command("audit_verify")


def test_checkpoint_is_written_to_storage_and_log_and_signed(checkpoints, caplog):
    events = _record(2)
    with caplog.at_level("INFO", logger="belegt.audit"):
        checkpoint = audit_checkpoint_write()

    assert checkpoint is not None and checkpoint.event_id == events[-1].pk
    files = list(checkpoints.iterdir())
    assert len(files) == 1
    stored = json.loads(files[0].read_text())
    assert stored["hash"] == events[-1].hash and stored["hmac"]
    assert any(stored["hmac"] in r.getMessage() for r in caplog.records)
    # A checkpoint moved forward by hand (without the key) is refused.
    stored["hash"] = events[0].hash
    stored["event_id"] = events[0].pk
    files[0].write_text(json.dumps(stored))
    report = audit_chain_verify()
    assert any("invalid signature" in b.reason for b in report.breaks)


def test_automatic_checkpoint_every_n_events_after_commit(
    checkpoints, settings, django_capture_on_commit_callbacks
):
    settings.BELEGT_AUDIT_CHECKPOINT_EVERY = 1
    with django_capture_on_commit_callbacks(execute=True):
        event = _record(1)[0]

    checkpoint, problem = audit_checkpoint_latest()
    assert problem is None
    assert checkpoint is not None and checkpoint.event_id == event.pk


def test_key_rotation_keeps_old_events_verifiable(settings, test_key):
    settings.BELEGT_AUDIT_KEY = KEY_A
    settings.BELEGT_AUDIT_RETIRED_KEYS = [test_key]
    old = _record(2)
    settings.BELEGT_AUDIT_KEY = KEY_B
    settings.BELEGT_AUDIT_RETIRED_KEYS = [test_key, KEY_A]
    new = _record(2)

    assert {e.key_id for e in old} == {AuditKey.from_secret(KEY_A).key_id}
    assert {e.key_id for e in new} == {AuditKey.from_secret(KEY_B).key_id}
    assert new[0].prev_hash == old[-1].hash
    assert audit_chain_verify().ok

    # Forgetting the retired key makes its events unverifiable, not "intact".
    settings.BELEGT_AUDIT_RETIRED_KEYS = [test_key]
    report = audit_chain_verify()
    assert not report.ok
    assert {b.event_id for b in report.breaks} == {e.pk for e in old}
    assert all("unknown key" in b.reason for b in report.breaks)


def test_unkeyed_events_from_before_keying_are_accepted_only_as_the_prefix():
    _record(3)
    # Every row so far rewritten as before keying: a valid legacy prefix.
    _recompute_chain_without_the_key(
        AuditEvent.objects.order_by("id").values_list("pk", flat=True)[0],
        sign=_plain_sha256,
    )
    keyed = _record(2)
    report = audit_chain_verify()
    assert report.ok and report.unkeyed >= 3
    assert all(e.key_id for e in keyed)

    # An unkeyed row after a keyed one is refused. (Rewriting every row as
    # unkeyed is caught by the checkpoint, see above.)
    _recompute_chain_without_the_key(keyed[1].pk, sign=_plain_sha256)
    report = audit_chain_verify()
    assert [b.event_id for b in report.breaks] == [keyed[1].pk]
