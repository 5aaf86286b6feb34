"""The verdict sentences of the compliance evaluator, in German and English:
each names the element's provision and label and says what the file shows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ontology.domain.compliance_catalogue import ElementDef, ObligationDef
from ontology.domain.compliance_rules import Applicability
from ontology.domain.results import STATUS_LABELS, VerdictStatus

if TYPE_CHECKING:
    from ontology.domain.compliance import ElementVerdict

# ------------------------------------------------------------------ sentences
FINDING_DE = {
    "evidenced": "belegt",
    "in_time": "fristgerecht",
    "not_evidenced": "nicht belegt",
    "awaiting_review": "Beleg wartet auf die Zweitprüfung (Vier-Augen)",
    "applicability_open": "Anwendbarkeit offen",
    "absent": "fehlt (die Akte zeigt es)",
    "contradicted": "widerlegt",
    "absent_in_document": "im vollständigen Dokument nicht enthalten",
    "late": "verspätet",
    "overdue": "Überprüfung überfällig",
    "insufficient": "unzureichend",
    "incomplete": "unvollständig",
    "screening_contradicts_law": "Schwellwertanalyse verneint die Pflicht entgegen "
    "dem Gesetz",
    "no_assessment": "keine DSFA vorhanden",
    "not_yet_due": "zum Stichtag noch nicht fällig",
    "not_applicable": "nicht anwendbar",
}
FINDING_EN = {
    "evidenced": "evidenced",
    "in_time": "within the time limit",
    "not_evidenced": "not evidenced",
    "awaiting_review": "evidence awaits the second review (four eyes)",
    "applicability_open": "applicability open",
    "absent": "missing (shown by the file)",
    "contradicted": "contradicted",
    "absent_in_document": "not contained in the complete document",
    "late": "late",
    "overdue": "review overdue",
    "insufficient": "insufficient",
    "incomplete": "incomplete",
    "screening_contradicts_law": "the screening denies the duty contrary to the law",
    "no_assessment": "no DPIA exists",
    "not_yet_due": "not yet due on the Stichtag",
    "not_applicable": "not applicable",
}


def element_sentences(
    element: ElementDef, finding: str, details: dict[str, Any]
) -> tuple[str, str]:
    de = f"{element.provision_de} ({element.label_de}): {FINDING_DE[finding]}"
    en = f"{element.provision_en} ({element.label_en}): {FINDING_EN[finding]}"
    if details.get("deadline") and finding in ("late", "in_time", "not_yet_due"):
        de += f", Frist {details['deadline']}"
        en += f", time limit {details['deadline']}"
    if details.get("missing_conditions"):
        letters = ", ".join(details["missing_conditions"])
        de += f"; es fehlen die Bedingungen lit. {letters}"
        en += f"; conditions ({letters}) missing"
    if details.get("missing_arrangements"):
        names = ", ".join(str(n) for n in details["missing_arrangements"])
        de += f"; nicht erfasst: {names}"
        en += f"; not entered: {names}"
    return de + ".", en + "."


def obligation_sentences(
    obligation: ObligationDef,
    applicability: Applicability,
    status: VerdictStatus | None,
    elements: Sequence[ElementVerdict],
) -> tuple[str, str]:
    head_de, head_en = obligation.provision_de, obligation.provision_en
    if applicability.applicable is False:
        return (
            f"{head_de} ist nicht anwendbar: {applicability.reason_de}",
            f"{head_en} does not apply: {applicability.reason_en}",
        )
    if status == "satisfied":
        return (
            f"{head_de}: erfüllt – jedes anwendbare Element ist belegt.",
            f"{head_en}: satisfied – every applicable element is evidenced.",
        )
    violated = [e for e in elements if e.status == "not_satisfied"]
    missing = [
        e for e in elements if e.status == "open" and e.finding != "applicability_open"
    ]
    # Elements whose applicability is open are named once, not each with the
    # same "Anwendbarkeit offen"; where the obligation's own is open, its
    # reason says it for all of them.
    undecided = [e for e in elements if e.finding == "applicability_open"]
    parts_de = [f"{head_de}: {STATUS_LABELS[status or 'open'][0]}."]
    parts_en = [f"{head_en}: {STATUS_LABELS[status or 'open'][1]}."]
    if applicability.applicable is None:
        parts_de.append(f"Anwendbarkeit offen: {applicability.reason_de}")
        parts_en.append(f"Applicability open: {applicability.reason_en}")
    elif undecided:
        parts_de.append(
            "Anwendbarkeit offen für "
            + ", ".join(f"{e.provision_de} ({e.label_de})" for e in undecided)
            + "."
        )
        parts_en.append(
            "Applicability open for "
            + ", ".join(f"{e.provision_en} ({e.label_en})" for e in undecided)
            + "."
        )
    if violated:
        parts_de.append(
            "Verletzt oder fehlend: " + " ".join(e.sentence_de for e in violated)
        )
        parts_en.append(
            "Violated or missing: " + " ".join(e.sentence_en for e in violated)
        )
    if missing:
        parts_de.append("Nicht belegt: " + " ".join(e.sentence_de for e in missing))
        parts_en.append("Not evidenced: " + " ".join(e.sentence_en for e in missing))
    return " ".join(parts_de), " ".join(parts_en)
