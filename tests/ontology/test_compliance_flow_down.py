"""Art. 28(4) GDPR: the processor binds the sub-processor "by way of a
contract" between the two of them. The controller's DPA being complete shows
nothing about that contract: without it in the file the element is offen, not
"im vollständigen Dokument nicht enthalten" (the ground truth of eight blind
dossiers of benchmarks/compliance_corpus - K9, K13, K20, K23, K26, K35, K36,
K43 - says offen; the evaluator said nicht erfüllt)."""

from __future__ import annotations

from datetime import date

from ontology.domain.compliance import compliance_evaluate
from ontology.domain.compliance_facts import ComplianceFact, ComplianceInput


def _fact(ref: str, key: str, value: dict) -> ComplianceFact:
    return ComplianceFact(ref=ref, key=key, value=value, status="confirmed")


def _sub_processing(*extra: ComplianceFact):
    facts = (
        _fact("r", "gdpr_ctx_role", {"role": "controller"}),
        _fact("s", "gdpr_ctx_subprocessor_engaged", {"value": True}),
        _fact("d", "gdpr_doc_dpa", {"doc": "D2", "complete": True}),
        _fact(
            "a",
            "gdpr_28_2_prior_authorisation",
            {"state": "present", "doc": "D2", "kind": "specific"},
        ),
        *extra,
    )
    result = compliance_evaluate(
        ComplianceInput(valid_at=date(2026, 11, 30), regimes=("gdpr",), facts=facts)
    )
    verdict = result.obligation("gdpr_28_sub")
    return next(e for e in verdict.elements if e.key == "gdpr_28_4_flow_down")


def test_a_complete_dpa_does_not_show_the_sub_processing_contract_missing():
    flow_down = _sub_processing()
    assert flow_down.status == "open"
    assert flow_down.finding == "not_evidenced"


def test_the_sub_processing_contract_evidences_it_and_its_absence_violates_it():
    present = _sub_processing(
        _fact("f", "gdpr_28_4_flow_down", {"state": "present", "doc": "D5"})
    )
    assert present.status == "satisfied"
    absent = _sub_processing(
        _fact("f", "gdpr_28_4_flow_down", {"state": "absent", "doc": "D5"})
    )
    assert absent.status == "not_satisfied"
    assert absent.finding == "absent"
