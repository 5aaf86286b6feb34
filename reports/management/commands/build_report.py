"""``manage.py build_report --case REF --claim TYPE --format docx|xlsx
--output PATH [--firm SLUG] [--language de|en] [--issue]``

Drafts, gates and stores a report of one claim of a case (as the command line,
no user), writes the export and prints how many findings were printed and how
many were flagged for a human. With ``--issue`` the report is issued (its
files sealed with their SHA-256) before the file is written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cases.commands import case_for_command
from cases.models import Claim
from reports.exports import export_bytes
from reports.services import report_create, report_issue


class Command(BaseCommand):
    help = "Build a report for one claim of a case and write it as .docx or .xlsx."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--case", required=True, help="file reference")
        parser.add_argument("--claim", required=True, help="claim type")
        parser.add_argument("--format", choices=["docx", "xlsx"], required=True)
        parser.add_argument("--output", required=True, type=Path)
        parser.add_argument("--firm", help="firm slug, if the reference is ambiguous")
        parser.add_argument("--language", choices=["de", "en"], default="en")
        parser.add_argument("--issue", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        case = case_for_command(reference=options["case"], firm_slug=options["firm"])
        claims = list(
            Claim.objects.filter(case=case, claim_type=options["claim"]).order_by("id")
        )
        if not claims:
            raise CommandError(
                f"Case {case.reference} has no claim of type {options['claim']!r}."
            )
        report = report_create(
            case=case, actor=None, claims=claims[-1:], language=options["language"]
        )
        if options["issue"]:
            report = report_issue(report=report, actor=None)
        content, _name = export_bytes(report=report, fmt=options["format"])
        output: Path = options["output"]
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_bytes(content)
        summary = report.summary
        self.stdout.write(
            f"report {report.pk} ({report.status}): "
            f"{summary['printed']} findings printed, "
            f"{summary['flagged']} flagged for human review -> {output}"
        )
