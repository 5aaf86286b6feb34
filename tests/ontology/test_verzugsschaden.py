"""Verzugsschaden (§§ 280 Abs. 1 und 2, 286 BGB): each requirement and each
alternative satisfied, open and not satisfied."""

from __future__ import annotations

from datetime import date

import pytest

from ontology.domain.evaluate import claim_evaluate
from ontology.domain.facts import FactRecord
from ontology.domain.results import (
    AlternativeVerdict,
    ClaimEvaluation,
    missing_requirements,
)

from .helpers import ctx, eur, fact


def evaluate(facts: list[FactRecord], **kw: object) -> ClaimEvaluation:
    return claim_evaluate(facts=facts, context=ctx(**kw))


def alternative(ev: ClaimEvaluation, requirement: str, key: str) -> AlternativeVerdict:
    return next(a for a in ev.requirement(requirement).alternatives if a.key == key)


# --- Fälligkeit -------------------------------------------------------------------


def test_confirmed_due_date_satisfies_faelligkeit_and_is_cited_as_support() -> None:
    due = fact("due_date", "2024-03-15")
    verdict = evaluate([due]).requirement("faelligkeit")
    assert verdict.status == "satisfied"
    assert verdict.supporting_fact_ids == (due.id,)
    assert "15.03.2024" in verdict.sentence_de
    assert "15 March 2024" in verdict.sentence_en
    assert verdict.legal_basis == ("§ 271 Abs. 1 BGB",)


def test_without_due_date_faelligkeit_is_open_and_names_what_is_missing() -> None:
    verdict = evaluate([]).requirement("faelligkeit")
    assert verdict.status == "open"
    assert "due_date" in [m.fact_type for m in verdict.missing]
    assert "fehlt bisher ein bestätigter Fälligkeitszeitpunkt" in verdict.sentence_de


def test_calendar_date_satisfies_faelligkeit_as_alternative() -> None:
    verdict = evaluate([fact("calendar_payment_date", "2024-04-26")]).requirement(
        "faelligkeit"
    )
    assert verdict.status == "satisfied"
    assert verdict.alternatives[1].status == "satisfied"


# --- Mahnung --------------------------------------------------------------------------


def test_reminder_after_due_date_with_receipt_puts_debtor_in_default() -> None:
    facts = [
        fact("due_date", "2024-03-15"),
        reminder := fact("reminder_sent", "2024-04-02"),
        received := fact("reminder_received", "2024-04-04"),
    ]
    verdict = evaluate(facts).requirement("mahnung")
    assert verdict.status == "satisfied"
    assert reminder.id in verdict.supporting_fact_ids
    assert received.id in verdict.supporting_fact_ids
    assert "seit dem 05.04.2024 in Verzug" in verdict.sentence_de


def test_reminder_without_delivery_evidence_stays_open_with_the_memo_sentence() -> None:
    facts = [fact("due_date", "2024-03-15"), fact("reminder_sent", "2024-04-02")]
    verdict = evaluate(facts).requirement("mahnung")
    assert verdict.status == "open"
    assert alternative(evaluate(facts), "mahnung", "reminder").status == "open"
    assert verdict.sentence_de.startswith(
        "Zu „Mahnung nach Eintritt der Fälligkeit, dem Schuldner zugegangen“: "
        "Für die Mahnung wurde ein Schreiben vom 02.04.2024 gefunden."
    ) or verdict.sentence_de.startswith(
        "Für die Mahnung wurde ein Schreiben vom 02.04.2024 gefunden."
    )
    assert "In der Akte fehlt bisher ein bestätigter Nachweis des Zugangs." in (
        verdict.sentence_de
    )
    assert verdict.sentence_de.endswith(
        "Ohne diesen Nachweis bleibt dieses Tatbestandsmerkmal offen."
    )
    missing = {m.fact_type for m in verdict.missing}
    assert {"reminder_received", "delivery_evidence"} <= missing


@pytest.mark.parametrize("kind", ["Einwurf-Einschreiben", "Rückschein", "rückschein "])
def test_delivery_evidence_subclass_proves_receipt(kind: str) -> None:
    facts = [
        fact("due_date", "2024-03-15"),
        fact("reminder_sent", "2024-04-02"),
        proof := fact("delivery_evidence", kind),
    ]
    ev = evaluate(facts)
    assert alternative(ev, "mahnung", "reminder").status == "satisfied"
    assert proof.id in ev.requirement("mahnung").supporting_fact_ids


