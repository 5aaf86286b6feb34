import pytest

pytestmark = pytest.mark.django_db


def test_pages_are_german_even_when_the_browser_asks_for_english(lawyer_client):
    response = lawyer_client.get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")

    assert response.status_code == 200
    assert response["Content-Language"] == "de"


def test_the_language_switch_chooses_english(lawyer_client):
    lawyer_client.post("/i18n/setlang/", {"language": "en", "next": "/"})

    response = lawyer_client.get("/", HTTP_ACCEPT_LANGUAGE="de")

    assert response["Content-Language"] == "en"


def test_an_unknown_language_cookie_falls_back_to_german(lawyer_client):
    from django.conf import settings

    lawyer_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "xx"

    assert lawyer_client.get("/")["Content-Language"] == "de"


def test_not_found_page_is_the_products_own(lawyer_client):
    response = lawyer_client.get("/cases/999999/")

    assert response.status_code == 404
    assert b"Belegt" in response.content


def test_forbidden_page_is_the_products_own(reviewer_client, case):
    response = reviewer_client.get(f"/cases/{case.pk}/edit/")

    assert response.status_code == 403
    assert b"Belegt" in response.content
