"""A compliance claim (GDPR, AI Act, DORA) as a ``ClaimEvaluation``: what the
API, ``check_claim``, the agents' ``get_missing_requirements`` and every other
reader of claim verdicts get, taken from the element evaluator
(``ontology.domain.compliance``) — the one rule for compliance verdicts.

One requirement verdict per applicable obligation (per subject, e.g. per ICT
contract): its status and sentence are the obligation's, its supporting facts
those that carry its evidenced elements, and what is missing names the fact
types (element keys) of the missing and violated elements. An obligation that
does not apply is no requirement of the case and is left out here (the
Requirements tab and the report say that and why). Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ontology.domain.claims import ClaimVersion
from ontology.domain.compliance import ObligationVerdict
from ontology.domain.compliance_catalogue import element_index
from ontology.domain.compliance_view import compliance_assess_records
from ontology.domain.facts import ClaimContext, FactRecord
from ontology.domain.results import ClaimEvaluation, MissingItem, RequirementVerdict


def _ids(refs: Iterable[str]) -> tuple[int, ...]:
    return tuple(dict.fromkeys(int(r) for r in refs if r.isdigit()))


def _requirement(obligation: ObligationVerdict) -> RequirementVerdict:
    assert obligation.status is not None
    elements = element_index()
    missing = []
    for key in (*obligation.violated, *obligation.missing):
        _owner, element = elements[key]
        missing.append(
            MissingItem(
                fact_type=element.fact_type or key,
                label_de=f"{element.provision_de} ({element.label_de})",
                label_en=f"{element.provision_en} ({element.label_en})",
            )
        )
    supporting = [
        ref
        for e in obligation.elements
        if e.status == "satisfied"
        for ref in e.decisive
    ]
    key = obligation.key
    if obligation.subject:
        key = f"{key}@{obligation.subject}"
    return RequirementVerdict(
        key=key,
        label_de=obligation.label_de,
        label_en=obligation.label_en,
        status=obligation.status,
        sentence_de=obligation.sentence_de,
        sentence_en=obligation.sentence_en,
        supporting_fact_ids=_ids(supporting),
        missing=tuple(missing),
        legal_basis=(obligation.provision_de,),
        alternatives=(),
    )


def compliance_claim_evaluate(
    *, facts: Sequence[FactRecord], context: ClaimContext, version: ClaimVersion
) -> ClaimEvaluation:
    """The claim's verdicts from the element evaluator, as of the claim's
    Stichtag, with the firm's four-eyes option."""
    assessment = compliance_assess_records(
        facts,
        claim_type=version.claim_type,
        valid_at=context.valid_at,
        four_eyes=context.four_eyes,
    )
    assert assessment is not None, version.claim_type
    return ClaimEvaluation.for_version(
        version,
        context.valid_at,
        tuple(_requirement(o) for o in assessment.obligations if o.status is not None),
        four_eyes=context.four_eyes,
        awaiting_review=_ids(assessment.awaiting_review),
    )
