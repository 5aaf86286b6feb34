"""The requirements API: verdicts as JSON per claim and per case, read by every
firm member, 404 for another firm, an ``at`` day for the interest."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ontology.selectors import claim_evaluation_for
from review.services.decisions import proposal_accept
from tests import factories
from tests.ontology.factsdb import accepted, verzug_case

ClaimFactory: Any = factories.ClaimFactory
MembershipFactory: Any = factories.MembershipFactory

pytestmark = pytest.mark.django_db


def _claim_url(claim: Any, at: str = "") -> str:
    url = reverse(
        "ontology-api:claim-evaluation",
        kwargs={"case_id": claim.case_id, "claim_id": claim.pk},
    )
    return f"{url}?at={at}" if at else url


def _case_url(case: Any) -> str:
    return reverse("ontology-api:case-evaluation", kwargs={"case_id": case.pk})


def test_claim_evaluation_returns_each_requirement_in_words(
    case: Any, reviewer: Any, lawyer_client: Client
) -> None:
    data = verzug_case(case, reviewer)
    response = lawyer_client.get(_claim_url(data["claim"], "2026-06-15"))
    assert response.status_code == 200
    body = response.json()
    expected = claim_evaluation_for(
        claim=data["claim"], interest_until=dt.date(2026, 6, 15)
    )
    assert body["claim_id"] == data["claim"].pk
    assert body["interest_until"] == "2026-06-15"
    requirements = body["evaluation"]["requirements"]
    assert [r["key"] for r in requirements] == [v.key for v in expected.requirements]
    mahnung = next(r for r in requirements if r["key"] == "mahnung")
    assert (mahnung["status"], mahnung["status_de"], mahnung["status_en"]) == (
        "open",
        "offen",
        "open",
    )
    assert mahnung["sentence_de"] == expected.requirement("mahnung").sentence_de
    assert mahnung["sentence_en"] == expected.requirement("mahnung").sentence_en
    assert [m["label_de"] for m in mahnung["missing"]] == ["Zugangsnachweis fehlt"]
    assert data["reminder"].pk in mahnung["supporting_fact_ids"]
    assert "§ 286 Abs. 1 S. 1 BGB" in mahnung["legal_basis"]
    assert body["error"] is None


def test_verdicts_follow_a_decision_and_the_interest_runs_to_the_day(
    case: Any, reviewer: Any, lawyer_client: Client
) -> None:
    data = verzug_case(case, reviewer)
    proposal_accept(proposal=data["receipt_proposal"], reviewer=reviewer)
    accepted(
        case,
        reviewer,
        chunk=data["letter"],
        fact_type="damage_item",
        value={"cents": 500, "currency": "EUR"},
        quote="Mahnung",
    )
    body = lawyer_client.get(_claim_url(data["claim"], "2026-06-15")).json()
    statuses = {r["key"]: r["status"] for r in body["evaluation"]["requirements"]}
    assert statuses["mahnung"] == "satisfied"
    damage = body["evaluation"]["damage"]
    assert damage["items_cents"] == 500
    assert damage["interest"]["end"] == "2026-06-15"
    # the one total: items + interest + the uncredited Pauschale (§ 288 V BGB)
    assert damage["total_cents"] == (
        500 + damage["interest"]["interest_cents"] + damage["pauschale_added_cents"]
    )
    later = lawyer_client.get(_claim_url(data["claim"], "2026-06-30")).json()
    assert (
        later["evaluation"]["damage"]["interest"]["interest_cents"]
        > damage["interest"]["interest_cents"]
    )


def test_case_evaluation_lists_every_claim_with_its_error_if_any(
    case: Any, reviewer: Any, lawyer_client: Client
) -> None:
    data = verzug_case(case, reviewer)
    old = ClaimFactory(case=case, valid_at=dt.date(1990, 1, 1))
    body = lawyer_client.get(_case_url(case)).json()
    assert [c["claim_id"] for c in body["claims"]] == [data["claim"].pk, old.pk]
    good, bad = body["claims"]
    assert good["error"] is None and good["evaluation"]["requirements"]
    assert bad["evaluation"] is None
    assert bad["error"]["code"] == "claim_version_not_found"


def test_claim_without_a_version_of_the_law_answers_with_a_stable_code(
    case: Any, lawyer_client: Client
) -> None:
    old = ClaimFactory(case=case, valid_at=dt.date(1990, 1, 1))
    response = lawyer_client.get(_claim_url(old))
    assert response.status_code == 404
    assert response.json()["code"] == "claim_version_not_found"


def test_a_bad_day_is_a_validation_error(
    case: Any, reviewer: Any, lawyer_client: Client
) -> None:
    data = verzug_case(case, reviewer)
    response = lawyer_client.get(_claim_url(data["claim"], "15.06.2026"))
    assert response.status_code == 400


def test_claim_of_another_case_of_the_same_firm_is_not_found(
    case: Any, firm: Any, lawyer_client: Client
) -> None:
    sibling = ClaimFactory(case=factories.CaseFactory(organisation=firm))
    url = reverse(
        "ontology-api:claim-evaluation",
        kwargs={"case_id": case.pk, "claim_id": sibling.pk},
    )
    assert lawyer_client.get(url).status_code == 404


def test_every_firm_member_reads_and_nobody_writes(
    case: Any, reviewer: Any, firm: Any
) -> None:
    data = verzug_case(case, reviewer)
    for role in ("admin", "lawyer", "reviewer", "curator"):
        client = Client()
        client.force_login(MembershipFactory(organisation=firm, role=role).user)
        assert client.get(_claim_url(data["claim"])).status_code == 200
        assert client.get(_case_url(case)).status_code == 200
        assert client.post(_case_url(case)).status_code == 405


def test_other_firm_gets_404(case: Any, reviewer: Any, other_client: Client) -> None:
    data = verzug_case(case, reviewer)
    for url in (_claim_url(data["claim"]), _case_url(case)):
        response = other_client.get(url)
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"


def test_anonymous_gets_401(case: Any, reviewer: Any) -> None:
    data = verzug_case(case, reviewer)
    assert Client().get(_claim_url(data["claim"])).status_code == 401


def test_json_has_no_score_like_key(
    case: Any, reviewer: Any, lawyer_client: Client
) -> None:
    from tests.ontology.test_no_score import FORBIDDEN_KEYS, _keys

    verzug_case(case, reviewer)
    body = lawyer_client.get(_case_url(case)).json()
    assert not [k for k in _keys(body) if FORBIDDEN_KEYS.search(k.lower())]


def test_fact_types_list_each_value_shape_from_the_one_schema(
    lawyer_client: Client,
) -> None:
    response = lawyer_client.get(reverse("ontology-api:fact-types"))
    assert response.status_code == 200
    types = {t["key"]: t for t in response.json()}
    delivery = types["delivery_evidence"]
    assert delivery["value_kind"] == "delivery_evidence"  # a record {kind}
    kinds = delivery["value_schema"]["properties"]["kind"]["enum"]
    assert "rueckschein" in kinds and "ablichtung_gläubiger" in kinds
    assert delivery["example"] == {"kind": "auslieferungsbeleg"}
    amount = types["claim_amount"]
    assert amount["example"] == {"cents": 123456, "currency": "EUR"}
    assert set(amount["value_schema"]["required"]) == {"cents", "currency"}
    assert types["due_date"]["example"] == {"date": "YYYY-MM-DD"}


def test_fact_types_need_a_login() -> None:
    response = Client().get(reverse("ontology-api:fact-types"))
    assert response.status_code in (401, 403)
