"""``python manage.py seed_demo_case [--sync]``

Loads the demo case "Az. 2026/0142 – Müller Metallbau ./. Schmidt Bau" into
the demo firm (``seed_demo`` creates it): the case with its parties and the
Verzugsschaden claim, and the generated case file uploaded as demo.lawyer
through the evidence services. By default the Celery workers ingest the
documents (the Documents tab shows their progress; with the default
BELEGT_AGENT_AUTO_EXTRACT the agent then starts by itself); ``--sync`` ingests
them in this process before returning.

Idempotent: an existing case is reused, documents already in it are reported
as duplicates (the PDFs are byte-for-byte reproducible), and when the case
holds every demo document the command returns at once without generating
anything."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.core.management.base import BaseCommand, CommandError, CommandParser

from cases.models import Case, Organisation
from cases.services import case_create
from demo import case as demo_case
from evidence.models import DocumentIngestion, SourceDocument
from evidence.services.ingest import documents_upload, source_document_ingest

LAWYER = "demo.lawyer"


class Command(BaseCommand):
    help = "Load the demo case (Müller Metallbau ./. Schmidt Bau) into the demo firm."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--sync",
            action="store_true",
            help="Ingest the documents in this process instead of on the workers",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        firm = Organisation.objects.filter(slug=demo_case.FIRM_SLUG).first()
        if firm is None:
            raise CommandError(
                f"No firm {demo_case.FIRM_SLUG!r}; run `manage.py seed_demo` first."
            )
        lawyer = get_user_model().objects.filter(username=LAWYER).first()
        if lawyer is None:
            raise CommandError(f"No user {LAWYER!r}; run `manage.py seed_demo` first.")
        label = f"Az. {demo_case.REFERENCE} – {demo_case.TITLE}"
        case = Case.objects.filter(
            organisation=firm, reference=demo_case.REFERENCE
        ).first()
        if case is not None and self._complete(case):
            self.stdout.write(f"Demo case {label} exists with its documents.")
            return
        if case is None:
            case = case_create(
                actor=lawyer,
                reference=demo_case.REFERENCE,
                title=demo_case.TITLE,
                client=demo_case.CLIENT,
                description=demo_case.DESCRIPTION,
                parties=demo_case.PARTIES,
                claims=demo_case.CLAIMS,
            )
            self.stdout.write(
                f"Created demo case {label} (id {case.pk}): 2 parties, claim "
                f"verzugsschaden (DE, valid at {demo_case.VALID_AT:%d.%m.%Y})."
            )
        else:
            self.stdout.write(f"Demo case {label} exists; adding missing documents.")
        sync = options["sync"]
        uploads = [
            ContentFile(data, name=doc.filename) for doc, data in demo_case.build_all()
        ]
        outcomes = documents_upload(
            actor=lawyer, case=case, uploads=uploads, dispatch=not sync
        )
        stored = [o.document for o in outcomes if o.status == "stored" and o.document]
        if sync:
            for document in stored:
                source_document_ingest(document=document)
        refused = 0
        for outcome in outcomes:
            if outcome.status == "refused":
                refused += 1
                self.stdout.write(
                    f"  refused    {outcome.filename}: {outcome.code}: "
                    f"{outcome.message}"
                )
                continue
            if outcome.document is None:
                continue
            ingestion = DocumentIngestion.objects.filter(
                document=outcome.document
            ).first()
            stage = ingestion.stage if ingestion else "?"
            state = stage if (sync or outcome.status == "duplicate") else "queued"
            self.stdout.write(
                f"  {outcome.status:<10} {outcome.filename} "
                f"({outcome.document.page_count} p.) {state}"
            )
        if refused:
            raise CommandError(f"{refused} demo document(s) refused")
        where = "ingested here" if sync else "queued for the workers"
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo case ready: {len(stored)} document(s) {where}. "
                f"Log in as {LAWYER} and open {label}."
            )
        )

    @staticmethod
    def _complete(case: Case) -> bool:
        names = set(
            SourceDocument.objects.filter(case=case).values_list("filename", flat=True)
        )
        return all(doc.filename in names for doc in demo_case.DOCUMENTS)
