"""The Zitatprüfung page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse


@pytest.mark.django_db
def test_anonymous_is_sent_to_login() -> None:
    response = Client().get(reverse("citations:check"))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


@pytest.mark.django_db
def test_page_shows_the_form(lawyer_client: Client) -> None:
    response = lawyer_client.get(reverse("citations:check"))
    assert response.status_code == 200
    body = response.content.decode()
    assert 'name="text"' in body
    assert 'hx-post="/citations/"' in body


@pytest.mark.corpus
@pytest.mark.django_db
def test_htmx_post_returns_the_highlighted_text(corpus, lawyer_client: Client) -> None:
    text = "Nach § 286 Abs. 2 Nr. 3 BGB und § 44 DSGVO <b>nicht</b>."
    response = lawyer_client.post(
        reverse("citations:check"), {"text": text}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "<html" not in body
    assert 'id="citation-results"' in body
    assert 'class="cite cite--resolved"' in body
    assert 'class="cite cite--bad_unit"' in body
    assert "ernsthaft und endgültig verweigert" in body  # provision text on hover
    assert "&lt;b&gt;nicht&lt;/b&gt;" in body  # the pasted text is escaped


@pytest.mark.corpus
@pytest.mark.django_db
def test_full_page_post_without_htmx(corpus, lawyer_client: Client) -> None:
    response = lawyer_client.post(reverse("citations:check"), {"text": "§ 433 BGB"})
    body = response.content.decode()
    assert "<html" in body
    assert "cite--resolved" in body


@pytest.mark.corpus
@pytest.mark.django_db
def test_a_statute_list_is_one_row_group(corpus, lawyer_client: Client) -> None:
    response = lawyer_client.post(
        reverse("citations:check"),
        {"text": "Nach §§ 280, 288 BGB und § 433 BGB."},
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert body.count('class="cite-group"') == 2
    assert 'data-group-size="2"' in body
    assert '<td rowspan="2">§§ 280, 288 BGB</td>' in body
