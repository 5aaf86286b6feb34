"""One value rule on every path: the agents' gate policy, the reviewer's edit
(service and page form) and the review API take and refuse exactly the same
values, because all of them ask the ontology's one value schema.

Measured before the merge: a currency "XYZ" was refused by the gate and saved
by a reviewer's edit; the editor offered four currencies, so editing a USD
proposal silently made it EUR."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from agents.domain.policies import PolicyContext, value_valid_for_fact_type
from agents.domain.tools import ProposeCaseFactArgs
from agents.domain.world import ChunkView
from ontology.vocabulary import (
    CURRENCIES,
    FactTypeInfo,
    Vocabulary,
    vocabulary_for,
)
from review.errors import InvalidValue
from review.forms import FactValueForm
from review.models import ExtractionProposal, Fact
from review.services.decisions import proposal_accept
from tests import factories
from tests.review.helpers import make_proposal

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
PARTY_TYPE = "ext_debtor_named"
START: dict[
    str, dict[str, Any]
] = {  # a valid value each proposal starts from before it is edited
    "due_date": {"date": "2026-04-30"},
    "claim_amount": {"cents": 100, "currency": "EUR"},
    "delivery_evidence": {"kind": "rueckschein"},
    "consumer_notice_in_invoice": {"boolean": False},
    "special_reasons": {"text": "Eilbedürftigkeit"},
    "payment_term": {"event": "invoice_receipt", "period_days": 30},
    "refusal_to_pay": {"date": "2026-05-01", "kind": "endgueltig"},
    PARTY_TYPE: {"party": "Schmidt Bau KG"},
}

VALUES: list[tuple[str, Any, bool]] = [
    ("due_date", {"date": "2026-04-30"}, True),
    ("due_date", {"date": "2026-02-30"}, False),
    ("due_date", {"date": "30.04.2026"}, False),
    ("due_date", {"date": "1899-12-31"}, False),
    ("due_date", {"date": "2026-04-30", "note": "x"}, False),
    ("due_date", {"text": "2026-04-30"}, False),
    ("claim_amount", {"cents": 425000, "currency": "EUR"}, True),
    ("claim_amount", {"cents": 425000, "currency": "USD"}, True),
    ("claim_amount", {"cents": 425000, "currency": "JPY"}, True),
    ("claim_amount", {"cents": 425000, "currency": "PLN", "label": "Rate 1"}, True),
    ("claim_amount", {"cents": 425000, "currency": "XYZ"}, False),
    ("claim_amount", {"cents": 425000, "currency": "EURO"}, False),
    ("claim_amount", {"cents": 425000, "currency": "eur"}, False),
    ("claim_amount", {"cents": 0, "currency": "EUR"}, False),
    ("claim_amount", {"cents": -500, "currency": "EUR"}, False),
    ("claim_amount", {"cents": "4250", "currency": "EUR"}, False),
    ("claim_amount", {"cents": 42.5, "currency": "EUR"}, False),
    ("claim_amount", {"cents": True, "currency": "EUR"}, False),
    ("claim_amount", {"cents": 425000}, False),
    ("claim_amount", {"cents": 1, "currency": "EUR", "label": "x" * 201}, False),
    ("delivery_evidence", {"kind": "auslieferungsbeleg"}, True),
    ("delivery_evidence", {"kind": "ablichtung_gläubiger"}, True),
    ("delivery_evidence", {"kind": "Fax"}, False),
    ("delivery_evidence", {"kind": ""}, False),
    ("payment_term", {"event": "delivery", "period_days": 14}, True),
    ("payment_term", {"event": "delivery", "period_days": 0}, True),
    ("payment_term", {"event": "delivery", "period_days": -3}, False),
    ("payment_term", {"event": "Lieferung", "period_days": 14}, False),
    ("refusal_to_pay", {"date": "2026-05-02", "kind": "voruebergehend"}, True),
    ("refusal_to_pay", {"date": "2026-05-02", "kind": "vielleicht"}, False),
    ("consumer_notice_in_invoice", {"boolean": True}, True),
    ("consumer_notice_in_invoice", {"boolean": "yes"}, False),
    ("special_reasons", {"text": "x" * 2000}, True),
    ("special_reasons", {"text": "x" * 2001}, False),
    ("special_reasons", {"text": 5}, False),
    (PARTY_TYPE, {"party": "Schmidt Bau KG"}, True),
    (PARTY_TYPE, {"party": "Schmidt GmbH"}, False),
]
IDS = [f"{t}-{v}"[:60] for t, v, _ in VALUES]


VOCABULARY = vocabulary_for(
    [
        FactTypeInfo(
            key=PARTY_TYPE,
            value_kind="party",
            label_de="Schuldner benannt",
            label_en="Debtor named",
        )
    ]
)


@pytest.fixture(autouse=True)
def party_fact_type(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A party-valued fact type (the versioned vocabulary has none yet) in
    every firm's vocabulary, as the one selector hands it out."""
    monkeypatch.setattr(
        "review.selectors.vocabulary_for_organisation", lambda _org: VOCABULARY
    )
    yield


