"""The audit log: append-only, HMAC-chained, written in the same transaction as
the change it records.

Each event's ``hash`` is HMAC-SHA256 over the previous event's hash and the
event's fields, keyed with a secret that never enters the database
(``BELEGT_AUDIT_KEY`` / ``BELEGT_AUDIT_KEY_FILE``; for local runs generated into
``var/audit_key``). Whoever can write the table but does not hold the key cannot
recompute the chain after an edit. Each event names the key that signed it
(``key_id``), so a key can be rotated: the new key signs, retired keys still
verify (``BELEGT_AUDIT_RETIRED_KEYS``). Events written before keying (empty
``key_id``, plain SHA-256) are accepted only as the chain's prefix.

Deleting the newest events leaves a shorter but consistent chain; signed
checkpoints written outside the database (``cases.audit_checkpoints``) pin the
latest event id and hash so that this shows too."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, models, transaction

from cases.models import AuditEvent, Case

logger = logging.getLogger("belegt.audit")

GENESIS_HASH = "0" * 64
# Serialises writers so that two transactions never chain onto the same row.
_AUDIT_LOCK_KEY = 0x6265_6C65_6774  # "beleg" + "t"


@dataclass(frozen=True)
class AuditKey:
    """One chain key. The id is derived from the secret, so it names the key
    without revealing it and two deployments never confuse their keys."""

    key_id: str
    secret: bytes = b""

    @classmethod
    def from_secret(cls, secret: str) -> AuditKey:
        raw = secret.strip().encode("utf-8")
        if len(raw) < 16:
            raise ValueError("an audit key needs at least 16 characters")
        key_id = hashlib.sha256(b"belegt-audit-key-id:" + raw).hexdigest()[:16]
        return cls(key_id=key_id, secret=raw)

    def sign(self, message: bytes) -> str:
        return hmac.new(self.secret, message, hashlib.sha256).hexdigest()

    def __repr__(self) -> str:  # never print the secret
        return f"AuditKey({self.key_id})"


def _local_key_secret() -> str:
    """Without BELEGT_AUDIT_KEY (a local ``make run``, command-line use) the key
    is generated once into var/audit_key, readable by its owner only."""
    path = Path(settings.BELEGT_AUDIT_KEY_PATH)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(48))
        path.chmod(0o600)
    return path.read_text().strip()


def audit_key_current() -> AuditKey:
    """The key that signs new events and checkpoints."""
    return AuditKey.from_secret(settings.BELEGT_AUDIT_KEY or _local_key_secret())


def audit_keys_known() -> dict[str, AuditKey]:
    """Every key that may have signed an event: the current one and the
    retired ones (rotation), by key id."""
    keys = [audit_key_current()]
    keys += [
        AuditKey.from_secret(s) for s in settings.BELEGT_AUDIT_RETIRED_KEYS if s.strip()
    ]
    return {key.key_id: key for key in keys}


def canonical_json(value: Any) -> bytes:
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode("utf-8")


def _event_hash(*, fields: dict[str, Any], prev_hash: str, key: AuditKey | None) -> str:
    message = prev_hash.encode() + canonical_json(fields)
    if key is None:  # an event written before the chain was keyed
        return hashlib.sha256(message).hexdigest()
    return key.sign(message)


def _hashed_fields(event: AuditEvent) -> dict[str, Any]:
    fields = {
        "created_at": event.created_at.astimezone(UTC).isoformat(),
        "actor_id": event.actor_id,
        "actor_label": event.actor_label,
        "organisation_id": event.organisation_id,
        "case_id": event.case_id,
        "action": event.action,
        "target_type": event.target_type,
        "target_id": event.target_id,
        "data": event.data,
    }
    if event.key_id:  # the key id is signed too: it cannot be swapped
        fields["key_id"] = event.key_id
    return fields


def audit_event_prepare(
    *,
    actor: AbstractBaseUser | AnonymousUser | None,
    action: str,
    target: models.Model | None = None,
    case: Case | None = None,
    organisation_id: int | None = None,
    data: dict[str, Any] | None = None,
) -> AuditEvent:
    """Build and sign the next event without saving it, holding the chain lock
    until the transaction ends. For a writer that inserts the row itself (the
    database's case erasure function); everyone else calls
    :func:`audit_event_record`."""
    if not connection.in_atomic_block:
        raise RuntimeError("audit events must be written inside a transaction")
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_AUDIT_LOCK_KEY])
    previous = AuditEvent.objects.order_by("-id").values_list("hash", flat=True).first()
    prev_hash = previous or GENESIS_HASH
    if case is not None and organisation_id is None:
        organisation_id = case.organisation_id
    is_user = actor is not None and getattr(actor, "is_authenticated", False)
    key = audit_key_current()
    event = AuditEvent(
        created_at=datetime.now(tz=UTC),
        actor_id=actor.pk if is_user and actor is not None else None,
        actor_label=actor.get_username() if is_user and actor is not None else "system",
        organisation_id=organisation_id,
        case_id=case.pk if case is not None else None,
        action=action,
        target_type=target._meta.label_lower if target is not None else "",
        target_id=str(target.pk) if target is not None else "",
        # Round-trip through JSON so that what is hashed is exactly what is stored.
        data=json.loads(json.dumps(data or {}, cls=DjangoJSONEncoder)),
        prev_hash=prev_hash,
        key_id=key.key_id,
    )
    event.hash = _event_hash(fields=_hashed_fields(event), prev_hash=prev_hash, key=key)
    return event


def audit_event_record(
    *,
    actor: AbstractBaseUser | AnonymousUser | None,
    action: str,
    target: models.Model | None = None,
    case: Case | None = None,
    organisation_id: int | None = None,
    data: dict[str, Any] | None = None,
) -> AuditEvent:
    """Append one event. Must run inside the transaction of the change it records,
    so that both commit or neither does. Every ``BELEGT_AUDIT_CHECKPOINT_EVERY``
    events a signed checkpoint is written after the commit."""
    event = audit_event_prepare(
        actor=actor,
        action=action,
        target=target,
        case=case,
        organisation_id=organisation_id,
        data=data,
    )
    event.save(force_insert=True)
    audit_event_written(event_id=event.pk)
    return event


def audit_event_written(*, event_id: int) -> None:
    """Schedule a checkpoint after the commit when ``event_id`` is due one."""
    every = settings.BELEGT_AUDIT_CHECKPOINT_EVERY
    if every and event_id % every == 0:
        from cases.audit_checkpoints import audit_checkpoint_write_after_commit

        transaction.on_commit(audit_checkpoint_write_after_commit)


@dataclass(frozen=True)
class ChainBreak:
    event_id: int
    reason: str


@dataclass(frozen=True)
class ChainReport:
    checked: int
    breaks: tuple[ChainBreak, ...]
    unkeyed: int = 0
    checkpoint_event_id: int | None = None

    @property
    def ok(self) -> bool:
        return not self.breaks


def audit_chain_verify(*, with_checkpoint: bool = True) -> ChainReport:
    """Recompute every hash in order with the known keys, then compare the
    chain with the latest signed checkpoint. A changed field, a removed or
    inserted row, a chain recomputed without the key, an event signed by an
    unknown key and a chain cut short behind a checkpoint each show as a
    break."""
    keys = audit_keys_known()
    breaks: list[ChainBreak] = []
    prev_hash = GENESIS_HASH
    checked = unkeyed = 0
    keyed_seen = False
    last_id = 0
    hashes_by_id: dict[int, str] = {}
    with transaction.atomic():
        for event in AuditEvent.objects.order_by("id").iterator(chunk_size=2000):
            checked += 1
            last_id = event.pk
            hashes_by_id[event.pk] = event.hash
            if event.prev_hash != prev_hash:
                breaks.append(
                    ChainBreak(event.pk, "previous hash does not match the row before")
                )
            prev_hash = event.hash
            key: AuditKey | None = None
            if not event.key_id:
                unkeyed += 1
                if keyed_seen:
                    breaks.append(
                        ChainBreak(event.pk, "unkeyed event after keyed events")
                    )
                    continue
            else:
                keyed_seen = True
                key = keys.get(event.key_id)
                if key is None:
                    breaks.append(
                        ChainBreak(
                            event.pk,
                            f"signed with unknown key {event.key_id} (a retired "
                            "key belongs in BELEGT_AUDIT_RETIRED_KEYS)",
                        )
                    )
                    continue
            expected = _event_hash(
                fields=_hashed_fields(event), prev_hash=event.prev_hash, key=key
            )
            if not hmac.compare_digest(event.hash, expected):
                breaks.append(ChainBreak(event.pk, "content does not match its hash"))
    checkpoint_id = None
    if with_checkpoint:
        from cases.audit_checkpoints import audit_checkpoint_latest

        checkpoint, problem = audit_checkpoint_latest(keys=keys)
        if problem is not None:
            breaks.append(problem)
        if checkpoint is not None:
            checkpoint_id = checkpoint.event_id
            stored = hashes_by_id.get(checkpoint.event_id)
            if stored is None:
                breaks.append(
                    ChainBreak(
                        checkpoint.event_id,
                        f"checkpoint of {checkpoint.written_at} names this event "
                        f"but the log ends at {last_id or 'nothing'}: events "
                        "were deleted",
                    )
                )
            elif not hmac.compare_digest(stored, checkpoint.hash):
                breaks.append(
                    ChainBreak(
                        checkpoint.event_id,
                        f"hash differs from the checkpoint of {checkpoint.written_at}",
                    )
                )
    return ChainReport(
        checked=checked,
        breaks=tuple(breaks),
        unkeyed=unkeyed,
        checkpoint_event_id=checkpoint_id,
    )


# Checks of other apps that tie their own records to the audit log (review
# registers decisions and facts in its AppConfig.ready); cases imports none of
# them, so the dependency still points from the apps to cases.
IntegrityCheck = Callable[[], Iterable[ChainBreak]]
_INTEGRITY_CHECKS: dict[str, IntegrityCheck] = {}


def audit_integrity_check_register(name: str, check: IntegrityCheck) -> None:
    _INTEGRITY_CHECKS[name] = check


def audit_integrity_verify() -> ChainReport:
    """The chain (keys and checkpoint) plus every registered check: the
    report ``audit_verify`` prints."""
    chain = audit_chain_verify()
    extra: list[ChainBreak] = []
    for check in _INTEGRITY_CHECKS.values():
        extra.extend(check())
    return ChainReport(
        checked=chain.checked,
        breaks=chain.breaks + tuple(extra),
        unkeyed=chain.unkeyed,
        checkpoint_event_id=chain.checkpoint_event_id,
    )
