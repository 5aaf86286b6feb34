"""Download the EU texts of the pinned corpus from EUR-Lex by CELEX."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cases.errors import DomainError
from citations.corpus.fetch import corpus_fetch, eurlex_base_url
from citations.corpus.pins import DEFAULT_PINS_PATH, PinsFile


class Command(BaseCommand):
    help = (
        "Download the EU acts of citations/pins.json from EUR-Lex (by CELEX) into "
        "DEST and verify each against its pin; then run import_corpus DEST. "
        "German statutes are not on EUR-Lex and are not fetched."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("dest", type=Path)
        parser.add_argument(
            "--base-url",
            default=None,
            help="EUR-Lex base URL (default $BELEGT_EURLEX_BASE_URL or "
            "https://eur-lex.europa.eu)",
        )
        parser.add_argument("--pins", type=Path, default=DEFAULT_PINS_PATH)
        parser.add_argument("--update-pin", action="store_true")
        parser.add_argument("--only", action="append")
        parser.add_argument("--timeout", type=float, default=60.0)

    def handle(self, *args: Any, **options: Any) -> None:
        pins_file = PinsFile.load(options["pins"])
        try:
            reports = corpus_fetch(
                dest=options["dest"],
                pins_file=pins_file,
                base_url=options["base_url"] or eurlex_base_url(),
                update_pin=options["update_pin"],
                only=options["only"],
                timeout=options["timeout"],
            )
        except DomainError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        if any(r.pin_updated for r in reports):
            pins_file.save()
        for r in reports:
            note = " (pin updated)" if r.pin_updated else " verified"
            self.stdout.write(f"{r.pin.path}  {r.sha256[:12]}{note}  <- {r.url}")
