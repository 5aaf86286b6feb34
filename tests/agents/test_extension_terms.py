"""A term the curator accepted is known to the agent's next run."""

import pytest

from ontology.vocabulary import fact_type_keys
from review.services.terms import term_candidate_decide
from tests.agents.helpers import fact, run_scripted, tool_steps
from tests.review.helpers import make_term

pytestmark = pytest.mark.django_db

BFT = "https://belegt.example/ns/facttype#"


def _propose_inkasso(chunk):
    return [
        [
            (
                "propose_case_fact",
                fact(
                    chunk,
                    fact_type="ext_inkassokosten",
                    quote="Mahnkosten 5,00 €",
                    value={"cents": 500, "currency": "EUR"},
                ),
            )
        ]
    ]


def test_unknown_fact_type_is_rejected_before_the_curator_decides(
    case, lawyer, letter_chunk
):
    _run, steps, _ = run_scripted(
        case=case, actor=lawyer, turns=_propose_inkasso(letter_chunk)
    )
    [step] = tool_steps(steps)
    assert step.verdict == "rejected"
    assert step.rejection["code"] == "unknown_fact_type"


def test_accepted_subclass_term_is_a_fact_type_for_the_next_run(
    case, lawyer, curator, letter_chunk
):
    term = make_term(case, label="Inkassokosten")
    term_candidate_decide(
        candidate=term,
        curator=curator,
        resolution="subclass",
        concept=BFT + "damage_item",
        reason="häufig in Mahnverfahren",
    )
    assert "ext_inkassokosten" not in fact_type_keys()

    _run, steps, _ = run_scripted(
        case=case, actor=lawyer, turns=_propose_inkasso(letter_chunk)
    )

    [step] = tool_steps(steps)
    assert step.verdict == "ok", step.rejection
