"""The two tools wired in issue 6: ``get_missing_requirements`` answers from the
case's evaluation; ``link_evidence_proposal`` only proposes (a pending proposal
the review queue decides), never writes evidence itself."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from ontology.selectors import claim_missing_requirements_for
from review.models import ExtractionProposal, Fact, FactEvidence
from review.services.decisions import proposal_accept, proposal_reject
from tests import factories
from tests.agents.helpers import run_scripted, tool_steps

ClaimFactory: Any = factories.ClaimFactory

pytestmark = pytest.mark.django_db


def _fact(case, fact_type="due_date", value=None, status=Fact.Status.CONFIRMED):
    from tests.review.helpers import fact_decided

    return fact_decided(
        Fact.objects.create(
            case=case,
            fact_type=fact_type,
            value=value or {"date": "2026-04-26"},
            status=status,
        )
    )


def _quote(chunk):
    """A verbatim line of the chunk."""
    return next(line for line in chunk.text.splitlines() if len(line.strip()) > 10)


def _link(fact, chunk, quote=None, confidence=0.8):
    return (
        "link_evidence_proposal",
        {
            "fact_id": fact.pk,
            "source_chunk_id": chunk.pk,
            "quote": quote if quote is not None else _quote(chunk),
            "confidence": confidence,
        },
    )


def test_missing_requirements_equal_the_ontology_answer(
    case, lawyer, letter_chunk, claim
):
    _fact(case)
    _fact(case, "reminder_sent", {"date": "2026-05-08"})
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[[("get_missing_requirements", {"claim_id": claim.pk})]],
        allowed_tools={"get_missing_requirements"},
    )
    [step] = tool_steps(steps)
    result = step.observation["result"]
    expected = claim_missing_requirements_for(claim=claim)
    assert result["claim_id"] == claim.pk
    assert [m["requirement"] for m in result["missing"]] == [
        m.requirement for m in expected
    ]
    mahnung = next(m for m in result["missing"] if m["requirement"] == "mahnung")
    ontology = next(m for m in expected if m.requirement == "mahnung")
    assert mahnung["missing_fact_types"] == list(ontology.missing_fact_types)
    assert mahnung["missing_fact_types"]  # what would move it, named
    assert mahnung["sentence_en"] and mahnung["sentence_de"]
    assert "faelligkeit" not in [m["requirement"] for m in result["missing"]]


def test_claim_without_a_version_of_the_law_is_refused_with_its_code(
    case, lawyer, letter_chunk
):
    old = ClaimFactory(case=case, valid_at=dt.date(1990, 1, 1))
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[[("get_missing_requirements", {"claim_id": old.pk})]],
        allowed_tools={"get_missing_requirements"},
    )
    [step] = tool_steps(steps)
    assert (step.verdict, step.rejection["code"]) == (
        "rejected",
        "claim_version_not_found",
    )


def test_evidence_link_is_only_a_pending_proposal_until_a_reviewer_accepts(
    case, lawyer, reviewer, letter_chunk
):
    fact = _fact(case, status=Fact.Status.ASSERTED)
    run, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[[_link(fact, letter_chunk)]],
        allowed_tools={"link_evidence_proposal"},
    )
    [step] = tool_steps(steps)
    assert (step.verdict, step.committed_type) == ("ok", "extraction_proposal")
    proposal = ExtractionProposal.objects.get(pk=step.committed_id)
    assert proposal.status == ExtractionProposal.Status.PENDING
    assert (proposal.fact_type, proposal.value) == (fact.fact_type, fact.value)
    assert proposal.source_chunk_id == letter_chunk.pk
    assert (proposal.quote, proposal.confidence) == (_quote(letter_chunk), 0.8)
    assert (proposal.agent_run_id, proposal.agent_step_id) == (run.pk, step.pk)
    assert not FactEvidence.objects.filter(fact=fact).exists()
    fact.refresh_from_db()
    assert fact.status == Fact.Status.ASSERTED  # the agent changed nothing

    accepted = proposal_accept(proposal=proposal, reviewer=reviewer)
    assert accepted.pk == fact.pk
    assert FactEvidence.objects.filter(fact=fact, chunk=letter_chunk).exists()
    fact.refresh_from_db()
    assert fact.status == Fact.Status.CONFIRMED


def test_a_rejected_link_leaves_the_fact_alone(case, lawyer, reviewer, letter_chunk):
    fact = _fact(case, status=Fact.Status.ASSERTED)
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[[_link(fact, letter_chunk)]],
        allowed_tools={"link_evidence_proposal"},
    )
    proposal = ExtractionProposal.objects.get(pk=tool_steps(steps)[0].committed_id)
    proposal_reject(proposal=proposal, reviewer=reviewer, reason="other invoice")
    fact.refresh_from_db()
    assert fact.status == Fact.Status.ASSERTED
    assert not FactEvidence.objects.filter(fact=fact).exists()


def test_existing_evidence_or_a_second_link_is_refused(case, lawyer, letter_chunk):
    linked = _fact(case)
    FactEvidence.objects.create(fact=linked, chunk=letter_chunk, quote="")
    other = _fact(case, "reminder_sent", {"date": "2026-05-08"})
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[
            [
                _link(linked, letter_chunk),
                _link(other, letter_chunk),
                _link(other, letter_chunk),
            ]
        ],
        allowed_tools={"link_evidence_proposal"},
    )
    already, first, again = tool_steps(steps)
    assert already.rejection["code"] == "already_evidence"
    assert first.verdict == "ok"
    assert again.rejection["code"] == "duplicate_proposal"
    assert ExtractionProposal.objects.filter(case=case).count() == 1


def test_a_chunk_of_another_case_cannot_be_linked(
    case, lawyer, letter_chunk, other_chunk
):
    fact = _fact(case)
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[[_link(fact, other_chunk)]],
        allowed_tools={"link_evidence_proposal"},
    )
    [step] = tool_steps(steps)
    assert step.rejection["code"] == "chunk_not_in_case"
    assert not ExtractionProposal.objects.exists()


def test_evidence_link_with_a_quote_not_in_the_chunk_is_refused(
    case, lawyer, letter_chunk
):
    fact = _fact(case, status=Fact.Status.ASSERTED)
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[[_link(fact, letter_chunk, quote="Diese Worte stehen nirgends.")]],
        allowed_tools={"link_evidence_proposal"},
    )
    [step] = tool_steps(steps)
    assert step.rejection["failed_policy"] == "quote_in_chunk"
    assert not ExtractionProposal.objects.exists()


def test_evidence_link_without_quote_or_confidence_fails_the_schema(
    case, lawyer, letter_chunk
):
    fact = _fact(case, status=Fact.Status.ASSERTED)
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[
            [
                (
                    "link_evidence_proposal",
                    {"fact_id": fact.pk, "source_chunk_id": letter_chunk.pk},
                )
            ]
        ],
        allowed_tools={"link_evidence_proposal"},
    )
    [step] = tool_steps(steps)
    assert (step.stage, step.rejection["code"]) == ("schema", "schema_invalid")
