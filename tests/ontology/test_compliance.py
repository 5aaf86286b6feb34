"""Compliance checklists evaluate like claims: per requirement in words."""

from __future__ import annotations

from datetime import date

import pytest

from ontology.domain.evaluate import claim_evaluate
from ontology.domain.facts import FactRecord
from ontology.domain.results import ClaimEvaluation
from ontology.vocabulary import fact_type

from .helpers import ctx, fact

CHECKLISTS = {
    "ai_act_high_risk": {
        "classification": "ai_act_high_risk_classification",
        "risk_management": "ai_act_risk_management_system",
        "data_governance": "ai_act_data_governance",
        "technical_documentation": "ai_act_technical_documentation",
        "record_keeping": "ai_act_record_keeping",
        "transparency": "ai_act_instructions_for_use",
        "human_oversight": "ai_act_human_oversight",
        "accuracy_robustness": "ai_act_accuracy_robustness_cybersecurity",
        "quality_management": "ai_act_quality_management_system",
    },
    "gdpr": {
        "lawful_basis": "gdpr_lawful_basis",
        "information": "gdpr_information_direct",
        "dpia": "gdpr_dpia",
        "processors": "gdpr_processor_agreement",
    },
    "dora": {
        "governance": "dora_management_body_responsibility",
        "ict_risk_framework": "dora_ict_risk_framework",
        "incident_reporting": "dora_incident_reporting",
        "concentration_risk": "dora_concentration_risk_assessment",
        "contractual_provisions": "dora_contractual_provisions",
    },
}


def evaluate(claim_type: str, facts: list[FactRecord]) -> ClaimEvaluation:
    return claim_evaluate(
        facts=facts,
        context=ctx(claim_type=claim_type, valid_at=date(2026, 11, 1)),
    )


@pytest.mark.parametrize("claim_type", sorted(CHECKLISTS))
def test_empty_file_leaves_every_obligation_open(claim_type: str) -> None:
    ev = evaluate(claim_type, [])
    assert ev.requirements
    assert {r.status for r in ev.requirements} == {"open"}
    for verdict in ev.requirements:
        assert "fehlt bisher" in verdict.sentence_de
        assert verdict.legal_basis


@pytest.mark.parametrize(
    ("claim_type", "requirement", "key"),
    [(c, r, k) for c, reqs in sorted(CHECKLISTS.items()) for r, k in reqs.items()],
)
def test_each_obligation_is_satisfied_by_its_confirmed_fact_only(
    claim_type: str, requirement: str, key: str
) -> None:
    value = "Dokument v1.0, Abschnitt 3"
    open_ = evaluate(claim_type, [fact(key, value, status="asserted")])
    assert open_.requirement(requirement).status == "open"
    assert "nur behauptet" in open_.requirement(requirement).sentence_de
    confirmed = fact(key, value)
    done = evaluate(claim_type, [confirmed]).requirement(requirement)
    assert done.status == "satisfied"
    assert done.supporting_fact_ids == (confirmed.id,)
    assert fact_type(key).label_de in done.sentence_de


def test_gdpr_information_duty_is_met_by_art_14_as_alternative() -> None:
    verdict = evaluate(
        "gdpr", [fact("gdpr_information_indirect", "Hinweise nach Art. 14")]
    ).requirement("information")
    assert verdict.status == "satisfied"
    assert verdict.alternatives[1].legal_basis == ("Art. 14 Abs. 1 DSGVO",)


def test_gdpr_no_processor_needs_a_confirmed_yes() -> None:
    no = evaluate("gdpr", [fact("gdpr_no_processor", False)]).requirement("processors")
    assert no.status == "open"
    yes = evaluate("gdpr", [fact("gdpr_no_processor", True)]).requirement("processors")
    assert yes.status == "satisfied"


def test_gdpr_reasoned_no_dpia_is_an_alternative_to_a_dpia() -> None:
    verdict = evaluate(
        "gdpr", [fact("gdpr_dpia_not_required", "kein hohes Risiko, Prüfung v. 3.2.")]
    ).requirement("dpia")
    assert verdict.status == "satisfied"


def test_dora_third_party_risk_needs_strategy_and_register() -> None:
    strategy = fact("dora_third_party_strategy", "IKT-Drittparteienstrategie 2025")
    half = evaluate("dora", [strategy]).requirement("third_party_risk")
    assert half.status == "open"
    assert strategy.id in half.supporting_fact_ids
    assert [m.fact_type for m in half.missing] == ["dora_register_of_information"]
    full = evaluate(
        "dora", [strategy, fact("dora_register_of_information", "Register Q4")]
    ).requirement("third_party_risk")
    assert full.status == "satisfied"


def test_ai_act_technical_documentation_cites_annex_iv() -> None:
    verdict = evaluate("ai_act_high_risk", []).requirement("technical_documentation")
    assert "Anhang IV KI-VO" in verdict.legal_basis
