"""Personas and shared fixtures.

- ``firm`` with ``lawyer``, ``reviewer``, ``curator`` and ``admin_member``;
- ``other_firm`` with ``other_lawyer`` and ``other_case`` (tenancy tests);
- ``celery_worker`` starts a real worker process for integration tests.
"""

from __future__ import annotations

import os

import pytest
from django.test import Client

from cases.models import Membership
from tests.factories import CaseFactory, MembershipFactory, OrganisationFactory

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

pytest_plugins = ["tests.worker"]

PASSWORD = "pw-Belegt-123"


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
