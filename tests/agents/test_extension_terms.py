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


def test_another_firms_term_is_no_fact_type_for_this_firms_run(
    case, lawyer, letter_chunk, other_case, other_firm
):
    """Firm B's curator accepts the term; firm A's run still refuses it."""
    from cases.models import Membership
    from tests.conftest import _member

    other_curator = _member(other_firm, Membership.Role.CURATOR, "cora.other")
    term_candidate_decide(
        candidate=make_term(other_case, label="Inkassokosten"),
        curator=other_curator,
        resolution="subclass",
        concept=BFT + "damage_item",
    )
    _run, steps, _ = run_scripted(
        case=case, actor=lawyer, turns=_propose_inkasso(letter_chunk)
    )
    [step] = tool_steps(steps)
    assert step.verdict == "rejected"
    assert step.rejection["code"] == "unknown_fact_type"
    assert "ext_inkassokosten" not in step.rejection["hint"]["fact_types"]


def test_the_accepting_firms_run_gets_its_term(
    case, curator, other_case, other_lawyer, other_firm
):
    """Both firms' curators accept a term; firm B's run gets firm B's term
    (a web process or another firm's decision loads nothing into it)."""
    from cases.models import Membership
    from tests.agents.conftest import make_document
    from tests.conftest import _member

    term_candidate_decide(
        candidate=make_term(case, label="Mahnspesen"),
        curator=curator,
        resolution="subclass",
        concept=BFT + "damage_item",
    )
    other_curator = _member(other_firm, Membership.Role.CURATOR, "cora.other")
    term_candidate_decide(
        candidate=make_term(other_case, label="Inkassokosten"),
        curator=other_curator,
        resolution="subclass",
        concept=BFT + "damage_item",
    )
    _doc, [chunk] = make_document(
        other_case, filename="mahnung-b.pdf", pages=("Mahnkosten 5,00 € fällig",)
    )
    _run, steps, _ = run_scripted(
        case=other_case, actor=other_lawyer, turns=_propose_inkasso(chunk)
    )
    [step] = tool_steps(steps)
    assert step.verdict == "ok", step.rejection
