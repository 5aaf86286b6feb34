"""``python manage.py search --case REF "query" [--k N] [--json] [--firm SLUG]``

Runs the same ``search_case_evidence`` as the Evidence tab and the API, for one
case found by its file reference (Aktenzeichen). Prints one block per hit:
rank, score, document, page, chunk id and the snippet with matches in
»guillemets« (or a JSON list with ``--json``)."""

from __future__ import annotations

import html
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cases.commands import case_for_command
from evidence.search import HEADLINE_START, HEADLINE_STOP, search_case_evidence


class Command(BaseCommand):
    help = "Search the evidence of one case (full text + vector, fused)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("query", help="What to look for, e.g. 'Mahnung Zugang'.")
        parser.add_argument("--case", required=True, help="The case's file reference.")
        parser.add_argument(
            "--firm", default=None, help="Firm slug, if the reference is ambiguous."
        )
        parser.add_argument("--k", type=int, default=10, help="Number of hits.")
        parser.add_argument("--json", action="store_true", help="Print JSON.")

    def handle(self, *args: Any, **options: Any) -> None:
        case = case_for_command(reference=options["case"], firm_slug=options["firm"])
        if options["k"] < 1:
            raise CommandError("--k must be at least 1.")
        hits = search_case_evidence(case=case, query=options["query"], k=options["k"])
        if options["json"]:
            self.stdout.write(
                json.dumps(
                    {
                        "case": case.reference,
                        "query": options["query"],
                        "hits": [hit.as_dict() for hit in hits],
                    },
                    ensure_ascii=False,
                    indent=2,
                )
            )
            return
        if not hits:
            self.stdout.write(f"No hits for {options['query']!r} in {case.reference}.")
            return
        for rank, hit in enumerate(hits, start=1):
            pages = (
                f"p. {hit.page}"
                if hit.page_start == hit.page_end
                else f"pp. {hit.page_start}-{hit.page_end}"
            )
            self.stdout.write(
                f"{rank:>2}. {hit.score:.4f}  {hit.document}, {pages}  "
                f"[chunk {hit.chunk_id}]  {hit.url}"
            )
            self.stdout.write(f"    {_marked(hit)}")


def _marked(hit: Any) -> str:
    """The snippet for a terminal: matches in »guillemets«, HTML unescaped."""
    marked = hit.snippet_html.replace("<mark>", "»").replace("</mark>", "«")
    text: str = html.unescape(marked)
    return text.replace(HEADLINE_START, "").replace(HEADLINE_STOP, "")