def test_delivery_evidence_that_is_no_recognised_kind_does_not_prove_receipt() -> None:
    facts = [
        fact("due_date", "2024-03-15"),
        fact("reminder_sent", "2024-04-02"),
        fact("delivery_evidence", "Fax-Sendebericht"),
    ]
    assert alternative(evaluate(facts), "mahnung", "reminder").status == "open"


def test_delivery_evidence_without_receipt_date_gives_no_start_of_default() -> None:
    facts = [
        fact("due_date", "2024-03-15"),
        fact("reminder_sent", "2024-04-02"),
        fact("delivery_evidence", "Rückschein"),
        fact("claim_amount", eur(100_000)),
    ]
    ev = evaluate(facts, interest_until=date(2024, 6, 30))
    assert ev.requirement("mahnung").status == "satisfied"
    assert "Datum des Zugangs der Mahnung ist nicht festgestellt" in (
        ev.requirement("mahnung").sentence_de
    )
    assert ev.damage is not None and ev.damage.interest is None
    assert alternative(ev, "schaden", "interest").status == "open"


def test_reminder_before_due_date_does_not_count() -> None:
    facts = [
        fact("due_date", "2024-03-15"),
        fact("reminder_sent", "2024-03-01"),
        fact("reminder_received", "2024-03-02"),
    ]
    ev = evaluate(facts)
    reminder = alternative(ev, "mahnung", "reminder")
    assert reminder.status == "not_satisfied"
    assert "vor Eintritt der Fälligkeit am 15.03.2024" in reminder.sentence_de
    assert "01.03.2024" in reminder.sentence_de
    # once ruled out, what else the reminder lacks is not listed
    assert "Nachweis des Zugangs" not in reminder.sentence_de
    # other grounds (§ 286 Abs. 2, 3 BGB) could still be shown: open, not closed
    assert ev.requirement("mahnung").status == "open"


def test_later_reminder_after_due_date_counts_even_if_an_earlier_was_too_early() -> (
    None
):
    early = fact("reminder_sent", "2024-03-01")
    late = fact("reminder_sent", "2024-04-02")
    facts = [
        fact("due_date", "2024-03-15"),
        early,
        late,
        fact("reminder_received", "2024-04-03"),
    ]
    verdict = evaluate(facts).requirement("mahnung")
    assert verdict.status == "satisfied"
    assert late.id in verdict.supporting_fact_ids
    assert early.id not in verdict.supporting_fact_ids
    assert "seit dem 04.04.2024" in verdict.sentence_de


def test_reminder_without_confirmed_due_date_is_open() -> None:
    facts = [
        fact("reminder_sent", "2024-04-02"),
        fact("reminder_received", "2024-04-03"),
    ]
    reminder = alternative(evaluate(facts), "mahnung", "reminder")
    assert reminder.status == "open"
    assert "ohne bestätigten Fälligkeitszeitpunkt nicht prüfen" in reminder.sentence_de


def test_disputed_reminder_does_not_satisfy() -> None:
    facts = [
        fact("due_date", "2024-03-15"),
        fact("reminder_sent", "2024-04-02", status="disputed"),
        fact("reminder_received", "2024-04-03"),
    ]
    verdict = evaluate(facts).requirement("mahnung")
    assert verdict.status == "open"
    assert "ist bestritten" in verdict.sentence_de
    assert [m.status for m in verdict.unestablished] == ["disputed"]


def test_asserted_receipt_does_not_satisfy_and_is_shown_as_asserted() -> None:
    facts = [
        fact("due_date", "2024-03-15"),
        fact("reminder_sent", "2024-04-02"),
        asserted := fact("reminder_received", "2024-04-03", status="asserted"),
    ]
    verdict = evaluate(facts).requirement("mahnung")
    assert verdict.status == "open"
    assert "nur behauptet" in verdict.sentence_de
    assert "only asserted" in verdict.sentence_en
    assert asserted.id not in verdict.supporting_fact_ids


def test_evidenced_fact_satisfies_like_a_confirmed_one() -> None:
    facts = [
        fact("due_date", "2024-03-15", status="evidenced"),
        fact("reminder_sent", "2024-04-02", status="evidenced"),
        fact("reminder_received", "2024-04-03", status="evidenced"),
    ]
    assert evaluate(facts).requirement("mahnung").status == "satisfied"


