"""The legal scenario suite (tests/ontology/scenarios/verzug, written blind
from the law): every scenario's facts go through the one value schema, the
evaluator decides, and each expectation is checked — status per requirement,
due date, carrying and rejected bases, decisive facts, the missing item in
words, first day of default, interest to the cent, Pauschale, items, the
recoverable amount and the claim summary."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from ontology.domain.evaluate import claim_evaluate
from ontology.domain.facts import ClaimContext, FactRecord
from ontology.domain.results import ClaimEvaluation
from ontology.domain.verzug import named
from ontology.domain.vocabulary import fact_type

FOLDER = Path(__file__).parent / "scenarios" / "verzug"
STATUS = {"erfuellt": "satisfied", "offen": "open", "nicht_erfuellt": "not_satisfied"}
REQUIREMENTS = ("faelligkeit", "mahnung", "vertretenmuessen", "schaden")


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


SCENARIOS = [_load(p) for p in sorted(FOLDER.glob("V*.json"))]
DEV = [s for s in SCENARIOS if not s.get("holdout")]
HOLDOUT = [s for s in SCENARIOS if s.get("holdout")]


def _facts(scenario: dict[str, Any]) -> tuple[list[FactRecord], dict[str, int]]:
    """Each fact admitted (as a new value would be) and read back through its
    fact type's one value schema."""
    facts, ids = [], {}
    for index, raw in enumerate(scenario["facts"], start=1):
        schema = fact_type(raw["key"]).value_schema
        value = raw["value"]
        wrapped = value if isinstance(value, dict) else {schema.wrapper: value}
        admitted = schema.admit(wrapped)
        facts.append(
            FactRecord(
                id=index,
                fact_type=raw["key"],
                status=raw["status"],
                value=schema.read(admitted),
            )
        )
        ids[raw["ref"]] = index
    return facts, ids


def evaluate(scenario: dict[str, Any]) -> tuple[ClaimEvaluation, dict[str, int]]:
    facts, ids = _facts(scenario)
    parties = scenario["parties"]
    context = ClaimContext(
        claim_type="verzugsschaden",
        jurisdiction="DE",
        valid_at=date.fromisoformat(scenario["claim"]["valid_at"]),
        debtor_kind="consumer" if parties["debtor"]["consumer"] else "business",
        creditor_kind="consumer" if parties["creditor"]["consumer"] else "business",
        four_eyes=bool(scenario.get("four_eyes")),
    )
    return claim_evaluate(facts=facts, context=context), ids


def _check(scenario: dict[str, Any]) -> None:
    evaluation, ids = evaluate(scenario)
    expected = scenario["expected"]
    problems = []
    for key in REQUIREMENTS:
        want = expected[key]
        got = evaluation.requirement(key)
        if got.status != STATUS[want["status"]]:
            problems.append(f"{key}: {got.status} != {want['status']}")
        named = set(got.supporting_fact_ids)
        decisive = {ids[r] for r in want.get("decisive") or []}
        if not decisive <= named:
            problems.append(f"{key}: decisive {want['decisive']} not all named")
        phrase = want.get("missing") if want["status"] == "offen" else None
        if phrase and phrase.casefold() not in got.sentence_de.casefold():
            problems.append(f"{key}: missing {want['missing']!r} not in wording")
        if key == "faelligkeit" and "due_date" in want:
            due = want["due_date"]
            if (got.due_date.isoformat() if got.due_date else None) != due:
                problems.append(f"due_date {got.due_date} != {due}")
        if key == "mahnung":
            if got.basis != want.get("basis"):
                problems.append(f"basis {got.basis} != {want.get('basis')}")
            missing = set(want.get("rejected_bases") or []) - set(got.rejected_bases)
            if missing:
                problems.append(f"rejected bases {sorted(missing)} not listed")
            if got.basis and got.basis in got.rejected_bases:
                problems.append("the basis is listed as rejected")
    default_from = evaluation.default_from
    if (default_from.isoformat() if default_from else None) != expected["default_from"]:
        problems.append(f"default_from {default_from} != {expected['default_from']}")
    interest = expected["interest"]
    damage = evaluation.damage
    if interest.get("cents") is not None:
        if damage is None or damage.interest is None:
            problems.append("no interest computed")
        else:
            got_i = damage.interest
            for name, have in (
                ("basis", damage.interest_basis),
                ("points_over_base", got_i.points),
                ("principal_cents", got_i.principal_cents),
                ("from", got_i.start.isoformat()),
                ("to", got_i.end.isoformat()),
                ("cents", got_i.interest_cents),
            ):
                if have != interest[name]:
                    problems.append(f"interest {name} {have} != {interest[name]}")
    elif damage is not None and damage.interest is not None:
        problems.append("interest computed where none is due")
    pauschale = damage.pauschale_cents if damage else 0
    added = damage.pauschale_added_cents if damage else 0
    items = damage.items_cents if damage else 0
    for name, have in (
        ("pauschale_cents", pauschale),
        ("pauschale_added_cents", added),
        ("damage_items_cents", items),
        ("recoverable_cents", evaluation.recoverable_cents),
        ("claim", evaluation.summary),
    ):
        if have != expected[name]:
            problems.append(f"{name} {have} != {expected[name]}")
    if damage is not None:
        total = (
            damage.items_cents + damage.interest_cents + damage.pauschale_added_cents
        )
        if total != damage.total_cents:
            problems.append("the total is not items + interest + Pauschale added")
    if "awaiting_review" in expected:
        want_ids = {ids[r] for r in expected["awaiting_review"]}
        if set(evaluation.awaiting_review) != want_ids:
            problems.append(
                f"awaiting {sorted(evaluation.awaiting_review)} != {sorted(want_ids)}"
            )
    assert not problems, f"{scenario['id']} {scenario['title']}: " + "; ".join(problems)


