"""The findings drafted for a compliance claim (pure): every obligation of
the claim type, each followed by its elements, in catalogue order; what is
stored fits the report's columns; nothing is "erfüllt" on an empty file."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from ontology.domain.compliance_catalogue import obligations_for_claim_type
from reports.domain.compliance_drafting import (
    compliance_findings_draft,
    compliance_groups,
    status_label,
)
from reports.domain.drafting import FindingDraft
from reports.models import Finding

CLAIM_TYPES = ("gdpr", "ai_act_high_risk", "dora")


def _drafts(claim_type: str, language: Any = "de") -> list[FindingDraft]:
    return compliance_findings_draft(
        claim_id=1,
        claim_type=claim_type,
        valid_at=dt.date(2026, 10, 1),
        facts=[],
        four_eyes=False,
        language=language,
    )


@pytest.mark.parametrize("claim_type", CLAIM_TYPES)
@pytest.mark.parametrize("language", ["de", "en"])
def test_an_empty_file_drafts_every_obligation_and_element_none_satisfied(
    claim_type: str, language: str
) -> None:
    drafts = _drafts(claim_type, language)
    groups = compliance_groups([(d.requirement_key, d) for d in drafts])
    obligations = obligations_for_claim_type(claim_type)
    assert [g.key for g in groups] == [o.key for o in obligations]
    for group, obligation in zip(groups, obligations, strict=True):
        head = group.finding
        assert isinstance(head, FindingDraft)
        if head.verdict_status == "not_applicable":
            assert group.elements == []
        else:
            assert [e.key for e in group.elements] == [
                e.key for e in obligation.elements
            ]
    assert "satisfied" not in {d.verdict_status for d in drafts}


@pytest.mark.parametrize("claim_type", CLAIM_TYPES)
def test_what_a_compliance_finding_stores_fits_the_report_columns(
    claim_type: str,
) -> None:
    limits = {
        name: getattr(Finding._meta.get_field(name), "max_length", None)
        for name in ("requirement_key", "label", "verdict_status", "verdict_label")
    }
    for draft in _drafts(claim_type):
        for name, limit in limits.items():
            assert limit is not None
            assert len(getattr(draft, name)) <= limit, (name, getattr(draft, name))
        assert draft.text  # the gate reads the provisions from it


def test_a_non_compliance_claim_drafts_no_compliance_findings() -> None:
    assert _drafts("verzugsschaden") == []


def test_the_status_words_in_both_languages() -> None:
    assert status_label("not_satisfied", "de") == "nicht erfüllt"
    assert status_label("not_applicable", "en") == "not applicable"
    assert status_label("applicability_open", "de") == "Anwendbarkeit offen"
