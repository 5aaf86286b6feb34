"""The Verzugsschaden claim decided by the rules of ``ontology.domain.verzug``:
four requirements in words, ONE damage computation (items, interest,
Pauschale, total) that every surface renders, and the claim summary.

Four-eyes: each requirement is decided on the confirmed facts and again as if
the evidenced ones were confirmed; where the two differ, it stays open and
says which item waits for the second review (``… wartet auf Zweitprüfung``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from ontology.domain.claims import ClaimVersion, Requirement, claim_files_load
from ontology.domain.errors import BaseRateUnknown
from ontology.domain.facts import ClaimContext, FactRecord
from ontology.domain.interest import InterestComputation, default_interest
from ontology.domain.results import (
    ClaimEvaluation,
    DamageComputation,
    DamageItem,
    FactMention,
    MissingItem,
    RequirementVerdict,
    VerdictStatus,
)
from ontology.domain.text import cents_format, date_format
from ontology.domain.verzug import (
    FactsAt,
    Finding,
    _label,
    debtor_is_consumer,
    facts_at,
    faelligkeit,
    full_payment_date,
    mahnung,
    named,
    old_law,
    schuldverhaeltnis_date,
    vertretenmuessen,
)

ONE = timedelta(days=1)
SUMMARY_EN = {
    "begruendet": "well-founded",
    "unbegruendet": "unfounded",
    "offen": "open",
}
SUMMARY_DE = {
    "begruendet": "begründet",
    "unbegruendet": "unbegründet",
    "offen": "offen",
}


def _eur(cents: int) -> str:
    return cents_format(cents, "EUR", "de")


def _chain(facts: FactsAt, context: ClaimContext) -> dict[str, Finding]:
    due = faelligkeit(facts)
    return {
        "faelligkeit": due,
        "mahnung": mahnung(facts, due, context),
        "vertretenmuessen": vertretenmuessen(facts),
    }


def _awaiting_merge(
    strict: Finding, lenient: Finding, pending: set[int]
) -> tuple[Finding, tuple[int, ...]]:
    """Four-eyes: where the evidenced facts would change the verdict, it stays
    open until their second review."""
    if strict.status == lenient.status:
        return strict, ()
    waiting = tuple(f.id for f in lenient.decisive if f.id in pending)
    item = strict.item
    if item is None:
        # the missing item in words: the fact types' labels, never keys
        labels = {_label(f) for f in lenient.decisive if f.id in pending}
        item = ", ".join(sorted(labels)) or "Tatsache"
    phrase = f"{item} wartet auf Zweitprüfung"
    return (
        Finding(
            "open",
            [
                *strict.sentence,
                f"Bei Vier-Augen-Prüfung zählt nur Bestätigtes: {phrase}.",
            ],
            strict.decisive or [f for f in lenient.decisive if f.id not in pending],
            missing=phrase,
            item=item,
            basis=None,
            rejected=strict.rejected,
            due=strict.due,
        ),
        waiting,
    )


def _version_for_damage(version: ClaimVersion, facts: FactsAt) -> ClaimVersion:
    """The version of § 288 BGB the Schuldverhältnis falls under (Art. 229
    § 34 EGBGB): chosen by the date the obligation arose, not the Stichtag."""
    arose = schuldverhaeltnis_date(facts) or facts.valid_at
    for claim_file in claim_files_load():
        for candidate in claim_file.versions:
            if (
                candidate.claim_type == version.claim_type
                and candidate.jurisdiction == version.jurisdiction
                and candidate.valid_on(arose)
            ):
                return candidate
    return version


def verzug_damage(
    *,
    facts: FactsAt,
    context: ClaimContext,
    version: ClaimVersion,
    default_from: date,
) -> tuple[DamageComputation, list[FactRecord], str]:
    """THE damage computation (§§ 280 Abs. 2, 286, 288 BGB): lawyer fees
    instructed after default began (net where the creditor deducts input VAT),
    other items arising after default began, default interest from the first
    day of default to the Stichtag or the day before full payment, and the
    Pauschale of § 288 Abs. 5 BGB credited against the lawyer fees. Returns the
    computation, the facts it counted and the sentence stating it."""
    law = _version_for_damage(version, facts)
    consumer = debtor_is_consumer(facts, context) or context.creditor_kind == "consumer"
    if consumer:
        points, basis = law.interest_points or 5, law.interest_basis
    else:
        points = law.interest_points_no_consumer or 9
        basis = law.interest_basis_no_consumer
    counted: list[FactRecord] = []
    items: list[DamageItem] = []
    lawyer = facts.first("lawyer_instructed")
    vat = facts.first("creditor_input_vat")
    deducts = (
        vat.value is True if vat is not None else context.creditor_kind != "consumer"
    )
    vat_basis = "netto (Vorsteuerabzug)" if deducts else "brutto (kein Vorsteuerabzug)"
    fees = 0
    fee_items = facts.counting("fee_note_item")
    instructed = lawyer.date_value if lawyer is not None else None
    # fees count only if the lawyer was instructed after default began
    in_default = (
        lawyer is not None and instructed is not None and instructed >= default_from
    )
    if fee_items and in_default and lawyer is not None:
        counted.append(lawyer)
    any_gross = any(
        getattr(f.value, "gross", None) is not None
        for f in fee_items
        if getattr(f.value, "kind", None) != "umsatzsteuer"
    )
    for item in fee_items:
        kind = getattr(item.value, "kind", None)
        net = getattr(item.value, "net", None)
        gross = getattr(item.value, "gross", None)
        if not in_default:
            cents = 0
            reason = (
                "instruction_not_evidenced"
                if lawyer is None or instructed is None
                else "instructed_before_default"
            )
        elif deducts:
            cents = 0 if kind == "umsatzsteuer" or net is None else net.cents
            reason = "vat_deductible" if kind == "umsatzsteuer" else "net"
        elif kind == "umsatzsteuer":
            cents = 0 if any_gross or net is None else net.cents
            reason = "vat_in_gross" if any_gross else "vat_not_deductible"
        else:
            chosen = gross if any_gross and gross is not None else net
            cents = chosen.cents if chosen is not None else 0
            reason = "gross" if chosen is gross else "net_no_vat_deduction"
        if in_default and not cents and kind != "umsatzsteuer":
            reason = "no_amount"
        if cents:
            counted.append(item)
            fees += cents
        items.append(
            DamageItem(
                fact_id=item.id,
                cents=cents,
                currency="EUR",
                kind="fee_note_item",
                item_kind=str(kind or ""),
                text=str(getattr(item.value, "vv_no", None) or ""),
                net_cents=net.cents if net is not None else None,
                gross_cents=gross.cents if gross is not None else None,
                recoverable=bool(cents),
                reason=reason,
            )
        )
    other = 0
    for item in facts.counting("damage_item"):
        amount = item.amount_value
        when = item.date_value
        if amount is None:
            continue
        early = when is not None and when < default_from
        if not early:
            counted.append(item)
            other += amount.cents
        items.append(
            DamageItem(
                fact_id=item.id,
                cents=0 if early else amount.cents,
                currency="EUR",
                text=str(getattr(item.value, "text", None) or ""),
                incurred_on=when,
                recoverable=not early,
                reason="arose_before_default" if early else "arose_in_default",
            )
        )
    principal_fact = facts.first("claim_amount")
    interest: InterestComputation | None = None
    notes: list[str] = []
    notes_en: list[str] = []
    if principal_fact is not None and principal_fact.amount_value is not None:
        principal = principal_fact.amount_value.cents
        for payment in facts.counting("payment_received"):
            when = payment.date_value
            if when is not None and when < default_from and payment.amount_value:
                principal -= payment.amount_value.cents
                counted.append(payment)  # it reduced the principal
        paid_on, paid_by = full_payment_date(facts)
        end = facts.valid_at
        if paid_on is not None and paid_by is not None and paid_on - ONE < end:
            end = paid_on - ONE
            counted.append(paid_by)  # it ends the interest
        if principal > 0 and end >= default_from and points is not None:
            try:
                interest = default_interest(
                    principal_cents=principal,
                    currency="EUR",
                    start=default_from,
                    end=end,
                    points=points,
                )
            except BaseRateUnknown as exc:
                notes.append(
                    f"Für den {date_format(exc.day, 'de')} ist noch kein "
                    "Basiszinssatz hinterlegt; Zinsen sind nicht berechnet."
                )
                notes_en.append(
                    f"No Basiszinssatz is recorded yet for "
                    f"{date_format(exc.day, 'en')}; interest is not computed."
                )
    pauschale = 0
    pauschale_status = ""
    if law.flat_fee_cents and old_law(facts):
        pauschale_status = "old_law"
    elif law.flat_fee_cents and debtor_is_consumer(facts, context):
        pauschale_status = "consumer"
    elif not old_law(facts) and not debtor_is_consumer(facts, context):
        pauschale = law.flat_fee_cents or 0
    added = max(0, pauschale - fees)
    if pauschale:
        pauschale_status = (
            "added"
            if added == pauschale
            else "offset"
            if not added
            else "partly_offset"
        )
    interest_cents = interest.interest_cents if interest is not None else 0
    total = fees + other + interest_cents + added
    parts = []
    if interest is not None:
        parts.append(
            f"Verzugszinsen ({basis}, {points} Prozentpunkte über dem "
            f"Basiszinssatz) auf {_eur(interest.principal_cents)} vom "
            f"{date_format(interest.start, 'de')} bis "
            f"{date_format(interest.end, 'de')}: {_eur(interest_cents)}"
        )
    if fees:
        parts.append(f"Rechtsanwaltskosten {vat_basis}: {_eur(fees)}")
    if other:
        parts.append(f"weitere Schadenspositionen: {_eur(other)}")
    if pauschale:
        parts.append(
            f"Pauschale nach § 288 Abs. 5 BGB {_eur(pauschale)}, auf die "
            f"Rechtsverfolgungskosten angerechnet (§ 288 Abs. 5 S. 3 BGB), "
            f"hinzu kommen davon {_eur(added)}"
        )
    sentence = "; ".join(parts) + f". Ersatzfähig insgesamt: {_eur(total)}."
    if fee_items and (lawyer is None or lawyer not in counted):
        sentence += (
            " Die Anwaltskosten sind nicht ersatzfähig: Der Anwalt wurde vor "
            "Verzugsbeginn beauftragt (oder seine Beauftragung ist nicht belegt); "
            "das verzugsbegründende Schreiben selbst ist kein Verzugsschaden."
        )
    computation = DamageComputation(
        currency="EUR",
        items=tuple(items),
        items_cents=fees + other,
        interest=interest,
        interest_basis=basis if interest is not None else None,
        flat_fee_cents=pauschale or None,
        flat_fee_basis=law.flat_fee_basis if pauschale else None,
        total_cents=total,
        default_start=default_from,
        notes_de=tuple(notes),
        notes_en=tuple(notes_en),
        lawyer_fees_cents=fees,
        other_items_cents=other,
        pauschale_added_cents=added,
        vat_basis=vat_basis if fees else "",
        valid_at=facts.valid_at,
        pauschale_status=pauschale_status,
    )
    return computation, counted, sentence


def _schaden(
    findings: dict[str, Finding],
    facts: FactsAt,
) -> Finding:
    """Schaden follows Verzug: nicht erfüllt when Fälligkeit, Mahnung or
    Vertretenmüssen is nicht erfüllt; offen when one is offen; otherwise the
    default interest is a damage (§ 288 Abs. 1 BGB) and the file decides the
    rest: a damage announced but not quantified leaves it open."""
    upstream = [findings[k] for k in ("faelligkeit", "mahnung", "vertretenmuessen")]
    if any(f.status == "not_satisfied" for f in upstream):
        return Finding(
            "not_satisfied",
            ["Ohne Verzug gibt es keinen Verzugsschaden (§ 280 Abs. 2 BGB)."],
        )
    open_ = [f for f in upstream if f.status == "open"]
    if open_:
        return Finding(
            "open",
            [f"Ein Verzugsschaden setzt Verzug voraus; offen: {open_[0].missing}."],
            missing=open_[0].missing,
            item=open_[0].item,
        )
    unquantified = facts.counting("damage_unquantified")
    if unquantified:
        return Finding(
            "open",
            [
                "Ein weiterer Schaden ist angekündigt, aber nicht beziffert: Schaden "
                "nicht beziffert."
            ],
            unquantified,
            missing="Schaden nicht beziffert",
            item="Bezifferung des Schadens",
        )
    return Finding("satisfied", [])


# the fact types each requirement looks at (for naming facts that do not count)
REQUIREMENT_TYPES = {
    "faelligkeit": (
        "contract_concluded",
        "payment_term",
        "calendar_payment_date",
        "acceptance_declared",
        "acceptance_refused",
        "acceptance_requested",
        "defects_asserted",
        "deferral_agreed",
        "deferral_consented",
        "deferral_requested",
        "due_date",
        "invoice_received",
        "performance_delivered",
    ),
    "mahnung": (
        "reminder_sent",
        "reminder_delivered",
        "reminder_received",
        "delivery_evidence",
        "debtor_admission",
        "receipt_denied",
        "refusal_to_pay",
        "special_reasons",
        "consumer_notice_in_invoice",
        "invoice_payment_deadline",
    ),
    "vertretenmuessen": (
        "exoneration_pleaded",
        "exoneration_evidenced",
        "lack_of_funds_pleaded",
        "debtor_not_responsible",
    ),
    "schaden": (
        "claim_amount",
        "lawyer_instructed",
        "fee_note_item",
        "damage_item",
        "payment_received",
        "damage_unquantified",
        "creditor_input_vat",
    ),
}
# what a fact that does not count is, in words: "belegt" would read as the
# everyday word next to "… nicht festgestellt", so a fact one reviewer has
# accepted (four-eyes) is said to wait for the second review
STATUS_DE = {
    "asserted": "ist nur behauptet und zählt hier nicht als festgestellt",
    "disputed": "ist bestritten und zählt hier nicht als festgestellt",
    "evidenced": "ist von einem Prüfer angenommen, wartet auf Zweitprüfung "
    "und zählt bis dahin nicht",
}


def _named_en(facts: Sequence[FactRecord]) -> str:
    from ontology.domain.text import value_format
    from ontology.domain.vocabulary import fact_types_all

    types = fact_types_all()
    return "; ".join(
        f"{types[f.fact_type].label_en if f.fact_type in types else f.fact_type} "
        f"({value_format(f.value, 'en')})"
        for f in facts
    )


# the fact type whose established fact would supply a missing item
MISSING_TYPES = {
    "Zugangsnachweis": "reminder_delivered",
    "Abnahme": "acceptance_declared",
    "Vertragsschluss": "contract_concluded",
    "Mahnung": "reminder_sent",
    "Bezifferung des Schadens": "damage_item",
    "Zugang der Rechnung": "invoice_received",
    "Lieferung": "performance_delivered",
}


def _not_counting(
    req_key: str, facts: FactsAt, decisive: Sequence[FactRecord] = ()
) -> tuple[list[FactMention], list[str]]:
    """Facts of the requirement's types that do not count, named as such. A
    fact the rule itself relies on (a pleaded excuse counts as pleaded whatever
    its status) is a supporting fact, listed there and only there."""
    relied_on = {f.id for f in decisive}
    mentions, sentences = [], []
    for key in REQUIREMENT_TYPES.get(req_key, ()):
        for fact in facts.by_type.get(key, []):
            if fact.status in facts.statuses or fact.id in relied_on:
                continue
            mentions.append(
                FactMention(fact_id=fact.id, fact_type=key, status=fact.status)
            )
            sentences.append(
                f"{named([fact])} "
                f"{STATUS_DE.get(fact.status, 'zählt hier nicht als festgestellt')}."
            )
    return mentions, sentences


def _verdict(
    req: Requirement,
    finding: Finding,
    stichtag: date,
    waiting: tuple[int, ...],
    facts: FactsAt,
) -> RequirementVerdict:
    mentions, notes = _not_counting(req.key, facts, finding.decisive)
    # every decisive fact is named in the sentence: those the rule's own
    # wording did not name are listed before the conclusion
    said = " ".join(finding.sentence)
    unnamed = [f for f in dict.fromkeys(finding.decisive) if named([f]) not in said]
    if unnamed:
        notes = [f"Maßgeblich sind auch: {named(unnamed)}.", *notes]
    closing = {
        "satisfied": "Dieses Tatbestandsmerkmal ist erfüllt.",
        "not_satisfied": "Dieses Tatbestandsmerkmal ist nicht erfüllt.",
        "open": "Dieses Tatbestandsmerkmal bleibt offen.",
    }[finding.status]
    text = " ".join(
        [
            f"Zum Stichtag {date_format(stichtag, 'de')}:",
            *finding.sentence,
            *notes,
            closing,
        ]
    )
    status: VerdictStatus = finding.status
    # English: the verdict, its basis and what is missing (the reasoning in
    # full is German, the language of the law applied)
    words = {"satisfied": "satisfied", "open": "open", "not_satisfied": "not satisfied"}
    english = f"As of {date_format(stichtag, 'en')}: This element is {words[status]}."
    if finding.decisive:
        english += f" Decisive facts: {_named_en(finding.decisive)}."
    for mention in mentions:
        english += (
            f" A fact of type {mention.fact_type} is {mention.status} and does "
            "not count."
        )
    if finding.basis:
        english += f" Legal basis: {finding.basis}."
    if finding.rejected:
        english += f" Examined and rejected: {'; '.join(finding.rejected)}."
    if finding.missing:
        english += f" Missing: {finding.missing}."
    basis = (finding.basis,) if finding.basis else req.legal_basis[:1]
    return RequirementVerdict(
        key=req.key,
        label_de=req.label_de,
        label_en=req.label_en,
        status=status,
        sentence_de=text,
        sentence_en=english,
        supporting_fact_ids=tuple(dict.fromkeys(f.id for f in finding.decisive)),
        missing=(
            (
                MissingItem(
                    fact_type=MISSING_TYPES.get(
                        finding.item or "",
                        "exoneration_evidenced"
                        if req.key == "vertretenmuessen"
                        else req.key,
                    ),
                    label_de=finding.missing,
                    label_en=finding.missing,
                ),
            )
            if finding.missing
            else ()
        ),
        legal_basis=basis,
        alternatives=(),
        basis=finding.basis,
        rejected_bases=tuple(finding.rejected),
        due_date=finding.due,
        missing_phrase=finding.missing,
        awaiting_review=waiting,
        unestablished=tuple(mentions),
    )


def verzug_evaluate(
    *,
    facts: Sequence[FactRecord],
    context: ClaimContext,
    version: ClaimVersion,
) -> ClaimEvaluation:
    """Evaluate the Verzugsschaden claim as of the Stichtag (pure)."""
    strict = facts_at(facts, context, four_eyes=context.four_eyes)
    findings = _chain(strict, context)
    waiting: dict[str, tuple[int, ...]] = {}
    pending: set[int] = set()
    if context.four_eyes:
        lenient_facts = facts_at(facts, context, four_eyes=False)
        pending = {
            f.id
            for group in lenient_facts.by_type.values()
            for f in group
            if f.status == "evidenced"
        }
        lenient = _chain(lenient_facts, context)
        for key in findings:
            findings[key], waiting[key] = _awaiting_merge(
                findings[key], lenient[key], pending
            )
    schaden = _schaden(findings, strict)
    default_from = findings["mahnung"].default_from
    established = all(
        findings[k].status == "satisfied"
        for k in ("faelligkeit", "mahnung", "vertretenmuessen")
    )
    damage: DamageComputation | None = None
    if established and default_from is not None:
        damage, counted, sentence = verzug_damage(
            facts=strict, context=context, version=version, default_from=default_from
        )
        schaden.decisive = schaden.decisive + counted
        schaden.sentence.append(sentence)
    else:
        default_from = None
    findings["schaden"] = schaden
    statuses = [f.status for f in findings.values()]
    summary = (
        "begruendet"
        if all(s == "satisfied" for s in statuses)
        else "unbegruendet"
        if "not_satisfied" in statuses
        else "offen"
    )
    recoverable: int | None
    if summary == "unbegruendet":
        recoverable = 0
    elif damage is not None:
        recoverable = damage.total_cents
    else:
        recoverable = None
    stichtag = context.valid_at
    summary_de = (
        f"Zum Stichtag {date_format(stichtag, 'de')} ist der Anspruch auf "
        f"Verzugsschaden {SUMMARY_DE[summary]}."
    )
    if default_from is not None:
        summary_de += f" Verzug seit dem {date_format(default_from, 'de')}."
    if recoverable is not None:
        summary_de += f" Ersatzfähig: {_eur(recoverable)}."
    all_waiting = tuple(sorted(pending))
    if all_waiting:
        summary_de += " Es warten Tatsachen auf die Zweitprüfung."
    # the claim summary closes the damage requirement (reports print it)
    findings["schaden"].sentence.append(summary_de)
    verdicts = tuple(
        _verdict(req, findings[req.key], stichtag, waiting.get(req.key, ()), strict)
        for req in version.requirements
    )
    return ClaimEvaluation.for_version(
        version,
        stichtag,
        verdicts,
        damage=damage,
        summary=summary,
        summary_de=summary_de,
        summary_en=(
            f"As of {date_format(stichtag, 'en')} the claim is "
            f"{SUMMARY_EN[summary]}."
            + (
                f" Default since {date_format(default_from, 'en')}."
                if default_from
                else ""
            )
            + (
                f" Recoverable: {cents_format(recoverable, 'EUR', 'en')}."
                if recoverable is not None
                else ""
            )
        ),
        default_from=default_from,
        recoverable_cents=recoverable,
        four_eyes=context.four_eyes,
        awaiting_review=all_waiting,
    )
