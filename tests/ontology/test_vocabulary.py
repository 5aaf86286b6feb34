from datetime import date

import pytest

from ontology.vocabulary import (
    Amount,
    FactTypeInfo,
    FactValueInvalid,
    UnknownFactType,
    fact_type,
    fact_type_keys,
    fact_value_parse,
    vocabulary_for,
)

CONTRACT_KEYS = {
    "contract_concluded": "contract",
    "invoice_issued": "invoice",
    "invoice_received": "date",
    "claim_amount": "amount",
    "due_date": "date",
    "calendar_payment_date": "date",
    "payment_period_from_event": "text",
    "payment_term": "payment_term",
    "reminder_sent": "reminder",
    "reminder_received": "date",
    "reminder_delivered": "reminder_delivery",
    "delivery_evidence": "delivery_evidence",
    "refusal_to_pay": "refusal",
    "special_reasons": "text",
    "consumer_notice_in_invoice": "boolean",
    "debtor_not_responsible": "text",
    "exoneration_pleaded": "exoneration_pleaded",
    "exoneration_evidenced": "exoneration_evidenced",
    "damage_item": "damage_item",
    "fee_note_item": "fee_note_item",
    "interest_claimed": "text",
    "interest_rate_claimed": "interest_rate",
    "payment_received": "payment",
}


@pytest.mark.parametrize(("key", "kind"), sorted(CONTRACT_KEYS.items()))
def test_contract_fact_types_exist_with_their_value_kind(key: str, kind: str) -> None:
    info = fact_type(key)
    assert info.value_kind == kind
    assert info.label_de and info.label_en
    assert "verzugsschaden" in info.claim_types


@pytest.mark.parametrize("prefix", ["aia_", "gdpr_", "dora_"])
def test_compliance_fact_types_are_prefixed_and_text_or_boolean(prefix: str) -> None:
    keys = [k for k in fact_type_keys() if k.startswith(prefix)]
    assert len(keys) >= 5
    # the element vocabulary of issue 17 adds record kinds (compliance_*)
    kinds = {fact_type(k).value_kind for k in keys}
    assert {k for k in kinds if not k.startswith("compliance_")} <= {"text", "boolean"}


def test_unknown_fact_type_raises() -> None:
    with pytest.raises(UnknownFactType):
        fact_type("bananas")


def test_values_parse_for_their_kind() -> None:
    assert fact_value_parse("date", "2024-03-01") == date(2024, 3, 1)
    assert fact_value_parse("date", {"date": "2024-03-01"}) == date(2024, 3, 1)
    assert fact_value_parse("amount", {"cents": 12345, "currency": "EUR"}) == Amount(
        cents=12345, currency="EUR"
    )
    assert fact_value_parse("boolean", {"value": True}) is True
    assert fact_value_parse("text", " Rückschein ") == "Rückschein"


@pytest.mark.parametrize(
    ("kind", "raw"),
    [
        ("date", "01.03.2024"),
        ("amount", {"cents": "12"}),
        ("amount", {"cents": 1, "currency": "euro"}),
        ("boolean", "yes"),
        ("text", "   "),
        ("colour", "red"),
    ],
)
def test_values_that_do_not_parse_are_refused(kind: str, raw: object) -> None:
    with pytest.raises(FactValueInvalid):
        fact_value_parse(kind, raw)


def test_extension_terms_are_added_but_cannot_redefine_a_key() -> None:
    term = FactTypeInfo(
        key="ext_dunning_fee",
        value_kind="amount",
        label_de="Mahngebühr",
        label_en="Dunning fee",
        claim_types=frozenset({"verzugsschaden"}),
    )
    vocabulary = vocabulary_for([term], version=1)
    assert "ext_dunning_fee" in vocabulary
    assert vocabulary.fact_type("ext_dunning_fee") == term
    clash = term.model_copy(update={"key": "due_date"})
    with pytest.raises(ValueError):
        vocabulary_for([clash])
    # nothing is kept: the versioned vocabulary and a fresh one do not know it
    assert "ext_dunning_fee" not in fact_type_keys()
    assert "ext_dunning_fee" not in vocabulary_for()
