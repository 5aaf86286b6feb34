"""``python manage.py retry_documents (--case REF [--firm SLUG] | --document ID)``

Queues the failed, retryable ingestions again (the same service as the
button on the document card and ``POST .../documents/{id}/retry/``): all of a
case, or one document. The workers resume each where its rows end. Prints one
line per document; exit status 1 when a named document cannot be retried."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cases.errors import DomainError
from evidence.models import DocumentIngestion, SourceDocument
from evidence.services.ingest import case_for_ingest_command, source_document_retry

Stage = DocumentIngestion.Stage


class Command(BaseCommand):
    help = "Queue failed, retryable document ingestions again."

    def add_arguments(self, parser: CommandParser) -> None:
        target = parser.add_mutually_exclusive_group(required=True)
        target.add_argument("--case", help="File reference of the case")
        target.add_argument("--document", type=int, help="Id of one document")
        parser.add_argument("--firm", default="", help="Slug of the firm (--case)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["document"] is not None:
            document = SourceDocument.objects.filter(pk=options["document"]).first()
            if document is None:
                raise CommandError(f"No document with id {options['document']}.")
            try:
                ingestion = source_document_retry(actor=None, document=document)
            except DomainError as exc:
                raise CommandError(f"{document.filename}: {exc.message}") from exc
            self._line(document, ingestion)
            return
        try:
            case = case_for_ingest_command(
                reference=options["case"], organisation_slug=options["firm"]
            )
        except DomainError as exc:
            raise CommandError(exc.message) from exc
        failed = SourceDocument.objects.filter(
            case=case, ingestion__stage=Stage.FAILED, ingestion__retryable=True
        ).order_by("pk")
        count = 0
        for document in failed:
            self._line(document, source_document_retry(actor=None, document=document))
            count += 1
        self.stdout.write(f"{count} document(s) queued again in {case.reference}.")

    def _line(self, document: SourceDocument, ingestion: DocumentIngestion) -> None:
        self.stdout.write(
            f"{document.pk}\t{document.filename}\t{ingestion.get_stage_display()}"
        )
