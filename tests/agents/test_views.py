"""Agent runs on the case page: the list under the Review tab and a run step
by step; another firm's runs are not found."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from agents.models import AgentRun
from tests.agents.helpers import fact, run_scripted

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_run(case, lawyer, letter_chunk):
    run, _, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[
            [
                ("propose_case_fact", fact(letter_chunk)),
                ("propose_case_fact", fact(letter_chunk, quote="erfundenes Zitat")),
            ]
        ],
    )
    return run


def test_run_list_shows_the_runs_of_the_case_under_the_review_tab(
    lawyer_client, case, finished_run
):
    response = lawyer_client.get(reverse("agents:case_runs", args=[case.pk]))
    assert response.status_code == 200
    assert response.context["active_tab"] == "review"
    body = response.content.decode()
    assert reverse("agents:run_detail", args=[case.pk, finished_run.pk]) in body
    assert f"#{finished_run.pk}" in body
    assert 'name="provider"' in body  # lawyers may start a run


def test_reviewer_sees_runs_but_cannot_start_one(reviewer_client, case, finished_run):
    body = reviewer_client.get(reverse("agents:case_runs", args=[case.pk])).content
    assert b'name="provider"' not in body
    response = reviewer_client.post(reverse("agents:run_start", args=[case.pk]))
    assert response.status_code == 403
    assert AgentRun.objects.count() == 1


def test_run_detail_shows_each_step_with_its_verdict(lawyer_client, case, finished_run):
    url = reverse("agents:run_detail", args=[case.pk, finished_run.pk])
    body = lawyer_client.get(url).content.decode()
    assert "quote_not_in_chunk" in body
    assert "erfundenes Zitat" in body  # the raw proposal, verbatim
    assert "unsere Rechnung war zahlbar bis zum 26.04.2026." in body  # the proposal
    only_rejected = lawyer_client.get(url, {"verdict": "rejected"}).content.decode()
    assert "erfundenes Zitat" in only_rejected
    assert only_rejected.count('class="step step--') == 1


def test_polling_a_finished_run_stops_the_polling(lawyer_client, case, finished_run):
    url = reverse("agents:run_detail", args=[case.pk, finished_run.pk])
    response = lawyer_client.get(url, {"poll": 1}, HTTP_HX_REQUEST="true")
    assert response.status_code == 286
    assert response["HX-Refresh"] == "true"  # steps rendered mid-run get reloaded
    runs = reverse("agents:case_runs", args=[case.pk])
    assert (
        lawyer_client.get(runs, {"poll": 1}, HTTP_HX_REQUEST="true").status_code == 286
    )


def test_polling_a_running_run_returns_its_summary(lawyer_client, case, finished_run):
    AgentRun.objects.filter(pk=finished_run.pk).update(status=AgentRun.Status.RUNNING)
    url = reverse("agents:run_detail", args=[case.pk, finished_run.pk])
    response = lawyer_client.get(url, {"poll": 1}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert b'id="run-summary"' in response.content
    assert b'hx-trigger="every 2s"' in response.content


def test_lawyer_starts_an_extraction_that_is_queued_for_the_workers(
    lawyer_client, case, letter_chunk, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = lawyer_client.post(
            reverse("agents:run_start", args=[case.pk]), {"provider": "rules"}
        )
    [run] = AgentRun.objects.all()
    assert response.status_code == 302
    assert response["Location"] == reverse("agents:run_detail", args=[case.pk, run.pk])
    assert run.status == AgentRun.Status.QUEUED and run.provider == "rules"
    assert len(callbacks) == 1


def test_other_firm_gets_404_for_runs_of_this_case(other_client, case, finished_run):
    assert (
        other_client.get(reverse("agents:case_runs", args=[case.pk])).status_code == 404
    )
    detail = reverse("agents:run_detail", args=[case.pk, finished_run.pk])
    assert other_client.get(detail).status_code == 404
    start = reverse("agents:run_start", args=[case.pk])
    assert other_client.post(start).status_code == 404


def test_run_of_another_case_is_not_found_under_this_case(
    lawyer_client, case, finished_run, firm
):
    from tests import factories

    CaseFactory: Any = factories.CaseFactory

    sibling = CaseFactory(organisation=firm)
    url = reverse("agents:run_detail", args=[sibling.pk, finished_run.pk])
    assert lawyer_client.get(url).status_code == 404


def test_pages_speak_german_by_default_and_english_on_request(
    lawyer_client, case, finished_run
):
    url = reverse("agents:run_detail", args=[case.pk, finished_run.pk])
    german = lawyer_client.get(url).content.decode()
    assert "Agentenlauf" in german and "Grund für das Ende" in german
    runs = lawyer_client.get(reverse("agents:case_runs", args=[case.pk]))
    assert "Extraktion starten" in runs.content.decode()
    lawyer_client.cookies["django_language"] = "en"
    english = lawyer_client.get(url).content.decode()
    assert "What the model proposed (verbatim)" in english
