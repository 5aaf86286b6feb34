"""Art. 35(2) GDPR: the controller seeks the DPO's advice "when carrying out"
a DPIA. Where a DPIA was required, a screening wrongly called it unnecessary
and none exists, the advice was not sought on one: ``nicht_erfuellt``,
finding ``no_assessment`` (as the Art. 35(7) content), not ``offen``."""

from __future__ import annotations

from datetime import date

from ontology.domain.compliance import compliance_evaluate
from ontology.domain.compliance_facts import ComplianceFact, ComplianceInput


def _dpia_elements(*extra: ComplianceFact, dpo: bool = True):
    facts = (
        ComplianceFact(
            ref="c1",
            key="gdpr_ctx_role",
            value={"role": "controller"},
            status="confirmed",
        ),
        ComplianceFact(
            ref="c2",
            key="gdpr_ctx_dpo_designated",
            value={"value": dpo},
            status="confirmed",
        ),
        ComplianceFact(
            ref="c3",
            key="gdpr_35_3_b_large_scale_special_categories",
            value={"value": True, "data": "Gesundheitsdaten", "data_subjects": 50000},
            status="confirmed",
        ),
        ComplianceFact(
            ref="c4",
            key="gdpr_35_screening_note",
            value={"conclusion": "not_required"},
            status="confirmed",
        ),
        *extra,
    )
    result = compliance_evaluate(
        ComplianceInput(valid_at=date(2026, 11, 30), facts=facts, regimes=("gdpr",))
    )
    (dpia,) = [o for o in result.obligations if o.key == "gdpr_35"]
    return {e.key: e for e in dpia.elements}


def test_dpo_advice_is_not_met_when_a_required_dpia_was_never_carried_out():
    advice = _dpia_elements()["gdpr_35_2_dpo_advice"]
    assert advice.applicable is True
    assert advice.code == "nicht_erfuellt"
    assert advice.finding == "no_assessment"


def test_dpo_advice_does_not_apply_without_a_designated_dpo():
    advice = _dpia_elements(dpo=False)["gdpr_35_2_dpo_advice"]
    assert advice.applicable is False


def test_dpo_advice_stays_open_when_a_dpia_exists_but_the_advice_is_not_shown():
    present = ComplianceFact(
        ref="e1",
        key="gdpr_35_7_a_description",
        value={"state": "present", "doc": "D2"},
        status="confirmed",
    )
    advice = _dpia_elements(present)["gdpr_35_2_dpo_advice"]
    assert advice.code == "offen"
