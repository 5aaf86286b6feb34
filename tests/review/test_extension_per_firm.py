"""The ontology extension belongs to a firm (issue 13 item 6): a term firm B's
curator accepts extends firm B's vocabulary only, in every process that asks
for it (nothing is loaded into a process), and each firm counts its own
extension versions.

Measured on main before the change: firm A's extension API answered firm B's
version 1 with B's Turtle, and a second firm's first term became version 2."""

from __future__ import annotations

from typing import Any

import pytest
from django.http import Http404
from django.urls import reverse
from rest_framework.test import APIClient

from cases.models import Membership
from review.models import Fact, OntologyExtension
from review.selectors import (
    ontology_extension_graph_latest,
    vocabulary_for_case,
    vocabulary_for_organisation,
)
from review.services.terms import term_candidate_decide
from tests.conftest import _client_for, _member
from tests.review.helpers import make_proposal, make_term

pytestmark = pytest.mark.django_db

DAMAGE_ITEM = "https://belegt.example/ns/facttype#damage_item"
AMOUNT = {"cents": 500, "currency": "EUR"}


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _accept(case: Any, curator: Any, label: str) -> None:
    term_candidate_decide(
        candidate=make_term(case, label=label),
        curator=curator,
        resolution="subclass",
        concept=DAMAGE_ITEM,
        reason="häufig",
    )


@pytest.fixture
def other_curator(other_firm: Any) -> Any:
    return _member(other_firm, Membership.Role.CURATOR, "cora.other")


@pytest.fixture
def other_reviewer(other_firm: Any) -> Any:
    return _member(other_firm, Membership.Role.REVIEWER, "rolf.other")


@pytest.fixture
def firm_b_term(other_case: Any, other_curator: Any) -> str:
    """Firm B's curator accepts "Inkassokosten" under damage_item."""
    _accept(other_case, other_curator, "Inkassokosten")
    return "ext_inkassokosten"


def test_firm_a_does_not_see_firm_bs_extension_on_the_api_or_page(
    firm_b_term: str, curator: Any, lawyer: Any
) -> None:
    for user in (curator, lawyer):
        body = _api(user).get(reverse("review-api:ontology-extension")).json()
        assert body == {"version": 0, "turtle": ""}
        types = _api(user).get(reverse("ontology-api:fact-types")).json()
        assert firm_b_term not in {t["key"] for t in types}
        listed = _api(user).get(reverse("review-api:term-list"), {"status": "all"})
        assert "Inkassokosten" not in listed.content.decode()
        page = _client_for(user).get(reverse("review:terms"), {"status": "all"})
        assert page.status_code == 200
        assert "Inkassokosten" not in page.content.decode()


def test_firm_b_sees_its_own_extension(firm_b_term: str, other_curator: Any) -> None:
    body = _api(other_curator).get(reverse("review-api:ontology-extension")).json()
    assert body["version"] == 1 and "Inkassokosten" in body["turtle"]
    types = _api(other_curator).get(reverse("ontology-api:fact-types")).json()
    assert firm_b_term in {t["key"] for t in types}


def test_firm_bs_term_is_not_in_firm_as_vocabulary(
    firm_b_term: str, case: Any, other_case: Any
) -> None:
    assert firm_b_term not in vocabulary_for_case(case)
    assert vocabulary_for_case(case).version == 0
    assert firm_b_term in vocabulary_for_case(other_case)


def test_firm_b_accepts_an_extension_type_proposal_over_the_api(
    firm_b_term: str, other_case: Any, other_reviewer: Any
) -> None:
    """A web process that never ran an agent knows the firm's extension."""
    proposal = make_proposal(other_case, fact_type=firm_b_term, value=AMOUNT)
    response = _api(other_reviewer).post(
        reverse("review-api:proposal-decide", kwargs={"proposal_id": proposal.pk}),
        {"action": "accept"},
        format="json",
    )
    assert response.status_code == 200, response.content
    fact = Fact.objects.get(case=other_case)
    # a subclass of damage_item takes its record shape: {"amount": ...}
    assert fact.fact_type == firm_b_term and fact.value == {"amount": AMOUNT}


