"""Temporal validity and jurisdiction pick the right ontology version."""

from __future__ import annotations

from datetime import date

import pytest

from ontology.domain.errors import ClaimVersionNotFound
from ontology.domain.evaluate import claim_evaluate
from ontology.services import claim_requirements_get

from .helpers import ctx, eur, fact


@pytest.mark.parametrize(
    ("valid_at", "version_key", "points"),
    [
        (date(2002, 1, 1), "verzugsschaden/DE/2002-01-01", 8),
        (date(2014, 7, 28), "verzugsschaden/DE/2002-01-01", 8),
        (date(2014, 7, 29), "verzugsschaden/DE/2014-07-29", 9),
        (date(2026, 11, 29), "verzugsschaden/DE/2014-07-29", 9),
    ],
)
def test_valid_at_picks_the_version_in_force(
    valid_at: date, version_key: str, points: int
) -> None:
    version = claim_requirements_get("verzugsschaden", "DE", valid_at)
    assert version.version_key == version_key
    assert version.interest_points_no_consumer == points
    assert [r.key for r in version.requirements] == [
        "faelligkeit",
        "mahnung",
        "vertretenmuessen",
        "schaden",
    ]


def test_before_the_first_version_there_is_none() -> None:
    with pytest.raises(ClaimVersionNotFound):
        claim_requirements_get("verzugsschaden", "DE", date(2001, 12, 31))


def test_other_jurisdiction_has_no_verzugsschaden() -> None:
    with pytest.raises(ClaimVersionNotFound):
        claim_requirements_get("verzugsschaden", "AT", date(2024, 1, 1))


def test_eu_checklists_apply_in_member_states_from_their_start() -> None:
    assert claim_requirements_get("gdpr", "DE", date(2018, 5, 25)).jurisdiction == "EU"
    with pytest.raises(ClaimVersionNotFound):
        claim_requirements_get("gdpr", "DE", date(2018, 5, 24))
    with pytest.raises(ClaimVersionNotFound):
        claim_requirements_get("dora", "US", date(2025, 6, 1))
    assert claim_requirements_get("dora", "EU", date(2025, 1, 17)).claim_type == "dora"
    with pytest.raises(ClaimVersionNotFound):
        claim_requirements_get("ai_act_high_risk", "DE", date(2026, 8, 1))


def test_the_same_facts_get_eight_points_under_the_old_version() -> None:
    facts = [
        fact("calendar_payment_date", "2013-03-01"),
        fact("claim_amount", eur(1_000_000)),
    ]
    old = claim_evaluate(
        facts=facts,
        context=ctx(valid_at=date(2013, 3, 31)),  # the Stichtag
    )
    assert old.version_key == "verzugsschaden/DE/2002-01-01"
    assert old.damage is not None and old.damage.interest is not None
    assert old.damage.interest.points == 8
    assert old.damage.flat_fee_cents is None  # § 288 Abs. 5 BGB came in 2014
    # 30 days (02.03.-31.03.2013) at -0.13 + 8 = 7.87 %
    assert old.damage.interest.interest_cents == round(1_000_000 * 0.0787 * 30 / 365)


def test_requirements_carry_canonical_legal_basis() -> None:
    version = claim_requirements_get("verzugsschaden", "DE", date(2024, 1, 1))
    mahnung = version.requirements[1]
    assert "§ 286 Abs. 1 S. 1 BGB" in mahnung.legal_basis
    bases = {a.key: a.legal_basis for a in mahnung.alternatives}
    assert bases["calendar_date"] == ("§ 286 Abs. 2 Nr. 1 BGB",)
    assert bases["period_from_event"] == ("§ 286 Abs. 2 Nr. 2 BGB",)
    assert bases["refusal"] == ("§ 286 Abs. 2 Nr. 3 BGB",)
    assert bases["special_reasons"] == ("§ 286 Abs. 2 Nr. 4 BGB",)
    assert bases["invoice_30_days"] == ("§ 286 Abs. 3 S. 1 BGB",)
