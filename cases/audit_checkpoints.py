"""Signed checkpoints of the audit chain, kept outside the database.

A checkpoint names the newest event (id and hash) at a moment and is signed
with the audit key (HMAC-SHA256). It is written as a file into the media
storage (Django's storage API, so S3 or any other backend works too) and as a
log line. Whoever rewrites the database cannot move the checkpoints: an edited
or deleted event at or before the newest checkpoint is detected. Events after
the newest checkpoint are protected only by the chain; ``audit_verify
--checkpoint`` (e.g. from cron) and the automatic checkpoint every
``BELEGT_AUDIT_CHECKPOINT_EVERY`` events keep that window short."""

from __future__ import annotations

import hmac
import json
import logging
from dataclasses import dataclass
from datetime import UTC, datetime

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from cases.audit import (
    AuditKey,
    ChainBreak,
    audit_key_current,
    audit_keys_known,
    canonical_json,
)
from cases.models import AuditEvent

logger = logging.getLogger("belegt.audit")


@dataclass(frozen=True)
class Checkpoint:
    event_id: int
    hash: str
    written_at: str
    key_id: str
    mac: str

    def payload(self) -> dict[str, object]:
        return {
            "event_id": self.event_id,
            "hash": self.hash,
            "written_at": self.written_at,
            "key_id": self.key_id,
        }

    def to_json(self) -> str:
        return json.dumps({**self.payload(), "hmac": self.mac}, sort_keys=True)


def _folder() -> str:
    return settings.BELEGT_AUDIT_CHECKPOINT_DIR.strip("/")


def _sign(key: AuditKey, payload: dict[str, object]) -> str:
    return key.sign(b"belegt-audit-checkpoint:" + canonical_json(payload))


def audit_checkpoint_write() -> Checkpoint | None:
    """Sign the newest event and store the checkpoint (file and log line).
    Returns None when the log is empty."""
    newest = AuditEvent.objects.order_by("-id").values_list("id", "hash").first()
    if newest is None:
        return None
    key = audit_key_current()
    written_at = datetime.now(tz=UTC).isoformat()
    unsigned = Checkpoint(newest[0], newest[1], written_at, key.key_id, "")
    checkpoint = Checkpoint(
        newest[0], newest[1], written_at, key.key_id, _sign(key, unsigned.payload())
    )
    # The event id leads the name, zero-padded: the newest sorts last.
    stamp = written_at.replace(":", "").replace("-", "").replace("+", "Z")
    name = f"{_folder()}/{checkpoint.event_id:015d}-{stamp}.json"
    default_storage.save(name, ContentFile(checkpoint.to_json().encode()))
    logger.info("audit checkpoint %s", checkpoint.to_json())
    return checkpoint


def audit_checkpoint_write_after_commit() -> None:
    """The automatic checkpoint (on commit): a storage failure is logged as an
    error and never undoes the committed change; the next one or ``audit_verify
    --checkpoint`` writes it."""
    try:
        audit_checkpoint_write()
    except Exception:
        logger.exception("audit checkpoint could not be written")


def audit_checkpoint_latest(
    *, keys: dict[str, AuditKey] | None = None
) -> tuple[Checkpoint | None, ChainBreak | None]:
    """The newest stored checkpoint and, when it cannot be trusted (bad
    signature, unknown key, unreadable), the problem as a chain break."""
    keys = keys if keys is not None else audit_keys_known()
    try:
        _dirs, files = default_storage.listdir(_folder())
    except FileNotFoundError:
        return None, None
    names = sorted(f for f in files if f.endswith(".json"))
    if not names:
        return None, None
    name = names[-1]
    try:
        with default_storage.open(f"{_folder()}/{name}") as handle:
            raw = json.loads(handle.read())
        checkpoint = Checkpoint(
            int(raw["event_id"]),
            str(raw["hash"]),
            str(raw["written_at"]),
            str(raw["key_id"]),
            str(raw["hmac"]),
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return None, ChainBreak(0, f"checkpoint {name} is unreadable: {exc}")
    key = keys.get(checkpoint.key_id)
    if key is None:
        return None, ChainBreak(
            checkpoint.event_id,
            f"checkpoint {name} is signed with unknown key {checkpoint.key_id}",
        )
    if not hmac.compare_digest(checkpoint.mac, _sign(key, checkpoint.payload())):
        return None, ChainBreak(
            checkpoint.event_id, f"checkpoint {name} has an invalid signature"
        )
    return checkpoint, None
