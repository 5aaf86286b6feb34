"""A reviewer's own fact from a marked passage (issue 12 §4): evidenced by the
chunk and the verbatim quote, through the decision and audit path, subject to
four-eyes review; without a passage it stays asserted. Service, page and API."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from cases.errors import RoleRequired
from cases.models import AuditEvent, Membership
from review.errors import (
    ChunkNotInCase,
    FactStatusConflict,
    FourEyesViolation,
    InvalidValue,
    QuoteNotVerbatim,
    ReasonRequired,
)
from review.models import Decision, Fact, FactEvidence
from review.selectors import case_fact_types
from review.services.decisions import fact_assert, fact_confirm
from review.services.manual import fact_record_manual
from tests.conftest import _client_for, _member
from tests.factories import ClaimFactory
from tests.review.helpers import LETTER, make_chunk

pytestmark = pytest.mark.django_db

QUOTE = "Zahlungserinnerung vom 05.05.2026"


def _record(case: Any, reviewer: Any, **changes: Any) -> Fact:
    arguments: dict[str, Any] = {
        "case": case,
        "fact_type": "reminder_sent",
        "value": {"date": "2026-05-05"},
        "reviewer": reviewer,
        "chunk": make_chunk(case),
        "quote": QUOTE,
    }
    arguments.update(changes)
    return fact_record_manual(**arguments)


# ------------------------------------------------------------------- service
def test_marked_passage_makes_a_fact_evidenced_by_that_chunk_and_quote(
    case: Any, reviewer: Any
) -> None:
    chunk = make_chunk(case)
    fact = _record(case, reviewer, chunk=chunk)
    [evidence] = FactEvidence.objects.filter(fact=fact)
    assert evidence.chunk_id == chunk.pk
    assert evidence.quote == QUOTE
    assert evidence.proposal_id is None
    # without four-eyes review the reviewer's acceptance counts at once
    assert fact.status == Fact.Status.CONFIRMED
    decision = Decision.objects.get(fact=fact)
    assert decision.kind == Decision.Kind.MANUAL
    assert decision.status_after == fact.status
    assert fact.last_decision_id == decision.pk


def test_the_quote_is_kept_as_the_chunk_has_it_when_only_whitespace_differs(
    case: Any, reviewer: Any
) -> None:
    # a selection copied from the browser: other line breaks and spaces
    fact = _record(
        case, reviewer, quote="  trotz unserer   Zahlungserinnerung\nvom 05.05.2026 "
    )
    assert (
        fact.evidence.get().quote == "trotz unserer Zahlungserinnerung vom 05.05.2026"
    )


@pytest.mark.parametrize(
    "quote",
    [
        "Zahlungserinnerung vom 06.05.2026",  # not what the letter says
        "zahlungserinnerung vom 05.05.2026",  # case differs: not verbatim
        "",
        "x" * 2001,
    ],
)
def test_a_quote_that_is_not_verbatim_in_the_chunk_is_refused_and_nothing_is_saved(
    case: Any, reviewer: Any, quote: str
) -> None:
    with pytest.raises(QuoteNotVerbatim) as refused:
        _record(case, reviewer, quote=quote)
    assert refused.value.code == "quote_not_verbatim"
    assert refused.value.message
    assert not Fact.objects.exists()
    assert not Decision.objects.exists()


def test_a_chunk_of_another_firms_case_is_refused(
    case: Any, other_case: Any, reviewer: Any
) -> None:
    foreign = make_chunk(other_case)
    with pytest.raises(ChunkNotInCase):
        _record(case, reviewer, chunk=foreign)
    assert not Fact.objects.exists()


def test_the_value_is_validated_by_the_one_value_schema(
    case: Any, reviewer: Any
) -> None:
    with pytest.raises(InvalidValue):
        _record(case, reviewer, value={"date": "5. Mai"})
    with pytest.raises(InvalidValue):
        _record(
            case,
            reviewer,
            fact_type="claim_amount",
            value={"cents": 425000, "currency": "XXY"},
            quote="4.250,00 EUR",
        )
    assert not Fact.objects.exists()


def test_recording_writes_an_audit_event_with_the_passage(
    case: Any, reviewer: Any
) -> None:
    chunk = make_chunk(case)
    fact = _record(case, reviewer, chunk=chunk, reason="übersehen")
    event = AuditEvent.objects.get(action="review.manual")
    assert event.actor_id == reviewer.pk
    assert event.data["fact_id"] == fact.pk
    assert event.data["evidence"] == {
        "chunk_id": chunk.pk,
        "document_id": chunk.document_id,
        "quote": QUOTE,
    }
    assert event.data["reason"] == "übersehen"


def test_with_four_eyes_it_is_evidenced_and_only_another_reviewer_confirms(
    four_eyes_firm: Any, case: Any, reviewer: Any, second_reviewer: Any
) -> None:
    fact = _record(case, reviewer)
    assert fact.status == Fact.Status.EVIDENCED
    with pytest.raises(FourEyesViolation):
        fact_confirm(fact=fact, reviewer=reviewer)
    confirmed = fact_confirm(fact=fact, reviewer=second_reviewer)
    assert confirmed.status == Fact.Status.CONFIRMED
    assert confirmed.confirmed_by_id == second_reviewer.pk


def test_only_reviewers_record_facts(case: Any, lawyer: Any) -> None:
    with pytest.raises(RoleRequired):
        _record(case, lawyer)
    assert not Fact.objects.exists()


def test_a_passage_for_an_asserted_fact_makes_it_evidenced(
    four_eyes_firm: Any, case: Any, reviewer: Any
) -> None:
    asserted = fact_assert(
        case=case,
        fact_type="reminder_sent",
        value={"date": "2026-05-05"},
        reviewer=reviewer,
        reason="Mandant sagt es",
    )
    fact = _record(case, reviewer)
    assert fact.pk == asserted.pk
    assert fact.status == Fact.Status.EVIDENCED
    assert [d.kind for d in fact.decisions.order_by("id")] == ["assert", "manual"]


def test_the_same_passage_twice_is_a_conflict(case: Any, reviewer: Any) -> None:
    chunk = make_chunk(case)
    _record(case, reviewer, chunk=chunk)
    with pytest.raises(FactStatusConflict):
        _record(case, reviewer, chunk=chunk)
    assert Decision.objects.count() == 1


def test_without_a_passage_the_fact_stays_asserted_and_needs_a_reason(
    case: Any, reviewer: Any
) -> None:
    with pytest.raises(ReasonRequired):
        _record(case, reviewer, chunk=None, quote="")
    fact = _record(case, reviewer, chunk=None, quote="", reason="Schriftsatz")
    assert fact.status == Fact.Status.ASSERTED
    assert not fact.evidence.exists()
    assert Decision.objects.get(fact=fact).kind == Decision.Kind.ASSERT


def test_the_kinds_offered_are_the_claims_fact_kinds_in_german(case: Any) -> None:
    everything = dict(case_fact_types(case=case))
    assert "aia_14_4_e_intervene_stop" in everything  # no claim yet: every kind
    ClaimFactory(case=case)  # Verzugsschaden
    kinds = dict(case_fact_types(case=case))
    assert "reminder_sent" in kinds
    assert kinds["reminder_sent"] == "Mahnung"
    assert "aia_14_4_e_intervene_stop" not in kinds
    assert list(kinds.values()) == sorted(kinds.values(), key=str.casefold)


# --------------------------------------------------------------------- page
def _panel_url(case: Any) -> str:
    return reverse("review:manual_fact", kwargs={"case_id": case.pk})


def test_the_panel_shows_the_chunk_text_kinds_and_schema_widgets(
    reviewer_client: Any, case: Any
) -> None:
    ClaimFactory(case=case)
    chunk = make_chunk(case)
    response = reviewer_client.get(
        _panel_url(case), {"chunk": chunk.pk, "fact_type": "claim_amount"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "data-manual-source" in html
    assert "Zahlungserinnerung vom 05.05.2026" in html
    assert 'value="claim_amount" selected' in html
    # an amount: the schema's amount input and currency select
    assert 'name="amount"' in html
    assert 'name="currency"' in html
    assert "aia_14_4_e_intervene_stop" not in html


def test_posting_the_panel_records_the_fact_and_a_bad_quote_keeps_the_input(
    reviewer_client: Any, case: Any
) -> None:
    chunk = make_chunk(case)
    refused = reviewer_client.post(
        _panel_url(case),
        {
            "chunk": chunk.pk,
            "quote": "steht nicht im Brief",
            "fact_type": "reminder_sent",
            "date": "2026-05-05",
        },
        HTTP_HX_REQUEST="true",
    )
    assert refused.status_code == 400
    html = refused.content.decode()
    assert 'data-code="quote_not_verbatim"' in html
    assert "steht nicht im Brief" in html  # nothing typed is lost
    assert 'value="2026-05-05"' in html
    created = reviewer_client.post(
        _panel_url(case),
        {
            "chunk": chunk.pk,
            "quote": QUOTE,
            "fact_type": "reminder_sent",
            "date": "2026-05-05",
        },
        HTTP_HX_REQUEST="true",
    )
    assert created.status_code == 200
    fact = Fact.objects.get()
    assert f'data-fact-id="{fact.pk}"' in created.content.decode()
    assert fact.evidence.get().quote == QUOTE


def test_another_firm_can_neither_see_nor_use_the_panel(
    other_client: Any, case: Any
) -> None:
    chunk = make_chunk(case)
    assert other_client.get(_panel_url(case), {"chunk": chunk.pk}).status_code == 404
    posted = other_client.post(
        _panel_url(case),
        {"chunk": chunk.pk, "quote": QUOTE, "fact_type": "reminder_sent"},
    )
    assert posted.status_code == 404
    assert not Fact.objects.exists()


def test_a_chunk_of_another_case_in_the_panel_is_not_found(
    reviewer_client: Any, case: Any, other_case: Any
) -> None:
    foreign = make_chunk(other_case)
    response = reviewer_client.get(_panel_url(case), {"chunk": foreign.pk})
    assert response.status_code == 404


# ---------------------------------------------------------------------- API
def _api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_api_records_a_manual_fact_with_evidence(case: Any, reviewer: Any) -> None:
    chunk = make_chunk(case)
    response = _api(reviewer).post(
        reverse("review-api:fact-manual"),
        {
            "case": case.pk,
            "chunk": chunk.pk,
            "quote": QUOTE,
            "fact_type": "reminder_sent",
            "value": {"date": "2026-05-05"},
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["status"] == "confirmed"
    fact = Fact.objects.get(pk=response.json()["id"])
    assert fact.evidence.get().chunk_id == chunk.pk


def test_api_refuses_a_non_verbatim_quote_with_its_code(
    case: Any, reviewer: Any
) -> None:
    chunk = make_chunk(case)
    response = _api(reviewer).post(
        reverse("review-api:fact-manual"),
        {
            "case": case.pk,
            "chunk": chunk.pk,
            "quote": LETTER[:20] + " erfunden",
            "fact_type": "reminder_sent",
            "value": {"date": "2026-05-05"},
        },
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "quote_not_verbatim"


def test_api_other_firm_can_neither_create_nor_use_a_foreign_chunk(
    case: Any, other_case: Any, other_firm: Any, reviewer: Any
) -> None:
    outsider = _member(other_firm, Membership.Role.REVIEWER, "oskar.outsider")
    chunk = make_chunk(case)
    payload = {
        "case": case.pk,
        "chunk": chunk.pk,
        "quote": QUOTE,
        "fact_type": "reminder_sent",
        "value": {"date": "2026-05-05"},
    }
    url = reverse("review-api:fact-manual")
    assert _api(outsider).post(url, payload, format="json").status_code == 404
    # their own case with our chunk: not found either
    payload["case"] = other_case.pk
    assert _api(outsider).post(url, payload, format="json").status_code == 404
    assert not Fact.objects.exists()
    # and our own reviewer cannot hang our fact on their chunk
    foreign = make_chunk(other_case)
    payload.update(case=case.pk, chunk=foreign.pk)
    assert _api(reviewer).post(url, payload, format="json").status_code == 404


def test_the_panel_fallback_page_works_without_htmx(case: Any, reviewer: Any) -> None:
    client = _client_for(reviewer)
    chunk = make_chunk(case)
    response = client.post(
        _panel_url(case),
        {
            "chunk": chunk.pk,
            "quote": QUOTE,
            "fact_type": "reminder_sent",
            "date": "2026-05-05",
        },
    )
    fact = Fact.objects.get()
    assert response.status_code == 302
    assert response["Location"].endswith(f"#fact-{fact.pk}")


def test_the_facts_view_offers_an_asserted_fact_without_a_document(
    reviewer_client: Any, case: Any
) -> None:
    facts = reviewer_client.get(
        reverse("review:case_facts", kwargs={"case_id": case.pk})
    ).content.decode()
    assert f'href="{_panel_url(case)}" data-assert-link' in facts
    panel = reviewer_client.get(_panel_url(case))
    assert panel.status_code == 200
    assert "data-manual-source" not in panel.content.decode()
    response = reviewer_client.post(
        _panel_url(case),
        {"fact_type": "reminder_sent", "date": "2026-05-05", "reason": "Mandant"},
    )
    assert response.status_code == 302
    fact = Fact.objects.get()
    assert fact.status == Fact.Status.ASSERTED
    assert not fact.evidence.exists()
