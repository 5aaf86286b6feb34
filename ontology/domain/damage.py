"""Verzug start, damage items and default interest (§§ 286, 288 BGB)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from ontology.domain.case_facts import CaseFacts
from ontology.domain.claims import Alternative, ClaimVersion
from ontology.domain.errors import BaseRateUnknown
from ontology.domain.interest import InterestComputation, default_interest
from ontology.domain.results import (
    AlternativeVerdict,
    DamageComputation,
    DamageItem,
    VerdictStatus,
)
from ontology.domain.text import (
    cents_format,
    date_format,
    join,
    percent_points_format,
    value_format,
)
from ontology.domain.values import Amount


def default_start(
    alternatives: Sequence[tuple[Alternative, AlternativeVerdict]], case: CaseFacts
) -> tuple[date | None, list[tuple[str, str]]]:
    """First day of default from the satisfied alternatives: the day after the
    event that puts the debtor in default (§ 187 Abs. 1 BGB applied by analogy);
    for § 286 Abs. 3 BGB the 31st day after the later of due date and receipt
    of the invoice. Returns the earliest start and notes on starts that could
    not be computed."""
    starts: list[date] = []
    notes: list[tuple[str, str]] = []
    due = case.earliest("due_date")
    one = timedelta(days=1)
    for alt, verdict in alternatives:
        if verdict.status != "satisfied" or alt.default_start is None:
            continue
        kind = alt.default_start
        if kind == "reminder":
            sent = [f.date_value for f in case.effective_reminders() if f.date_value]
            first_sent = min(sent) if sent else None
            received = [
                d for d in case.dates("reminder_received")
                if first_sent is None or d >= first_sent
            ]  # fmt: skip
            if received:
                starts.append(received[0] + one)
            else:
                notes.append(
                    (
                        "Das Datum des Zugangs der Mahnung ist nicht festgestellt; "
                        "der Verzugsbeginn lässt sich daraus nicht berechnen.",
                        "The date the reminder was received is not established; "
                        "the start of default cannot be computed from it.",
                    )
                )
        elif kind == "calendar":
            calendar = case.earliest("calendar_payment_date")
            if calendar:
                starts.append(calendar + one)
        elif kind in ("event", "due_date") and due:
            starts.append(due + one)
        elif kind == "refusal":
            refusal = case.earliest("refusal_to_pay")
            if refusal:
                starts.append(max(refusal, due or refusal) + one)
        elif kind == "invoice_30_days":
            received_invoice = case.earliest("invoice_received")
            if due and received_invoice:
                starts.append(max(due, received_invoice) + timedelta(days=31))
    return (min(starts) if starts else None), notes


def damage_compute(
    version: ClaimVersion,
    case: CaseFacts,
    start: date | None,
    in_default: bool,
) -> tuple[DamageComputation, tuple[str, str], VerdictStatus | None]:
    """Sum confirmed damage items and compute interest. Returns the computation,
    a sentence about interest and, if interest decides it, the status of the
    interest alternative."""
    ctx = case.context
    items = [
        DamageItem(fact_id=f.id, cents=amount.cents, currency=amount.currency)
        for f in case.established("damage_item")
        if (amount := f.amount_value) is not None
    ]
    principals = sorted(
        {
            f.value
            for f in case.established("claim_amount")
            if isinstance(f.value, Amount)
        },
        key=lambda a: (a.currency, a.cents),
    )
    currency = (
        principals[0].currency
        if principals
        else (items[0].currency if items else "EUR")
    )
    items_cents = sum(i.cents for i in items if i.currency == currency)
    no_consumer = ctx.debtor_kind == "business" and ctx.creditor_kind == "business"
    points = (
        version.interest_points_no_consumer
        if no_consumer and version.interest_points_no_consumer is not None
        else version.interest_points
    )
    basis = (
        version.interest_basis_no_consumer
        if no_consumer and version.interest_points_no_consumer is not None
        else version.interest_basis
    )
    interest: InterestComputation | None = None
    notes_de: list[str] = []
    notes_en: list[str] = []
    sentence = ("", "")
    status: VerdictStatus | None = None
    flat_fee = None
    foreign = [i for i in items if i.currency != currency]
    if foreign:
        listed_de = join(
            [cents_format(i.cents, i.currency, "de") for i in foreign], "de"
        )
        listed_en = join(
            [cents_format(i.cents, i.currency, "en") for i in foreign], "en"
        )
        notes_de.append(
            f"Schadenspositionen in anderer Währung ({listed_de}) sind in der Summe "
            "nicht enthalten."
        )
        notes_en.append(
            f"Items of damage in another currency ({listed_en}) are not in the total."
        )
    payments = [f for f in case.established("payment_received")]
    if payments:
        values_de = join([value_format(f.value, "de") for f in payments], "de")
        values_en = join([value_format(f.value, "en") for f in payments], "en")
        notes_de.append(
            f"Festgestellte Zahlungen des Schuldners ({values_de}) sind bei der "
            "Zinsberechnung nicht abgezogen, weil ihr Zahlungsdatum nicht erfasst ist."
        )
        notes_en.append(
            f"Established payments by the debtor ({values_en}) are not deducted in "
            "the interest computation because their dates are not recorded."
        )
    if not principals:
        pass
    elif len(principals) > 1:
        status = "open"
        sentence = (
            "Es sind mehrere voneinander abweichende Hauptforderungen festgestellt; "
            "Verzugszinsen werden erst nach Klärung berechnet.",
            "Several differing principal claims are established; interest is "
            "computed once this is resolved.",
        )
    elif not in_default:
        status = "not_satisfied"
        sentence = (
            "Da der Schuldner den Umstand nicht zu vertreten hat, ist er nicht in "
            "Verzug; Verzugszinsen fallen nicht an.",
            "As the debtor is not responsible, he is not in default; no default "
            "interest accrues.",
        )
    elif start is None or points is None:
        status = "open"
        sentence = (
            "Verzugszinsen setzen einen festgestellten Verzugsbeginn voraus; er "
            "steht noch nicht fest.",
            "Default interest requires an established start of default; it is not "
            "yet established.",
        )
    else:
        principal = principals[0]
        rate_de = f"{points} Prozentpunkten über dem Basiszinssatz ({basis})"
        rate_en = f"{points} percentage points above the base rate ({basis})"
        consumer = "consumer" in (ctx.debtor_kind, ctx.creditor_kind)
        if no_consumer:
            why_de = why_en = ""
        elif consumer:
            why_de = (
                " Weil ein Verbraucher beteiligt ist, gilt nicht der höhere Satz "
                "des § 288 Abs. 2 BGB."
            )
            why_en = (
                " As a consumer is involved, the higher rate of § 288 Abs. 2 BGB does "
                "not apply."
            )
        else:
            why_de = (
                " Der höhere Satz des § 288 Abs. 2 BGB setzt voraus, dass kein "
                "Verbraucher beteiligt ist; das ist nicht festgestellt."
            )
            why_en = (
                " The higher rate of § 288 Abs. 2 BGB requires that no consumer is "
                "involved; that is not established."
            )
        if ctx.interest_until is None:
            sentence = (
                f"Verzugszinsen laufen ab dem {date_format(start, 'de')} mit "
                f"{rate_de}; ein Stichtag für ihre Berechnung ist nicht angegeben."
                + why_de,
                f"Default interest runs from {date_format(start, 'en')} at "
                f"{rate_en}; no end date for computing it was given." + why_en,
            )
        elif ctx.interest_until < start:
            sentence = (
                f"Der Stichtag {date_format(ctx.interest_until, 'de')} liegt vor dem "
                f"Verzugsbeginn am {date_format(start, 'de')}; Zinsen sind bis dahin "
                "nicht angefallen.",
                f"The end date {date_format(ctx.interest_until, 'en')} precedes the "
                f"start of default on {date_format(start, 'en')}; no interest has "
                "accrued by then.",
            )
        else:
            try:
                interest = default_interest(
                    principal_cents=principal.cents,
                    currency=principal.currency,
                    start=start,
                    end=ctx.interest_until,
                    points=points,
                )
            except BaseRateUnknown as exc:
                status = "satisfied"
                sentence = (
                    f"Verzugszinsen laufen ab dem {date_format(start, 'de')} mit "
                    f"{rate_de}; ihr Betrag ist nicht berechnet: Für den "
                    f"{date_format(exc.day, 'de')} ist noch kein Basiszinssatz "
                    "hinterlegt.",
                    f"Default interest runs from {date_format(start, 'en')} at "
                    f"{rate_en}; the amount is not computed: no Basiszinssatz is "
                    f"recorded yet for {date_format(exc.day, 'en')}.",
                )
            else:
                periods_de = "; ".join(
                    f"{date_format(p.start, 'de')}–{date_format(p.end, 'de')}: "
                    f"{p.days} Tage zu "
                    f"{percent_points_format(float(p.annual_rate), 'de')}"
                    for p in interest.periods
                )
                periods_en = "; ".join(
                    f"{date_format(p.start, 'en')}–{date_format(p.end, 'en')}: "
                    f"{p.days} days at "
                    f"{percent_points_format(float(p.annual_rate), 'en')}"
                    for p in interest.periods
                )
                amount_de = cents_format(
                    interest.interest_cents, principal.currency, "de"
                )
                amount_en = cents_format(
                    interest.interest_cents, principal.currency, "en"
                )
                sentence = (
                    f"Verzugszinsen auf {value_format(principal, 'de')} vom "
                    f"{date_format(start, 'de')} bis zum "
                    f"{date_format(ctx.interest_until, 'de')} mit {rate_de}: "
                    f"{amount_de} ({periods_de}). {interest.method_de}" + why_de,
                    f"Default interest on {value_format(principal, 'en')} from "
                    f"{date_format(start, 'en')} to "
                    f"{date_format(ctx.interest_until, 'en')} at {rate_en}: "
                    f"{amount_en} ({periods_en}). {interest.method_en}" + why_en,
                )
        if (
            version.flat_fee_cents is not None
            and ctx.debtor_kind == "business"
            and version.flat_fee_basis
        ):
            flat_fee = version.flat_fee_cents
            fee_de = cents_format(flat_fee, "EUR", "de")
            fee_en = cents_format(flat_fee, "EUR", "en")
            notes_de.append(
                f"Daneben steht dem Gläubiger eine Pauschale von {fee_de} zu "
                f"({version.flat_fee_basis}); sie ist auf Kosten der "
                "Rechtsverfolgung anzurechnen (§ 288 Abs. 5 S. 3 BGB) und daher "
                "nicht in der Summe enthalten."
            )
            notes_en.append(
                f"The creditor is also entitled to a flat fee of {fee_en} "
                f"({version.flat_fee_basis}); it counts against legal costs "
                "(§ 288 Abs. 5 S. 3 BGB) and is therefore not in the total."
            )
    interest_cents = interest.interest_cents if interest is not None else 0
    computation = DamageComputation(
        currency=currency,
        items=tuple(items),
        items_cents=items_cents,
        interest=interest,
        interest_basis=basis if interest is not None else None,
        flat_fee_cents=flat_fee,
        flat_fee_basis=version.flat_fee_basis if flat_fee is not None else None,
        total_cents=items_cents + interest_cents,
        default_start=start,
        notes_de=tuple(notes_de),
        notes_en=tuple(notes_en),
    )
    return computation, sentence, status


def damage_total_sentence(damage: DamageComputation) -> tuple[str, str]:
    if damage.interest is None or not damage.items:
        return "", ""
    total_de = cents_format(damage.total_cents, damage.currency, "de")
    total_en = cents_format(damage.total_cents, damage.currency, "en")
    return (
        f"Schadenspositionen und Verzugszinsen ergeben zusammen {total_de}.",
        f"Items of damage and default interest total {total_en}.",
    )
