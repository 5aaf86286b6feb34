"""Check the citations in a text: ``manage.py cite [--at DATE] [--json] TEXT``."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cases.errors import DomainError
from citations.services import CitationResult, citations_check


def _date(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise CommandError(f"Not a date (YYYY-MM-DD): {value}") from exc


class Command(BaseCommand):
    help = (
        "Find the citations in TEXT (or --file, or each line of --batch JSONL) and "
        "resolve them against the pinned corpus."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("text", nargs="?")
        parser.add_argument("--file", type=Path)
        parser.add_argument("--batch", type=Path, help="JSONL: id, text, optional at")
        parser.add_argument("--at", type=_date, help="Valid-at date (default today)")
        parser.add_argument("--json", action="store_true")
        parser.add_argument(
            "--instrument", help="Default instrument for citations naming none"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        sources = [options["text"] is not None, options["file"], options["batch"]]
        if sum(bool(s) for s in sources) != 1:
            raise CommandError(
                "Give exactly one of TEXT, --file FILE, --batch IN.jsonl"
            )
        try:
            if options["batch"]:
                self._batch(options)
                return
            text = (
                options["text"]
                if options["text"] is not None
                else options["file"].read_text(encoding="utf-8")
            )
            results = citations_check(
                text, at=options["at"], default_instrument=options["instrument"]
            )
        except DomainError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        if options["json"]:
            self.stdout.write(
                json.dumps([r.to_json() for r in results], ensure_ascii=False)
            )
            return
        for r in results:
            self.stdout.write(self._line(r))

    def _batch(self, options: dict[str, Any]) -> None:
        with options["batch"].open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                try:
                    item = json.loads(line)
                    at = _date(item["at"]) if item.get("at") else options["at"]
                    text = item["text"]
                except (ValueError, KeyError, TypeError) as exc:
                    raise CommandError(f"line {number}: {exc}") from exc
                results = citations_check(
                    text, at=at, default_instrument=options["instrument"]
                )
                out = {
                    "id": item.get("id"),
                    "citations": [r.to_json() for r in results],
                }
                self.stdout.write(json.dumps(out, ensure_ascii=False))

    @staticmethod
    def _line(r: CitationResult) -> str:
        c = r.citation
        parts = [
            f"{c.start}-{c.end}",
            c.raw,
            c.canonical or "?",
            r.status,
        ]
        if r.reason:
            parts.append(r.reason)
        if r.version:
            parts.append(f"[{r.version.label}]")
        return "\t".join(parts)