# Holdout scenarios the evaluator missed on its blind run, each with the
# reason. They stay blind (the evaluator is fixed by a general rule, never
# tuned to one of them); a miss is reported, not hidden. V11 and V13 (the
# Mahnung named only one of two facts proving Zugang) pass since every fact
# proving the receipt is named.
HOLDOUT_MISSES: dict[str, str] = {}


def _param(scenario: dict[str, Any]) -> Any:
    reason = HOLDOUT_MISSES.get(scenario["id"]) if scenario.get("holdout") else None
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(scenario, id=scenario["id"], marks=marks)


@pytest.mark.parametrize("scenario", [_param(s) for s in DEV])
def test_scenario_gives_the_verdict_a_litigator_would_sign(
    scenario: dict[str, Any],
) -> None:
    _check(scenario)


@pytest.mark.parametrize("scenario", [_param(s) for s in HOLDOUT])
def test_holdout_scenario_gives_the_verdict_a_litigator_would_sign(
    scenario: dict[str, Any],
) -> None:
    _check(scenario)


@pytest.mark.parametrize("scenario", [pytest.param(s, id=s["id"]) for s in SCENARIOS])
def test_no_scenario_shows_erfuellt_where_the_law_leaves_it_open_or_unfulfilled(
    scenario: dict[str, Any],
) -> None:
    evaluation, _ids = evaluate(scenario)
    wrong = [
        key
        for key in REQUIREMENTS
        if scenario["expected"][key]["status"] != "erfuellt"
        and evaluation.requirement(key).status == "satisfied"
    ]
    assert not wrong, f"{scenario['id']}: false 'erfüllt' for {wrong}"


@pytest.mark.parametrize("scenario", [pytest.param(s, id=s["id"]) for s in SCENARIOS])
def test_every_decisive_fact_is_named_and_an_open_verdict_says_what_is_missing(
    scenario: dict[str, Any],
) -> None:
    """The sentence names each fact the verdict rests on (label and value), and
    an open one the missing item in words, never a fact type's key."""
    evaluation, _ids = evaluate(scenario)
    facts = {f.id: f for f in _facts(scenario)[0]}
    problems = []
    for verdict in evaluation.requirements:
        for fact_id in verdict.supporting_fact_ids:
            if named([facts[fact_id]]) not in verdict.sentence_de:
                problems.append(f"{verdict.key}: fact {fact_id} not named")
        if verdict.status == "open":
            phrase = verdict.missing_phrase or ""
            if not phrase or phrase not in verdict.sentence_de or "_" in phrase:
                problems.append(f"{verdict.key}: missing item {phrase!r} not in words")
    assert not problems, f"{scenario['id']}: " + "; ".join(problems)


def test_the_suite_has_forty_scenarios_and_a_holdout() -> None:
    assert len(SCENARIOS) >= 40 and len(HOLDOUT) >= 20
