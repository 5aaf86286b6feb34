"""Personas and shared fixtures.

- ``firm`` with ``lawyer``, ``reviewer``, ``curator`` and ``admin_member``;
- ``other_firm`` with ``other_lawyer`` and ``other_case`` (tenancy tests);
- ``celery_worker`` starts a real worker process for integration tests.

The test runner is one of the places that start the embedded PostgreSQL
(``config.embedded_db.local_environment_prepare``): just before the test
databases are created, and only when DATABASE_URL is not set.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from cases.models import Membership
from config.embedded_db import local_environment_prepare
from tests.factories import CaseFactory, MembershipFactory, OrganisationFactory

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

pytest_plugins = ["tests.worker"]

PASSWORD = "pw-Belegt-123"


def pytest_configure(config: pytest.Config) -> None:
    # WhiteNoise expects STATIC_ROOT to exist; the settings themselves write nothing.
    Path(settings.STATIC_ROOT).mkdir(parents=True, exist_ok=True)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None,
) -> None:
    """Start (or attach to) the embedded server the settings point at, before
    pytest-django creates the test databases. Tests without a database never
    start it."""
    local_environment_prepare(secret_key=False)


@pytest.fixture
def firm():
    return OrganisationFactory(name="Kanzlei Adler", slug="kanzlei-adler")


@pytest.fixture
def other_firm():
    return OrganisationFactory(name="Kanzlei Berg", slug="kanzlei-berg")


def _member(organisation, role, username):
    return MembershipFactory(
        organisation=organisation, role=role, user__username=username
    ).user


@pytest.fixture
def lawyer(firm):
    return _member(firm, Membership.Role.LAWYER, "anna.lawyer")


@pytest.fixture
def reviewer(firm):
    return _member(firm, Membership.Role.REVIEWER, "rolf.reviewer")


@pytest.fixture
def curator(firm):
    return _member(firm, Membership.Role.CURATOR, "clara.curator")


@pytest.fixture
def admin_member(firm):
    return _member(firm, Membership.Role.ADMIN, "adam.admin")


@pytest.fixture
def other_lawyer(other_firm):
    return _member(other_firm, Membership.Role.LAWYER, "otto.other")


@pytest.fixture
def case(firm):
    return CaseFactory(organisation=firm, reference="12 O 345/26")


@pytest.fixture
def other_case(other_firm):
    return CaseFactory(organisation=other_firm, reference="99 O 1/26")


def _client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def lawyer_client(lawyer) -> Client:
    return _client_for(lawyer)


@pytest.fixture
def reviewer_client(reviewer) -> Client:
    return _client_for(reviewer)


@pytest.fixture
def curator_client(curator) -> Client:
    return _client_for(curator)


@pytest.fixture
def other_client(other_lawyer) -> Client:
    return _client_for(other_lawyer)
