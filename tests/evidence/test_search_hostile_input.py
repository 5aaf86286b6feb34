"""Hostile search input never answers 500: a NUL character, long runs of "-"
(websearch syntax PostgreSQL nests into a deep tsquery), control characters
and arbitrary text, in every search and filter parameter of the Evidence tab,
the page viewer and the search API."""

from __future__ import annotations

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from evidence.search import search_case_evidence, search_query_clean
from tests.evidence import pdfs
from tests.evidence.search_helpers import ingest

pytestmark = pytest.mark.django_db

#: Inputs that answered 500 before the fix.
KNOWN_CRASHES = ["a\x00b", "\x00", "-" * 50, "-" * 200 + "x", "- " * 60 + "x"]

hostile_text = st.one_of(
    st.sampled_from(KNOWN_CRASHES),
    st.text(
        alphabet=st.sampled_from(list('-"()!&|:*<>\\\x00\t\r\n ab1ä')), max_size=120
    ),
    st.text(max_size=60),
)


@pytest.fixture
def letter(case):
    return ingest(case, pdfs.dunning_letter(), "mahnung.pdf")


@pytest.fixture
def api(lawyer) -> APIClient:
    client = APIClient()
    client.force_authenticate(lawyer)
    return client


@pytest.mark.parametrize("query", KNOWN_CRASHES)
def test_search_service_accepts_nul_and_dash_runs(case, letter, query):
    hits = search_case_evidence(case=case, query=query)
    assert isinstance(hits, list)


def test_search_still_finds_words_around_a_nul(case, letter):
    hits = search_case_evidence(case=case, query="Mahn\x00ung Briefkasten")
    assert hits and hits[0].document == "mahnung.pdf"


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("a\x00b", "a b"),
        ("Mahnung\t\r\nZugang", "Mahnung Zugang"),
        ("-" * 50, "-"),
        ("Mahnung " + "- " * 40 + "Zugang", "Mahnung - Zugang"),
        ("Mahnung ---Zugang", "Mahnung -Zugang"),
        ("Schadens-ersatz -Verzug", "Schadens-ersatz -Verzug"),
        ("x" * 600, "x" * 500),
    ],
)
def test_query_clean_removes_control_characters_and_dash_runs(raw, clean):
    assert search_query_clean(raw) == clean


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(q=hostile_text, k=hostile_text)
def test_evidence_tab_never_answers_500(lawyer_client, case, letter, q, k):
    url = reverse("evidence:case_evidence", kwargs={"case_id": case.pk})
    for headers in (
        {},
        {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "search-results"},
    ):
        response = lawyer_client.get(url, {"q": q, "k": k}, **headers)
        assert response.status_code in (200, 400), (q, k, response.status_code)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(q=hostile_text, k=hostile_text)
def test_search_api_never_answers_500(api, case, letter, q, k):
    url = reverse("evidence-api:case-search", kwargs={"case_id": case.pk})
    response = api.get(url, {"q": q, "k": k})
    assert response.status_code in (200, 400), (q, k, response.status_code)
    if response.status_code == 400:
        assert response.json()["code"]


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(q=hostile_text, chunk=hostile_text, zoom=hostile_text)
def test_page_viewer_never_answers_500(lawyer_client, case, letter, q, chunk, zoom):
    kwargs = {"case_id": case.pk, "document_id": letter.pk, "number": 1}
    page = lawyer_client.get(
        reverse("evidence:page_view", kwargs=kwargs),
        {"q": q, "chunk": chunk, "zoom": zoom},
    )
    assert page.status_code in (200, 400), (q, chunk, zoom, page.status_code)
    image = lawyer_client.get(
        reverse("evidence:page_image", kwargs=kwargs), {"zoom": zoom}
    )
    assert image.status_code in (200, 400, 404), (zoom, image.status_code)


def test_viewer_highlights_with_sixty_dashes_in_the_query(lawyer_client, case, letter):
    chunk = letter.chunks.first()
    kwargs = {"case_id": case.pk, "document_id": letter.pk, "number": 1}
    response = lawyer_client.get(
        reverse("evidence:page_view", kwargs=kwargs),
        {"q": "-" * 60 + "Mahnung", "chunk": chunk.pk},
    )
    assert response.status_code == 200


def test_viewer_refuses_a_nul_in_the_query_with_a_clear_error(
    lawyer_client, case, letter
):
    chunk = letter.chunks.first()
    kwargs = {"case_id": case.pk, "document_id": letter.pk, "number": 1}
    response = lawyer_client.get(
        reverse("evidence:page_view", kwargs=kwargs),
        {"q": "-" * 60 + "\x00Mahnung", "chunk": chunk.pk},
    )
    assert response.status_code == 400
    assert "NUL" in response.content.decode()
