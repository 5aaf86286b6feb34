"""The policy graph is data, the evaluators code; at start-up they must match
exactly, or nothing runs (fail closed)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from agents.domain.policies import (
    EVALUATORS,
    PASS,
    PolicyGraphError,
    compile_policy_graph,
    load_policy_graph,
)
from agents.domain.tools import TOOL_SPECS
from agents.policy_graph import compiled_policies

BASE = Path(__file__).resolve().parents[2]
GRAPH = BASE / "ontology" / "policies" / "tool_policies.ttl"


def _compile(text: str, evaluators=EVALUATORS, tools=TOOL_SPECS):
    path = Path(os.environ.get("TMPDIR", "/tmp")) / f"policies-{os.getpid()}.ttl"
    path.write_text(text, encoding="utf-8")
    try:
        return compile_policy_graph(
            load_policy_graph([path]), evaluators=evaluators, tools=tools
        )
    finally:
        path.unlink()


def _graph() -> str:
    return GRAPH.read_text(encoding="utf-8")


def test_shipped_graph_matches_the_evaluators():
    compiled = compiled_policies()
    assert set(compiled.policies) == set(EVALUATORS)
    assert [p.key for p in compiled.before["propose_case_fact"]] == [
        "chunk_belongs_to_case",
        "quote_in_chunk",
        "quote_may_be_evidence",
        "fact_type_known",
        "value_valid_for_fact_type",
        "no_duplicate_proposal",
    ]
    assert [p.key for p in compiled.after["propose_case_fact"]] == [
        "prepared_equals_request"
    ]
    assert "rel" in compiled.policies["chunk_belongs_to_case"].relations[0]


def test_policy_without_evaluator_is_an_error():
    extra = _graph() + (
        '\npol:sky_is_blue a pol:Policy ; pol:key "sky_is_blue" .\n'
        "tool:propose_case_fact pol:CHECK_BEFORE pol:sky_is_blue .\n"
    )
    with pytest.raises(PolicyGraphError) as exc:
        _compile(extra)
    assert "policy 'sky_is_blue' has no evaluator" in exc.value.problems


def test_evaluator_without_policy_is_an_error():
    evaluators = {**EVALUATORS, "always_yes": lambda ctx: PASS}
    with pytest.raises(PolicyGraphError) as exc:
        _compile(_graph(), evaluators=evaluators)
    assert "evaluator 'always_yes' has no policy in the graph" in exc.value.problems


def test_tool_without_node_and_node_without_tool_are_errors():
    text = _graph().replace(
        'pol:toolName "propose_term"', 'pol:toolName "mark_confirmed"'
    )
    with pytest.raises(PolicyGraphError) as exc:
        _compile(text)
    assert "tool 'propose_term' has no tool action in the graph" in exc.value.problems
    assert any(
        "'mark_confirmed' in the graph is not a known tool" in p
        for p in exc.value.problems
    )


def test_committing_tool_without_an_after_check_is_an_error():
    text = _graph().replace(
        "    pol:CHECK_AFTER pol:prepared_equals_request .\n\n"
        "tool:link_evidence_proposal",
        " .\n\ntool:link_evidence_proposal",
    )
    with pytest.raises(PolicyGraphError) as exc:
        _compile(text)
    assert (
        "committing tool 'propose_case_fact' has no CHECK_AFTER policy"
        in exc.value.problems
    )


def test_policy_reading_an_argument_its_tool_lacks_is_an_error():
    text = (
        _graph() + "\ntool:search_case_evidence pol:CHECK_BEFORE pol:quote_in_chunk .\n"
    )
    with pytest.raises(PolicyGraphError) as exc:
        _compile(text)
    assert any(
        "'quote_in_chunk' on tool 'search_case_evidence' reads missing" in p
        for p in exc.value.problems
    )


def test_edge_to_something_that_is_no_policy_is_an_error():
    text = _graph() + "\ntool:propose_case_fact pol:CHECK_BEFORE pol:nothing .\n"
    with pytest.raises(PolicyGraphError) as exc:
        _compile(text)
    assert any("which is no policy" in p for p in exc.value.problems)


def _manage_check(graph_path: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "BELEGT_POLICY_GRAPH": str(graph_path),
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
    }
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=BASE,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_application_refuses_to_start_on_a_broken_graph(tmp_path):
    broken = tmp_path / "policies.ttl"
    broken.write_text(
        _graph().replace('pol:key "quote_in_chunk"', 'pol:key "quote_somewhere"'),
        encoding="utf-8",
    )
    result = _manage_check(broken)
    assert result.returncode != 0
    assert "policy 'quote_somewhere' has no evaluator" in result.stderr
    assert "evaluator 'quote_in_chunk' has no policy in the graph" in result.stderr


def test_the_application_refuses_to_start_without_a_graph(tmp_path):
    result = _manage_check(tmp_path / "missing.ttl")
    assert result.returncode != 0
    assert "policy graph file(s) missing" in result.stderr


def test_the_application_starts_with_the_shipped_graph():
    result = _manage_check(GRAPH)
    assert result.returncode == 0, result.stderr
