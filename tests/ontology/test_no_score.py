"""No percentage, score or progress bar anywhere: requirements are not equally
weighted segments. The only "%" allowed is a statutory interest rate."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from ontology.domain.evaluate import claim_evaluate
from ontology.domain.results import ClaimEvaluation

from .helpers import ctx, eur, fact

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN_KEYS = re.compile(r"score|percent|progress|\bratio\b|completion|fraction")
FORBIDDEN_TEXT = re.compile(
    r"\b\d+\s*(?:von|of|/)\s*\d+\b|score|progress|fortschritt|begründet zu",
    re.IGNORECASE,
)
INTEREST_RATE = re.compile(r"(?:zu|at) -?\d+[.,]\d\d ?%")


def _evaluations() -> list[ClaimEvaluation]:
    verzug = [
        fact("due_date", "2024-03-15"),
        fact("reminder_sent", "2024-04-02"),
        fact("reminder_received", "2024-04-04"),
        fact("claim_amount", eur(1_000_000)),
        fact("damage_item", eur(15_470)),
    ]
    result = [
        claim_evaluate(facts=verzug, context=ctx(interest_until=date(2024, 8, 31))),
        claim_evaluate(facts=verzug[:2], context=ctx()),
    ]
    for claim_type in ("ai_act_high_risk", "gdpr", "dora"):
        result.append(
            claim_evaluate(
                facts=[fact("gdpr_ctx_legal_basis", {"bases": "6_1_b"})],
                context=ctx(claim_type=claim_type, valid_at=date(2026, 11, 1)),
            )
        )
    return result


def _keys(schema: object) -> set[str]:
    keys: set[str] = set()
    if isinstance(schema, dict):
        for key, value in schema.items():
            keys.add(str(key))
            keys |= _keys(value)
    elif isinstance(schema, list):
        for value in schema:
            keys |= _keys(value)
    return keys


def test_result_models_have_no_score_like_field() -> None:
    keys = _keys(ClaimEvaluation.model_json_schema())
    assert not [k for k in keys if FORBIDDEN_KEYS.search(k.lower())]


@pytest.mark.parametrize("index", range(5))
def test_sentences_contain_no_percentage_or_fraction_of_requirements(
    index: int,
) -> None:
    evaluation = _evaluations()[index]
    for verdict in evaluation.requirements:
        for text in (verdict.sentence_de, verdict.sentence_en):
            assert not FORBIDDEN_TEXT.search(text), text
            assert "%" not in INTEREST_RATE.sub("", text), text


def test_verdict_template_has_no_progress_bar_or_percentage() -> None:
    template = ROOT / "templates" / "ontology" / "partials" / "verdicts.html"
    text = re.sub(
        r"{% comment %}.*?{% endcomment %}",
        "",
        template.read_text(encoding="utf-8").lower(),
        flags=re.S,
    )
    for forbidden in ("<progress", "progress", "%}%", "percent", "score", "width:"):
        assert forbidden not in text
    assert not re.search(r"\d\s*%(?!\})", text)


def test_rendered_verdicts_show_words_and_no_percentage() -> None:
    from django.template.loader import render_to_string
    from django.utils import translation

    evaluation = _evaluations()[0]
    with translation.override("de"):
        html = render_to_string(
            "ontology/partials/verdicts.html", {"evaluation": evaluation}
        )
    assert "erfüllt" in html
    assert evaluation.requirements[1].sentence_de.split(".")[0] in html
    assert "§ 286 Abs. 1 S. 1 BGB" in html
    assert "%" not in INTEREST_RATE.sub("", html)
    assert "<progress" not in html and "width:" not in html
    with translation.override("en"):
        html_en = render_to_string(
            "ontology/partials/verdicts.html", {"evaluation": evaluation}
        )
    assert "satisfied" in html_en
