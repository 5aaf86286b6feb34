"""The OpenAI-compatible provider against a local stub server that speaks the
chat-completions protocol with tool calling."""

from __future__ import annotations

import pytest

from agents.domain.tools import TOOL_SPECS
from agents.models import AgentRun
from agents.services import agent_run_execute, extraction_run_start
from review.models import ExtractionProposal
from tests.agents.stub_llm import chat_answer, chunks_in_prompt, stub_llm, tool_call

pytestmark = pytest.mark.django_db


@pytest.fixture
def llm_settings(settings):
    settings.BELEGT_LLM_MODEL = "stub-model-7b"
    settings.BELEGT_LLM_API_KEY = "sk-test-123"
    settings.BELEGT_LLM_RETRIES = 1
    settings.BELEGT_LLM_TIMEOUT = 5.0
    return settings


def _run(case, lawyer, stub, settings):
    settings.BELEGT_LLM_BASE_URL = stub.base_url
    return extraction_run_start(
        case=case, actor=lawyer, provider="openai", run_async=False
    )


def _propose_from_prompt(request):
    [chunk] = chunks_in_prompt(request)
    args = {
        "fact_type": "reminder_sent",
        "source_chunk_id": chunk["chunk_id"],
        "quote": "Leipzig, 08.05.2026\n1. Mahnung",
        "value": {"date": "2026-05-08"},
        "confidence": 0.9,
    }
    return 200, chat_answer(
        tool_calls=[tool_call("call_a1", "propose_case_fact", args)]
    )


def test_tool_calling_round_trip_proposes_through_the_gate(
    case, lawyer, letter_chunk, llm_settings
):
    with stub_llm(
        [_propose_from_prompt, lambda r: (200, chat_answer(content="Fertig."))]
    ) as stub:
        run = _run(case, lawyer, stub, llm_settings)
    assert run.status == AgentRun.Status.FINISHED, run.reason
    first, second = stub.requests
    assert first["model"] == "stub-model-7b"
    assert stub.headers[0]["Authorization"] == "Bearer sk-test-123"
    schemas = {
        t["function"]["name"]: t["function"]["parameters"] for t in first["tools"]
    }
    assert schemas["propose_case_fact"] == TOOL_SPECS["propose_case_fact"].json_schema()
    assert "draft_argument" not in schemas  # only the envelope's tools are offered
    # the observation goes back as a tool message for the call
    tool_message = second["messages"][-1]
    assert tool_message["role"] == "tool" and tool_message["tool_call_id"] == "call_a1"
    assert '"status": "ok"' in tool_message["content"]
    [proposal] = ExtractionProposal.objects.all()
    assert proposal.call_id == f"run{run.pk}:call_a1"
    assert proposal.model_id == "stub-model-7b"
    assert (run.tokens_in, run.tokens_out) == (200, 40)
    assert run.model_id == "stub-model-7b"
    step = run.step_rows.get(kind="tool_call")
    assert step.tokens_in == 100 and len(step.prompt_hash) == 64
    assert step.latency_ms > 0


def test_model_answer_with_a_rejected_call_gets_the_rejection_back(
    case, lawyer, letter_chunk, llm_settings
):
    bad = {
        "fact_type": "reminder_sent",
        "source_chunk_id": 123456,
        "quote": "x",
        "value": {"date": "2026-05-08"},
        "confidence": 0.9,
    }
    with stub_llm(
        [
            lambda r: (
                200,
                chat_answer(tool_calls=[tool_call("c1", "propose_case_fact", bad)]),
            ),
            lambda r: (200, chat_answer(content="ok")),
        ]
    ) as stub:
        run = _run(case, lawyer, stub, llm_settings)
    feedback = stub.requests[1]["messages"][-1]["content"]
    assert '"code": "chunk_not_in_case"' in feedback
    assert str(letter_chunk.pk) in feedback  # the hint lists the allowed chunks
    assert run.rejected == 1 and not ExtractionProposal.objects.exists()


def test_server_errors_are_retried(case, lawyer, letter_chunk, llm_settings):
    with stub_llm(
        [lambda r: (503, {"error": "busy"}), lambda r: (200, chat_answer(content="ok"))]
    ) as stub:
        run = _run(case, lawyer, stub, llm_settings)
    assert run.status == AgentRun.Status.FINISHED
    assert len(stub.requests) == 2


def test_client_errors_fail_the_run_without_retry(
    case, lawyer, letter_chunk, llm_settings
):
    with stub_llm([lambda r: (401, {"error": "bad key"})]) as stub:
        run = _run(case, lawyer, stub, llm_settings)
    assert run.status == AgentRun.Status.FAILED
    assert "HTTP 401" in run.reason
    assert len(stub.requests) == 1
    assert run.step_rows.filter(kind="provider_error").exists()


def test_a_garbled_answer_fails_the_run_cleanly(
    case, lawyer, letter_chunk, llm_settings
):
    with stub_llm([lambda r: (200, b"<html>proxy error</html>")]) as stub:
        run = _run(case, lawyer, stub, llm_settings)
    assert run.status == AgentRun.Status.FAILED
    assert "JSON" in run.reason


def test_timeouts_are_retried_then_fail(case, lawyer, letter_chunk, llm_settings):
    llm_settings.BELEGT_LLM_TIMEOUT = 0.3
    with stub_llm([]) as stub:
        stub.delay = 1.0
        run = _run(case, lawyer, stub, llm_settings)
    assert run.status == AgentRun.Status.FAILED
    assert "ReadTimeout" in run.reason
    assert len(stub.requests) == 2  # one try + one retry


def test_cost_budget_stops_a_paid_model(case, lawyer, letter_chunk, llm_settings):
    llm_settings.BELEGT_LLM_PRICE_IN_CENTS_PER_1K = 10.0
    llm_settings.BELEGT_AGENT_COST_BUDGET_CENTS = 0.5
    with stub_llm([_propose_from_prompt]) as stub:
        run = _run(case, lawyer, stub, llm_settings)
    assert run.status == AgentRun.Status.BUDGET_EXHAUSTED
    assert "cost budget" in run.reason
    assert run.cost_cents == pytest.approx(1.0)
    assert (
        not ExtractionProposal.objects.exists()
    )  # the expensive turn's call never ran


def test_missing_model_setting_fails_the_run_with_a_reason(
    case, lawyer, letter_chunk, settings
):
    settings.BELEGT_LLM_MODEL = ""
    run = extraction_run_start(
        case=case, actor=lawyer, provider="openai", run_async=False
    )
    assert run.status == AgentRun.Status.FAILED
    assert "BELEGT_LLM_MODEL" in run.reason
    assert agent_run_execute(run=run).status == AgentRun.Status.FAILED  # no re-run
