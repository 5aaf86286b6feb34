"""The case graph: facts of a case as an RDF named graph.

``case_graph_build`` is the full picture (status, typed values, evidence links)
for display and export. ``claim_data_graph`` is the lean graph the shapes of one
claim validate: a claim subject, the facts of the fact types that claim's
requirements mention, and RDFS/OWL-RL inference over the vocabulary, so that a
fact of type ``delivery_evidence`` with value "Rückschein" becomes a
``bc:DeliveryEvidence`` and a confirmed fact an ``bc:EstablishedFact``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

import owlrl
from rdflib import OWL, RDF, RDFS, XSD, Graph, Literal, Node, URIRef
from rdflib.collection import Collection

from ontology.domain.facts import ClaimContext, FactRecord
from ontology.domain.namespaces import BC, BCASE, BFL, BFT, BFV
from ontology.domain.values import Amount, Period, Rate, RecordValue
from ontology.domain.vocabulary import value_classes, vocabulary_graph

STATUS_CLASS = {
    "asserted": BC.AssertedFact,
    "disputed": BC.DisputedFact,
    "evidenced": BC.EvidencedFact,
    "confirmed": BC.ConfirmedFact,
}
STATUS_NODE = {
    "asserted": BC.asserted,
    "disputed": BC.disputed,
    "evidenced": BC.evidenced,
    "confirmed": BC.confirmed,
}


def case_graph_iri(case_key: str) -> URIRef:
    return BCASE[f"{case_key}/graph"]


def fact_iri(case_key: str, fact_id: int) -> URIRef:
    return BCASE[f"{case_key}/fact/{fact_id}"]


def subject_iri(case_key: str) -> URIRef:
    return BCASE[f"{case_key}/subject"]


def _add_fact(
    graph: Graph, node: URIRef, fact: FactRecord, *, lean: bool = False
) -> None:
    """Type and value triples of a fact. ``lean`` leaves out what no shape reads
    (id, status node, currency, text): rdflib spends ~20 µs per added triple,
    and the claim data graph of a large case holds tens of thousands."""
    graph.add((node, RDF.type, BFT[fact.fact_type]))
    graph.add((node, RDF.type, STATUS_CLASS[fact.status]))
    # the one "established" rule decides, not a subclass axiom of the status
    counts = BC.EstablishedFact if fact.established else BC.UnestablishedFact
    graph.add((node, RDF.type, counts))
    if not lean:
        graph.add((node, BC.status, STATUS_NODE[fact.status]))
        graph.add((node, BC.factId, Literal(fact.id)))
    value = fact.value
    if isinstance(value, RecordValue):
        for name, inner in value:
            if inner is not None:
                _add_inner(graph, node, BFV[name], inner)
        # a record's date and amount are the fact's date and amount, and a
        # kind that names a class of the vocabulary types it (delivery records)
        main_date = getattr(value, "date", None)
        if isinstance(main_date, date):
            graph.add((node, BC.dateValue, Literal(main_date, datatype=XSD.date)))
        main_amount = getattr(value, "amount", None)
        if isinstance(main_amount, Amount):
            graph.add((node, BC.amountCents, Literal(main_amount.cents)))
        kind = getattr(value, "kind", None)
        cls = value_classes().get(kind.casefold()) if isinstance(kind, str) else None
        if cls is not None:
            graph.add((node, RDF.type, cls))
    elif isinstance(value, Rate | Period):
        graph.add((node, BC.textValue, Literal(value.model_dump_json())))
    elif isinstance(value, bool):
        graph.add((node, BC.booleanValue, Literal(value)))
    elif isinstance(value, Amount):
        graph.add((node, BC.amountCents, Literal(value.cents)))
        if not lean:
            graph.add((node, BC.currency, Literal(value.currency)))
    elif isinstance(value, str):
        if not lean:
            graph.add((node, BC.textValue, Literal(value)))
        cls = value_classes().get(value.strip().casefold())
        if cls is not None:
            graph.add((node, RDF.type, cls))
    else:
        graph.add((node, BC.dateValue, Literal(value, datatype=XSD.date)))


def _add_inner(graph: Graph, node: URIRef, predicate: URIRef, inner: object) -> None:
    """One field of a record value: its literal under ``bfv:<field>`` (an
    amount as its cents, with ``bfv:<field>_currency``)."""
    if isinstance(inner, Amount):
        graph.add((node, predicate, Literal(inner.cents)))
        graph.add((node, URIRef(f"{predicate}_currency"), Literal(inner.currency)))
    elif isinstance(inner, Rate | Period):
        graph.add((node, predicate, Literal(inner.model_dump_json())))
    elif isinstance(inner, date):
        graph.add((node, predicate, Literal(inner, datatype=XSD.date)))
    else:
        graph.add((node, predicate, Literal(inner)))


def case_graph_build(*, facts: Iterable[FactRecord], case_key: str) -> Graph:
    """All facts of a case with status, typed value and evidence links, as a
    named graph (identifier ``case_graph_iri(case_key)``). No inference."""
    graph = Graph(identifier=case_graph_iri(case_key))
    graph.bind("bc", BC)
    graph.bind("bft", BFT)
    for fact in facts:
        node = fact_iri(case_key, fact.id)
        graph.add((node, RDF.type, BC.Fact))
        graph.add((node, BC.factType, BFT[fact.fact_type]))
        _add_fact(graph, node, fact)
        for index, ref in enumerate(fact.evidence):
            link = BCASE[f"{case_key}/fact/{fact.id}/evidence/{index}"]
            graph.add((node, BC.hasEvidence, link))
            graph.add((link, RDF.type, BC.EvidenceLink))
            graph.add((link, BC.document, Literal(ref.document)))
            graph.add((link, BC.page, Literal(ref.page)))
            graph.add((link, BC.chunkId, Literal(ref.chunk_id)))
            if ref.quote:
                graph.add((link, BC.quote, Literal(ref.quote)))
    return graph


@dataclass(frozen=True)
class _Entailments:
    superclasses: dict[Node, frozenset[Node]]
    domains: dict[Node, frozenset[Node]]
    ranges: dict[Node, frozenset[Node]]
    # owl:intersectionOf: class -> its member classes (OWL-RL cls-int1)
    intersections: dict[Node, frozenset[Node]]
    # owl:someValuesFrom: property -> (restriction, filler) pairs (OWL-RL cls-svf1)
    some_values: dict[Node, tuple[tuple[Node, Node], ...]]


@lru_cache(maxsize=1)
def _entailments() -> _Entailments:
    """Closure of the vocabulary (TBox), computed once by owlrl.

    Running owlrl over the whole case graph costs ~4.9 s for 1,000 facts and
    ~128 s for 10,000 (measured here). The ABox rules the shapes rely on need
    only the closed TBox: rdfs9 (subclass typing), rdfs2/rdfs3 (domain, range),
    OWL-RL cls-int1 (intersections) and cls-svf1 (existential restrictions). So
    owlrl closes the TBox and ``rdfs_infer`` applies those rules per triple in
    linear time. tests/ontology/test_graph.py checks that the types equal those
    owlrl's OWL-RL closure derives for the same graph."""
    tbox = Graph()
    tbox += vocabulary_graph()
    owlrl.DeductiveClosure(owlrl.RDFS_Semantics, axiomatic_triples=False).expand(tbox)
    superclasses: dict[Node, set[Node]] = {}
    for cls, sup in tbox.subject_objects(RDFS.subClassOf):
        superclasses.setdefault(cls, set()).add(sup)
    domains: dict[Node, set[Node]] = {}
    ranges: dict[Node, set[Node]] = {}
    for prop, cls in tbox.subject_objects(RDFS.domain):
        domains.setdefault(prop, set()).add(cls)
    for prop, cls in tbox.subject_objects(RDFS.range):
        if cls not in (RDFS.Literal,) and not str(cls).startswith(str(XSD)):
            ranges.setdefault(prop, set()).add(cls)

    def close(classes: set[Node]) -> frozenset[Node]:
        result = set(classes)
        for cls in classes:
            result |= superclasses.get(cls, set())
        return frozenset(result)

    intersections: dict[Node, frozenset[Node]] = {}
    for cls, members in tbox.subject_objects(OWL.intersectionOf):
        intersections[cls] = frozenset(Collection(tbox, members))
    some_values: dict[Node, list[tuple[Node, Node]]] = {}
    for restriction, filler in tbox.subject_objects(OWL.someValuesFrom):
        on_property = tbox.value(restriction, OWL.onProperty)
        if on_property is not None:
            some_values.setdefault(on_property, []).append((restriction, filler))

    return _Entailments(
        intersections=intersections,
        some_values={k: tuple(v) for k, v in some_values.items()},
        superclasses={k: frozenset(v) for k, v in superclasses.items()},
        domains={k: close(v) for k, v in domains.items()},
        ranges={k: close(v) for k, v in ranges.items()},
    )


