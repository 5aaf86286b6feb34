"""POST /api/v1/citations/check/: the same JSON as ``cite --json``."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

URL = "/api/v1/citations/check/"


def test_url_is_named() -> None:
    assert reverse("citations-api:check") == URL


@pytest.mark.django_db
def test_anonymous_gets_a_json_error() -> None:
    response = Client().post(
        URL, {"text": "§ 433 BGB"}, content_type="application/json"
    )
    assert response.status_code in (401, 403)
    assert response.json()["code"] == "not_authenticated"


@pytest.mark.corpus
@pytest.mark.django_db
def test_member_gets_every_citation_resolved(corpus, lawyer_client: Client) -> None:
    response = lawyer_client.post(
        URL,
        {"text": "Art. 6 Abs. 1 lit. f DSGVO und § 9999 BGB", "at": "2025-01-01"},
        content_type="application/json",
    )
    assert response.status_code == 200
    body = response.json()
    assert [c["status"] for c in body] == ["resolved", "not_found"]
    assert body[0]["version"]["valid_from"] == "2018-05-23"
    assert body[1]["reason"].startswith("no_version_at_date")  # BGB pinned 2026


@pytest.mark.corpus
@pytest.mark.django_db
def test_default_instrument_binds_unnamed_citations(
    corpus, lawyer_client: Client
) -> None:
    response = lawyer_client.post(
        URL,
        {"text": "Art. 9 Abs. 2 lit. a", "default_instrument": "KI-VO"},
        content_type="application/json",
    )
    (item,) = response.json()
    assert item["canonical"] == "eu/reg/2024/1689/art/9/para/2/point/a"
    assert item["status"] == "resolved"
    assert item["parts"]["instrument"] == "32024R1689"


@pytest.mark.django_db
def test_missing_text_is_a_validation_error(lawyer_client: Client) -> None:
    response = lawyer_client.post(URL, {}, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "validation_error"
    assert "text" in response.json()["fields"]


@pytest.mark.django_db
def test_unknown_default_instrument_is_a_domain_error(lawyer_client: Client) -> None:
    response = lawyer_client.post(
        URL,
        {"text": "Art. 1", "default_instrument": "XYZ-Gesetz"},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_instrument"


@pytest.mark.django_db
def test_other_firm_member_sees_the_same_public_corpus(
    lawyer_client: Client, other_client: Client
) -> None:
    payload = {"text": "§ 91 VwGO"}
    a = lawyer_client.post(URL, payload, content_type="application/json").json()
    b = other_client.post(URL, payload, content_type="application/json").json()
    assert a == b
    assert a[0]["status"] == "not_checked"
