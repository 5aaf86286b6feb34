"""Recompute the audit log's hash chain; exit non-zero when it is broken."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from cases.audit import audit_chain_verify


class Command(BaseCommand):
    help = "Verify the audit log's hash chain (changed, removed or inserted rows)."

    def handle(self, *args: Any, **options: Any) -> None:
        report = audit_chain_verify()
        if report.ok:
            self.stdout.write(
                self.style.SUCCESS(
                    f"audit chain intact: {report.checked} events verified"
                )
            )
            return
        for brk in report.breaks:
            self.stderr.write(f"event {brk.event_id}: {brk.reason}")
        raise CommandError(
            f"audit chain broken: {len(report.breaks)} problem(s) "
            f"in {report.checked} events"
        )