# --- Entbehrlichkeit (§ 286 Abs. 2, 3 BGB) ------------------------------------------


def test_calendar_date_makes_reminder_unnecessary() -> None:
    ev = evaluate([fact("calendar_payment_date", "2024-04-26")])
    assert alternative(ev, "mahnung", "calendar_date").status == "satisfied"
    assert "seit dem 27.04.2024 in Verzug" in ev.requirement("mahnung").sentence_de


def test_period_from_event_needs_the_computed_due_date() -> None:
    event = fact("payment_period_from_event", "14 Tage nach Lieferung")
    assert alternative(evaluate([event]), "mahnung", "period_from_event").status == (
        "open"
    )
    ev = evaluate([event, fact("due_date", "2024-05-14")])
    assert alternative(ev, "mahnung", "period_from_event").status == "satisfied"
    assert "seit dem 15.05.2024" in ev.requirement("mahnung").sentence_de


def test_refusal_to_pay_makes_reminder_unnecessary() -> None:
    facts = [
        fact("due_date", "2024-03-15"),
        refusal := fact("refusal_to_pay", "2024-03-20"),
    ]
    verdict = evaluate(facts).requirement("mahnung")
    assert verdict.status == "satisfied"
    assert refusal.id in verdict.supporting_fact_ids
    assert (
        "§ 286 Abs. 2 Nr. 3 BGB"
        in alternative(evaluate(facts), "mahnung", "refusal").legal_basis
    )
    assert "ernsthaft und endgültig verweigert" in verdict.sentence_de
    assert "seit dem 21.03.2024 in Verzug" in verdict.sentence_de


def test_asserted_refusal_does_not_make_reminder_unnecessary() -> None:
    facts = [fact("refusal_to_pay", "2024-03-20", status="asserted")]
    ev = evaluate(facts)
    assert alternative(ev, "mahnung", "refusal").status == "open"
    assert ev.requirement("mahnung").status == "open"


def test_special_reasons_make_reminder_unnecessary() -> None:
    facts = [
        fact("due_date", "2024-03-15"),
        fact("special_reasons", "Schuldner hat Zahlung zum Stichtag zugesagt"),
    ]
    assert alternative(evaluate(facts), "mahnung", "special_reasons").status == (
        "satisfied"
    )


def _invoice_case(**extra: object) -> list[FactRecord]:
    return [
        fact("claim_amount", eur(250_000)),
        fact("due_date", "2024-03-01"),
        fact("invoice_received", "2024-03-04"),
    ]


def test_business_debtor_is_in_default_30_days_after_due_date_and_invoice() -> None:
    ev = evaluate(_invoice_case())
    assert alternative(ev, "mahnung", "invoice_30_days").status == "satisfied"
    # later of due date (01.03.) and receipt (04.03.) + 30 days -> default from 04.04.
    assert "seit dem 04.04.2024 in Verzug" in ev.requirement("mahnung").sentence_de


def test_consumer_invoice_without_notice_does_not_trigger_default() -> None:
    ev = evaluate(_invoice_case(), debtor_kind="consumer", creditor_kind="business")
    alt = alternative(ev, "mahnung", "invoice_30_days")
    assert alt.status == "open"
    assert "consumer_notice_in_invoice" in [m.fact_type for m in alt.missing]
    assert "Der Schuldner ist Verbraucher." in alt.sentence_de
    assert "Hinweis auf die Verzugsfolgen" in alt.sentence_de


def test_consumer_invoice_with_the_notice_triggers_default() -> None:
    facts = [*_invoice_case(), notice := fact("consumer_notice_in_invoice", True)]
    ev = evaluate(facts, debtor_kind="consumer", creditor_kind="business")
    alt = alternative(ev, "mahnung", "invoice_30_days")
    assert alt.status == "satisfied"
    assert notice.id in alt.supporting_fact_ids


def test_consumer_invoice_confirmed_without_notice_is_not_satisfied() -> None:
    facts = [*_invoice_case(), fact("consumer_notice_in_invoice", False)]
    ev = evaluate(facts, debtor_kind="consumer", creditor_kind="business")
    alt = alternative(ev, "mahnung", "invoice_30_days")
    assert alt.status == "not_satisfied"
    assert "keinen Hinweis auf die Verzugsfolgen" in alt.sentence_de


