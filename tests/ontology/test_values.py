"""The one fact-value schema (``ontology.domain.values``): built-in kinds,
record kinds and enumerations declared in Turtle, the load-time check, the two
modes (admit / read), and the "one rule, one place" scans for value validation
and the established statuses."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest
from rdflib import Graph

from agents.domain.prompts import extraction_episode
from agents.domain.tools import TOOL_SPECS
from ontology.domain.facts import (
    FACT_STATUSES,
    established_statuses,
    fact_status_established,
)
from ontology.domain.values import (
    CURRENCIES,
    Amount,
    CaseParties,
    FactValueInvalid,
    Period,
    Rate,
    RecordValue,
    value_schema,
)
from ontology.domain.vocabulary import fact_type, fact_types_from_graph

ROOT = Path(__file__).resolve().parents[2]
PREFIXES = """
@prefix bc: <https://belegt.example/ns/core#> .
@prefix bft: <https://belegt.example/ns/facttype#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
"""
REMINDER = (
    PREFIXES
    + """
bc:ReminderLetterValue a bc:ValueKind ; bc:key "reminder_letter_value" ;
    bc:fields (
        [ a bc:ValueField ; bc:key "date" ; bc:valueKind bc:DateValue ;
          rdfs:label "Datum"@de ]
        [ a bc:ValueField ; bc:key "deadline" ; bc:valueKind bc:DateValue ;
          bc:optional true ; rdfs:label "Zahlungsfrist"@de ]
        [ a bc:ValueField ; bc:key "dispatch" ; bc:valueKind bc:TextValue ;
          bc:optional true ; bc:choices (
            [ bc:valueLabel "Einwurf-Einschreiben" ;
              rdfs:label "Einwurf-Einschreiben"@de, "registered mail"@en ]
            bc:Rueckschein ) ]
        [ a bc:ValueField ; bc:key "fee" ; bc:valueKind bc:AmountValue ;
          bc:optional true ]
    ) .
bc:Rueckschein bc:valueLabel "Rückschein" ;
    rdfs:label "Rückschein"@de, "return receipt"@en .
bft:reminder_letter a bc:FactType ; bc:key "reminder_letter" ;
    bc:valueKind bc:ReminderLetterValue ; bc:claimType "verzugsschaden" ;
    rdfs:label "Mahnung"@de, "Reminder"@en .
