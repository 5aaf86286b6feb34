"""Every page of a lived-in case, rendered in German, shows no English status
word and no Python dict dump (``{'date': …}``): stored codes are translated at
display time, JSON values are shown in words."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.urls import reverse

from agents.models import AgentRun
from review.services.decisions import proposal_accept, proposal_reject
from tests.evidence.pdfs import document_storage, ingested_document  # noqa: F401
from tests.factories import ClaimFactory, PartyFactory
from tests.review.helpers import make_proposal

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("document_storage")]

#: Status codes as stored; on a German page each must appear translated.
ENGLISH_STATUS = re.compile(
    r"\b(pending|accepted|rejected|superseded|asserted|disputed|evidenced|"
    r"confirmed|withdrawn|queued|running|finished|failed|resolved|not_found|"
    r"unpinned_at_date|bad_unit|not_checked|no_such_\w+|tool_call|"
    r"approval_required|human_review_required|step_limit)\b"
)
DICT_DUMP = re.compile(r"\{'|\{&#x27;|'\}")


def _visible_text(page: str) -> str:
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S | re.I)
    page = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(page)


@pytest.fixture
def lived_in_case(case: Any, reviewer: Any) -> dict[str, Any]:
    PartyFactory(case=case)
    ClaimFactory(case=case)
    document = ingested_document(case)
    run = AgentRun.objects.create(
        case=case,
        provider="rules",
        goal="Tatsachen vorschlagen",
        envelope={},
        status=AgentRun.Status.FINISHED,
    )
    accepted = make_proposal(case, agent_run_id=run.pk)
    fact = proposal_accept(proposal=accepted, reviewer=reviewer)
    rejected = make_proposal(case, value={"date": "2026-05-06"}, agent_run_id=run.pk)
    proposal_reject(proposal=rejected, reviewer=reviewer)
    make_proposal(case, value={"date": "2026-05-07"}, agent_run_id=run.pk)
    return {"case": case, "document": document, "run": run, "fact": fact}


def _pages(data: dict[str, Any]) -> list[str]:
    case = data["case"].pk
    return [
        reverse("cases:list"),
        reverse("evidence:case_documents", kwargs={"case_id": case}),
        reverse("evidence:case_evidence", kwargs={"case_id": case}) + "?q=Mahnung",
        reverse("review:case_review", kwargs={"case_id": case}) + "?status=all",
        reverse("review:case_facts", kwargs={"case_id": case}),
        reverse("review:fact_detail", kwargs={"fact_id": data["fact"].pk}),
        reverse("review:queue") + "?status=all",
        reverse("agents:case_runs", kwargs={"case_id": case}),
        reverse(
            "agents:run_detail", kwargs={"case_id": case, "run_id": data["run"].pk}
        ),
        reverse("ontology:case_requirements", kwargs={"case_id": case}),
    ]


def test_every_page_of_a_case_is_german_without_codes_or_dict_dumps(
    lived_in_case: dict[str, Any], reviewer_client: Any, lawyer_client: Any
) -> None:
    problems = []
    audit = reverse("cases:audit", kwargs={"case_id": lived_in_case["case"].pk})
    for url in [*_pages(lived_in_case), audit]:
        client = lawyer_client if url == audit else reviewer_client
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
        assert response.status_code == 200, url
        text = _visible_text(response.content.decode())
        for match in ENGLISH_STATUS.finditer(text):
            problems.append(f"{url}: English status word {match.group(0)!r}")
        if DICT_DUMP.search(text):
            problems.append(f"{url}: a dict dump: {DICT_DUMP.search(text)!r}")
    assert not problems, "\n".join(problems)


def test_citation_check_shows_statuses_in_german(reviewer_client: Any) -> None:
    response = reviewer_client.post(
        reverse("citations:check"),
        {"text": "Nach § 286 Abs. 2 BGB und Art. 99999 DSGVO."},
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 200
    text = _visible_text(response.content.decode())
    assert not ENGLISH_STATUS.search(text), ENGLISH_STATUS.search(text)
    assert not DICT_DUMP.search(text)
