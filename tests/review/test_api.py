"""The review API: the same services as the pages, JSON errors with stable
codes, another firm's objects 404."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from review.models import Fact
from review.services.decisions import proposal_accept
from tests.review.helpers import make_proposal, make_term

pytestmark = pytest.mark.django_db


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _decide(client: APIClient, proposal: Any, **data: Any) -> Any:
    return client.post(
        reverse("review-api:proposal-decide", kwargs={"proposal_id": proposal.pk}),
        data,
        format="json",
    )


def test_list_filters_and_pages_by_keyset(case: Any, reviewer: Any) -> None:
    low = make_proposal(case, confidence=0.2)
    high = make_proposal(
        case, fact_type="due_date", value={"date": "2026-04-26"}, confidence=0.9
    )
    client = _api(reviewer)
    url = reverse("review-api:proposal-list")
    body = client.get(url).json()
    assert [p["id"] for p in body["results"]] == [low.pk, high.pk]
    assert body["next_after"] is None
    assert (
        client.get(url, {"min_confidence": 0.5}).json()["results"][0]["id"] == high.pk
    )
    page = client.get(url, {"limit": 1}).json()
    assert [p["id"] for p in page["results"]] == [low.pk]
    rest = client.get(url, {"limit": 1, "after": page["next_after"]}).json()
    assert [p["id"] for p in rest["results"]] == [high.pk]
    assert (
        client.get(url, {"fact_type": "due_date"}).json()["results"][0]["model_id"]
        == "rules:test"
    )


def test_list_of_another_firms_case_is_404(
    case: Any, other_case: Any, reviewer: Any
) -> None:
    response = _api(reviewer).get(
        reverse("review-api:proposal-list"), {"case": other_case.pk}
    )
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_accept_then_a_second_decision_is_409(
    case: Any, reviewer: Any, second_reviewer: Any
) -> None:
    proposal = make_proposal(case)
    first = _decide(_api(reviewer), proposal, action="accept")
    assert first.status_code == 200
    assert first.json()["fact"]["status"] == "confirmed"
    assert first.json()["proposal"]["status"] == "accepted"
    second = _decide(_api(second_reviewer), proposal, action="reject")
    assert second.status_code == 409
    body = second.json()
    assert body["code"] == "proposal_not_pending"
    assert reviewer.get_username() in body["message"]
    assert body["hint"]["status"] == "accepted"


def test_edit_validates_the_value(case: Any, reviewer: Any) -> None:
    proposal = make_proposal(case)
    client = _api(reviewer)
    missing = _decide(client, proposal, action="edit")
    assert missing.status_code == 400
    assert missing.json()["code"] == "validation_error"
    assert "value" in missing.json()["fields"]
    wrong = _decide(client, proposal, action="edit", value={"date": "gestern"})
    assert wrong.status_code == 400
    assert wrong.json()["code"] == "invalid_value"
    ok = _decide(client, proposal, action="edit", value={"date": "2026-05-06"})
    assert ok.status_code == 200
    assert ok.json()["fact"]["value"] == {"date": "2026-05-06"}


def test_dispute_without_reason_is_400(case: Any, reviewer: Any) -> None:
    response = _decide(_api(reviewer), make_proposal(case), action="dispute")
    assert response.status_code == 400
    assert response.json()["code"] == "reason_required"


def test_lawyers_read_but_get_403_on_decisions(case: Any, lawyer: Any) -> None:
    proposal = make_proposal(case)
    client = _api(lawyer)
    assert client.get(reverse("review-api:proposal-list")).status_code == 200
    response = _decide(client, proposal, action="accept")
    assert response.status_code == 403
    assert response.json()["code"] == "role_required"


def test_claim_conflict_is_409(case: Any, reviewer: Any, second_reviewer: Any) -> None:
    proposal = make_proposal(case)
    url = reverse("review-api:proposal-claim", kwargs={"proposal_id": proposal.pk})
    assert _api(reviewer).post(url).json()["claimed"] is True
    response = _api(second_reviewer).post(url)
    assert response.status_code == 409
    assert response.json()["code"] == "proposal_claimed"


def test_bulk_reports_conflicts(case: Any, reviewer: Any, second_reviewer: Any) -> None:
    a = make_proposal(case)
    b = make_proposal(case, fact_type="due_date", value={"date": "2026-04-26"})
    proposal_accept(proposal=b, reviewer=second_reviewer)
    response = _api(reviewer).post(
        reverse("review-api:proposal-bulk"),
        {"ids": [a.pk, b.pk], "action": "reject"},
        format="json",
    )
    assert response.status_code == 200
    assert response.json()["decided"] == [a.pk]
    assert response.json()["conflicts"][0]["code"] == "proposal_not_pending"


def test_bulk_with_another_firms_id_decides_nothing(
    case: Any, other_case: Any, reviewer: Any
) -> None:
    mine = make_proposal(case)
    theirs = make_proposal(other_case)
    response = _api(reviewer).post(
        reverse("review-api:proposal-bulk"),
        {"ids": [mine.pk, theirs.pk], "action": "accept"},
        format="json",
    )
    assert response.status_code == 404
    mine.refresh_from_db()
    assert mine.status == "pending"


def test_facts_and_decisions_with_provenance(case: Any, reviewer: Any) -> None:
    proposal = make_proposal(case)
    fact = proposal_accept(proposal=proposal, reviewer=reviewer)
    client = _api(reviewer)
    facts = client.get(reverse("review-api:fact-list"), {"case": case.pk}).json()
    assert [f["id"] for f in facts["results"]] == [fact.pk]
    detail = client.get(
        reverse("review-api:fact-detail", kwargs={"fact_id": fact.pk})
    ).json()
    assert detail["fact"]["status"] == "confirmed"
    assert detail["decisions"][0]["kind"] == "accept"
    [evidence] = detail["evidence"]
    assert evidence["sha256"] == proposal.source_chunk.document.sha256
    assert evidence["proposal"]["agent_step_id"] == proposal.agent_step_id
    assert evidence["proposal"]["model_id"] == "rules:test"
    # the viewer link marks the quote and leads back to the fact
    assert f"?chunk={proposal.source_chunk_id}&quote=" in evidence["url"]
    assert "back=%2Freview%2Ffacts%2F" in evidence["url"]
    decisions = client.get(reverse("review-api:decision-list")).json()
    assert decisions["results"][0]["fact_id"] == fact.pk


def test_four_eyes_over_the_api(
    four_eyes_firm: Any, case: Any, reviewer: Any, second_reviewer: Any
) -> None:
    fact = proposal_accept(proposal=make_proposal(case), reviewer=reviewer)
    url = reverse("review-api:fact-confirm", kwargs={"fact_id": fact.pk})
    same = _api(reviewer).post(url, {}, format="json")
    assert same.status_code == 403
    assert same.json()["code"] == "four_eyes_same_reviewer"
    other = _api(second_reviewer).post(url, {"reason": "geprüft"}, format="json")
    assert other.status_code == 200
    assert other.json()["status"] == "confirmed"
    again = _api(second_reviewer).post(url, {}, format="json")
    assert again.status_code == 409
    assert again.json()["code"] == "fact_status_conflict"
    dispute = _api(second_reviewer).post(
        reverse("review-api:fact-dispute", kwargs={"fact_id": fact.pk}),
        {"reason": "Zugang bestritten"},
        format="json",
    )
    assert dispute.json()["status"] == "disputed"
    assert Fact.objects.get(pk=fact.pk).disputed_by == second_reviewer


def test_terms_list_and_decide_by_curators_only(
    case: Any, curator: Any, reviewer: Any
) -> None:
    term = make_term(case, label="Inkassoschreiben")
    url = reverse("review-api:term-decide", kwargs={"candidate_id": term.pk})
    listed = _api(reviewer).get(reverse("review-api:term-list")).json()
    assert [t["label"] for t in listed["results"]] == ["Inkassoschreiben"]
    denied = _api(reviewer).post(url, {"resolution": "noise"}, format="json")
    assert denied.status_code == 403
    concept = "https://belegt.example/ns/core#PaymentReminder"
    done = _api(curator).post(
        url, {"resolution": "subclass", "concept": concept}, format="json"
    )
    assert done.status_code == 200
    assert done.json()["extension_version"] == 1
    again = _api(curator).post(url, {"resolution": "noise"}, format="json")
    assert again.status_code == 409
    assert again.json()["code"] == "term_not_pending"
    graph = _api(reviewer).get(reverse("review-api:ontology-extension")).json()
    assert graph["version"] == 1
    assert "Inkassoschreiben" in graph["turtle"]


def test_an_unknown_concept_is_400(case: Any, curator: Any) -> None:
    term = make_term(case)
    response = _api(curator).post(
        reverse("review-api:term-decide", kwargs={"candidate_id": term.pk}),
        {"resolution": "synonym", "concept": "https://example.test/nope"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_concept"
    term.refresh_from_db()
    assert term.status == "pending"


def test_assert_a_fact_over_the_api(
    case: Any, other_case: Any, reviewer: Any, lawyer: Any
) -> None:
    url = reverse("review-api:fact-assert")
    body = {
        "case": case.pk,
        "fact_type": "claim_amount",
        "value": {"cents": 425000, "currency": "EUR"},
        "reason": "laut Mandant",
    }
    assert _api(lawyer).post(url, body, format="json").status_code == 403
    created = _api(reviewer).post(url, body, format="json")
    assert created.status_code == 201
    assert created.json()["status"] == "asserted"
    again = _api(reviewer).post(url, body, format="json")
    assert again.status_code == 409
    foreign = _api(reviewer).post(url, {**body, "case": other_case.pk}, format="json")
    assert foreign.status_code == 404
