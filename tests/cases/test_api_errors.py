import pytest

pytestmark = pytest.mark.django_db


def test_unknown_api_path_answers_json_404(lawyer_client):
    response = lawyer_client.get("/api/v1/no-such-thing/")

    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "message": "No such resource."}


def test_unknown_page_answers_html_404(lawyer_client):
    response = lawyer_client.get("/no-such-page/")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
