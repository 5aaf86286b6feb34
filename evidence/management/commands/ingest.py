"""``python manage.py ingest --case REF [--create] [--firm SLUG] [--async] FILE...``

Uploads PDFs into a case through the same services as the web upload and, by
default, ingests them in this process before returning; ``--async`` hands the
ingestion to the Celery workers and waits for them (``--no-wait`` returns at
once). Prints one line per file: stored/duplicate/refused and why, pages, OCR
pages, chunks. Exit status 1 if any file was refused or failed."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.core.files import File
from django.core.management.base import BaseCommand, CommandError, CommandParser

from cases.errors import DomainError
from evidence.models import DocumentIngestion
from evidence.services.ingest import (
    UploadOutcome,
    case_for_ingest_command,
    documents_upload,
    source_document_ingest,
)

Stage = DocumentIngestion.Stage


class Command(BaseCommand):
    help = "Upload and ingest PDF files into a case."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", type=Path, metavar="FILE")
        parser.add_argument("--case", required=True, help="File reference of the case")
        parser.add_argument("--firm", default="", help="Slug of the firm")
        parser.add_argument(
            "--create", action="store_true", help="Open the case if it does not exist"
        )
        parser.add_argument(
            "--async",
            dest="use_celery",
            action="store_true",
            help="Ingest on the Celery workers instead of in this process",
        )
        parser.add_argument(
            "--no-wait", action="store_true", help="With --async: do not wait"
        )
        parser.add_argument("--timeout", type=float, default=3600.0)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            case = case_for_ingest_command(
                reference=options["case"],
                organisation_slug=options["firm"],
                create=options["create"],
            )
        except DomainError as exc:
            raise CommandError(exc.message) from exc
        paths: list[Path] = options["files"]
        missing = [str(p) for p in paths if not p.is_file()]
        if missing:
            raise CommandError(f"not a file: {', '.join(missing)}")
        use_celery = options["use_celery"]
        outcomes: list[UploadOutcome] = []
        for path in paths:
            with path.open("rb") as handle:
                outcomes.extend(
                    documents_upload(
                        actor=None,
                        case=case,
                        uploads=[File(handle, name=path.name)],
                        dispatch=use_celery,
                    )
                )
        problems = 0
        pending = [o for o in outcomes if o.status == "stored" and o.document]
        if not use_celery:
            for outcome in pending:
                assert outcome.document is not None
                source_document_ingest(document=outcome.document)
        elif not options["no_wait"]:
            self._wait(pending, options["timeout"])
        for outcome in outcomes:
            problems += self._report(outcome, waited=not options["no_wait"])
        if problems:
            raise CommandError(f"{problems} file(s) refused or failed")

    def _wait(self, pending: list[UploadOutcome], timeout: float) -> None:
        ids = [o.document.pk for o in pending if o.document is not None]
        deadline = time.monotonic() + timeout
        while ids and time.monotonic() < deadline:
            finished = DocumentIngestion.objects.filter(
                document_id__in=ids, stage__in=[Stage.READY, Stage.FAILED]
            ).count()
            if finished == len(ids):
                return
            time.sleep(0.5)
        if ids:
            raise CommandError("timed out waiting for the workers")

    def _report(self, outcome: UploadOutcome, *, waited: bool) -> int:
        name = outcome.filename
        if outcome.status == "refused":
            self.stdout.write(f"refused    {name}: {outcome.code}: {outcome.message}")
            return 1
        document = outcome.document
        assert document is not None
        ingestion = DocumentIngestion.objects.get(document=document)
        counts = (
            f"pages={ingestion.pages} ocr_pages={ingestion.ocr_pages} "
            f"chunks={ingestion.chunks}"
        )
        if outcome.status == "duplicate":
            self.stdout.write(
                f"duplicate  {name}: same bytes as document {document.pk} "
                f"({document.filename}); {counts}"
            )
            return 0
        if ingestion.stage == Stage.FAILED:
            self.stdout.write(
                f"failed     {name}: {ingestion.error_code}: {ingestion.error_message}"
            )
            return 1
        state = ingestion.stage if waited else "queued"
        self.stdout.write(
            f"stored     {name}: document {document.pk} sha256={document.sha256[:12]} "
            f"{state} {counts}"
        )
        return 0
