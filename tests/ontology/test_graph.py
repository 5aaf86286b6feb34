"""The case graph and the inference applied before validation."""

from __future__ import annotations

from datetime import date

import owlrl
import rdflib
from rdflib import RDF, Graph, Literal

from ontology.domain.graph import (
    case_graph_build,
    case_graph_iri,
    claim_data_graph,
    fact_iri,
    subject_iri,
)
from ontology.domain.namespaces import BC, BFE, BFT
from ontology.domain.vocabulary import vocabulary_graph

from .helpers import ctx, eur, fact


def test_case_graph_holds_status_typed_values_and_evidence_links() -> None:
    due = fact("due_date", "2024-03-15")
    amount = fact("claim_amount", eur(12_345), status="disputed")
    graph = case_graph_build(facts=[due, amount], case_key="AZ-1")
    assert graph.identifier == case_graph_iri("AZ-1")
    node = fact_iri("AZ-1", due.id)
    assert (node, BC.status, BC.confirmed) in graph
    assert (
        node,
        BC.dateValue,
        Literal(date(2024, 3, 15), datatype=rdflib.XSD.date),
    ) in graph
    assert (node, RDF.type, BFT.due_date) in graph
    other = fact_iri("AZ-1", amount.id)
    assert (other, BC.amountCents, Literal(12_345)) in graph
    assert (other, RDF.type, BC.DisputedFact) in graph
    links = list(graph.objects(node, BC.hasEvidence))
    assert len(links) == 1
    assert (links[0], BC.document, Literal("akte.pdf")) in graph
    assert (links[0], BC.page, Literal(1)) in graph


def test_only_evidenced_and_confirmed_facts_become_established() -> None:
    facts = [
        fact("due_date", "2024-03-15", status=status)
        for status in ("asserted", "disputed", "evidenced", "confirmed")
    ]
    context = ctx(case_key="AZ-2")
    graph = claim_data_graph(
        facts=facts, context=context, fact_types=frozenset({"due_date"})
    )
    established = set(graph.subjects(RDF.type, BC.EstablishedFact))
    assert established == {fact_iri("AZ-2", facts[2].id), fact_iri("AZ-2", facts[3].id)}
    unestablished = set(graph.subjects(RDF.type, BC.UnestablishedFact))
    assert unestablished == {
        fact_iri("AZ-2", facts[0].id),
        fact_iri("AZ-2", facts[1].id),
    }
    assert (subject_iri("AZ-2"), RDF.type, BFE.due_date) in graph


def test_asserted_facts_alone_do_not_type_the_subject() -> None:
    graph = claim_data_graph(
        facts=[fact("due_date", "2024-03-15", status="asserted")],
        context=ctx(case_key="AZ-3"),
        fact_types=frozenset({"due_date"}),
    )
    assert (subject_iri("AZ-3"), RDF.type, BFE.due_date) not in graph


def test_rueckschein_is_inferred_to_be_delivery_evidence() -> None:
    proof = fact("delivery_evidence", "Rückschein")
    graph = claim_data_graph(
        facts=[proof],
        context=ctx(case_key="AZ-4"),
        fact_types=frozenset({"delivery_evidence"}),
    )
    node = fact_iri("AZ-4", proof.id)
    for cls in (BC.Rueckschein, BC.UebergabeEinschreiben, BC.RegisteredMail):
        assert (node, RDF.type, cls) in graph
    assert (node, RDF.type, BC.DeliveryEvidence) in graph
    assert (subject_iri("AZ-4"), RDF.type, BFE.delivery_evidence_recognised) in graph


def test_fast_inference_derives_the_same_types_as_owlrl() -> None:
    facts = [
        fact("delivery_evidence", "Einwurf-Einschreiben"),
        fact("delivery_evidence", "Fax", status="asserted"),
        fact("reminder_received", "2024-04-04", status="evidenced"),
        fact("refusal_to_pay", "2024-04-04", status="disputed"),
        fact("damage_item", eur(100)),
    ]
    keys = frozenset(f.fact_type for f in facts)
    context = ctx(case_key="AZ-5", debtor_kind="consumer")
    fast = claim_data_graph(facts=facts, context=context, fact_types=keys)
    plain = claim_data_graph(facts=facts, context=context, fact_types=keys, infer=False)

    reference = Graph()
    reference += plain
    reference += vocabulary_graph()
    owlrl.DeductiveClosure(owlrl.OWLRL_Semantics, axiomatic_triples=False).expand(
        reference
    )
    nodes = {s for s, _p, _o in plain}
    assert subject_iri("AZ-5") in nodes
    for node in nodes:
        expected = {
            o
            for o in reference.objects(node, RDF.type)
            if not str(o).startswith("http://www.w3.org/")
        }
        got = set(fast.objects(node, RDF.type))
        assert expected == got, node
