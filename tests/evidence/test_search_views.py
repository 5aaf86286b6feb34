"""The Evidence tab (search page), the search API and the search command."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from rest_framework.test import APIClient

from tests.evidence import pdfs
from tests.evidence.search_helpers import ingest

pytestmark = pytest.mark.django_db


@pytest.fixture
def letter(case):
    return ingest(case, pdfs.dunning_letter(), "mahnung.pdf")


def _tab_url(case) -> str:
    return reverse("evidence:case_evidence", kwargs={"case_id": case.pk})


def _api_url(case) -> str:
    return reverse("evidence-api:case-search", kwargs={"case_id": case.pk})


# --- Evidence tab ------------------------------------------------------------------


def test_evidence_tab_shows_the_search_box(lawyer_client, case):
    response = lawyer_client.get(_tab_url(case))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="q"' in html
    assert 'hx-target="#search-results"' in html
    assert 'id="tab-content"' in html


def test_evidence_tab_of_a_case_without_documents_points_to_the_upload(
    lawyer_client, case
):
    html = lawyer_client.get(_tab_url(case)).content.decode()
    assert "data-empty-case" in html
    documents = reverse("evidence:case_documents", kwargs={"case_id": case.pk})
    assert f'href="{documents}"' in html


def test_evidence_tab_with_documents_does_not_say_it_is_empty(
    lawyer_client, case, letter
):
    assert "data-empty-case" not in lawyer_client.get(_tab_url(case)).content.decode()


def test_evidence_tab_lists_hits_with_links_to_the_page_viewer(
    lawyer_client, case, letter
):
    response = lawyer_client.get(_tab_url(case), {"q": "Mahnung Zugang"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "mahnung.pdf" in html
    assert "<mark>" in html
    viewer = reverse(
        "evidence:page_view",
        kwargs={"case_id": case.pk, "document_id": letter.pk, "number": 1},
    )
    assert f'href="{viewer}?chunk=' in html


def test_htmx_search_answers_only_the_results(lawyer_client, case, letter):
    response = lawyer_client.get(
        _tab_url(case),
        {"q": "Briefkasten"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="search-results",
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "<mark>Briefkasten</mark>" in html
    assert "<form" not in html and "site-header" not in html


def test_evidence_tab_says_when_nothing_is_found(lawyer_client, case, letter):
    html = lawyer_client.get(_tab_url(case), {"q": "Xylophon"}).content.decode()
    assert "Xylophon" in html
    assert "<mark>" not in html


def test_other_firm_gets_404_on_the_evidence_tab(other_client, case, letter):
    assert other_client.get(_tab_url(case), {"q": "Mahnung"}).status_code == 404


# --- API -----------------------------------------------------------------------------


@pytest.fixture
def api(lawyer) -> APIClient:
    client = APIClient()
    client.force_authenticate(lawyer)
    return client


def test_api_search_returns_hits(api, case, letter):
    response = api.get(_api_url(case), {"q": "Mahnung Zugang", "k": 3})
    assert response.status_code == 200
    hits = response.json()
    assert 1 <= len(hits) <= 3
    top = hits[0]
    assert top["document_id"] == letter.pk
    assert top["document"] == "mahnung.pdf"
    assert top["page"] == 1
    assert "<mark>" in top["snippet_html"]
    assert top["url"].startswith("http://testserver/evidence/cases/")
    assert top["url"].endswith(f"?chunk={top['chunk_id']}")
    image = api.get(top["image_url"])
    assert image.status_code == 200
    assert image["Content-Type"] == "image/png"


@pytest.mark.parametrize(
    "params", [{}, {"q": ""}, {"q": "x", "k": 0}, {"q": "x", "k": 51}]
)
def test_api_search_validates_its_parameters(api, case, params):
    response = api.get(_api_url(case), params)
    assert response.status_code == 400
    assert response.json()["code"] == "validation_error"


def test_api_search_of_another_firms_case_is_404(other_lawyer, case, letter):
    client = APIClient()
    client.force_authenticate(other_lawyer)
    assert client.get(_api_url(case), {"q": "Mahnung"}).status_code == 404
    image = reverse(
        "evidence-api:page-image",
        kwargs={"case_id": case.pk, "document_id": letter.pk, "number": 1},
    )
    assert client.get(image).status_code == 404


def test_api_search_needs_authentication(case):
    response = APIClient().get(_api_url(case), {"q": "Mahnung"})
    assert response.status_code == 401


# --- command -------------------------------------------------------------------------


def test_search_command_prints_ranked_hits(case, letter):
    out = StringIO()
    call_command("search", "Mahnung Zugang", "--case", case.reference, stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(" 1. ")
    assert "mahnung.pdf, p. 1" in lines[0]
    assert "[chunk " in lines[0]
    assert "»" in lines[1] and "«" in lines[1]


def test_search_command_json(case, letter):
    out = StringIO()
    call_command(
        "search", "4.250,00", "--case", case.reference, "--json", "--k", "2", stdout=out
    )
    data = json.loads(out.getvalue())
    assert data["case"] == case.reference
    assert 1 <= len(data["hits"]) <= 2
    assert "4.250,00" in data["hits"][0]["snippet"]


def test_search_command_with_unknown_case_fails(case):
    with pytest.raises(CommandError, match="No case"):
        call_command("search", "Mahnung", "--case", "1 X 0/00", stdout=StringIO())


def test_search_command_says_when_nothing_is_found(case):
    out = StringIO()
    call_command("search", "Mahnung", "--case", case.reference, stdout=out)
    assert out.getvalue().strip() == f"No hits for 'Mahnung' in {case.reference}."


def test_the_upload_date_filters_take_german_dates_and_name_a_bad_one(
    lawyer_client, case, letter
):
    import datetime as dt

    from django.utils import timezone

    today = timezone.localdate()
    german = today.strftime("%d.%m.%Y")
    found = lawyer_client.get(_tab_url(case), {"q": "Mahnung", "from": german})
    html = found.content.decode()
    assert 'class="hit"' in html
    assert f'value="{german}"' in html  # shown as typed, in the page's form
    later = (today + dt.timedelta(days=2)).strftime("%d.%m.%Y")
    none = lawyer_client.get(_tab_url(case), {"q": "Mahnung", "from": later})
    assert 'class="hit"' not in none.content.decode()  # the filter is applied
    bad = lawyer_client.get(_tab_url(case), {"q": "Mahnung", "from": "31.02.2026"})
    text = bad.content.decode()
    assert bad.status_code == 200
    assert "data-filter-error" in text
    assert "„31.02.2026“ ist kein Datum (TT.MM.JJJJ)" in text
    assert 'class="hit"' in text  # the query still answers, without the filter
