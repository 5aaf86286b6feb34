"""Art. 28(3) GDPR per processor: processing by a processor "shall be governed
by a contract ... that is binding on the processor with regard to the
controller", so a controller with several processors owes the mandatory terms
in each contract, and one processor's gap is not covered by another's clause.

The case (after blind holdout K35 of benchmarks/compliance_corpus): one
framework DPA (document D2, complete) with a general part every processor
signed and a specific part per processor.
- The general part words (a)-(d) and (f)-(h) and the subject matter.
- Processor A's part adds the assistance with data subject requests (e), and
  lets A engage a sub-processor without the controller's authorisation,
  contradicting (d) for A.
- Processor B's part has no (e).
- Processor C's part has its own (e).
Expected from the law: A nicht erfüllt ((d) contradicted), B nicht erfüllt
((e) missing from the complete contract), C erfüllt."""

from __future__ import annotations

from datetime import date

from ontology.domain.compliance import compliance_evaluate
from ontology.domain.compliance_facts import ComplianceFact, ComplianceInput

SHARED = (
    "gdpr_28_3_subject_matter",
    "gdpr_28_3_a_documented_instructions",
    "gdpr_28_3_b_confidentiality",
    "gdpr_28_3_c_security_measures",
    "gdpr_28_3_d_subprocessor_conditions",
    "gdpr_28_3_f_assist_32_36",
    "gdpr_28_3_g_delete_or_return",
    "gdpr_28_3_h_audit_information",
)
PROCESSORS = ("A GmbH", "B GmbH", "C Inc.")


def _fact(ref: str, key: str, value: dict) -> ComplianceFact:
    return ComplianceFact(ref=ref, key=key, value=value, status="confirmed")


def _context(processors=PROCESSORS) -> list[ComplianceFact]:
    facts = [_fact("role", "gdpr_ctx_role", {"role": "controller"})]
    for i, name in enumerate(processors):
        facts.append(
            _fact(
                f"p{i}",
                "gdpr_ctx_processing_on_behalf",
                {"value": True, "controller": "K GmbH", "processor": name},
            )
        )
        facts.append(
            _fact(
                f"d{i}",
                "gdpr_doc_dpa",
                {"doc": "D2", "complete": True, "subject": name},
            )
        )
    return facts


def _evaluate(facts: list[ComplianceFact]):
    return compliance_evaluate(
        ComplianceInput(
            valid_at=date(2026, 11, 20), regimes=("gdpr",), facts=tuple(facts)
        )
    )


def test_each_processor_is_judged_on_its_own_contract_terms():
    facts = _context()
    # the general part: no subject, in the document every processor signed
    facts += [
        _fact(f"s{i}", key, {"state": "present", "doc": "D2"})
        for i, key in enumerate(SHARED)
    ]
    facts += [
        _fact(
            "a-e",
            "gdpr_28_3_e_assist_data_subject_rights",
            {"state": "present", "doc": "D2", "subject": "A GmbH"},
        ),
        _fact(
            "a-d",
            "gdpr_28_3_d_subprocessor_conditions",
            {"state": "contradicted", "doc": "D2", "subject": "A GmbH"},
        ),
        _fact(
            "c-e",
            "gdpr_28_3_e_assist_data_subject_rights",
            {"state": "present", "doc": "D2", "subject": "C Inc."},
        ),
    ]
    result = _evaluate(facts)
    verdicts = {o.subject: o for o in result.obligations if o.key == "gdpr_28_3"}
    assert set(verdicts) == set(PROCESSORS)
    assert verdicts["A GmbH"].status == "not_satisfied"
    assert verdicts["A GmbH"].violated == ("gdpr_28_3_d_subprocessor_conditions",)
    b = verdicts["B GmbH"]
    assert b.status == "not_satisfied"
    assert b.violated == ("gdpr_28_3_e_assist_data_subject_rights",)
    e_of_b = next(e for e in b.elements if e.key.startswith("gdpr_28_3_e"))
    assert e_of_b.finding == "absent_in_document"
    assert verdicts["C Inc."].status == "satisfied"
    # one processor's clause never evidences another's term
    assert "c-e" not in e_of_b.decisive


def test_a_single_processor_keeps_one_unnamed_subject():
    facts = _context(processors=("A GmbH",))
    facts += [
        _fact(f"s{i}", key, {"state": "present", "doc": "D2"})
        for i, key in enumerate(SHARED)
    ]
    verdicts = [o for o in _evaluate(facts).obligations if o.key == "gdpr_28_3"]
    assert [o.subject for o in verdicts] == [None]
    # (e) is missing from the complete contract
    assert verdicts[0].violated == ("gdpr_28_3_e_assist_data_subject_rights",)


def test_a_fact_in_another_document_does_not_belong_to_a_processor():
    facts = _context(processors=("A GmbH", "B GmbH"))
    facts.append(
        _fact(
            "x",
            "gdpr_28_3_b_confidentiality",
            {"state": "present", "doc": "D9"},  # not a contract of either
        )
    )
    for verdict in (o for o in _evaluate(facts).obligations if o.key == "gdpr_28_3"):
        b = next(e for e in verdict.elements if e.key == "gdpr_28_3_b_confidentiality")
        assert "x" not in b.decisive
        assert b.finding == "absent_in_document"
