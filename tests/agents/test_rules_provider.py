"""The rules provider on a realistic case file — invoice, reminder across a
page break, tracking printout, refusal, lawyer's costs — ingested through the
real pipeline (PDF → pages → chunks), proposing through the gate."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from agents.models import AgentRun, AgentStep
from agents.selectors import proposal_summary, proposals_of_run
from agents.services import extraction_run_start
from cases.models import AuditEvent
from evidence.models import Chunk
from review.models import ExtractionProposal
from tests.agents import letters

pytestmark = pytest.mark.django_db


def _summaries(run):
    return [proposal_summary(p) for p in proposals_of_run(run=run)]


def test_rules_provider_finds_the_facts_of_the_case_file(ingested_case, lawyer):
    run = extraction_run_start(
        case=ingested_case, actor=lawyer, provider="rules", run_async=False
    )
    assert run.status == AgentRun.Status.FINISHED, run.reason
    found = _summaries(run)
    missing = [
        (fact_type, value, document, pages)
        for fact_type, value, document, pages in (letters.EXPECTED_CONTRACT)
        if not any(
            p["fact_type"] == fact_type
            and p["value"] == value
            and p["document"] == document
            and p["pages"] == pages
            for p in found
        )
    ]
    assert missing == []
    # nothing invented: every proposal's quote is in its chunk, all pending
    for p in found:
        chunk = Chunk.objects.get(pk=p["chunk_id"])
        assert p["quote"] in chunk.text
        # agents never decide: a proposal is pending (or superseded by a newer
        # proposal, a review-app rule), never accepted or rejected
        assert p["status"] in ("pending", "superseded") and 0 < p["confidence"] <= 1
    # a refusal is dated by the debtor's letter, not by the reminder it answers
    [refusal] = [p for p in found if p["fact_type"] == "refusal_to_pay"]
    assert refusal["value"] == {"date": "2026-05-18", "kind": "endgueltig"}
    assert "verweigern jede Zahlung" in " ".join(refusal["quote"].split())


def test_no_proposal_bypasses_the_gate(ingested_case, lawyer):
    run = extraction_run_start(
        case=ingested_case, actor=lawyer, provider="rules", run_async=False
    )
    proposals = ExtractionProposal.objects.filter(case=ingested_case)
    assert proposals.count() == run.proposals_created > 10
    for proposal in proposals:
        assert proposal.agent_step_id is not None
        step = AgentStep.objects.get(pk=proposal.agent_step_id)
        assert (step.run_id, step.verdict, step.stage) == (run.pk, "ok", "done")
        assert step.tool == "propose_case_fact"
        assert json.loads(json.loads(step.raw_proposal)["arguments"])["quote"] == (
            proposal.quote
        )
        assert proposal.call_id == step.call_id
    assert AuditEvent.objects.filter(action="proposal.created").count() == (
        proposals.count()
    )


def test_rerunning_the_extraction_replays_instead_of_duplicating(ingested_case, lawyer):
    first = extraction_run_start(
        case=ingested_case, actor=lawyer, provider="rules", run_async=False
    )
    second = extraction_run_start(
        case=ingested_case, actor=lawyer, provider="rules", run_async=False
    )
    assert second.status == AgentRun.Status.FINISHED
    assert second.proposals_created == 0
    assert second.accepted == first.accepted
    assert ExtractionProposal.objects.count() == first.proposals_created
    assert {p.pk for p in proposals_of_run(run=second)} == {
        p.pk for p in proposals_of_run(run=first)
    }


def test_run_agent_command_prints_json_with_the_proposals(ingested_case, lawyer):
    out = StringIO()
    call_command("run_agent", "--case", ingested_case.reference, "--json", stdout=out)
    payload = json.loads(out.getvalue())
    assert payload["run"]["status"] == "finished"
    assert payload["run"]["provider"] == "rules"
    deadline = "invoice_payment_deadline"
    [due] = [
        p
        for p in payload["proposals"]
        if p["fact_type"] == deadline and p["document"] == "Rechnung_2026-0417.pdf"
    ]
    assert due["value"] == {"date": "2026-04-26"}
    assert due["pages"] == [1]
    assert "zahlbar bis zum" in " ".join(due["quote"].split())
    assert set(due) >= {
        "fact_type",
        "value",
        "document",
        "pages",
        "quote",
        "confidence",
        "status",
    }
    damage_pages = {
        p["value"]["amount"]["cents"]: p["pages"]
        for p in payload["proposals"]
        if p["fact_type"] == "damage_item"
    }
    assert damage_pages[500] == [2]  # the cost table is on the reminder's 2nd page


def test_run_agent_command_prints_steps_and_rejections_in_text(
    case, lawyer, letter_chunk
):
    out = StringIO()
    call_command("run_agent", "--case", case.reference, stdout=out)
    text = out.getvalue()
    assert "reminder_sent" in text and "mahnung.pdf p. 1" in text
    assert "propose_case_fact → ok" in text
    assert "finished" in text


def test_run_agent_command_async_queues_the_run(
    case, lawyer, letter_chunk, django_capture_on_commit_callbacks
):
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        call_command("run_agent", "--case", case.reference, "--async", stdout=out)
    [run] = AgentRun.objects.all()
    assert run.status == AgentRun.Status.QUEUED
    assert f"Run {run.pk} queued" in out.getvalue()
    assert len(callbacks) == 1


def test_run_agent_command_unknown_case_is_an_error(db):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("run_agent", "--case", "nope")
