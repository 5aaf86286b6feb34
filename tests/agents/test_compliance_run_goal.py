"""A compliance run's goal (issue 17): the run page names the compliance
assessment and its regimes in the reader's language, not the Verzug goal."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import translation

from agents.domain.prompts import COMPLIANCE_GOAL
from agents.services import EXTRACTION_GOAL, extraction_run_start
from agents.templatetags.run_text import run_goal
from cases.models import Claim
from tests.factories import ClaimFactory

pytestmark = pytest.mark.django_db


def _claim(case, claim_type):
    ClaimFactory(case=case, claim_type=claim_type, valid_at=dt.date(2026, 11, 30))


def test_a_compliance_run_has_the_compliance_goal_with_its_regimes(case, lawyer):
    _claim(case, Claim.ClaimType.GDPR)
    _claim(case, Claim.ClaimType.DORA)
    run = extraction_run_start(
        case=case, actor=lawyer, provider="rules", run_async=False
    )
    assert run.goal == COMPLIANCE_GOAL
    assert run.goal_code == "compliance"
    assert run.goal_params == {"regimes": ["dora", "gdpr"]}
    with translation.override("de"):
        german = run_goal(run)
    with translation.override("en"):
        english = run_goal(run)
    assert "Compliance-Prüfung" in german and "DSGVO" in german
    assert "Verzug" not in german and "Mahnung" not in german
    assert english.startswith("Propose the element evidence") and "GDPR" in english


def test_a_verzug_run_keeps_the_verzug_goal(case, lawyer, claim):
    run = extraction_run_start(
        case=case, actor=lawyer, provider="rules", run_async=False
    )
    assert run.goal == EXTRACTION_GOAL
    assert run.goal_code == "extraction"


def test_an_unknown_regime_in_stored_params_falls_back_to_the_stored_goal(case, lawyer):
    _claim(case, Claim.ClaimType.GDPR)
    run = extraction_run_start(
        case=case, actor=lawyer, provider="rules", run_async=False
    )
    run.goal_params = {"regimes": ["xyz"]}
    assert run_goal(run) == COMPLIANCE_GOAL