def test_unknown_debtor_kind_needs_the_notice_too() -> None:
    ev = evaluate(_invoice_case(), debtor_kind=None)
    alt = alternative(ev, "mahnung", "invoice_30_days")
    assert alt.status == "open"
    assert "Dass der Schuldner Unternehmer ist, ist nicht erfasst." in alt.sentence_de


# --- Vertretenmüssen (§ 286 Abs. 4 BGB) ---------------------------------------------


def test_responsibility_is_presumed_without_any_fact() -> None:
    verdict = evaluate([]).requirement("vertretenmuessen")
    assert verdict.status == "satisfied"
    assert "wird vermutet" in verdict.sentence_de


def test_confirmed_excuse_rebuts_the_presumption_and_stops_interest() -> None:
    facts = [
        fact("due_date", "2024-03-15"),
        fact("calendar_payment_date", "2024-03-15"),
        fact("claim_amount", eur(100_000)),
        excuse := fact("debtor_not_responsible", "Bank-Ausfall am Zahltag"),
    ]
    ev = evaluate(facts, interest_until=date(2024, 6, 30))
    verdict = ev.requirement("vertretenmuessen")
    assert verdict.status == "not_satisfied"
    assert excuse.id in verdict.supporting_fact_ids
    assert "Vermutung des § 286 Abs. 4 BGB ist damit widerlegt" in verdict.sentence_de
    assert alternative(ev, "schaden", "interest").status == "not_satisfied"
    assert ev.damage is not None and ev.damage.interest is None


@pytest.mark.parametrize("status", ["asserted", "disputed"])
def test_unestablished_excuse_leaves_the_presumption_standing(status: str) -> None:
    facts = [fact("debtor_not_responsible", "Krankheit", status=status)]
    verdict = evaluate(facts).requirement("vertretenmuessen")
    assert verdict.status == "satisfied"
    assert [m.status for m in verdict.unestablished] == [status]


# --- Schaden ------------------------------------------------------------------------


def test_damage_items_are_summed_in_cents() -> None:
    items = [
        fact("damage_item", eur(15_470)),
        fact("damage_item", eur(1)),
        fact("damage_item", eur(99_999)),
        fact("damage_item", eur(5_000), status="asserted"),
    ]
    ev = evaluate(items)
    assert ev.damage is not None
    assert ev.damage.items_cents == 15_470 + 1 + 99_999
    assert "zusammen 1.154,70 €" in ev.requirement("schaden").sentence_de
    assert ev.requirement("schaden").status == "satisfied"


def test_without_damage_and_principal_schaden_is_open() -> None:
    verdict = evaluate([]).requirement("schaden")
    assert verdict.status == "open"
    assert {"damage_item", "claim_amount"} <= {m.fact_type for m in verdict.missing}


def test_interest_is_computed_from_the_start_of_default_at_nine_points() -> None:
    facts = [
        fact("due_date", "2024-03-15"),
        fact("reminder_sent", "2024-04-02"),
        fact("reminder_received", "2024-04-04"),
        fact("claim_amount", eur(1_000_000)),
        fact("damage_item", eur(15_470)),
    ]
    ev = evaluate(facts, interest_until=date(2024, 8, 31))
    assert ev.damage is not None and ev.damage.interest is not None
    interest = ev.damage.interest
    assert (interest.start, interest.points) == (date(2024, 4, 5), 9)
    # 10,000 EUR: 87 days at 12.62 % + 62 days at 12.37 %, act/365
    expected = round(1_000_000 * (0.1262 * 87 + 0.1237 * 62) / 365)
    assert interest.interest_cents == expected
    assert ev.damage.total_cents == expected + 15_470
    assert ev.damage.interest_basis == "§ 288 Abs. 2 BGB"
    assert alternative(ev, "schaden", "interest").status == "satisfied"


def test_consumer_involved_means_five_points() -> None:
    facts = [
        fact("calendar_payment_date", "2024-04-26"),
        fact("claim_amount", eur(100_000)),
    ]
    ev = evaluate(
        facts,
        debtor_kind="consumer",
        creditor_kind="business",
        interest_until=date(2024, 5, 26),
    )
    assert ev.damage is not None and ev.damage.interest is not None
    assert ev.damage.interest.points == 5
    assert ev.damage.interest_basis == "§ 288 Abs. 1 S. 2 BGB"
    assert ev.damage.flat_fee_cents is None  # § 288 Abs. 5 BGB: not against consumers