def test_firm_b_accepts_an_extension_type_proposal_on_the_page(
    firm_b_term: str, other_case: Any, other_reviewer: Any
) -> None:
    proposal = make_proposal(other_case, fact_type=firm_b_term, value=AMOUNT)
    page = _client_for(other_reviewer).get(
        reverse("review:proposal_detail", kwargs={"proposal_id": proposal.pk})
    )
    assert page.status_code in (200, 302)
    response = _client_for(other_reviewer).post(
        reverse("review:proposal_decide", kwargs={"proposal_id": proposal.pk}),
        {"action": "accept"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert Fact.objects.filter(case=other_case, fact_type=firm_b_term).exists()


def test_firm_a_cannot_accept_a_proposal_of_firm_bs_term(
    firm_b_term: str, case: Any, reviewer: Any
) -> None:
    proposal = make_proposal(case, fact_type=firm_b_term, value=AMOUNT)
    response = _api(reviewer).post(
        reverse("review-api:proposal-decide", kwargs={"proposal_id": proposal.pk}),
        {"action": "accept"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_fact_type"
    assert not Fact.objects.filter(case=case).exists()


def test_two_firms_count_their_extension_versions_independently(
    case: Any, curator: Any, other_case: Any, other_curator: Any
) -> None:
    _accept(case, curator, "Mahnspesen")
    _accept(other_case, other_curator, "Inkassokosten")
    _accept(other_case, other_curator, "Auskunfteikosten")
    a, b = case.organisation_id, other_case.organisation_id
    assert list(
        OntologyExtension.objects.filter(organisation_id=a).values_list(
            "version", flat=True
        )
    ) == [1]
    assert sorted(
        OntologyExtension.objects.filter(organisation_id=b).values_list(
            "version", flat=True
        )
    ) == [1, 2]
    assert "Inkassokosten" not in ontology_extension_graph_latest(organisation_id=a)
    assert "Mahnspesen" not in ontology_extension_graph_latest(organisation_id=b)
    assert (
        vocabulary_for_organisation(a).keys()
        & {
            "ext_inkassokosten",
            "ext_auskunfteikosten",
        }
        == set()
    )
    assert "ext_mahnspesen" in vocabulary_for_organisation(a)
    assert {"ext_inkassokosten", "ext_auskunfteikosten"} <= vocabulary_for_organisation(
        b
    ).keys()


def test_a_new_version_is_seen_without_reloading_anything(
    case: Any, curator: Any
) -> None:
    assert "ext_mahnspesen" not in vocabulary_for_case(case)
    _accept(case, curator, "Mahnspesen")
    assert vocabulary_for_case(case).version == 1
    assert "ext_mahnspesen" in vocabulary_for_case(case)


def test_a_curator_of_firm_a_cannot_decide_firm_bs_term(
    other_case: Any, curator: Any
) -> None:
    term = make_term(other_case, label="Inkassokosten")
    with pytest.raises(Http404):
        term_candidate_decide(
            candidate=term, curator=curator, resolution="subclass", concept=DAMAGE_ITEM
        )
    assert not OntologyExtension.objects.exists()


def test_the_migration_splits_the_global_chain_into_one_per_firm(
    case: Any, curator: Any, other_case: Any, other_curator: Any
) -> None:
    """The data step of review/0004: rows as the global chain left them (one
    numbering, each version holding every firm's terms) become one chain per
    firm holding only that firm's terms; the reverse numbers them globally."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module(
        "review.migrations.0006_extension_per_organisation"
    )
    _accept(case, curator, "Mahnspesen")
    _accept(other_case, other_curator, "Inkassokosten")
    # as the global chain stored them: firm B's term was version 2 of one
    # graph that also held firm A's term, both rows under one firm
    a, b = case.organisation_id, other_case.organisation_id
    first = OntologyExtension.objects.get(organisation_id=a)
    second = OntologyExtension.objects.get(organisation_id=b)
    mixed = first.turtle + second.turtle
    OntologyExtension.objects.filter(pk=second.pk).update(
        organisation_id=a, version=2, turtle=mixed
    )

    migration._forward(apps, None)

    chains = {
        org: list(
            OntologyExtension.objects.filter(organisation_id=org).order_by("version")
        )
        for org in (a, b)
    }
    assert [e.version for e in chains[a]] == [1]
    assert [e.version for e in chains[b]] == [1]
    assert "Mahnspesen" in chains[a][0].turtle
    assert "Inkassokosten" not in chains[a][0].turtle
    assert "Inkassokosten" in chains[b][0].turtle
    assert "Mahnspesen" not in chains[b][0].turtle
    assert "ext_inkassokosten" in vocabulary_for_organisation(b)
    assert "ext_inkassokosten" not in vocabulary_for_organisation(a)

    migration._reverse(apps, None)
    assert sorted(OntologyExtension.objects.values_list("version", flat=True)) == [
        1,
        2,
    ]


def test_a_report_labels_a_firms_term_with_its_label_not_its_key(
    firm_b_term: str, case: Any, other_case: Any
) -> None:
    from reports.domain.drafting import fact_type_label

    label = fact_type_label(firm_b_term, "de", vocabulary_for_case(other_case))
    assert label == "Inkassokosten"
    assert fact_type_label(firm_b_term, "de", vocabulary_for_case(case)) == firm_b_term
