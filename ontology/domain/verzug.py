"""The rules of the Verzugsschaden claim (§§ 280 Abs. 1, 2, 286, 288 BGB), one
named kernel function per rule, each with its provision in the docstring.

The claim ontology (``ontology/claims/verzugsschaden.ttl``) names the
requirements, their legal basis, labels and the interest parameters of each
version; this module decides them from the facts, as of the Stichtag
(``ClaimContext.valid_at``): a fact dated after it does not count.

Which facts count is the one rule of ``ontology.domain.facts``
(``established_statuses``). With the firm's four-eyes option on, only
confirmed facts count; every requirement is decided twice (confirmed only, and
as if the evidenced facts were confirmed) and where the two differ the
requirement is *offen*: "… wartet auf Zweitprüfung". A pleaded excuse counts as
pleaded whatever its status (except disputed): pleading is what § 286 Abs. 4
BGB asks of the debtor.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any, Literal

from ontology.domain.facts import ClaimContext, FactRecord, established_statuses
from ontology.domain.text import date_format, value_format

Status = Literal["satisfied", "open", "not_satisfied"]
ONE = timedelta(days=1)
OLD_LAW_UNTIL = date(2014, 7, 28)  # Art. 229 § 34 EGBGB

ABS1 = "§ 286 Abs. 1 S. 1 BGB"
NR1 = "§ 286 Abs. 2 Nr. 1 BGB"
NR2 = "§ 286 Abs. 2 Nr. 2 BGB"
NR3 = "§ 286 Abs. 2 Nr. 3 BGB"
NR4 = "§ 286 Abs. 2 Nr. 4 BGB"
ABS3 = "§ 286 Abs. 3 BGB"
# kinds of delivery_evidence that prove Zugang (§ 130 Abs. 1 S. 1 BGB)
PROVING_DELIVERY = frozenset(
    {"auslieferungsbeleg", "rueckschein", "sendungsverfolgung_zugestellt"}
)
INSTANT_DISPATCH = frozenset({"email", "fax", "bote", "persoenlich"})
EXONERATION_PROOF = {
    "krankheit": "ärztliche Bescheinigung",
    "glaeubigerverhalten": "Nachweis des Gläubigerverhaltens",
    "hoehere_gewalt": "Nachweis der höheren Gewalt",
    "sonstiges": "Nachweis der Entlastung",
}
ANCHORS = {
    "contract": ("contract_concluded",),
    "invoice_receipt": ("invoice_received",),
    "delivery": ("performance_delivered",),
    "acceptance": ("acceptance_declared",),
    "acceptance_and_invoice_receipt": ("acceptance_declared", "invoice_received"),
}
# facts whose date is an agreed or stated time, not the day of an event
AGREED = frozenset({"calendar_payment_date", "invoice_payment_deadline", "due_date"})
ANCHOR_ITEM = {
    "contract_concluded": "Vertragsschluss",
    "invoice_received": "Zugang der Rechnung",
    "performance_delivered": "Lieferung",
    "acceptance_declared": "Abnahme",
}


def _field(fact: FactRecord, name: str) -> Any:
    return getattr(fact.value, name, None)


def _label(fact: FactRecord) -> str:
    from ontology.domain.vocabulary import fact_types_all

    info = fact_types_all().get(fact.fact_type)
    return info.label_de if info is not None else fact.fact_type


def named(facts: Sequence[FactRecord]) -> str:
    return "; ".join(f"{_label(f)} ({value_format(f.value, 'de')})" for f in facts)


def worded(fact: FactRecord) -> str:
    """The fact's value alone, for a sentence that already names the fact
    ("Die Mahnung (02.03.2026, Einwurf-Einschreiben)", not "Die Mahnung
    (Mahnung (…))")."""
    return value_format(fact.value, "de")


class FactsAt:
    """The facts of a case as of the Stichtag, with the statuses that count."""

    def __init__(
        self, facts: Sequence[FactRecord], valid_at: date, statuses: frozenset[str]
    ) -> None:
        self.valid_at = valid_at
        self.statuses = statuses
        self.by_type: dict[str, list[FactRecord]] = {}
        for fact in facts:
            when = fact.date_value
            if when is not None and when > valid_at and fact.fact_type not in AGREED:
                continue  # an event after the Stichtag does not count
            self.by_type.setdefault(fact.fact_type, []).append(fact)
        for group in self.by_type.values():
            group.sort(key=lambda f: (f.date_value or date.min, f.id))

    def counting(self, key: str) -> list[FactRecord]:
        return [f for f in self.by_type.get(key, []) if f.status in self.statuses]

    def first(self, key: str) -> FactRecord | None:
        found = self.counting(key)
        return found[0] if found else None

    def pleaded(self, key: str) -> list[FactRecord]:
        """Pleading counts whatever the fact's review status, unless disputed."""
        return [f for f in self.by_type.get(key, []) if f.status != "disputed"]


@dataclass
class Finding:
    """The decision on one requirement, in words."""

    status: Status
    sentence: list[str] = field(default_factory=list)
    decisive: list[FactRecord] = field(default_factory=list)
    missing: str | None = None  # the missing item, e.g. "Zugangsnachweis fehlt"
    item: str | None = None  # what is missing, e.g. "Zugangsnachweis"
    basis: str | None = None
    rejected: list[str] = field(default_factory=list)
    due: date | None = None
    default_from: date | None = None


# ------------------------------------------------------------------ Fälligkeit
def due_from_payment_term(
    facts: FactsAt, term: FactRecord
) -> tuple[date | None, list[FactRecord], str | None]:
    """The agreed payment term: the event's date plus ``period_days`` (the last
    day of the period, on which payment is still on time; § 271 Abs. 2 BGB
    leaves the agreed time to the parties). Returns the date, the facts it
    rests on and, when the event is not established, the missing item."""
    anchors = []
    for key in ANCHORS.get(str(_field(term, "event")), ()):
        found = facts.first(key)
        if found is None or found.date_value is None:
            return None, [term], ANCHOR_ITEM[key]
        anchors.append(found)
    if not anchors:
        return None, [term], "Ereignis der Zahlungsbedingung"
    days = int(_field(term, "period_days") or 0)
    start = max(a.date_value for a in anchors if a.date_value is not None)
    return start + timedelta(days=days), [term, *anchors], None


def deferral_until(facts: FactsAt) -> tuple[date | None, list[FactRecord]]:
    """An agreed Stundung (a deferral agreement, or the debtor's request plus
    the creditor's consent) moves Fälligkeit to the day after ``until``; a
    request alone defers nothing (§ 271 Abs. 2 BGB, § 311 Abs. 1 BGB)."""
    agreed = facts.counting("deferral_agreed")
    if agreed:
        last = max(agreed, key=lambda f: _field(f, "until") or date.min)
        return _field(last, "until"), [last]
    consented = facts.counting("deferral_consented")
    requested = facts.counting("deferral_requested")
    if consented and requested:
        last = max(consented, key=lambda f: _field(f, "until") or date.min)
        return _field(last, "until"), [requested[0], last]
    return None, []


def faelligkeit(facts: FactsAt) -> Finding:
    """Fälligkeit as of the Stichtag: the agreed calendar date or payment term,
    else § 271 Abs. 1 BGB (immediately, at conclusion of the contract); for a
    Werkvertrag not before Abnahme (§ 641 Abs. 1 BGB); moved by an agreed
    Stundung. A due date after the Stichtag: not due (nicht erfüllt)."""
    contract = facts.first("contract_concluded")
    werk = contract is not None and _field(contract, "contract_kind") == "werkvertrag"
    calendar = facts.first("calendar_payment_date")
    term = facts.first("payment_term")
    due: date | None = None
    decisive: list[FactRecord] = []
    text: list[str] = []
    if calendar is not None:
        due, decisive = calendar.date_value, [calendar]
        text.append(f"Vereinbart ist ein Leistungstermin: {named([calendar])}.")
    elif term is not None:
        due, decisive, lacking = due_from_payment_term(facts, term)
        if lacking is not None and not (werk and lacking == "Abnahme"):
            return Finding(
                "open",
                [
                    f"Die Zahlungsbedingung knüpft an ein Ereignis an ({lacking}), "
                    f"das nicht belegt ist: {lacking} nicht belegt."
                ],
                decisive,
                missing=f"{lacking} nicht belegt",
                item=lacking,
            )
        if due is not None:
            text.append(
                f"Nach der vereinbarten Zahlungsbedingung ({named(decisive)}) ist "
                f"die Forderung am {_d(due)} fällig."
            )
    if werk:
        accepted = facts.first("acceptance_declared")
        if accepted is None or accepted.date_value is None:
            hints = facts.counting("acceptance_refused") + facts.counting(
                "acceptance_requested"
            )
            said = f" Vorliegend: {named(hints)}." if hints else ""
            return Finding(
                "open",
                [
                    "Werkvertrag: Die Vergütung wird erst mit der Abnahme fällig "
                    f"(§ 641 Abs. 1 BGB); Abnahme nicht belegt.{said}"
                ],
                [c for c in [contract] if c is not None] + hints,
                missing="Abnahme nicht belegt",
                item="Abnahme",
            )
        if accepted not in decisive:
            decisive.append(accepted)
        if due is None or due < accepted.date_value:
            due = accepted.date_value
            text.append(
                f"Die Vergütung ist mit der Abnahme fällig (§ 641 Abs. 1 BGB): "
                f"{named([accepted])}."
            )
    legacy = facts.first("due_date")
    if due is None and legacy is not None and legacy.date_value is not None:
        # an established due date of the older vocabulary ("Fälligkeit")
        due, decisive = legacy.date_value, [legacy]
        text.append(f"Festgestellt ist die Fälligkeit am {_d(due)}.")
    if due is None:
        if contract is not None and contract.date_value is not None:
            due, decisive = contract.date_value, [contract]
            text.append(
                "Eine Leistungszeit ist nicht bestimmt; die Forderung ist nach "
                f"§ 271 Abs. 1 BGB sofort mit Vertragsschluss am {_d(due)} fällig."
            )
        else:
            return Finding(
                "open",
                [
                    "Weder eine Zahlungsabrede noch der Vertragsschluss ist "
                    "festgestellt; Vertragsschluss nicht belegt."
                ],
                missing="Vertragsschluss nicht belegt",
                item="Vertragsschluss",
            )
    assert due is not None
    until, deferral = deferral_until(facts)
    if until is not None and until + ONE > due:
        due = until + ONE
        decisive = deferral + decisive
        text.append(
            f"Die Forderung ist bis zum {_d(until)} gestundet ({named(deferral)}) "
            f"und daher erst am {_d(due)} fällig."
        )
    elif facts.counting("deferral_requested"):
        text.append(
            "Der Schuldner hat nur um Stundung gebeten; ohne Zustimmung des "
            "Gläubigers ändert das die Fälligkeit nicht."
        )
    if due > facts.valid_at:
        text.append(
            f"Zum Stichtag {_d(facts.valid_at)} ist die Forderung noch nicht fällig."
        )
        return Finding("not_satisfied", text, decisive, due=due)
    return Finding("satisfied", text, decisive, due=due)


# ----------------------------------------------------- Mahnung/Entbehrlichkeit
def reminder_receipt(
    facts: FactsAt, reminder: FactRecord
) -> tuple[date | None, list[FactRecord], list[FactRecord]]:
    """Zugang of a reminder (§ 130 Abs. 1 S. 1 BGB): proven only by a delivery
    record (Auslieferungsbeleg of an Einwurf-Einschreiben, Rückschein,
    tracking with a delivery event: ``reminder_delivered``) or the debtor's own
    admission. The creditor's file copy or word, a posting receipt, tracking
    without delivery or a delivery note for the goods prove nothing. Returns
    the day of Zugang (the earliest any proof shows), every fact proving it
    (a delivery record and the debtor's admission of the same receipt are
    both decisive, so both are named), and the facts that do not."""
    sent = reminder.date_value or date.min
    proofs: list[tuple[date, FactRecord]] = []
    for key in ("reminder_delivered", "reminder_received"):
        for proof in facts.counting(key):
            if proof.date_value is not None and proof.date_value >= sent:
                proofs.append((proof.date_value, proof))
    for admission in facts.counting("debtor_admission"):
        when = admission.date_value
        if _field(reminder, "dispatch") in INSTANT_DISPATCH:
            # an e-mail, fax or hand delivery the debtor admits reached him
            # on the day it was sent
            proofs.append((sent, admission))
        elif when is not None and when >= sent:
            proofs.append((when, admission))
    if proofs:
        received = min(day for day, _ in proofs)
        return received, [p for _, p in proofs], []
    weak = [
        f
        for f in facts.counting("delivery_evidence")
        if _field(f, "kind") not in PROVING_DELIVERY
    ] + facts.counting("receipt_denied")
    return None, [], weak


@dataclass
class _Candidate:
    start: date
    basis: str
    decisive: list[FactRecord]
    text: str


def full_payment_date(facts: FactsAt) -> tuple[date | None, FactRecord | None]:
    """The day the debtor paid the whole principal (payments add up), if any."""
    principal = facts.first("claim_amount")
    if principal is None or principal.amount_value is None:
        return None, None
    paid = 0
    for payment in facts.counting("payment_received"):
        amount = payment.amount_value
        if amount is None or payment.date_value is None:
            continue
        paid += amount.cents
        if paid >= principal.amount_value.cents:
            return payment.date_value, payment
    return None, None


def debtor_is_consumer(facts: FactsAt, context: ClaimContext) -> bool:
    """§ 13 BGB: an established ``debtor_consumer`` fact overrides party data."""
    fact = facts.first("debtor_consumer")
    if fact is not None and isinstance(fact.value, bool):
        return fact.value
    return context.debtor_kind == "consumer"


def mahnung(facts: FactsAt, due: Finding, context: ClaimContext) -> Finding:
    """Mahnung after Fälligkeit with proven Zugang (§ 286 Abs. 1 S. 1 BGB) or
    its Entbehrlichkeit (§ 286 Abs. 2 Nr. 1–4, Abs. 3 BGB); the basis giving
    the earliest default carries. A reminder before Fälligkeit has no effect;
    one with a payment deadline puts the debtor in default the day after it;
    payment in full before default begins prevents it. Nr. 1 needs a calendar
    date agreed by both parties (a one-sided "Zahlbar bis" is not), Nr. 2 an
    event plus a period (period 0, "sofort", is none), Nr. 3 a serious and
    final refusal (not a temporary inability), Abs. 3 against a consumer the
    notice in the invoice."""
    if due.status == "open" or due.due is None:
        return Finding(
            "open",
            [
                f"Ob und wann Verzug eintrat, lässt sich erst nach Klärung der "
                f"Fälligkeit beurteilen ({due.missing})."
            ],
            facts.counting("reminder_sent"),
            missing=due.missing,
            item=due.item,
        )
    found = _mahnung_bases(facts, due.due, context)
    if due.status == "not_satisfied":
        decisive = found.decisive if found.status != "satisfied" else []
        return Finding(
            "not_satisfied",
            [
                "Ohne Fälligkeit zum Stichtag kann der Schuldner nicht in Verzug sein.",
                *(found.sentence if found.status != "satisfied" else []),
            ],
            decisive + facts.counting("reminder_sent"),
            rejected=found.rejected,
        )
    return found


def _mahnung_bases(facts: FactsAt, day: date, context: ClaimContext) -> Finding:
    """The bases of default examined against the due date ``day``."""
    candidates: list[_Candidate] = []
    rejected: list[tuple[str, str, list[FactRecord]]] = []
    lacking: list[tuple[str, str, list[FactRecord]]] = []
    calendar = facts.first("calendar_payment_date")
    if calendar is not None and calendar.date_value is not None:
        candidates.append(
            _Candidate(
                calendar.date_value + ONE,
                NR1,
                [calendar],
                "Die Leistungszeit ist nach dem Kalender bestimmt "
                f"({named([calendar])}).",
            )
        )
    for deadline in facts.counting("invoice_payment_deadline"):
        if calendar is None:
            rejected.append(
                (
                    NR1,
                    "Das einseitige Zahlungsziel der Rechnung "
                    f"({named([deadline])}) ist keine vereinbarte "
                    "Leistungszeit und auch keine Mahnung.",
                    [deadline],
                )
            )
    term = facts.first("payment_term")
    if term is not None:
        term_due, term_facts, _ = due_from_payment_term(facts, term)
        if int(_field(term, "period_days") or 0) <= 0:
            rejected.append(
                (
                    NR2,
                    f"Die Zahlungsbedingung ({worded(term)}) nennt "
                    "keine Frist; „sofort“ ist keine nach dem Kalender "
                    "berechenbare Leistungszeit.",
                    [term],
                )
            )
        elif term_due is not None and term_due != day:
            rejected.append(
                (
                    NR2,
                    "Die vereinbarte Frist "
                    f"({named(term_facts)}) ist durch die Stundung "
                    "überholt und trägt keinen Verzug.",
                    [term],
                )
            )
        elif term_due is not None:
            candidates.append(
                _Candidate(
                    term_due + ONE,
                    NR2,
                    term_facts,
                    "Die Leistungszeit lässt sich von einem Ereignis an nach "
                    f"dem Kalender berechnen ({named(term_facts)}).",
                )
            )
    for refusal in facts.counting("refusal_to_pay"):
        when = refusal.date_value or day
        if _field(refusal, "kind") == "endgueltig":
            candidates.append(
                _Candidate(
                    max(when, day) + ONE,
                    NR3,
                    [refusal],
                    "Der Schuldner hat die Zahlung ernsthaft und endgültig "
                    f"verweigert ({named([refusal])}).",
                )
            )
        else:
            rejected.append(
                (
                    NR3,
                    f"Die Erklärung ({named([refusal])}) ist nur ein "
                    "vorübergehendes Unvermögen, keine endgültige "
                    "Verweigerung.",
                    [refusal],
                )
            )
    reasons = facts.first("special_reasons")
    if reasons is not None:
        candidates.append(
            _Candidate(
                day + ONE,
                NR4,
                [reasons],
                "Besondere Gründe rechtfertigen den sofortigen Verzug "
                f"({named([reasons])}).",
            )
        )
    invoice = facts.first("invoice_received")
    if invoice is not None and invoice.date_value is not None:
        notice = facts.first("consumer_notice_in_invoice")
        if debtor_is_consumer(facts, context) and not (
            notice is not None and notice.value is True
        ):
            said = [notice] if notice is not None else []
            rejected.append(
                (
                    ABS3,
                    "Gegenüber dem Verbraucher tritt Verzug nach "
                    "§ 286 Abs. 3 BGB nur ein, wenn die Rechnung auf diese "
                    "Folge hinweist; ein solcher Hinweis ist nicht "
                    "festgestellt.",
                    [invoice, *said],
                )
            )
        else:
            start = max(day, invoice.date_value) + timedelta(days=31)
            extra = [notice] if notice is not None else []
            candidates.append(
                _Candidate(
                    start,
                    ABS3,
                    [invoice, *extra],
                    "30 Tage nach Fälligkeit und Zugang der Rechnung "
                    f"({named([invoice])}).",
                )
            )
    for reminder in facts.counting("reminder_sent"):
        received, proof, weak = reminder_receipt(facts, reminder)
        if received is None:
            lacking.append(
                (
                    "Zugangsnachweis fehlt",
                    f"Für die Mahnung ({worded(reminder)}) "
                    "ist der Zugang nicht nachgewiesen"
                    + (f" ({named(weak)})" if weak else "")
                    + ": Zugangsnachweis fehlt.",
                    [reminder, *weak],
                )
            )
            continue
        if received < day:
            rejected.append(
                (
                    ABS1,
                    f"Die Mahnung ({worded(reminder)}) ging vor "
                    f"Eintritt der Fälligkeit am {_d(day)} zu und ist "
                    "wirkungslos.",
                    [reminder],
                )
            )
            continue
        start = received + ONE
        deadline = _field(reminder, "deadline")
        if isinstance(deadline, date) and deadline + ONE > start:
            start = deadline + ONE
        candidates.append(
            _Candidate(
                start,
                ABS1,
                [reminder, *proof],
                f"Die Mahnung ({worded(reminder)}) erging nach Fälligkeit; "
                f"ihr Zugang ist belegt ({named(proof)}).",
            )
        )
    paid_on, payment = full_payment_date(facts)
    carrying = []
    for candidate in candidates:
        if paid_on is not None and candidate.start >= paid_on:
            assert payment is not None
            rejected.append(
                (
                    candidate.basis,
                    f"{candidate.text} Der Schuldner zahlte "
                    f"jedoch vor Verzugseintritt vollständig ({named([payment])}).",
                    [*candidate.decisive, payment],
                )
            )
        elif candidate.start <= facts.valid_at:
            carrying.append(candidate)
    rejected_bases = list(dict.fromkeys(b for b, _, _ in rejected))
    if carrying:
        best = min(carrying, key=lambda c: (c.start, c.basis))
        rejected_bases = [b for b in rejected_bases if b != best.basis]
        text = [
            best.text,
            f"Der Schuldner ist danach seit dem {_d(best.start)} in "
            f"Verzug ({best.basis}).",
        ]
        text += [t for b, t, _ in rejected if b in rejected_bases]
        return Finding(
            "satisfied",
            text,
            best.decisive,
            basis=best.basis,
            rejected=rejected_bases,
            default_from=best.start,
        )
    text = [t for _, t, _ in rejected]
    decisive = [f for _, _, fs in rejected for f in fs]
    if lacking:
        phrase, wording, facts_named = lacking[0]
        return Finding(
            "open",
            [wording, *text],
            facts_named + decisive,
            missing=phrase,
            item="Zugangsnachweis",
            rejected=rejected_bases,
        )
    if not candidates and not rejected:
        return Finding(
            "open",
            [
                "Weder eine Mahnung noch ein Grund für ihre Entbehrlichkeit ist "
                "festgestellt: Mahnung nicht belegt."
            ],
            missing="Mahnung nicht belegt",
            item="Mahnung",
        )
    if not text:
        text.append(
            f"Bis zum Stichtag {_d(facts.valid_at)} ist Verzug auf keiner Grundlage "
            "eingetreten."
        )
    return Finding("not_satisfied", text, decisive, rejected=rejected_bases)


# ---------------------------------------------------------- Vertretenmüssen
def vertretenmuessen(facts: FactsAt) -> Finding:
    """§ 286 Abs. 4 BGB: the debtor's responsibility is presumed. Evidenced
    exonerating facts rebut it (nicht erfüllt); exonerating facts only
    pleaded leave it open; lack of money never exonerates for a money debt."""
    evidenced = facts.counting("exoneration_evidenced") + facts.counting(
        "debtor_not_responsible"
    )
    if evidenced:
        return Finding(
            "not_satisfied",
            [
                f"Der Schuldner hat die Verzögerung nachweislich nicht zu vertreten "
                f"({named(evidenced)}); die Vermutung des § 286 Abs. 4 BGB ist "
                "widerlegt."
            ],
            evidenced,
        )
    pleaded = facts.pleaded("exoneration_pleaded")
    if pleaded:
        item = EXONERATION_PROOF.get(
            str(_field(pleaded[0], "kind")), "Nachweis der Entlastung"
        )
        return Finding(
            "open",
            [
                f"Der Schuldner beruft sich auf einen entlastenden Umstand "
                f"({named(pleaded)}), der nicht nachgewiesen ist: {item} fehlt."
            ],
            pleaded,
            missing=f"{item} fehlt",
            item=item,
        )
    funds = facts.pleaded("lack_of_funds_pleaded")
    if funds:
        return Finding(
            "satisfied",
            [
                f"Der Einwand fehlender Mittel ({named(funds)}) entlastet bei einer "
                "Geldschuld nicht; das Vertretenmüssen wird vermutet (§ 286 Abs. 4 "
                "BGB)."
            ],
            funds,
        )
    return Finding(
        "satisfied",
        [
            "Das Vertretenmüssen wird vermutet (§ 286 Abs. 4 BGB); entlastende "
            "Umstände sind nicht vorgetragen."
        ],
    )


def _d(day: date | None) -> str:
    return date_format(day, "de") if day is not None else "?"


def facts_at(
    facts: Sequence[FactRecord], context: ClaimContext, *, four_eyes: bool
) -> FactsAt:
    return FactsAt(facts, context.valid_at, established_statuses(four_eyes=four_eyes))


def schuldverhaeltnis_date(facts: FactsAt) -> date | None:
    """The day the obligation arose (Art. 229 § 34 EGBGB decides old or new
    law by it): the conclusion of the contract."""
    contract = facts.first("contract_concluded")
    return contract.date_value if contract is not None else None


def old_law(facts: FactsAt) -> bool:
    """Art. 229 § 34 S. 1 EGBGB: a Schuldverhältnis arising before 29.07.2014
    stays under the old § 288 BGB (8 points, no Pauschale), also for interest
    accruing later."""
    arose = schuldverhaeltnis_date(facts) or facts.valid_at
    return arose <= OLD_LAW_UNTIL