def test_business_debtor_gets_flat_fee_listed_outside_the_total() -> None:
    facts = [
        fact("calendar_payment_date", "2024-04-26"),
        fact("claim_amount", eur(100_000)),
    ]
    ev = evaluate(facts, interest_until=date(2024, 5, 26))
    assert ev.damage is not None and ev.damage.interest is not None
    assert ev.damage.flat_fee_cents == 4000
    assert ev.damage.total_cents == ev.damage.interest.interest_cents
    assert "Pauschale von 40,00 €" in ev.requirement("schaden").sentence_de


def test_interest_without_start_of_default_is_open() -> None:
    ev = evaluate([fact("claim_amount", eur(100_000))], interest_until=date(2024, 5, 1))
    interest = alternative(ev, "schaden", "interest")
    assert interest.status == "open"
    assert "Verzugsbeginn voraus" in interest.sentence_de


def test_interest_beyond_the_base_rate_table_is_not_extrapolated() -> None:
    facts = [
        fact("calendar_payment_date", "2026-05-01"),
        fact("claim_amount", eur(100_000)),
    ]
    ev = evaluate(facts, valid_at=date(2025, 1, 1), interest_until=date(2026, 9, 30))
    assert ev.damage is not None and ev.damage.interest is None
    verdict = alternative(ev, "schaden", "interest")
    assert "Für den 01.07.2026 ist noch kein Basiszinssatz" in verdict.sentence_de
    assert "No Basiszinssatz" not in verdict.sentence_de
    assert "no Basiszinssatz is recorded yet for" in verdict.sentence_en


# --- Whole claim ----------------------------------------------------------------------


def test_missing_requirements_lists_only_open_and_unmet_items() -> None:
    facts = [fact("due_date", "2024-03-15"), fact("reminder_sent", "2024-04-02")]
    missing = missing_requirements(evaluate(facts))
    assert [m.requirement for m in missing] == ["mahnung", "schaden"]
    assert "reminder_received" in missing[0].missing_fact_types


def test_a_complete_case_reads_as_satisfied_requirements() -> None:
    facts = [
        fact("due_date", "2024-03-15"),
        fact("reminder_sent", "2024-04-02"),
        fact("reminder_received", "2024-04-04"),
        fact("delivery_evidence", "Einwurf-Einschreiben"),
        fact("claim_amount", eur(1_000_000)),
        fact("damage_item", eur(15_470)),
    ]
    ev = evaluate(facts, interest_until=date(2024, 8, 31))
    assert [r.status for r in ev.requirements] == ["satisfied"] * 4
    assert missing_requirements(ev) == []


def test_a_curator_subtype_of_damage_item_counts_as_damage() -> None:
    from rdflib import Graph

    from ontology.domain.vocabulary import fact_types_from_graph
    from ontology.vocabulary import vocabulary_for

    extension = Graph().parse(
        data="""
        @prefix bc: <https://belegt.example/ns/core#> .
        @prefix bft: <https://belegt.example/ns/facttype#> .
        @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
        bc:AmountValue a bc:ValueKind ; bc:key "amount" .
        <https://belegt.example/ns/ext#ext_inkassokosten> a bc:FactType ;
            rdfs:subClassOf bft:damage_item ;
            bc:key "ext_inkassokosten" ; bc:valueKind bc:AmountValue ;
            bc:claimType "verzugsschaden" ;
            rdfs:label "Inkassokosten"@de, "Debt collection costs"@en .
        """,
        format="turtle",
    )
    term = fact_types_from_graph(extension)["ext_inkassokosten"]
    assert term.broader == frozenset({"damage_item"})
    item = fact("ext_inkassokosten", eur(12_000))
    ev = claim_evaluate(facts=[item], context=ctx(), vocabulary=vocabulary_for([term]))
    assert ev.requirement("schaden").status == "satisfied"
    assert ev.damage is not None and ev.damage.items_cents == 12_000
    assert item.id in ev.requirement("schaden").supporting_fact_ids
    # without the firm's extension the term is no damage item
    assert evaluate([item]).requirement("schaden").status != "satisfied"


def test_damage_in_another_currency_is_named_not_summed() -> None:
    facts = [
        fact("damage_item", eur(10_000)),
        fact("damage_item", {"cents": 5_000, "currency": "USD"}),
    ]
    ev = evaluate(facts)
    assert ev.damage is not None
    assert (ev.damage.currency, ev.damage.items_cents) == ("EUR", 10_000)
    assert "anderer Währung (50,00 USD)" in ev.requirement("schaden").sentence_de