"""
)


def _types(turtle: str) -> dict[str, Any]:
    return fact_types_from_graph(Graph().parse(data=turtle, format="turtle"))


def test_a_record_kind_declared_in_turtle_gets_typed_fields() -> None:
    info = _types(REMINDER)["reminder_letter"]
    assert info.value_kind == "reminder_letter_value"
    assert [f.key for f in info.record_fields] == [
        "date",
        "deadline",
        "dispatch",
        "fee",
    ]
    schema = info.value_schema
    value = {
        "date": "2026-04-01",
        "deadline": "2026-04-15",
        "dispatch": "Rückschein",
        "fee": {"cents": 500, "currency": "EUR"},
    }
    assert schema.admit(value) == value
    assert schema.admit({"date": "2026-04-01"}) == {"date": "2026-04-01"}
    typed = schema.read(value)
    assert isinstance(typed, RecordValue)
    assert typed.deadline == dt.date(2026, 4, 15)  # type: ignore[attr-defined]
    assert typed.fee == Amount(cents=500, currency="EUR")  # type: ignore[attr-defined]
    assert schema.display(value).startswith("Datum: 01.04.2026; Zahlungsfrist: 15.04")


@pytest.mark.parametrize(
    ("value", "field"),
    [
        ({"deadline": "2026-04-15"}, "date"),
        ({"date": "2026-04-01", "dispatch": "Fax"}, "dispatch"),
        ({"date": "2026-04-01", "fee": {"cents": 5, "currency": "XYZ"}}, "fee"),
        ({"date": "2026-04-01", "channel": "Post"}, "channel"),
        ({"date": {"date": "2026-04-01"}}, "date"),
    ],
)
def test_a_record_value_is_refused_naming_the_field(value: Any, field: str) -> None:
    schema = _types(REMINDER)["reminder_letter"].value_schema
    with pytest.raises(FactValueInvalid) as error:
        schema.admit(value)
    assert error.value.field == field


@pytest.mark.parametrize(
    ("turtle", "message"),
    [
        (
            'bft:x a bc:FactType ; bc:key "x" ; bc:valueKind bc:NoSuchValue .',
            "known bc:valueKind",
        ),
        (
            'bc:ColourValue a bc:ValueKind ; bc:key "colour" .\n'
            'bft:x a bc:FactType ; bc:key "x" ; bc:valueKind bc:ColourValue .',
            "neither a built-in kind",
        ),
        (
            'bc:R a bc:ValueKind ; bc:key "r" ; bc:fields ( [ bc:key "a" ; '
            "bc:valueKind bc:ReminderValue ] ) .\n"
            "bc:ReminderLetterValue a bc:ValueKind ; "
            'bc:key "reminder_letter_value" ; bc:fields '
            '( [ bc:key "d" ; bc:valueKind bc:DateValue ] ) .',
            "nested kind",
        ),
        (
            'bft:x a bc:FactType ; bc:key "x" ; bc:valueKind bc:TextValue ; '
            "bc:choices ( bc:SomethingWithoutLabel ) .",
            "no bc:valueLabel",
        ),
        (
            'bft:x a bc:FactType ; bc:key "x" ; bc:valueKind bc:DateValue ; '
            'bc:choices ( [ bc:valueLabel "a" ; rdfs:label "A"@de, "A"@en ] ) .',
            "only text",
        ),
        (
            'bft:x a bc:FactType ; bc:key "x" ; bc:valueKind bc:TextValue ; '
            'bc:choices ( "post" ) .',
            "needs a node with bc:valueLabel",
        ),
        (
            'bc:R a bc:ValueKind ; bc:key "r" ; bc:fields ( [ bc:key "how" ; '
            "bc:valueKind bc:TextValue ; bc:choices ( [ bc:valueLabel "
            '"post" ; rdfs:label "Brief"@de ] ) ] ) .',
            "needs rdfs:label in German and English",
        ),
    ],
)
def test_a_vocabulary_with_an_unbuildable_kind_fails_when_it_loads(
    turtle: str, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        _types(PREFIXES + turtle)


def test_the_versioned_vocabulary_declares_delivery_evidence_as_an_enumeration() -> (
    None
):
    info = fact_type("delivery_evidence")
    assert info.value_kind == "delivery_evidence"  # a record {"kind": ...}
    (kind,) = info.record_fields
    assert kind.choices == (
        "auslieferungsbeleg",
        "rueckschein",
        "sendungsverfolgung_zugestellt",
        "sendungsverfolgung_ohne_zustellung",
        "einlieferungsbeleg",
        "ablichtung_gläubiger",
        "lieferschein_ware",
        "behauptung_gläubiger",
    )


@pytest.mark.parametrize(
    ("key", "old", "new"),
    [
        ("payment_received", {"cents": 5000, "currency": "EUR"}, None),
        ("damage_item", {"cents": 700, "currency": "EUR"}, None),
        ("reminder_sent", {"date": "2025-03-01"}, None),
        ("contract_concluded", {"date": "2025-03-01"}, None),
        ("invoice_issued", {"date": "2025-03-01"}, None),
        ("delivery_evidence", {"text": "Rückschein"}, {"kind": "rueckschein"}),
        ("delivery_evidence", {"text": "Einwurf-Einschreiben"}, None),
        ("refusal_to_pay", {"date": "2025-03-01"}, None),
    ],
)
def test_a_value_stored_before_its_key_became_a_record_still_reads(
    key: str, old: dict[str, Any], new: dict[str, Any] | None
) -> None:
    schema = fact_type(key).value_schema
    typed = schema.read(old)
    assert isinstance(typed, RecordValue)
    if "cents" in old:
        assert typed.amount == Amount(**old)  # type: ignore[attr-defined]
    if "date" in old:
        assert typed.date == dt.date(2025, 3, 1)  # type: ignore[attr-defined]
    if new is not None:
        assert schema.admit(old) == new


def test_an_old_refusal_reads_as_final_but_a_new_one_must_say_which() -> None:
    schema = fact_type("refusal_to_pay").value_schema
    # stored {"date"} values meant "ernsthafte und endgültige Verweigerung"
    assert schema.read({"date": "2025-03-01"}).kind == "endgueltig"  # type: ignore[union-attr]
    with pytest.raises(FactValueInvalid) as error:
        schema.admit({"date": "2025-03-01"})
    assert error.value.field == "kind"
    assert schema.admit({"date": "2025-03-01", "kind": "voruebergehend"}) == {
        "date": "2025-03-01",
        "kind": "voruebergehend",
    }


def test_the_payment_term_period_is_a_whole_number_of_days_from_zero() -> None:
    schema = fact_type("payment_term").value_schema
    assert schema.admit({"event": "delivery", "period_days": 0})["period_days"] == 0
    for bad in (-1, 1.5, True, "14"):
        with pytest.raises(FactValueInvalid):
            schema.admit({"event": "delivery", "period_days": bad})
    with pytest.raises(FactValueInvalid):
        schema.admit({"event": "Lieferung", "period_days": 14})


def test_the_claimed_interest_rate_takes_points_or_percent() -> None:
    schema = fact_type("interest_rate_claimed").value_schema
    assert schema.admit({"points_over_base": 9}) == {"points_over_base": 9}
    assert schema.admit({"percent": 8.5}) == {"percent": 8.5}
    with pytest.raises(FactValueInvalid):
        schema.admit({"percent": "acht"})


def test_every_key_of_the_agreed_vocabulary_exists_with_a_german_label() -> None:
    table = (ROOT / "tests/ontology/scenarios/VOCABULARY.md").read_text()
    keys = re.findall(r"^\| ([a-z_]+) \| ([^|]+) \|", table, flags=re.M)
    assert len(keys) >= 38
    for key, _label in keys:
        if key == "key":  # the table's header
            continue
        info = fact_type(key)
        assert info.label_de and info.label_en, key
        assert "verzugsschaden" in info.claim_types


@pytest.mark.parametrize(
    ("kind", "value"),
    [
        ("date", {"date": "2026-04-30"}),
        ("amount", {"cents": 1, "currency": "CHF", "label": "Mahngebühr"}),
        ("rate", {"basis_points": 900, "reference": "base_rate"}),
        ("rate", {"basis_points": 0, "reference": "fixed"}),
        ("period", {"count": 14, "unit": "days", "from_event": "Zugang"}),
        ("period", {"count": 2, "unit": "weeks"}),
        ("boolean", {"boolean": False}),
        ("text", {"text": "Rückschein"}),
    ],
)
def test_whatever_is_admitted_reads_back_and_keeps_its_json_shape(
    kind: str, value: dict[str, Any]
) -> None:
    schema = value_schema(kind)
    assert schema.admit(value) == value
    assert schema.admit(schema.admit(value)) == value
    schema.read(value)  # never raises for an admitted value


@pytest.mark.parametrize(
    ("kind", "value"),
    [
        ("rate", {"basis_points": 5.5, "reference": "base_rate"}),
        ("rate", {"basis_points": 500, "reference": "over_base"}),
        ("rate", {"basis_points": -1, "reference": "fixed"}),
        ("period", {"count": 0, "unit": "days"}),
        ("period", {"count": 14, "unit": "fortnights"}),
        ("period", {"count": "14", "unit": "days"}),
        ("amount", {"cents": 10**13, "currency": "EUR"}),
        ("date", {"date": "2101-01-01"}),
        ("text", {"text": "   "}),
        ("boolean", {"boolean": 1}),
    ],
)
def test_values_outside_the_admission_rules_are_refused(
    kind: str, value: dict[str, Any]
) -> None:
    with pytest.raises(FactValueInvalid):
        value_schema(kind).admit(value)


def test_reading_checks_the_shape_only_so_a_stored_fact_is_never_dropped() -> None:
    schema = fact_type("delivery_evidence").value_schema
    with pytest.raises(FactValueInvalid):
        schema.admit({"text": "Fax-Sendebericht"})
    assert schema.read({"text": "Fax-Sendebericht"}).kind == "Fax-Sendebericht"  # type: ignore[union-attr]
    amount = value_schema("amount")
    assert amount.read({"cents": -500, "currency": "XTS"}) == Amount(
        cents=-500, currency="XTS"
    )
    with pytest.raises(FactValueInvalid):
        amount.read({"cents": "5", "currency": "EUR"})  # the shape still holds


def test_a_party_must_be_a_party_of_the_case_when_admitted() -> None:
    schema = value_schema("party")
    parties = CaseParties.of([(7, "Schmidt Bau KG")])
    assert schema.admit({"party": 7}, parties=parties) == {"party": 7}
    with pytest.raises(FactValueInvalid) as error:
        schema.admit({"party": 8}, parties=parties)
    assert "Schmidt Bau KG" in error.value.hint
    assert schema.read({"party": 7}, party_names_by_id={7: "Schmidt Bau KG"}) == (
        "Schmidt Bau KG"
    )


def test_rates_and_periods_are_typed_and_shown_in_german() -> None:
    rate = value_schema("rate").read({"basis_points": 500, "reference": "base_rate"})
    assert rate == Rate(basis_points=500, reference="base_rate")
    assert value_schema("rate").display(
        {"basis_points": 500, "reference": "base_rate"}
    ) == ("5,00 Prozentpunkte über dem Basiszinssatz")
    period = {"count": 14, "unit": "days", "from_event": "Zugang der Rechnung"}
    assert isinstance(value_schema("period").read(period), Period)
    assert value_schema("period").display(period) == "14 Tage ab Zugang der Rechnung"


def test_the_currency_list_is_iso_4217_without_metals_funds_or_test_codes() -> None:
    assert {"EUR", "USD", "GBP", "CHF", "JPY", "PLN", "CZK", "TRY"} <= set(CURRENCIES)
    assert not {"XAU", "XAG", "XTS", "XXX", "XDR", "EURO", "XYZ"} & set(CURRENCIES)
    assert all(re.fullmatch(r"[A-Z]{3}", c) for c in CURRENCIES)
    assert len(CURRENCIES) > 150


def test_the_tool_description_and_the_prompt_come_from_the_schema() -> None:
    described = TOOL_SPECS["propose_case_fact"].json_schema()["properties"]["value"]
    text = described["description"]
    for kind in ("date", "amount", "rate", "period", "party", "boolean", "text"):
        assert f"{kind} -> " in text
    assert '{"cents": 123456, "currency": "EUR"}' in text
    assert '"basis_points": 500' in text
    episode = extraction_episode(
        chunks=[], fact_types={"delivery_evidence": "text", "due_date": "date"}, goal=""
    )
    system = episode.messages[0]["content"]
    assert '"date": "YYYY-MM-DD"' in system
    for choice in fact_type("delivery_evidence").choices:
        assert choice in system


def test_the_editor_fields_follow_the_schema() -> None:
    schema = _types(REMINDER)["reminder_letter"].value_schema
    names = [f.name for f in schema.form_fields()]
    assert names == [
        "date",
        "deadline",
        "dispatch",
        "fee",
        "fee__currency",
        "fee__label",
    ]
    assert [f.name for f in value_schema("amount").form_fields()] == [
        "amount",
        "currency",
        "label",
    ]
    currency = value_schema("amount").form_fields()[1]
    assert currency.choices == CURRENCIES


@pytest.mark.parametrize("status", FACT_STATUSES)
@pytest.mark.parametrize("four_eyes", [False, True])
def test_with_four_eyes_only_confirmed_facts_count_without_it_evidenced_too(
    status: str, four_eyes: bool
) -> None:
    expected = status == "confirmed" or (status == "evidenced" and not four_eyes)
    assert fact_status_established(status, four_eyes=four_eyes) is expected
    assert (status in established_statuses(four_eyes=four_eyes)) is expected


def _python_sources() -> list[Path]:
    folders = ("agents", "cases", "citations", "evidence", "ontology", "reports")
    return [
        path
        for folder in (*folders, "review")
        for path in (ROOT / folder).rglob("*.py")
        if "migrations" not in path.parts
    ]


def test_the_established_statuses_are_written_in_one_place_only() -> None:
    status = r"""["'](?:evidenced|confirmed|asserted|disputed)["']"""
    pattern = re.compile(
        rf"[\[{{(]\s*{status}\s*,\s*{status}|EVIDENCED,\s*[\w.]*CONFIRMED"
    )
    owners = {
        ROOT / "ontology/domain/facts.py",  # the rule (and the status literal)
        ROOT / "ontology/domain/graph.py",  # status → RDF class, not the rule
    }
    found = [p for p in _python_sources() if pattern.search(p.read_text())]
    assert set(found) <= owners, found


def test_fact_values_are_validated_in_one_place_only() -> None:
    """No second currency list, choices list or value validator anywhere."""
    suspects = re.compile(
        r"CURRENCIES\s*[:=]|def (validate_value|value_validate)\b|"
        r"Einwurf-Einschreiben[\"']\s*,\s*[\"']Übergabe-Einschreiben"
    )
    found = [
        p.relative_to(ROOT)
        for p in _python_sources()
        if suspects.search(p.read_text())
        and p.relative_to(ROOT).as_posix()
        not in ("ontology/domain/values.py", "ontology/domain/value_kinds.py")
    ]
    assert found == []


def test_a_choice_is_worded_by_its_label_never_its_key() -> None:
    from ontology.domain.text import value_format

    schema = fact_type("reminder_sent").value_schema
    raw = {"date": "2026-03-02", "dispatch": "einwurf_einschreiben"}
    assert schema.display(raw) == "Datum: 02.03.2026; Versandart: Einwurf-Einschreiben"
    value = schema.read(raw)
    assert value_format(value, "de") == "02.03.2026, Einwurf-Einschreiben"
    assert "registered mail" in value_format(value, "en")
    assert schema.admit(raw) == raw  # the stored value keeps the key
    (dispatch,) = [f for f in schema.form_fields() if f.choices]
    assert ("einwurf_einschreiben", "Einwurf-Einschreiben") in dispatch.options("de")
    fee = fact_type("fee_note_item").value_schema.read(
        {"kind": "geschaeftsgebuehr", "net": {"cents": 100, "currency": "EUR"},
         "vv_no": "2300"}
    )  # fmt: skip
    assert value_format(fee, "de").startswith("Geschäftsgebühr, ")
    assert value_format(fee, "de").endswith("Nr. VV RVG „2300“")
