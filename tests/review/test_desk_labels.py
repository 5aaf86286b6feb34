"""The desk speaks German from the vocabulary: list rows and the item show a
fact kind's rdfs:label, the type filter offers only the kinds of the case's
claims, the editor and the task lock use no internal names."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from ontology.vocabulary import vocabulary_base
from review.selectors import case_fact_types
from tests.factories import ClaimFactory
from tests.review.helpers import make_proposal

pytestmark = pytest.mark.django_db


def _verzug_keys() -> set[str]:
    return {
        key
        for key, info in vocabulary_base().types.items()
        if "verzugsschaden" in info.claim_types
    }


def test_type_filter_lists_only_the_claims_fact_kinds(case: Any) -> None:
    ClaimFactory(case=case)  # Verzugsschaden
    keys = {key for key, _ in case_fact_types(case=case)}
    assert keys == _verzug_keys()
    others = {
        key
        for key, info in vocabulary_base().types.items()
        if info.claim_types and not info.claim_types & {"verzugsschaden"}
    }
    assert others and not keys & others


def test_case_without_claim_offers_the_whole_vocabulary(case: Any) -> None:
    keys = {key for key, _ in case_fact_types(case=case)}
    assert keys == set(vocabulary_base().types)


def test_review_page_shows_german_labels_not_keys(
    case: Any, reviewer_client: Any
) -> None:
    ClaimFactory(case=case)
    make_proposal(case)  # reminder_sent
    response = reviewer_client.get(
        reverse("review:case_review", kwargs={"case_id": case.pk})
    )
    html = response.content.decode()
    label = vocabulary_base().types["reminder_sent"].label_de
    row = re.search(r'<span class="rq-row__type">([^<]*)</span>', html)
    assert row and row.group(1) == label
    options = re.findall(r'<option value="([a-z_]+)"[^>]*>([^<]*)</option>', html)
    fact_options = {k: v for k, v in options if k in vocabulary_base().types}
    assert set(fact_options) == _verzug_keys()
    assert all(v and v != k for k, v in fact_options.items())
    assert "Wert (date)" not in html and "(date)" not in html
    assert "In Bearbeitung bei" in html
    assert ">Anspruch<" not in html
