"""Import the pinned legal corpus: ``manage.py import_corpus [PATH]``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cases.errors import DomainError
from citations.corpus import corpus_dir_default
from citations.corpus.pins import DEFAULT_PINS_PATH
from citations.services import corpus_import, corpus_pins_add


class Command(BaseCommand):
    help = (
        "Read the legal texts in PATH (default ../shared/corpus) in place, check "
        "each file against citations/pins.json and import its provisions."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", nargs="?", type=Path)
        parser.add_argument("--pins", type=Path, default=DEFAULT_PINS_PATH)
        parser.add_argument(
            "--update-pin",
            action="store_true",
            help="Accept files whose hash or counts differ and rewrite the pins.",
        )
        parser.add_argument(
            "--only", action="append", help="Instrument key (gdpr, bgb, ...)."
        )
        parser.add_argument(
            "--pin-new",
            action="store_true",
            help="First pin every de-federal/*/source.xml that has no pin yet.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        corpus_dir = options["path"] or corpus_dir_default()
        if not corpus_dir.is_dir():
            raise CommandError(f"No corpus folder at {corpus_dir}")
        started = time.perf_counter()
        try:
            if options["pin_new"]:
                for pin in corpus_pins_add(
                    corpus_dir=corpus_dir, pins_path=options["pins"]
                ):
                    self.stdout.write(f"pinned    {pin.instrument:7} {pin.path}")
            reports = corpus_import(
                corpus_dir=corpus_dir,
                pins_path=options["pins"],
                update_pin=options["update_pin"],
                only=options["only"],
            )
        except DomainError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        for r in reports:
            note = " (pin updated)" if r.pin_updated else ""
            self.stdout.write(
                f"{r.action:9} {r.pin.instrument:7} {r.pin.language} "
                f"{r.pin.valid_from} {r.units:6} units  {r.pin.path}{note}"
            )
        self.stdout.write(f"done in {time.perf_counter() - started:.1f} s")
