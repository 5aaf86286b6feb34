"""``python manage.py check_claim --case REF --claim verzugsschaden [--json]
[--at DATE] [--lang de|en] [--firm SLUG]``

Evaluates the case's claims of that type against its current facts and prints
one block per requirement: status in words, the sentence, the legal basis and
what is missing; then the damage sum. ``--at`` is the day up to which default
interest is computed (today by default); the law applied is the claim's own
date. With ``--json`` the same shape as the API (a ``claims`` list)."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from cases.commands import case_for_command
from cases.models import Claim
from ontology.damage_table import damage_table
from ontology.domain.results import ClaimEvaluation
from ontology.domain.text import cents_format, date_format
from ontology.pages import ClaimResult, Lang, case_claims_evaluate, claim_result_json

WORDS = {
    "de": {
        "basis": "Rechtsgrundlage",
        "missing": "Fehlt noch",
        "facts": "Belegt durch Tatsachen",
        "unestablished": "Gefunden, nicht festgestellt",
        "damage": "Schaden",
        "items": "Bestätigte Schadenspositionen",
        "interest": "Verzugszinsen",
        "total": "Summe",
        "law": "Rechtsstand",
        "error": "Nicht auswertbar",
    },
    "en": {
        "basis": "Legal basis",
        "missing": "Still missing",
        "facts": "Supported by facts",
        "unestablished": "Found, not established",
        "damage": "Damage",
        "items": "Confirmed damage items",
        "interest": "Default interest",
        "total": "Total",
        "law": "Law as of",
        "error": "Not evaluated",
    },
}


def _day(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise CommandError(
            f"--at needs a date like 2026-06-15, not {value!r}."
        ) from exc


class Command(BaseCommand):
    help = "Print the verdicts of a case's claim, one block per requirement."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--case", required=True, help="file reference")
        parser.add_argument(
            "--claim",
            required=True,
            choices=Claim.ClaimType.values,
            help="claim type (all claims of this type in the case)",
        )
        parser.add_argument("--firm", help="firm slug, if the reference is ambiguous")
        parser.add_argument(
            "--at", help="compute interest up to this day (YYYY-MM-DD; today)"
        )
        parser.add_argument("--lang", choices=("de", "en"), default="de")
        parser.add_argument("--json", action="store_true", dest="as_json")

    def handle(self, *args: Any, **options: Any) -> None:
        case = case_for_command(reference=options["case"], firm_slug=options["firm"])
        claims = list(case.claims.filter(claim_type=options["claim"]).order_by("id"))
        if not claims:
            raise CommandError(
                f"The case {case.reference!r} has no claim of type "
                f"{options['claim']!r}."
            )
        asked = _day(options["at"]) if options["at"] else None
        until = asked or timezone.localdate()
        # without --at a Verzugsschaden claim is judged as of its valid-at date
        results = case_claims_evaluate(case=case, interest_until=asked, claims=claims)
        if options["as_json"]:
            payload = {
                "case": case.reference,
                "case_id": case.pk,
                "interest_until": until.isoformat(),
                "claims": [claim_result_json(r) for r in results],
            }
            self.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2))
        else:
            for result in results:
                self._print(result, options["lang"], until)
        if any(r.error is not None for r in results):
            raise CommandError("At least one claim could not be evaluated.")

    def _print(self, result: ClaimResult, lang: str, until: date) -> None:
        words = WORDS[lang]
        de = lang == "de"
        claim = result.claim
        if result.evaluation is None:
            message = result.error.message if result.error else ""
            self.stdout.write(f"{claim} — {words['error']}: {message}\n")
            return
        evaluation: ClaimEvaluation = result.evaluation
        self.stdout.write(evaluation.label_de if de else evaluation.label_en)
        self.stdout.write(
            f"{words['law']} {date_format(evaluation.valid_at, 'de' if de else 'en')}"
            f" · {evaluation.version_key} · {words['basis']}: "
            + "; ".join(evaluation.legal_basis)
        )
        for verdict in evaluation.requirements:
            status = verdict.status_de if de else verdict.status_en
            label = verdict.label_de if de else verdict.label_en
            self.stdout.write("")
            self.stdout.write(f"[{status}] {label}")
            self.stdout.write(f"  {verdict.sentence_de if de else verdict.sentence_en}")
            self.stdout.write(f"  {words['basis']}: " + "; ".join(verdict.legal_basis))
            if verdict.supporting_fact_ids:
                ids = ", ".join(f"#{i}" for i in verdict.supporting_fact_ids)
                self.stdout.write(f"  {words['facts']}: {ids}")
            if verdict.unestablished:
                named = ", ".join(
                    f"#{m.fact_id} ({m.status})" for m in verdict.unestablished
                )
                self.stdout.write(f"  {words['unestablished']}: {named}")
            if verdict.missing:
                self.stdout.write(
                    f"  {words['missing']}: "
                    + "; ".join(
                        m.label_de if de else m.label_en for m in verdict.missing
                    )
                )
        damage = evaluation.damage
        if damage is not None:
            code: Lang = "de" if de else "en"
            self.stdout.write("")
            self.stdout.write(f"{words['damage']}:")
            self.stdout.write(
                f"  {words['items']}: "
                f"{cents_format(damage.items_cents, damage.currency, code)}"
            )
            if damage.interest is not None:
                amount = cents_format(
                    damage.interest.interest_cents, damage.currency, code
                )
                self.stdout.write(
                    f"  {words['interest']} "
                    f"{date_format(damage.interest.start, code)}–"
                    f"{date_format(damage.interest.end, code)}: "
                    f"{amount}"
                )
            # the damage table every surface shows (ontology/damage_table.py)
            table = damage_table(damage, lang=code)
            for item in table.items:
                self.stdout.write(
                    f"    {item.label}: {item.amount} "
                    f"({item.recoverable_word}; {item.reason})"
                )
            for period in table.interest:
                self.stdout.write(
                    f"    {period.start_text}–{period.end_text}: {period.days} "
                    f"{table.headers['days']}, {period.annual_rate_text}: "
                    f"{period.amount}"
                )
            for row in table.summary:
                if row.key == "pauschale":
                    self.stdout.write(f"  {row.label}: {row.shown} — {row.note}")
            self.stdout.write(
                f"  {words['total']}: "
                f"{cents_format(damage.total_cents, damage.currency, code)}"
            )
            for note in damage.notes_de if de else damage.notes_en:
                self.stdout.write(f"  {note}")
        self.stdout.write("")
