"""No path exists by which an agent creates or changes a fact.

- Static: every module under ``agents/`` is parsed; none imports the fact
  models or the decision services, and none writes to a review model it got
  through ``apps.get_model`` (reads, e.g. the ids of a case's facts, are fine).
  The scanner is itself tested on a snippet that writes a fact.
- Runtime: the tools registered with the gate hold no reference to a fact
  writer, and a real extraction run (rules provider, through the gate) creates
  proposals while not one Fact, FactEvidence or Decision row is saved.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from django.db.models.signals import pre_delete, pre_save

from review.models import Decision, ExtractionProposal, Fact, FactEvidence
from tests.review.helpers import LETTER, make_chunk

AGENTS = Path(__file__).resolve().parents[2] / "agents"
FORBIDDEN_NAMES = {"Fact", "FactEvidence", "Decision", "OntologyExtension"}
FORBIDDEN_MODULES = {
    "review.services.decisions",
    "review.services.manual",
    "review.services.terms",
}
WRITE_METHODS = {
    "create",
    "get_or_create",
    "update_or_create",
    "bulk_create",
    "bulk_update",
    "update",
    "delete",
    "save",
}


def _root_name(node: ast.AST) -> str | None:
    while isinstance(node, ast.Attribute | ast.Call | ast.Subscript):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def violations(source: str, filename: str = "<snippet>") -> list[str]:
    """Fact writes and forbidden imports in one module's source."""
    tree = ast.parse(source, filename)
    found: list[str] = []
    models: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module in FORBIDDEN_MODULES or any(
                node.module == m.rsplit(".", 1)[0] and alias.name == m.rsplit(".", 1)[1]
                for m in FORBIDDEN_MODULES
                for alias in node.names
            ):
                found.append(f"{filename}:{node.lineno} imports {node.module}")
            if node.module.startswith("review"):
                for alias in node.names:
                    if alias.name in FORBIDDEN_NAMES:
                        found.append(f"{filename}:{node.lineno} imports {alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in FORBIDDEN_MODULES:
                    found.append(f"{filename}:{node.lineno} imports {alias.name}")
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            call = node.value
            if (
                isinstance(call.func, ast.Attribute)
                and call.func.attr == "get_model"
                and len(call.args) >= 2
                and all(isinstance(a, ast.Constant) for a in call.args[:2])
                and call.args[0].value == "review"  # type: ignore[attr-defined]
                and call.args[1].value in FORBIDDEN_NAMES  # type: ignore[attr-defined]
            ):
                models.update(t.id for t in node.targets if isinstance(t, ast.Name))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        root = _root_name(func)
        if root not in models:
            continue
        if isinstance(func, ast.Name) or (
            isinstance(func, ast.Attribute) and func.attr in WRITE_METHODS
        ):
            found.append(f"{filename}:{node.lineno} writes {root}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value.lower()
            table = "review_fact" in text or "review_decision" in text
            if table and any(v in text for v in ("insert", "update", "delete")):
                found.append(f"{filename}:{node.lineno} SQL on review facts")
    return found


def test_the_scanner_catches_fact_writes() -> None:
    snippet = (
        "from django.apps import apps\n"
        "from review.models import ExtractionProposal, Fact\n"
        "from review.services import decisions\n"
        "import review.services.decisions\n"
        "fact_model = apps.get_model('review', 'Fact')\n"
        "fact_model.objects.filter(case_id=1).update(status='confirmed')\n"
        "fact_model.objects.create(case_id=1)\n"
        "cursor.execute('UPDATE review_fact SET status = %s')\n"
    )
    found = violations(snippet)
    assert len(found) == 6, found
    reading = (
        "from django.apps import apps\n"
        "from review.models import ExtractionProposal\n"
        "from review.services.proposals import proposal_create\n"
        "fact_model = apps.get_model('review', 'Fact')\n"
        "ids = fact_model.objects.filter(case_id=1).values_list('id', flat=True)\n"
    )
    assert violations(reading) == []


def test_no_agent_module_writes_or_imports_fact_writers() -> None:
    files = sorted(AGENTS.rglob("*.py"))
    assert len(files) > 10  # the agents app is really there
    found = [
        v
        for path in files
        for v in violations(path.read_text(encoding="utf-8"), str(path))
    ]
    assert found == []


def test_no_tool_of_the_gate_holds_a_fact_writer() -> None:
    from agents.tools import tool_implementations
    from review.services import decisions, terms

    writers = {
        decisions.proposal_accept,
        decisions.proposal_dispute,
        decisions.proposal_reject,
        decisions.fact_confirm,
        decisions.fact_dispute,
        decisions.proposals_decide_bulk,
        terms.term_candidate_decide,
    }
    implementations = tool_implementations()
    assert "propose_case_fact" in implementations
    for name, implementation in implementations.items():
        for method in ("prepare", "commit"):
            function = getattr(type(implementation), method)
            reachable = {id(value) for value in function.__globals__.values()}
            forbidden = {id(w) for w in (*writers, Fact, FactEvidence, Decision)}
            assert not reachable & forbidden, (name, method)


@pytest.mark.django_db
def test_a_real_extraction_run_proposes_but_never_saves_a_fact(
    case: Any, lawyer: Any
) -> None:
    from agents.services import extraction_run_start
    from tests.factories import PartyFactory

    PartyFactory(case=case, role="creditor", name="Müller Baustoffe GmbH")
    PartyFactory(case=case, role="debtor", name="Schmidt Bau KG")
    make_chunk(case, text=LETTER)
    saved: list[str] = []

    def refuse(sender: Any, instance: Any, **kwargs: Any) -> None:
        saved.append(f"{sender.__name__} {kwargs.get('signal')}")

    for model in (Fact, FactEvidence, Decision):
        pre_save.connect(refuse, sender=model, weak=False)
        pre_delete.connect(refuse, sender=model, weak=False)
    try:
        run = extraction_run_start(
            case=case, actor=lawyer, provider="rules", run_async=False
        )
    finally:
        for model in (Fact, FactEvidence, Decision):
            pre_save.disconnect(refuse, sender=model)
            pre_delete.disconnect(refuse, sender=model)
    assert ExtractionProposal.objects.filter(case=case, agent_run_id=run.pk).exists()
    assert saved == []
    assert not Fact.objects.exists()
    assert not Decision.objects.exists()
