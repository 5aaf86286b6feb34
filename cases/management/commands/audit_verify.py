"""Verify the audit log's keyed hash chain against the audit key(s) and the
newest signed checkpoint, and the records other apps tie to it (each decision
against its audit event, each fact against its newest decision); exit non-zero
when anything is broken. ``--checkpoint``
writes a new checkpoint after a successful check (run it from cron)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cases.audit import audit_integrity_verify
from cases.audit_checkpoints import audit_checkpoint_write


class Command(BaseCommand):
    help = (
        "Verify the audit log's keyed hash chain (changed, removed, inserted or "
        "re-signed rows; events deleted behind the newest checkpoint)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--checkpoint",
            action="store_true",
            help="After a successful check, write a signed checkpoint of the "
            "newest event (media storage and log).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        report = audit_integrity_verify()
        if not report.ok:
            for brk in report.breaks:
                self.stderr.write(f"event {brk.event_id}: {brk.reason}")
            raise CommandError(
                f"audit chain broken: {len(report.breaks)} problem(s) "
                f"in {report.checked} events"
            )
        anchor = (
            f", newest checkpoint at event {report.checkpoint_event_id}"
            if report.checkpoint_event_id is not None
            else ", no checkpoint yet"
        )
        legacy = (
            f", {report.unkeyed} unkeyed events from before keying"
            if report.unkeyed
            else ""
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"audit chain intact: {report.checked} events verified{anchor}{legacy}"
            )
        )
        if options["checkpoint"]:
            checkpoint = audit_checkpoint_write()
            if checkpoint is None:
                self.stdout.write("no events yet: no checkpoint written")
            else:
                self.stdout.write(
                    f"checkpoint written: event {checkpoint.event_id} "
                    f"({checkpoint.hash[:12]}…, key {checkpoint.key_id})"
                )