@pytest.fixture
def party_case(case: Any) -> Any:
    factories.PartyFactory(case=case, name="Schmidt Bau KG")
    return case


class _CaseWorld:
    """The gate's view of the case: its parties and the vocabulary's types."""

    def __init__(self, case: Any) -> None:
        self.case_id = case.pk
        self.parties = list(case.parties.values_list("pk", "name"))

    def vocabulary(self) -> Vocabulary:
        return VOCABULARY

    def fact_types(self) -> Mapping[str, str]:
        return VOCABULARY.value_kinds()

    def party_names(self) -> set[str]:
        return {name for _, name in self.parties}

    def party_ids(self) -> set[int]:
        return {pk for pk, _ in self.parties}

    def case_chunk(self, chunk_id: int) -> ChunkView | None:
        return None


def _gate_accepts(case: Any, fact_type_key: str, value: Any) -> bool:
    args = ProposeCaseFactArgs(
        fact_type=fact_type_key,
        source_chunk_id=1,
        quote="q",
        value=value,
        confidence=0.9,
    )
    ctx = PolicyContext(
        tool="propose_case_fact",
        args=args,
        world=_CaseWorld(case),  # type: ignore[arg-type]
        call_id="c",
    )
    outcome = value_valid_for_fact_type(ctx)
    assert outcome.ok or outcome.code == "invalid_value"
    return outcome.ok


def _service_accepts(case: Any, reviewer: Any, fact_type_key: str, value: Any) -> bool:
    proposal = make_proposal(case, fact_type=fact_type_key, value=START[fact_type_key])
    try:
        proposal_accept(proposal=proposal, reviewer=reviewer, value=value)
    except InvalidValue:
        proposal.refresh_from_db()
        assert proposal.status == ExtractionProposal.Status.PENDING
        return False
    return True


def _api_accepts(case: Any, reviewer: Any, fact_type_key: str, value: Any) -> bool:
    proposal = make_proposal(case, fact_type=fact_type_key, value=START[fact_type_key])
    client = APIClient()
    client.force_authenticate(reviewer)
    response = client.post(
        reverse("review-api:proposal-decide", kwargs={"proposal_id": proposal.pk}),
        {"action": "edit", "value": value},
        format="json",
    )
    assert response.status_code in (200, 400), response.content
    if response.status_code == 400:
        assert response.json()["code"] == "invalid_value"
    return bool(response.status_code == 200)


def _form_inputs(fact_type_key: str, value: Any) -> dict[str, Any] | None:
    """The page's inputs for ``value``, or None when the editor cannot express
    it (the inputs would turn into another JSON value, e.g. cents as text)."""
    schema = VOCABULARY.fact_type(fact_type_key).value_schema
    initial = FactValueForm.initial_from(schema, value)
    inputs = {
        k: ("on" if v is True else v) for k, v in initial.items() if v is not False
    }
    form = FactValueForm(inputs, schema=schema)
    try:
        produced = form.json_value()
    except ValueError:
        return None
    same = json.dumps(produced, sort_keys=True) == json.dumps(value, sort_keys=True)
    return inputs if same else None


def _page_accepts(
    client: Any, case: Any, fact_type_key: str, inputs: dict[str, Any]
) -> bool:
    proposal = make_proposal(case, fact_type=fact_type_key, value=START[fact_type_key])
    response = client.post(
        reverse("review:proposal_decide", kwargs={"proposal_id": proposal.pk}),
        {"action": "edit", "edited": "1", **inputs},
        **HTMX,
    )
    assert response.status_code in (200, 400), response.content[:500]
    if response.status_code == 400:
        assert 'data-code="invalid_value"' in response.content.decode()
    return bool(response.status_code == 200)


@pytest.mark.parametrize(("fact_type_key", "value", "valid"), VALUES, ids=IDS)
def test_gate_edit_service_page_and_api_accept_and_refuse_the_same_values(
    party_case: Any,
    reviewer: Any,
    reviewer_client: Any,
    fact_type_key: str,
    value: Any,
    valid: bool,
) -> None:
    answers = {
        "gate": _gate_accepts(party_case, fact_type_key, value),
        "edit service": _service_accepts(party_case, reviewer, fact_type_key, value),
        "api": _api_accepts(party_case, reviewer, fact_type_key, value),
    }
    inputs = _form_inputs(fact_type_key, value)
    if inputs is not None:
        answers["page form"] = _page_accepts(
            reviewer_client, party_case, fact_type_key, inputs
        )
    assert answers == dict.fromkeys(answers, valid)


