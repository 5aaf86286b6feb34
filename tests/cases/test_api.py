"""The cases REST API: reads scoped to the firm, writes through the services,
JSON errors with stable codes, token auth and the OpenAPI schema."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import include, path, reverse
from drf_spectacular import generators, validation
from drf_spectacular.drainage import GENERATOR_STATS
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from cases.models import AuditEvent, Case, Claim, Party
from config.api import exception_handler
from tests import factories
from tests.conftest import PASSWORD

# factory_boy and drf-spectacular are untyped; Any keeps mypy quiet at call sites.
CaseFactory: Any = factories.CaseFactory
ClaimFactory: Any = factories.ClaimFactory
PartyFactory: Any = factories.PartyFactory
SchemaGenerator: Any = generators.SchemaGenerator
validate_schema: Any = validation.validate_schema

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_throttle_counts() -> None:
    """The token endpoint's throttle counts live in the cache; each test starts
    from zero."""
    cache.clear()


def _api(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)  # session auth, as the browser would
    return client


@pytest.fixture
def lawyer_api(lawyer: Any) -> APIClient:
    return _api(lawyer)


@pytest.fixture
def reviewer_api(reviewer: Any) -> APIClient:
    return _api(reviewer)


def _url(name: str, **kwargs: Any) -> str:
    return reverse(f"cases-api:{name}", kwargs=kwargs)


def _counts() -> tuple[int, int, int, int]:
    return (
        Case.objects.count(),
        Party.objects.count(),
        Claim.objects.count(),
        AuditEvent.objects.count(),
    )


def _valid_case(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "reference": "7 C 12/26",
        "title": "Müller GmbH ./. Schmidt KG",
        "client": "Müller GmbH",
        "parties": [
            {"role": "creditor", "kind": "business", "name": "Müller GmbH"},
            {
                "role": "debtor",
                "kind": "consumer",
                "name": "Erika Schmidt",
                "address": "Hauptstraße 1, 10115 Berlin",
            },
        ],
        "claims": [{"claim_type": "verzugsschaden", "valid_at": "2026-05-01"}],
    }
    body.update(overrides)
    return body


def _assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body: dict[str, Any] = response.json()
    assert body["code"] == code, body
    assert isinstance(body["message"], str)
    assert body["message"]
    return body


# --- Reading cases ---------------------------------------------------------------


def test_case_list_shows_only_the_firms_cases(
    lawyer_api: Any, case: Any, other_case: Any
) -> None:
    PartyFactory(case=case)
    response = lawyer_api.get(_url("case-list"))
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 1
    (row,) = body["results"]
    assert row["id"] == case.pk
    assert row["reference"] == "12 O 345/26"
    assert row["party_count"] == 1


def test_case_list_searches_reference_title_client_and_party_names(
    lawyer_api: Any, firm: Any
) -> None:
    wanted = CaseFactory(organisation=firm, title="Adler ./. Zander")
    by_party = CaseFactory(organisation=firm)
    PartyFactory(case=by_party, name="Zander Logistik AG")
    CaseFactory(organisation=firm, title="Unrelated")

    response = lawyer_api.get(_url("case-list"), {"search": "zander"})

    assert response.status_code == 200
    ids = {row["id"] for row in response.json()["results"]}
    assert ids == {wanted.pk, by_party.pk}


def test_case_list_filters_by_status(lawyer_api: Any, firm: Any) -> None:
    CaseFactory(organisation=firm, status=Case.Status.OPEN)
    closed = CaseFactory(organisation=firm, status=Case.Status.CLOSED)

    response = lawyer_api.get(_url("case-list"), {"status": "closed"})

    assert [row["id"] for row in response.json()["results"]] == [closed.pk]


def test_case_list_rejects_an_unknown_status_with_a_field_error(
    lawyer_api: Any, case: Any
) -> None:
    response = lawyer_api.get(_url("case-list"), {"status": "deleted"})
    body = _assert_error(response, 400, "validation_error")
    assert set(body["fields"]) == {"status"}


def test_case_list_pages(lawyer_api: Any, firm: Any) -> None:
    CaseFactory.create_batch(5, organisation=firm)

    first = lawyer_api.get(_url("case-list"), {"page_size": 2}).json()
    last = lawyer_api.get(_url("case-list"), {"page_size": 2, "page": 3}).json()

    assert first["count"] == 5
    assert len(first["results"]) == 2
    assert first["next"] is not None
    assert first["previous"] is None
    assert len(last["results"]) == 1
    assert last["next"] is None
    seen = {row["id"] for row in first["results"]} | {
        row["id"] for row in last["results"]
    }
    assert len(seen) == 3


def test_a_page_past_the_end_is_a_json_404(lawyer_api: Any, case: Any) -> None:
    response = lawyer_api.get(_url("case-list"), {"page": 9})
    _assert_error(response, 404, "not_found")


def test_case_detail_has_parties_and_claims(lawyer_api: Any, case: Any) -> None:
    party = PartyFactory(case=case)
    claim = ClaimFactory(case=case)

    response = lawyer_api.get(_url("case-detail", case_id=case.pk))

    assert response.status_code == 200
    body = response.json()
    assert body["reference"] == case.reference
    assert [p["id"] for p in body["parties"]] == [party.pk]
    assert [c["id"] for c in body["claims"]] == [claim.pk]
    assert body["claims"][0]["valid_at"] == "2026-05-01"


def test_reviewer_can_read_cases(reviewer_api: Any, case: Any) -> None:
    assert reviewer_api.get(_url("case-list")).json()["count"] == 1
    assert reviewer_api.get(_url("case-detail", case_id=case.pk)).status_code == 200


def test_other_firms_case_is_not_found_for_every_method(
    lawyer_api: Any, other_case: Any
) -> None:
    url = _url("case-detail", case_id=other_case.pk)
    _assert_error(lawyer_api.get(url), 404, "not_found")
    _assert_error(
        lawyer_api.patch(url, {"title": "Mine now"}, format="json"), 404, "not_found"
    )
    other_case.refresh_from_db()
    assert other_case.title != "Mine now"


# --- Creating and changing cases ---------------------------------------------------


def test_lawyer_opens_a_case_with_parties_and_claims(
    lawyer_api: Any, lawyer: Any, firm: Any
) -> None:
    response = lawyer_api.post(_url("case-list"), _valid_case(), format="json")

    assert response.status_code == 201, response.content
    body = response.json()
    case = Case.objects.get(pk=body["id"])
    assert case.organisation == firm
    assert case.created_by == lawyer
    assert case.status == Case.Status.OPEN
    assert body["created_by"] == lawyer.username
    assert sorted(p["name"] for p in body["parties"]) == [
        "Erika Schmidt",
        "Müller GmbH",
    ]
    assert case.claims.get().valid_at == dt.date(2026, 5, 1)
    actions = list(
        AuditEvent.objects.filter(case_id=case.pk).values_list("action", flat=True)
    )
    assert actions == [
        "case.created",
        "party.created",
        "party.created",
        "claim.created",
    ]


def test_invalid_case_is_rejected_field_by_field_and_nothing_is_saved(
    lawyer_api: Any,
) -> None:
    before = _counts()
    body = _valid_case(
        reference="x" * 65,
        title="",
        parties=[
            {"role": "creditor", "kind": "business", "name": "Müller GmbH"},
            {"role": "debtor", "kind": "robot", "name": ""},
        ],
        claims=[{"claim_type": "verzugsschaden", "valid_at": "1. Mai 2026"}],
    )
    body.pop("client")

    response = lawyer_api.post(_url("case-list"), body, format="json")

    error = _assert_error(response, 400, "validation_error")
    fields = error["fields"]
    assert set(fields) == {"reference", "title", "client", "parties", "claims"}
    # List items are keyed by their index; only the faulty ones appear.
    assert set(fields["parties"]) == {"1"}
    assert set(fields["parties"]["1"]) == {"kind", "name"}
    assert set(fields["claims"]["0"]) == {"valid_at"}
    assert fields["client"] and all(isinstance(m, str) for m in fields["client"])
    assert _counts() == before


def test_unknown_or_read_only_fields_are_rejected_not_ignored(
    lawyer_api: Any, other_firm: Any
) -> None:
    before = _counts()
    body = _valid_case(organisation=other_firm.pk, titel="Tippfehler")
    body["parties"][0]["id"] = 1

    response = lawyer_api.post(_url("case-list"), body, format="json")

    fields = _assert_error(response, 400, "validation_error")["fields"]
    assert set(fields) == {"organisation", "titel", "parties"}
    assert set(fields["parties"]["0"]) == {"id"}
    assert _counts() == before


def test_malformed_json_is_a_parse_error(lawyer_api: Any) -> None:
    response = lawyer_api.post(
        _url("case-list"), data="{not json", content_type="application/json"
    )
    _assert_error(response, 400, "parse_error")


def test_a_taken_file_reference_is_a_conflict_and_nothing_is_saved(
    lawyer_api: Any, case: Any
) -> None:
    before = _counts()

    response = lawyer_api.post(
        _url("case-list"), _valid_case(reference=case.reference), format="json"
    )

    _assert_error(response, 409, "case_reference_taken")
    assert _counts() == before


def test_a_reference_used_by_another_firm_is_free(
    lawyer_api: Any, other_case: Any
) -> None:
    """References are unique per firm; a conflict here would reveal that another
    firm has a case with this Aktenzeichen."""
    response = lawyer_api.post(
        _url("case-list"), _valid_case(reference=other_case.reference), format="json"
    )
    assert response.status_code == 201, response.content


def test_reviewer_cannot_open_a_case(reviewer_api: Any) -> None:
    before = _counts()
    response = reviewer_api.post(_url("case-list"), _valid_case(), format="json")
    body = _assert_error(response, 403, "role_required")
    assert body["hint"] == ["lawyer"]
    assert _counts() == before


def test_reviewer_cannot_change_case_master_data(reviewer_api: Any, case: Any) -> None:
    before = _counts()
    response = reviewer_api.patch(
        _url("case-detail", case_id=case.pk), {"title": "Changed"}, format="json"
    )
    _assert_error(response, 403, "role_required")
    case.refresh_from_db()
    assert case.title != "Changed"
    assert _counts() == before


def test_lawyer_changes_a_case_and_the_change_is_audited(
    lawyer_api: Any, case: Any
) -> None:
    response = lawyer_api.patch(
        _url("case-detail", case_id=case.pk),
        {"title": "Neuer Titel", "status": "closed"},
        format="json",
    )

    assert response.status_code == 200, response.content
    assert response.json()["title"] == "Neuer Titel"
    case.refresh_from_db()
    assert (case.title, case.status) == ("Neuer Titel", "closed")
    event = AuditEvent.objects.get(case_id=case.pk, action="case.updated")
    assert event.data["status"] == {"from": "open", "to": "closed"}


def test_invalid_case_change_is_rejected_and_nothing_changes(
    lawyer_api: Any, case: Any
) -> None:
    old_title = case.title
    before = _counts()
    response = lawyer_api.patch(
        _url("case-detail", case_id=case.pk),
        {"title": "", "status": "gone", "client": "Neu"},
        format="json",
    )
    fields = _assert_error(response, 400, "validation_error")["fields"]
    assert set(fields) == {"title", "status"}
    case.refresh_from_db()
    assert (case.title, case.client) == (old_title, "Müller GmbH")
    assert _counts() == before


def test_changing_to_a_taken_reference_is_a_conflict(
    lawyer_api: Any, case: Any, firm: Any
) -> None:
    taken = CaseFactory(organisation=firm)
    response = lawyer_api.patch(
        _url("case-detail", case_id=case.pk),
        {"reference": taken.reference},
        format="json",
    )
    _assert_error(response, 409, "case_reference_taken")
    case.refresh_from_db()
    assert case.reference == "12 O 345/26"


def test_cases_cannot_be_deleted_through_the_api(lawyer_api: Any, case: Any) -> None:
    response = lawyer_api.delete(_url("case-detail", case_id=case.pk))
    _assert_error(response, 405, "method_not_allowed")
    assert Case.objects.filter(pk=case.pk).exists()


# --- Parties -------------------------------------------------------------------------


def test_party_list_create_update_delete(lawyer_api: Any, case: Any) -> None:
    existing = PartyFactory(case=case)
    list_url = _url("party-list", case_id=case.pk)
    assert [p["id"] for p in lawyer_api.get(list_url).json()] == [existing.pk]

    created = lawyer_api.post(
        list_url,
        {"role": "creditor", "kind": "business", "name": "Adler AG"},
        format="json",
    )
    assert created.status_code == 201, created.content
    party_id = created.json()["id"]
    detail_url = _url("party-detail", case_id=case.pk, party_id=party_id)
    assert lawyer_api.get(detail_url).json()["name"] == "Adler AG"

    changed = lawyer_api.patch(detail_url, {"address": "Ring 2, Köln"}, format="json")
    assert changed.status_code == 200
    assert Party.objects.get(pk=party_id).address == "Ring 2, Köln"

    assert lawyer_api.delete(detail_url).status_code == 204
    assert not Party.objects.filter(pk=party_id).exists()
    actions = list(
        AuditEvent.objects.filter(case_id=case.pk).values_list("action", flat=True)
    )
    assert actions == ["party.created", "party.updated", "party.deleted"]


def test_invalid_party_is_rejected_field_by_field(lawyer_api: Any, case: Any) -> None:
    response = lawyer_api.post(
        _url("party-list", case_id=case.pk),
        {"role": "judge", "name": "x" * 256},
        format="json",
    )
    fields = _assert_error(response, 400, "validation_error")["fields"]
    assert set(fields) == {"role", "kind", "name"}
    assert not case.parties.exists()


def test_party_of_another_case_is_not_found_under_this_case(
    lawyer_api: Any, case: Any, firm: Any
) -> None:
    elsewhere = PartyFactory(case=CaseFactory(organisation=firm))
    url = _url("party-detail", case_id=case.pk, party_id=elsewhere.pk)
    _assert_error(lawyer_api.get(url), 404, "not_found")
    _assert_error(lawyer_api.delete(url), 404, "not_found")
    assert Party.objects.filter(pk=elsewhere.pk).exists()


def test_other_firms_parties_are_not_found(lawyer_api: Any, other_case: Any) -> None:
    party = PartyFactory(case=other_case)
    list_url = _url("party-list", case_id=other_case.pk)
    _assert_error(lawyer_api.get(list_url), 404, "not_found")
    _assert_error(
        lawyer_api.post(
            list_url, {"role": "debtor", "kind": "business", "name": "X"}, format="json"
        ),
        404,
        "not_found",
    )
    detail = _url("party-detail", case_id=other_case.pk, party_id=party.pk)
    _assert_error(lawyer_api.delete(detail), 404, "not_found")
    assert other_case.parties.count() == 1


def test_curator_cannot_add_a_party(case: Any, curator: Any) -> None:
    response = _api(curator).post(
        _url("party-list", case_id=case.pk),
        {"role": "debtor", "kind": "business", "name": "X"},
        format="json",
    )
    _assert_error(response, 403, "role_required")
    assert not case.parties.exists()


def test_reviewer_cannot_delete_a_party(reviewer_api: Any, case: Any) -> None:
    party = PartyFactory(case=case)
    response = reviewer_api.delete(
        _url("party-detail", case_id=case.pk, party_id=party.pk)
    )
    _assert_error(response, 403, "role_required")
    assert Party.objects.filter(pk=party.pk).exists()


# --- Claims --------------------------------------------------------------------------


def test_claim_list_create_update_delete(lawyer_api: Any, case: Any) -> None:
    list_url = _url("claim-list", case_id=case.pk)
    created = lawyer_api.post(
        list_url,
        {"claim_type": "gdpr", "jurisdiction": "EU", "valid_at": "2026-01-31"},
        format="json",
    )
    assert created.status_code == 201, created.content
    claim_id = created.json()["id"]
    assert [c["id"] for c in lawyer_api.get(list_url).json()] == [claim_id]

    detail_url = _url("claim-detail", case_id=case.pk, claim_id=claim_id)
    changed = lawyer_api.patch(detail_url, {"valid_at": "2026-02-28"}, format="json")
    assert changed.status_code == 200
    assert changed.json()["valid_at"] == "2026-02-28"
    assert lawyer_api.get(detail_url).json()["jurisdiction"] == "EU"

    assert lawyer_api.delete(detail_url).status_code == 204
    assert not Claim.objects.filter(pk=claim_id).exists()


def test_claim_jurisdiction_defaults_to_germany(lawyer_api: Any, case: Any) -> None:
    response = lawyer_api.post(
        _url("claim-list", case_id=case.pk),
        {"claim_type": "verzugsschaden", "valid_at": "2026-05-01"},
        format="json",
    )
    assert response.json()["jurisdiction"] == "DE"


def test_invalid_claim_change_is_rejected_and_nothing_changes(
    lawyer_api: Any, case: Any
) -> None:
    claim = ClaimFactory(case=case)
    response = lawyer_api.patch(
        _url("claim-detail", case_id=case.pk, claim_id=claim.pk),
        {"claim_type": "tort", "valid_at": "2026-02-30", "jurisdiction": "GERMANY-1"},
        format="json",
    )
    fields = _assert_error(response, 400, "validation_error")["fields"]
    assert set(fields) == {"claim_type", "valid_at", "jurisdiction"}
    claim.refresh_from_db()
    assert (claim.claim_type, claim.valid_at) == ("verzugsschaden", dt.date(2026, 5, 1))


def test_reviewer_cannot_add_a_claim(reviewer_api: Any, case: Any) -> None:
    response = reviewer_api.post(
        _url("claim-list", case_id=case.pk),
        {"claim_type": "gdpr", "valid_at": "2026-01-31"},
        format="json",
    )
    _assert_error(response, 403, "role_required")
    assert not case.claims.exists()


def test_other_firms_claims_are_not_found(lawyer_api: Any, other_case: Any) -> None:
    claim = ClaimFactory(case=other_case)
    url = _url("claim-detail", case_id=other_case.pk, claim_id=claim.pk)
    _assert_error(
        lawyer_api.patch(url, {"jurisdiction": "AT"}, format="json"), 404, "not_found"
    )
    claim.refresh_from_db()
    assert claim.jurisdiction == "DE"


# --- Authentication ------------------------------------------------------------------


def test_anonymous_gets_401_json_with_a_token_challenge(case: Any) -> None:
    response = APIClient().get(_url("case-list"))
    _assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"


def test_token_is_issued_for_valid_credentials_and_authenticates(
    lawyer: Any, case: Any
) -> None:
    client = APIClient()
    response = client.post(
        _url("auth-token"),
        {"username": lawyer.username, "password": PASSWORD},
        format="json",
    )
    assert response.status_code == 200, response.content
    key = response.json()["token"]
    assert Token.objects.get(user=lawyer).key == key

    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    listing = client.get(_url("case-list"))
    assert listing.status_code == 200
    assert [row["id"] for row in listing.json()["results"]] == [case.pk]
    created = client.post(
        _url("case-list"), _valid_case(reference="TOKEN 1/26"), format="json"
    )
    assert created.status_code == 201, created.content


def test_issuing_a_token_is_audited_without_the_key(lawyer: Any, firm: Any) -> None:
    APIClient().post(
        _url("auth-token"),
        {"username": lawyer.username, "password": PASSWORD},
        format="json",
    )
    event = AuditEvent.objects.get(action="api.token_issued")
    assert event.actor_id == lawyer.pk
    assert event.organisation_id == firm.pk
    key = Token.objects.get(user=lawyer).key
    assert key not in json.dumps(event.data)
    assert key != event.target_id


def test_wrong_password_gets_no_token(lawyer: Any) -> None:
    response = APIClient().post(
        _url("auth-token"),
        {"username": lawyer.username, "password": "wrong"},
        format="json",
    )
    _assert_error(response, 400, "invalid_credentials")
    assert not Token.objects.filter(user=lawyer).exists()


def test_token_request_without_password_is_a_field_error(lawyer: Any) -> None:
    response = APIClient().post(
        _url("auth-token"), {"username": lawyer.username}, format="json"
    )
    assert set(_assert_error(response, 400, "validation_error")["fields"]) == {
        "password"
    }


def test_inactive_user_gets_no_token(lawyer: Any) -> None:
    lawyer.is_active = False
    lawyer.save()
    response = APIClient().post(
        _url("auth-token"),
        {"username": lawyer.username, "password": PASSWORD},
        format="json",
    )
    _assert_error(response, 400, "invalid_credentials")


def test_password_guessing_is_throttled(lawyer: Any) -> None:
    # A new user name per guess: the per-address throttle, not the per-user
    # lockout (tests/cases/test_login_lockout.py), is what stops this.
    client = APIClient()
    statuses = [
        client.post(
            _url("auth-token"),
            {"username": f"{lawyer.username}-{n}", "password": f"guess-{n}"},
            format="json",
        ).status_code
        for n in range(11)
    ]
    assert statuses[:10] == [400] * 10
    assert statuses[10] == 429
    response = client.post(
        _url("auth-token"),
        {"username": lawyer.username, "password": PASSWORD},
        format="json",
    )
    _assert_error(response, 429, "throttled")
    assert "Retry-After" in response


def test_an_unknown_token_is_rejected(case: Any) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    _assert_error(client.get(_url("case-list")), 401, "authentication_failed")


def test_me_names_user_firm_and_role(
    reviewer_api: Any, reviewer: Any, firm: Any
) -> None:
    body = reviewer_api.get(_url("me")).json()
    assert body["user"]["username"] == reviewer.username
    assert body["organisation"] == {
        "id": firm.pk,
        "name": "Kanzlei Adler",
        "slug": "kanzlei-adler",
        "four_eyes_review": False,
    }
    assert body["role"] == "reviewer"


def test_me_for_a_user_without_a_firm(django_user_model: Any) -> None:
    user = django_user_model.objects.create_user("operator", password=PASSWORD)
    body = _api(user).get(_url("me")).json()
    assert body["organisation"] is None
    assert body["role"] is None


def test_me_needs_authentication() -> None:
    _assert_error(APIClient().get(_url("me")), 401, "not_authenticated")


# --- Errors and schema ---------------------------------------------------------------


def test_an_unexpected_exception_becomes_a_json_500(caplog: Any) -> None:
    response = exception_handler(RuntimeError("boom"), {"request": None})
    assert response is not None
    assert response.status_code == 500
    assert response.data["code"] == "server_error"
    assert "boom" not in json.dumps(response.data)
    assert "boom" in caplog.text


def test_schema_endpoint_serves_valid_openapi_3(lawyer_api: Any) -> None:
    response = lawyer_api.get(reverse("api-schema"), {"format": "json"})
    assert response.status_code == 200
    schema = json.loads(response.content)
    assert schema["openapi"].startswith("3.")
    validate_schema(schema)
    paths = schema["paths"]
    for expected in (
        "/api/v1/cases/",
        "/api/v1/cases/{case_id}/",
        "/api/v1/cases/{case_id}/parties/{party_id}/",
        "/api/v1/cases/{case_id}/claims/{claim_id}/",
        "/api/v1/auth/token/",
        "/api/v1/me/",
    ):
        assert expected in paths
    assert {"get", "patch"} <= set(paths["/api/v1/cases/{case_id}/"])
    assert "delete" not in paths["/api/v1/cases/{case_id}/"]


def test_cases_api_schema_generates_without_warnings() -> None:
    GENERATOR_STATS.reset()
    generator = SchemaGenerator(patterns=[path("api/v1/", include("cases.api.urls"))])
    schema = generator.get_schema(request=None, public=True)
    problems = dict(GENERATOR_STATS._warn_cache) | dict(GENERATOR_STATS._error_cache)
    assert problems == {}
    validate_schema(schema)


def test_api_docs_page_works_offline(client: Any, lawyer: Any) -> None:
    client.force_login(lawyer)
    response = client.get(reverse("api-docs"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "swagger-ui" in page
    assert "drf_spectacular_sidecar" in page
    assert "cdn.jsdelivr" not in page
