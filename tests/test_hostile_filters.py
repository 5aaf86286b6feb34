"""Every list filter and search parameter of the pages and the API answers
hostile input (a NUL, runs of "-", control characters, odd digits, arbitrary
text) with 2xx/3xx or a 4xx that says what is wrong, never 500."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

hostile = st.one_of(
    st.sampled_from(["\x00", "a\x00b", "-" * 60, "²", "١٢", "9" * 30, "-1", "1e400"]),
    st.text(alphabet=st.sampled_from(list('-"()!&|:*\x00\t\r\n ab1²ä%')), max_size=60),
    st.text(max_size=40),
)

#: (URL name, kwargs from the case, query parameters)
PAGES = [
    ("cases:list", False, ["q", "page", "status"]),
    (
        "review:queue",
        False,
        ["case", "fact_type", "status", "min_confidence", "max_confidence",
         "assignee", "after", "before", "item", "filters"],
    ),
    ("review:terms", False, ["status"]),
    ("agents:case_runs", True, ["page", "poll"]),
    ("ontology:case_requirements_verdicts", True, ["since"]),
    ("evidence:case_evidence", True, ["q", "k"]),
]  # fmt: skip
APIS = [
    ("cases-api:case-list", False, ["search", "status", "page"]),
    (
        "review-api:proposal-list",
        False,
        ["case", "fact_type", "status", "min_confidence", "max_confidence",
         "assignee", "after", "limit"],
    ),
    ("review-api:fact-list", False, ["case", "status"]),
    ("review-api:term-list", False, ["status"]),
    ("review-api:decision-list", False, ["case"]),
    ("reports-api:report-list", False, ["case"]),
    ("ontology-api:case-evaluation", True, ["at"]),
    ("evidence-api:case-search", True, ["q", "k"]),
]  # fmt: skip


def _url(name: str, with_case: bool, case: Any) -> str:
    return reverse(name, kwargs={"case_id": case.pk} if with_case else None)


_settings = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


@pytest.mark.parametrize(
    ("name", "with_case", "params"), PAGES, ids=[p[0] for p in PAGES]
)
@_settings
@given(data=st.data())
def test_page_filters_never_answer_500(
    admin_member: Any,
    case: Any,
    name: str,
    with_case: bool,
    params: list[str],
    data: Any,
) -> None:
    client = Client()
    client.force_login(admin_member)
    query = {p: data.draw(hostile, label=p) for p in params}
    response = client.get(_url(name, with_case, case), query)
    assert response.status_code < 500, (name, query)


@pytest.mark.parametrize(
    ("name", "with_case", "params"), APIS, ids=[a[0] for a in APIS]
)
@_settings
@given(data=st.data())
def test_api_filters_never_answer_500(
    admin_member: Any,
    case: Any,
    name: str,
    with_case: bool,
    params: list[str],
    data: Any,
) -> None:
    client = APIClient()
    client.force_authenticate(admin_member)
    query = {p: data.draw(hostile, label=p) for p in params}
    response = client.get(_url(name, with_case, case), query)
    assert response.status_code < 500, (name, query)
    if response.status_code == 400:
        assert response.json()["code"]
