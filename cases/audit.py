"""The audit log: append-only, hash-chained, written in the same transaction as
the change it records."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, models, transaction

from cases.models import AuditEvent, Case

GENESIS_HASH = "0" * 64
# Serialises writers so that two transactions never chain onto the same row.
_AUDIT_LOCK_KEY = 0x6265_6C65_6774  # "beleg" + "t"


def _canonical(event: dict[str, Any]) -> bytes:
    return json.dumps(
        event, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode("utf-8")


def _event_hash(*, fields: dict[str, Any], prev_hash: str) -> str:
    return hashlib.sha256(prev_hash.encode() + _canonical(fields)).hexdigest()


def _hashed_fields(event: AuditEvent) -> dict[str, Any]:
    return {
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
    so that both commit or neither does."""
    if not connection.in_atomic_block:
        raise RuntimeError("audit_event_record must run inside a transaction")
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_AUDIT_LOCK_KEY])
    previous = AuditEvent.objects.order_by("-id").values_list("hash", flat=True).first()
    prev_hash = previous or GENESIS_HASH
    if case is not None and organisation_id is None:
        organisation_id = case.organisation_id
    is_user = actor is not None and getattr(actor, "is_authenticated", False)
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
    )
    event.hash = _event_hash(fields=_hashed_fields(event), prev_hash=prev_hash)
    event.save(force_insert=True)
    return event


@dataclass(frozen=True)
class ChainBreak:
    event_id: int
    reason: str


@dataclass(frozen=True)
class ChainReport:
    checked: int
    breaks: tuple[ChainBreak, ...]

    @property
    def ok(self) -> bool:
        return not self.breaks


def audit_chain_verify() -> ChainReport:
    """Recompute every hash in order. A changed field, a removed row or an inserted
    row shows as a break at the first affected event."""
    breaks: list[ChainBreak] = []
    prev_hash = GENESIS_HASH
    checked = 0
    with transaction.atomic():
        for event in AuditEvent.objects.order_by("id").iterator(chunk_size=2000):
            checked += 1
            if event.prev_hash != prev_hash:
                breaks.append(
                    ChainBreak(event.pk, "previous hash does not match the row before")
                )
            expected = _event_hash(
                fields=_hashed_fields(event), prev_hash=event.prev_hash
            )
            if event.hash != expected:
                breaks.append(ChainBreak(event.pk, "content does not match its hash"))
            prev_hash = event.hash
    return ChainReport(checked=checked, breaks=tuple(breaks))
