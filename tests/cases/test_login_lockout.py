"""Password guessing: django-axes locks a user name + address after 10 wrong
passwords for 15 minutes (page and token API), and the DRF throttle counts in
the database cache that every web process shares."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.db import DatabaseCache
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_counts() -> None:
    cache.clear()


def _login(client: Any, username: str, password: str) -> Any:
    return client.post(reverse("login"), {"username": username, "password": password})


def test_thirty_wrong_passwords_lock_the_account_from_that_address(
    client: Any, lawyer: Any
) -> None:
    statuses = [
        _login(client, lawyer.username, f"falsch-{n}").status_code for n in range(30)
    ]
    # The login form answers 200 (form with error) until the 10th failure.
    assert statuses[:9] == [200] * 9
    assert statuses[9:] == [429] * 21
    locked = _login(client, lawyer.username, PASSWORD)
    assert locked.status_code == 429
    html = locked.content.decode()
    assert "data-locked-out" in html and "15 Minuten" in html
    assert "_auth_user_id" not in client.session


def test_the_lockout_ends_after_fifteen_minutes(client: Any, lawyer: Any) -> None:
    for n in range(10):
        _login(client, lawyer.username, f"falsch-{n}")
    assert _login(client, lawyer.username, PASSWORD).status_code == 429
    with time_machine.travel(timezone.now() + timedelta(minutes=16)):
        response = _login(client, lawyer.username, PASSWORD)
        assert response.status_code == 302
        assert client.session["_auth_user_id"] == str(lawyer.pk)


def test_another_address_is_not_locked_out(lawyer: Any) -> None:
    from django.test import Client

    attacker = Client(REMOTE_ADDR="203.0.113.9")
    for n in range(12):
        _login(attacker, lawyer.username, f"falsch-{n}")
    owner = Client(REMOTE_ADDR="198.51.100.7")
    assert _login(owner, lawyer.username, PASSWORD).status_code == 302


def test_the_token_endpoint_is_locked_out_too(lawyer: Any) -> None:
    client = APIClient()
    url = reverse("cases-api:auth-token")
    for n in range(10):
        client.post(
            url, {"username": lawyer.username, "password": f"x{n}"}, format="json"
        )
    cache.clear()  # not the throttle: the lockout refuses the right password
    response = client.post(
        url, {"username": lawyer.username, "password": PASSWORD}, format="json"
    )
    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "locked_out" and body["message"]
    assert int(response["Retry-After"]) == 15 * 60


def test_the_throttle_counter_lives_in_the_database_cache(lawyer: Any) -> None:
    assert settings.CACHES["default"]["BACKEND"].endswith("db.DatabaseCache")
    client = APIClient()
    url = reverse("cases-api:auth-token")
    for n in range(10):
        client.post(url, {"username": f"nobody-{n}", "password": "x"}, format="json")
    table = settings.CACHES["default"]["LOCATION"]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT count(*) FROM {connection.ops.quote_name(table)} "
            "WHERE cache_key LIKE %s",
            ["%throttle_auth_token%"],
        )
        (rows,) = cursor.fetchone()
    assert rows == 1
    # A second cache instance, as another gunicorn process would build it,
    # reads the same history: the 11th attempt from this address is throttled.
    other_process_cache = DatabaseCache(table, {})
    key = next(k for k in _cache_keys(table) if "throttle_auth_token" in k)
    history = other_process_cache.get(key.split(":", 2)[-1])
    assert history is not None and len(history) == 10
    del caches["default"]  # drop this process's cache object
    response = client.post(
        url, {"username": "nobody-11", "password": "x"}, format="json"
    )
    assert response.status_code == 429
    assert response.json()["code"] == "throttled"


def _cache_keys(table: str) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT cache_key FROM {connection.ops.quote_name(table)}")
        return [row[0] for row in cursor.fetchall()]
