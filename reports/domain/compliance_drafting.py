"""Findings of a compliance claim (issue 17): one per obligation, followed by
one per element of that obligation, each drafted from the element evaluator's
verdict (``ontology.domain.compliance``). The provisions stand in each
finding's text, so the citation gate checks every one the report prints; the
evidence of an element finding is the facts its verdict rests on (document,
page and the verbatim quote that established them).

The exports (``reports/exports_compliance.py``) regroup the stored findings
by their requirement keys: an obligation key opens a group, the element keys
that follow belong to it (``compliance_groups``). Pure: no Django.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from ontology.domain.compliance import ElementVerdict, ObligationVerdict
from ontology.domain.compliance_catalogue import (
    element_index,
    obligations_catalogue,
)
from ontology.domain.compliance_view import (
    REGIME_OF_CLAIM_TYPE,
    compliance_assess_records,
)
from ontology.domain.facts import FactRecord
from ontology.domain.results import STATUS_LABELS
from ontology.domain.vocabulary import Vocabulary
from reports.domain.drafting import FindingDraft, evidence_items

Language = Literal["de", "en"]
COMPLIANCE_CLAIM_TYPES = frozenset(REGIME_OF_CLAIM_TYPE)
# a compliance finding's status besides the three verdicts, and the label
# of an element whose applicability the file does not show
NOT_APPLICABLE = "not_applicable"
APPLICABILITY_OPEN = "applicability_open"
EXTRA_LABELS: dict[str, tuple[str, str]] = {
    NOT_APPLICABLE: ("nicht anwendbar", "not applicable"),
    APPLICABILITY_OPEN: ("Anwendbarkeit offen", "applicability open"),
}
BASIS = {"de": "Rechtsgrundlage", "en": "Legal basis"}


def is_compliance_claim(claim_type: str) -> bool:
    return claim_type in COMPLIANCE_CLAIM_TYPES


def status_label(status: str, language: Language) -> str:
    """The word a report prints for a compliance status code."""
    i = 0 if language == "de" else 1
    if status in STATUS_LABELS:
        return STATUS_LABELS[status][i]
    return EXTRA_LABELS.get(status, (status, status))[i]


def _int_ids(refs: Iterable[str]) -> tuple[int, ...]:
    return tuple(dict.fromkeys(int(r) for r in refs if r.isdigit()))


def _element_status(element: ElementVerdict) -> str:
    """The stored status (a verdict or ``not_applicable``); an element whose
    applicability is open is ``open``, and its label says why."""
    return element.status or NOT_APPLICABLE


def _element_label(element: ElementVerdict, language: Language) -> str:
    if element.status is not None and element.applicable is None:
        return status_label(APPLICABILITY_OPEN, language)
    return status_label(_element_status(element), language)


def _obligation_label(obligation: ObligationVerdict, language: Language) -> str:
    label = obligation.label_de if language == "de" else obligation.label_en
    return f"{label} – {obligation.subject}" if obligation.subject else label


def _obligation_text(obligation: ObligationVerdict, language: Language) -> str:
    sentence = obligation.sentence_de if language == "de" else obligation.sentence_en
    provision = obligation.provision_de if language == "de" else obligation.provision_en
    text = _LABEL_QUOTE.sub(r"‚\1‘", sentence.strip())
    if provision and provision not in text:
        text += f" {BASIS[language]}: {provision}."
    return text


_LABEL_QUOTE = re.compile(r'"([^"]+)"')


def _element_text(element: ElementVerdict, language: Language) -> str:
    sentence = element.sentence_de if language == "de" else element.sentence_en
    provision = element.provision_de if language == "de" else element.provision_en
    if sentence.strip():
        # a word set off in an element's label (die Angabe "keine" genügt) is
        # the catalogue's wording, not a quotation of a source
        return _LABEL_QUOTE.sub(r"‚\1‘", sentence.strip())
    return f"{provision}: {_element_label(element, language)}."


def compliance_findings_draft(
    *,
    claim_id: int,
    claim_type: str,
    valid_at: dt.date,
    facts: Sequence[FactRecord],
    four_eyes: bool,
    language: Language = "en",
    vocabulary: Vocabulary | None = None,
) -> list[FindingDraft]:
    """The findings of one compliance claim: each obligation (for each of its
    subjects, e.g. each ICT contract), then each of its elements. An
    obligation that does not apply is one finding saying that and why; its
    elements are not listed. Empty for a claim type that is not compliance."""
    assessment = compliance_assess_records(
        facts, claim_type=claim_type, valid_at=valid_at, four_eyes=four_eyes
    )
    if assessment is None:
        return []
    by_id = {f.id: f for f in facts}
    drafts: list[FindingDraft] = []
    for obligation in assessment.obligations:
        status = obligation.status or NOT_APPLICABLE
        drafts.append(
            FindingDraft(
                claim_id=claim_id,
                claim_type=claim_type,
                requirement_key=obligation.key,
                label=_obligation_label(obligation, language)[:300],
                verdict_status=status,
                verdict_label=status_label(status, language),
                text=_obligation_text(obligation, language),
                supporting_fact_ids=_int_ids(obligation.applicability_decisive),
                evidence=evidence_items(
                    _int_ids(obligation.applicability_decisive),
                    by_id,
                    language,
                    vocabulary,
                ),
            )
        )
        if obligation.applicable is False:
            continue
        for element in obligation.elements:
            element_status = _element_status(element)
            ids = _int_ids(element.decisive)
            drafts.append(
                FindingDraft(
                    claim_id=claim_id,
                    claim_type=claim_type,
                    requirement_key=element.key[:64],
                    label=(element.label_de if language == "de" else element.label_en)[
                        :300
                    ],
                    verdict_status=element_status,
                    verdict_label=_element_label(element, language),
                    text=_element_text(element, language),
                    supporting_fact_ids=ids,
                    evidence=evidence_items(ids, by_id, language, vocabulary),
                )
            )
    return drafts


def compliance_known_labels() -> frozenset[str]:
    """The obligation and element labels (the system's own headings, never
    quotations of a source)."""
    labels: set[str] = set()
    for obligation in obligations_catalogue().values():
        labels |= {obligation.label_de, obligation.label_en}
        for element in obligation.elements:
            labels |= {element.label_de, element.label_en}
    return frozenset(labels)


# ------------------------------------------------------------------ regrouping
@dataclass
class ElementFinding:
    """An element finding as stored, with the provision it cites."""

    key: str
    finding: object  # the stored row (reports.models.Finding) or its view
    provision_de: str
    provision_en: str


@dataclass
class ObligationGroup:
    key: str
    finding: object
    provision_de: str
    provision_en: str
    elements: list[ElementFinding] = field(default_factory=list)


def compliance_groups(
    findings: Sequence[tuple[str, object]],
) -> list[ObligationGroup]:
    """Regroup ``(requirement_key, finding)`` pairs in report order: an
    obligation key opens a group, element keys join the open group. Keys that
    are neither (a finding drafted elsewhere) are left out."""
    obligations = obligations_catalogue()
    elements = element_index()
    groups: list[ObligationGroup] = []
    for key, finding in findings:
        if key in obligations:
            ob = obligations[key]
            groups.append(
                ObligationGroup(key, finding, ob.provision_de, ob.provision_en)
            )
            continue
        if key in elements and groups:
            owner, element = elements[key]
            if owner.key != groups[-1].key:
                continue
            groups[-1].elements.append(
                ElementFinding(key, finding, element.provision_de, element.provision_en)
            )
    return groups