def test_the_page_form_tries_every_value_but_those_its_inputs_cannot_carry() -> None:
    """The page form covers every value except those whose JSON types the
    inputs cannot carry (text instead of an integer, a stray key ...)."""
    skipped = [(t, v) for t, v, _ in VALUES if _form_inputs(t, v) is None]
    assert all(not ok for t, v, ok in VALUES if (t, v) in skipped)
    assert len(skipped) < len(VALUES) / 3


def test_editing_a_usd_amount_keeps_usd_and_offers_every_currency(
    reviewer_client: Any, case: Any
) -> None:
    proposal = make_proposal(
        case,
        fact_type="claim_amount",
        value={"cents": 425000, "currency": "USD"},
        quote="4.250,00 EUR",
    )
    page = reviewer_client.get(
        reverse("review:proposal_detail", kwargs={"proposal_id": proposal.pk}), **HTMX
    )
    html = page.content.decode()
    assert '<option value="USD" selected>USD</option>' in html
    assert html.count("<option value=") >= len(CURRENCIES)
    assert '<option value="JPY">' in html
    response = reviewer_client.post(
        reverse("review:proposal_decide", kwargs={"proposal_id": proposal.pk}),
        {"action": "edit", "edited": "1", "amount": "4.300,00", "currency": "USD"},
        **HTMX,
    )
    assert response.status_code == 200
    assert Fact.objects.get(case=case).value == {"cents": 430000, "currency": "USD"}


def test_the_enumeration_editor_offers_exactly_the_vocabulary_choices(
    reviewer_client: Any, case: Any
) -> None:
    proposal = make_proposal(
        case, fact_type="delivery_evidence", value={"kind": "rueckschein"}
    )
    html = reviewer_client.get(
        reverse("review:proposal_detail", kwargs={"proposal_id": proposal.pk}), **HTMX
    ).content.decode()
    (kind,) = VOCABULARY.fact_type("delivery_evidence").record_fields
    for choice in kind.choices:
        assert f'<option value="{choice}"' in html
    assert '<option value="rueckschein" selected>' in html


def test_the_page_disputes_with_the_edited_value_like_the_api(
    reviewer_client: Any, reviewer: Any, case: Any
) -> None:
    proposal = make_proposal(case)
    response = reviewer_client.post(
        reverse("review:proposal_decide", kwargs={"proposal_id": proposal.pk}),
        {
            "action": "dispute",
            "edited": "1",
            "date": "2026-05-06",
            "reason": "Datum laut Schuldner falsch",
        },
        **HTMX,
    )
    assert response.status_code == 200
    fact = Fact.objects.get(case=case)
    assert (fact.status, fact.value) == ("disputed", {"date": "2026-05-06"})
    api_proposal = make_proposal(case, value={"date": "2026-05-07"})
    client = APIClient()
    client.force_authenticate(reviewer)
    api = client.post(
        reverse("review-api:proposal-decide", kwargs={"proposal_id": api_proposal.pk}),
        {"action": "dispute", "value": {"date": "2026-05-08"}, "reason": "dito"},
        format="json",
    )
    assert api.status_code == 200
    assert api.json()["fact"]["value"] == {"date": "2026-05-08"}


def test_a_dispute_without_the_editor_keeps_the_proposed_value(
    reviewer_client: Any, case: Any
) -> None:
    proposal = make_proposal(case)
    response = reviewer_client.post(
        reverse("review:proposal_decide", kwargs={"proposal_id": proposal.pk}),
        # the editor's fieldset is disabled, so its inputs are not sent
        {"action": "dispute", "reason": "bestritten"},
        **HTMX,
    )
    assert response.status_code == 200
    assert Fact.objects.get(case=case).value == {"date": "2026-05-05"}


def test_an_unknown_decision_is_refused_with_a_stable_code(
    reviewer_client: Any, case: Any
) -> None:
    proposal = make_proposal(case)
    response = reviewer_client.post(
        reverse("review:proposal_decide", kwargs={"proposal_id": proposal.pk}),
        {"action": "approve"},
        **HTMX,
    )
    assert response.status_code == 400
    assert 'data-code="invalid_decision"' in response.content.decode()
    proposal.refresh_from_db()
    assert proposal.status == ExtractionProposal.Status.PENDING
