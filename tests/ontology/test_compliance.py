"""Compliance checklists (GDPR, AI Act, DORA) are judged element by element
for every reader of claim verdicts (API, ``check_claim``, the agents'
``get_missing_requirements``, the reports): ``claim_evaluate`` gives one
requirement per applicable obligation, taken from the element evaluator.
The old checklist — one fact of one type meets a requirement (``gdpr: dpia``)
— is gone: no compliance claim file carries a SHACL shape any more."""

from __future__ import annotations

from datetime import date

import pytest

from ontology.domain.claims import claim_files_load
from ontology.domain.compliance_catalogue import obligations_for_claim_type
from ontology.domain.evaluate import claim_evaluate
from ontology.domain.facts import FactRecord
from ontology.domain.results import ClaimEvaluation, missing_requirements
from ontology.domain.vocabulary import fact_type_keys

from .helpers import ctx, fact

CLAIM_TYPES = ("ai_act_high_risk", "dora", "gdpr")
OLD_CHECKLIST_TYPES = (
    "gdpr_dpia",
    "gdpr_lawful_basis",
    "gdpr_processor_agreement",
    "dora_ict_risk_framework",
    "ai_act_human_oversight",
)


def evaluate(
    claim_type: str, facts: list[FactRecord], four_eyes: bool = False
) -> ClaimEvaluation:
    return claim_evaluate(
        facts=facts,
        context=ctx(
            claim_type=claim_type, valid_at=date(2026, 10, 1), four_eyes=four_eyes
        ),
    )


def present(
    key: str, doc: str = "Datenschutzhinweise", status: str = "confirmed"
) -> FactRecord:
    return fact(key, {"state": "present", "doc": doc, "locator": "§ 1"}, status)


NOTICE_CONTEXT = [
    fact("gdpr_ctx_role", {"role": "controller"}),
    fact("gdpr_ctx_collection", {"source": "from_data_subject"}),
    fact("gdpr_ctx_legal_basis", {"bases": "6_1_b"}),
    fact("gdpr_ctx_dpo_designated", {"value": False}),
    fact("gdpr_ctx_third_country_transfer", {"value": False}),
    fact("gdpr_ctx_automated_decision", {"value": False}),
]
NOTICE_ITEMS = [
    "gdpr_13_1_a_controller_identity",
    "gdpr_13_1_c_purposes_legal_basis",
    "gdpr_13_1_e_recipients",
    "gdpr_13_2_a_storage_period",
    "gdpr_13_2_b_data_subject_rights",
    "gdpr_13_2_e_requirement_consequences",
]


def test_no_compliance_claim_file_carries_a_one_fact_shape() -> None:
    for claim_file in claim_files_load():
        for version in claim_file.versions:
            if version.claim_type not in CLAIM_TYPES:
                continue
            assert version.requirements == ()
            assert not claim_file.shape_condition, claim_file.path.name
            assert obligations_for_claim_type(version.claim_type)


def test_the_old_checklist_fact_types_are_gone_from_the_vocabulary() -> None:
    keys = set(fact_type_keys())
    assert not keys & set(OLD_CHECKLIST_TYPES)


@pytest.mark.parametrize("claim_type", CLAIM_TYPES)
def test_an_empty_file_leaves_every_obligation_open_never_satisfied(
    claim_type: str,
) -> None:
    ev = evaluate(claim_type, [])
    assert ev.requirements
    assert {r.status for r in ev.requirements} == {"open"}
    keys = {o.key for o in obligations_for_claim_type(claim_type)}
    for verdict in ev.requirements:
        assert verdict.key.split("@")[0] in keys
        assert verdict.legal_basis


def test_a_complete_notice_without_the_complaint_right_is_not_satisfied() -> None:
    facts = [
        *NOTICE_CONTEXT,
        fact(
            "gdpr_doc_privacy_notice",
            {"doc": "Datenschutzhinweise", "complete": True, "date": "2026-03-01"},
        ),
        *(present(k) for k in NOTICE_ITEMS),
    ]
    art13 = evaluate("gdpr", facts).requirement("gdpr_13")
    assert art13.status == "not_satisfied"
    assert "Art. 13 Abs. 2 lit. d DSGVO" in art13.sentence_de
    assert [m.fact_type for m in art13.missing] == ["gdpr_13_2_d_complaint_right"]
    # the facts of the evidenced elements carry it, the missing one is named
    assert len(art13.supporting_fact_ids) == len(NOTICE_ITEMS)
    ev = evaluate("gdpr", facts)
    [missing] = [m for m in missing_requirements(ev) if m.requirement == "gdpr_13"]
    assert missing.missing_fact_types == ("gdpr_13_2_d_complaint_right",)


def test_every_element_evidenced_makes_the_obligation_satisfied() -> None:
    facts = [
        *NOTICE_CONTEXT,
        *(present(k) for k in NOTICE_ITEMS),
        present("gdpr_13_2_d_complaint_right"),
    ]
    art13 = evaluate("gdpr", facts).requirement("gdpr_13")
    assert art13.status == "satisfied"
    assert art13.missing == ()


def test_an_asserted_element_fact_never_counts() -> None:
    facts = [
        *NOTICE_CONTEXT,
        *(present(k) for k in NOTICE_ITEMS),
        present("gdpr_13_2_d_complaint_right", status="asserted"),
    ]
    art13 = evaluate("gdpr", facts).requirement("gdpr_13")
    assert art13.status == "open"
    assert [m.fact_type for m in art13.missing] == ["gdpr_13_2_d_complaint_right"]


def test_an_obligation_that_does_not_apply_is_no_requirement_of_the_case() -> None:
    keys = {r.key for r in evaluate("gdpr", NOTICE_CONTEXT).requirements}
    assert "gdpr_6_1_f" not in keys  # the processing rests on Art. 6(1)(b)
    assert "gdpr_13" in keys


def test_under_four_eyes_an_evidenced_element_awaits_its_second_review() -> None:
    waiting = present("gdpr_13_2_d_complaint_right", status="evidenced")
    facts = [
        *(f.model_copy(update={"status": "confirmed"}) for f in NOTICE_CONTEXT),
        *(present(k) for k in NOTICE_ITEMS),
        waiting,
    ]
    ev = evaluate("gdpr", facts, four_eyes=True)
    assert ev.requirement("gdpr_13").status == "open"
    assert waiting.id in ev.awaiting_review
