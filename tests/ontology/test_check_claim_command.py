"""``manage.py check_claim``: one block per requirement with status and
sentence, or the API's JSON; the interest runs to ``--at``."""

from __future__ import annotations

import datetime as dt
import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from ontology.selectors import claim_evaluation_for
from review.services.decisions import proposal_accept
from tests import factories
from tests.ontology.factsdb import accepted, verzug_case

ClaimFactory: Any = factories.ClaimFactory

pytestmark = pytest.mark.django_db


def _run(*args: str) -> str:
    out = StringIO()
    call_command("check_claim", *args, stdout=out)
    return out.getvalue()


def test_prints_one_block_per_requirement_with_status_and_sentence(
    case: Any, reviewer: Any
) -> None:
    data = verzug_case(case, reviewer)
    text = _run("--case", case.reference, "--claim", "verzugsschaden")
    evaluation = claim_evaluation_for(claim=data["claim"])
    blocks = [b for b in text.split("\n\n") if b.startswith("[")]
    assert len(blocks) == len(evaluation.requirements)
    for block, verdict in zip(blocks, evaluation.requirements, strict=True):
        assert block.startswith(f"[{verdict.status_de}] {verdict.label_de}")
        assert verdict.sentence_de in block
        assert "Rechtsgrundlage: " + "; ".join(verdict.legal_basis) in block
    assert "[offen] Mahnung" in text
    assert "Fehlt noch: Zugangsnachweis fehlt" in text


def test_english_blocks(case: Any, reviewer: Any) -> None:
    data = verzug_case(case, reviewer)
    text = _run("--case", case.reference, "--claim", "verzugsschaden", "--lang", "en")
    evaluation = claim_evaluation_for(claim=data["claim"])
    assert f"[satisfied] {evaluation.requirement('faelligkeit').label_en}" in text
    assert evaluation.requirement("mahnung").sentence_en in text


def test_json_is_the_api_shape_and_interest_runs_to_at(
    case: Any, reviewer: Any
) -> None:
    data = verzug_case(case, reviewer)
    proposal_accept(proposal=data["receipt_proposal"], reviewer=reviewer)
    accepted(
        case,
        reviewer,
        chunk=data["letter"],
        fact_type="damage_item",
        value={"cents": 500, "currency": "EUR"},
        quote="Mahnung",
    )
    payload = json.loads(
        _run(
            "--case",
            case.reference,
            "--claim",
            "verzugsschaden",
            "--json",
            "--at",
            "2026-06-15",
        )
    )
    [claim] = payload["claims"]
    assert claim["claim_id"] == data["claim"].pk
    statuses = {r["key"]: r["status_de"] for r in claim["evaluation"]["requirements"]}
    assert statuses["mahnung"] == "erfüllt"
    expected = claim_evaluation_for(
        claim=data["claim"], interest_until=dt.date(2026, 6, 15)
    )
    assert expected.damage is not None
    assert claim["evaluation"]["damage"]["total_cents"] == expected.damage.total_cents
    assert claim["evaluation"]["damage"]["interest"]["end"] == "2026-06-15"
    text = _run(
        "--case", case.reference, "--claim", "verzugsschaden", "--at", "2026-06-15"
    )
    assert "[erfüllt] Mahnung" in text and "Summe: " in text


def test_unknown_case_claim_or_date_is_a_command_error(
    case: Any, reviewer: Any
) -> None:
    verzug_case(case, reviewer)
    with pytest.raises(CommandError, match="No case"):
        _run("--case", "nope", "--claim", "verzugsschaden")
    with pytest.raises(CommandError, match="no claim of type"):
        _run("--case", case.reference, "--claim", "gdpr")
    with pytest.raises(CommandError, match="--at"):
        _run("--case", case.reference, "--claim", "verzugsschaden", "--at", "1.1.26")


def test_a_claim_without_a_version_is_reported_and_fails(case: Any) -> None:
    ClaimFactory(case=case, valid_at=dt.date(1990, 1, 1))
    out = StringIO()
    with pytest.raises(CommandError, match="could not be evaluated"):
        call_command(
            "check_claim",
            "--case",
            case.reference,
            "--claim",
            "verzugsschaden",
            stdout=out,
        )
    assert "Nicht auswertbar" in out.getvalue()
