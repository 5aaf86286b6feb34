"""The model refuter against a local OpenAI-compatible stub server: only a
strict-schema "upheld" lets a finding through; anything else is uncertain or
refuted, and the finding goes to human review. Every answer is stored."""

from __future__ import annotations

import json

import pytest

from reports.services import report_create
from tests.agents.stub_llm import chat_answer, stub_llm
from tests.reports.helpers import verzug_case

pytestmark = pytest.mark.django_db


@pytest.fixture
def llm(settings):
    settings.BELEGT_LLM_MODEL = "stub-model-7b"
    settings.BELEGT_LLM_TIMEOUT = 5.0
    return settings


def _answer(content: str):
    return lambda request: (200, chat_answer(content=content))


UPHELD = json.dumps({"verdict": "upheld", "reason": "carried", "passage": "§ 271"})


def _report(case, lawyer, stub, settings):
    settings.BELEGT_LLM_BASE_URL = stub.base_url
    return report_create(case=case, actor=lawyer)


def test_upheld_in_the_strict_schema_prints_and_is_stored(case, lawyer, corpus, llm):
    verzug_case(case)
    with stub_llm([_answer(UPHELD)] * 4) as stub:
        report = _report(case, lawyer, stub, llm)
    assert report.summary["printed"] == 4
    verdict = report.findings.first().verdicts.get(refuter="model")
    assert verdict.verdict == "upheld" and verdict.model_id == "stub-model-7b"
    assert json.loads(verdict.raw)["reason"] == "carried"
    request = stub.requests[0]
    assert request["response_format"]["type"] == "json_schema"
    schema = request["response_format"]["json_schema"]["schema"]
    assert schema["additionalProperties"] is False
    assert set(schema["properties"]) == {"verdict", "reason", "passage"}
    data = request["messages"][1]["content"]
    assert "§ 271 Abs. 1 BGB" in data and "Zahlbar bis 30.04.2026." in data


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (
            json.dumps({"verdict": "refuted", "reason": "no default", "passage": "x"}),
            "refuted",
        ),
        (json.dumps({"verdict": "upheld", "reason": "ok"}), "uncertain"),
        (
            json.dumps({"verdict": "upheld", "reason": "ok", "passage": "", "n": 1}),
            "uncertain",
        ),
        ("The finding is upheld.", "uncertain"),
        ("", "uncertain"),
    ],
)
def test_anything_but_a_strict_upheld_sends_the_finding_to_a_human(
    case, lawyer, corpus, llm, content, expected
):
    verzug_case(case)
    answers = [_answer(content)] + [_answer(UPHELD)] * 3
    with stub_llm(answers) as stub:
        report = _report(case, lawyer, stub, llm)
    first = report.findings.get(position=1)
    assert first.outcome == "flagged"
    verdict = first.verdicts.get(refuter="model")
    assert verdict.verdict == expected
    assert "[model]" in first.flag_reason
    assert report.findings.filter(outcome="printed").count() == 3


def test_unreachable_model_is_uncertain_never_upheld(case, lawyer, corpus, llm):
    verzug_case(case)
    llm.BELEGT_LLM_BASE_URL = "http://127.0.0.1:9/v1"
    llm.BELEGT_LLM_CONNECT_TIMEOUT = 0.5
    report = report_create(case=case, actor=lawyer)
    assert report.summary["printed"] == 0
    verdicts = {f.verdicts.get(refuter="model").verdict for f in report.findings.all()}
    assert verdicts == {"uncertain"}


def test_without_a_configured_model_no_model_verdict_is_made(case, lawyer, corpus):
    verzug_case(case)
    report = report_create(case=case, actor=lawyer)
    assert not report.findings.filter(verdicts__refuter="model").exists()
    assert report.model_refuter == ""


def test_model_drafting_text_still_faces_both_gates(case, lawyer, corpus, llm):
    verzug_case(case)
    draft = json.dumps(
        {"text": "Der Schuldner ist stets nach § 286 Abs. 7 BGB säumig."}
    )
    answers = [_answer(draft)] * 4 + [_answer(UPHELD)] * 4
    with stub_llm(answers) as stub:
        llm.BELEGT_LLM_BASE_URL = stub.base_url
        report = report_create(case=case, actor=lawyer, drafter="model")
    assert report.summary["printed"] == 0
    finding = report.findings.get(position=1)
    assert finding.drafter == "model"
    assert "not_found" in finding.flag_reason