def rdfs_infer(graph: Graph) -> None:
    """Add the entailments of the vocabulary to ``graph`` in place: rdfs9,
    rdfs2/rdfs3, then OWL-RL cls-int1 and cls-svf1 (one level, which is all the
    vocabulary uses), then rdfs9 again for the classes added."""
    ent = _entailments()
    types: dict[Node, set[Node]] = {}

    def add_type(node: Node, cls: Node) -> None:
        known = types.setdefault(node, set())
        if cls in known:
            return
        known.add(cls)
        known.update(ent.superclasses.get(cls, ()))

    edges: list[tuple[Node, Node, Node]] = []
    for s, p, o in graph:
        if p == RDF.type:
            add_type(s, o)
            continue
        edges.append((s, p, o))
        for cls in ent.domains.get(p, ()):
            add_type(s, cls)
        if not isinstance(o, Literal):
            for cls in ent.ranges.get(p, ()):
                add_type(o, cls)
    for node_types in types.values():
        for cls, members in ent.intersections.items():
            if cls not in node_types and members <= node_types:
                node_types.add(cls)
                node_types.update(ent.superclasses.get(cls, ()))
    for s, p, o in edges:
        for restriction, filler in ent.some_values.get(p, ()):
            if filler in types.get(o, ()):
                add_type(s, restriction)
    for node, node_types in types.items():
        for cls in node_types:
            graph.add((node, RDF.type, cls))


def claim_data_graph(
    *,
    facts: Iterable[FactRecord],
    context: ClaimContext,
    fact_types: frozenset[str],
    infer: bool = True,
) -> Graph:
    """The graph a claim's shapes validate: the claim subject (party kinds) and
    the facts of the given fact types, with RDFS inference applied. The subject
    links each fact through ``bfl:<fact_type>``."""
    graph = Graph()
    subject = subject_iri(context.case_key)
    graph.add((subject, RDF.type, BC.ClaimSubject))
    if context.debtor_kind is not None:
        graph.add((subject, BC.debtorKind, Literal(context.debtor_kind)))
    if context.creditor_kind is not None:
        graph.add((subject, BC.creditorKind, Literal(context.creditor_kind)))
    for fact in facts:
        if fact.fact_type not in fact_types:
            continue
        node = fact_iri(context.case_key, fact.id)
        # one link predicate per fact type keeps each shape's value nodes few
        graph.add((subject, BFL[fact.fact_type], node))
        _add_fact(graph, node, fact, lean=True)
    if infer:
        rdfs_infer(graph)
    return graph
