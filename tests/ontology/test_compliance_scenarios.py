"""The blind compliance scenarios (tests/ontology/scenarios/compliance/C*.json)
against the element evaluator: applicability, element and obligation status,
violated/missing lists, determinations and the facts that must not count."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from ontology.domain.compliance import (
    ComplianceAssessment,
    ComplianceInput,
    compliance_evaluate,
)
from ontology.domain.compliance_catalogue import obligations_catalogue
from ontology.domain.compliance_facts import compliance_input_from_json

HERE = Path(__file__).parent / "scenarios" / "compliance"
SCENARIOS = sorted(HERE.glob("C*.json"))


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def assess(scenario: dict[str, Any]) -> ComplianceAssessment:
    return compliance_evaluate(compliance_input_from_json(scenario))


def named_refs(result: ComplianceAssessment) -> set[str]:
    """Every fact the verdicts name as carrying something."""
    named: set[str] = set()
    for obligation in result.obligations:
        named.update(obligation.applicability_decisive)
        for element in obligation.elements:
            named.update(element.decisive)
    for det in result.determinations.values():
        named.update(det.decisive)
    return named


def _ids(paths: list[Path]) -> list[str]:
    return [p.stem + ("-holdout" if load(p).get("holdout") else "") for p in paths]


@pytest.mark.parametrize("path", SCENARIOS, ids=_ids(SCENARIOS))
def test_scenario_verdicts_follow_the_law(path: Path) -> None:
    scenario = load(path)
    result = assess(scenario)
    expected = scenario["expected"]
    problems: list[str] = []
    named = named_refs(result)
    for key, want in expected.get("determinations", {}).items():
        det = result.determinations.get(key)
        if det is None:
            problems.append(f"determination {key} missing")
            continue
        if det.value != want["value"]:
            problems.append(f"{key}: value {det.value!r} != {want['value']!r}")
        if want.get("basis") is not None and det.basis != want["basis"]:
            problems.append(f"{key}: basis {det.basis!r} != {want['basis']!r}")
        if not set(want.get("decisive", [])) <= set(det.decisive):
            problems.append(f"{key}: decisive {det.decisive} lacks {want['decisive']}")
    for want in expected["obligations"]:
        key, subject = want["key"], want.get("subject")
        try:
            got = result.obligation(key, subject)
        except StopIteration:
            problems.append(f"obligation {key}/{subject} not judged")
            continue
        where = f"{key}/{subject}" if subject else key
        if got.applicable != want["applicable"]:
            problems.append(
                f"{where}: applicable {got.applicable} != {want['applicable']}"
            )
        if got.code != want["status"]:
            problems.append(f"{where}: status {got.code} != {want['status']}")
        if want["applicable"] is False:
            if "nicht anwendbar" not in got.sentence_de:
                problems.append(f"{where}: sentence does not say it does not apply")
            continue
        if set(got.violated) != set(want["violated"]):
            problems.append(f"{where}: violated {got.violated} != {want['violated']}")
        if set(got.missing) != set(want["missing"]):
            problems.append(f"{where}: missing {got.missing} != {want['missing']}")
        for element_key in [*want["violated"], *want["missing"]]:
            provision = want["elements"][element_key]["provision"]
            if provision not in got.sentence_de:
                problems.append(f"{where}: sentence does not name {provision}")
        for element_key, want_element in want["elements"].items():
            element = got.element(element_key)
            tag = f"{where}.{element_key}"
            if element.applicable != want_element["applicable"]:
                problems.append(
                    f"{tag}: applicable {element.applicable} != "
                    f"{want_element['applicable']}"
                )
            if element.code != want_element["status"]:
                problems.append(
                    f"{tag}: status {element.code} != {want_element['status']}"
                )
            if (
                want_element.get("finding")
                and element.finding != want_element["finding"]
            ):
                problems.append(
                    f"{tag}: finding {element.finding} != {want_element['finding']}"
                )
            lacking = set(want_element.get("decisive", [])) - named
            if lacking:
                problems.append(f"{tag}: decisive facts {sorted(lacking)} not named")
    for ref, reason in expected.get("ignored_facts", {}).items():
        if result.ignored_facts.get(ref) != reason:
            problems.append(
                f"ignored {ref}: {result.ignored_facts.get(ref)} != {reason}"
            )
        if ref in named:
            problems.append(f"ignored fact {ref} is named as carrying a verdict")
    for ref in expected.get("awaiting_review", []):
        if ref not in result.awaiting_review:
            problems.append(f"{ref} should await review")
    for ref in scenario.get("events_after_stichtag", []):
        if ref in named:
            problems.append(f"{ref} is after the Stichtag but carries a verdict")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", SCENARIOS, ids=_ids(SCENARIOS))
def test_no_obligation_is_erfuellt_while_an_element_is_missing_or_violated(
    path: Path,
) -> None:
    result = assess(load(path))
    for obligation in result.obligations:
        judged = {e.status for e in obligation.elements if e.applicable is not False}
        if obligation.status == "satisfied":
            assert judged == {"satisfied"}, obligation.key
            assert not obligation.violated and not obligation.missing
        if "not_satisfied" in judged:
            assert obligation.status == "not_satisfied", obligation.key


def test_every_contract_element_is_in_the_claim_ontology() -> None:
    contract = json.loads((HERE / "elements.json").read_text(encoding="utf-8"))
    catalogue = obligations_catalogue()
    assert set(catalogue) == set(contract["obligations"])
    for key, want in contract["obligations"].items():
        got = catalogue[key]
        assert got.provision_de == want["provision"]
        assert [e.key for e in got.elements] == list(want["elements"])
        for element in got.elements:
            spec = want["elements"][element.key]
            assert element.provision_de == spec["provision"]
            assert element.provision_en == spec["provision_en"]
            assert element.label_de == spec["label_de"]
            assert element.shape == spec["shape"]
            assert (element.condition is None) == (spec["condition"] is None)


def test_an_empty_file_leaves_every_obligation_open_or_inapplicable() -> None:
    result = compliance_evaluate(
        ComplianceInput(valid_at=dt.date(2026, 11, 30), facts=())
    )
    assert result.obligations
    assert {o.status for o in result.obligations} <= {"open", None}


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_an_open_applicability_is_said_once_per_obligation(path):
    """The compliance tab read 'Anwendbarkeit offen' once per element; the
    obligation's sentence names it once, and the elements it concerns."""
    for obligation in assess(load(path)).obligations:
        assert obligation.sentence_de.count("Anwendbarkeit offen") <= 1
        assert obligation.sentence_en.lower().count("applicability open") <= 1
