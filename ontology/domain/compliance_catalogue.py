"""The compliance obligations and their elements, read from the claim files.

``ontology/claims/{gdpr,ai_act_high_risk,dora}.ttl`` list each obligation
(``bcl:Obligation``) with its elements (``bcl:Element``): the pinpoint provision
in German and English, the labels, the value shape of the element's fact, the
condition under which the element applies and the documents that evidence it.
The evaluator (``ontology.domain.compliance``) reads this catalogue; it holds
no list of elements of its own, so a new element is one entry in Turtle.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rdflib import RDF, RDFS, Graph, Node, URIRef
from rdflib import Literal as RDFLiteral

from ontology.domain.claims import CLAIMS_DIR
from ontology.domain.namespaces import BCL, BFT

CLAIM_FILES = ("gdpr.ttl", "ai_act_high_risk.ttl", "dora.ttl")
REGIMES = ("gdpr", "aia", "dora")


@dataclass(frozen=True)
class ElementCondition:
    """When an element applies beyond its obligation: a context (or element)
    fact whose ``field`` takes one of ``values`` (a list field: contains one),
    optionally only for an AI Act role, or only where the AI interaction is
    not obvious."""

    fact: str
    field: str
    values: tuple[str, ...]
    role: str | None = None
    not_obvious: bool = False
    text_de: str = ""


@dataclass(frozen=True)
class ElementDef:
    key: str
    order: int
    label_de: str
    label_en: str
    provision_de: str
    provision_en: str
    shape: str
    fact_type: str | None
    condition: ElementCondition | None
    # evidenced in another document than the obligation's instrument (Art.
    # 28(4): the sub-processing contract), so the instrument being complete
    # shows nothing missing
    outside_instrument: bool = False


@dataclass(frozen=True)
class ObligationDef:
    key: str
    regime: str
    claim_type: str
    order: int
    label_de: str
    label_en: str
    provision_de: str
    provision_en: str
    applicability_de: str
    instrument: str | None
    evidence_sources: tuple[str, ...]
    elements: tuple[ElementDef, ...]


def _text(graph: Graph, node: Node, prop: URIRef, lang: str | None = None) -> str:
    for value in graph.objects(node, prop):
        if isinstance(value, RDFLiteral) and (lang is None or value.language == lang):
            return str(value)
    return ""


def _int(graph: Graph, node: Node, prop: URIRef) -> int:
    value = graph.value(node, prop)
    return int(value.toPython()) if isinstance(value, RDFLiteral) else 0


def _bool(graph: Graph, node: Node, prop: URIRef) -> bool:
    value = graph.value(node, prop)
    return isinstance(value, RDFLiteral) and value.toPython() is True


def _key_of(node: Node | None) -> str | None:
    if node is None:
        return None
    return str(node).removeprefix(str(BFT))


def _condition(graph: Graph, node: Node | None) -> ElementCondition | None:
    if node is None:
        return None
    fact = _key_of(graph.value(node, BCL.conditionFact))
    if fact is None:
        raise ValueError(f"element condition {node} lacks bcl:conditionFact")
    role = graph.value(node, BCL.conditionRole)
    not_obvious = graph.value(node, BCL.conditionNotObvious)
    return ElementCondition(
        fact=fact,
        field=_text(graph, node, BCL.conditionField) or "value",
        values=tuple(sorted(str(v) for v in graph.objects(node, BCL.conditionValue))),
        role=str(role) if role is not None else None,
        not_obvious=isinstance(not_obvious, RDFLiteral)
        and not_obvious.toPython() is True,
        text_de=_text(graph, node, RDFS.comment, "de"),
    )


def _element(graph: Graph, node: Node) -> ElementDef:
    return ElementDef(
        key=_text(graph, node, BCL.key),
        order=_int(graph, node, BCL.order),
        label_de=_text(graph, node, RDFS.label, "de"),
        label_en=_text(graph, node, RDFS.label, "en"),
        provision_de=_text(graph, node, BCL.provision, "de"),
        provision_en=_text(graph, node, BCL.provision, "en"),
        shape=_text(graph, node, BCL.valueShape),
        fact_type=_key_of(graph.value(node, BCL.factType)),
        condition=_condition(graph, graph.value(node, BCL.condition)),
        outside_instrument=_bool(graph, node, BCL.outsideInstrument),
    )


def obligations_from_graph(graph: Graph, claim_type: str) -> list[ObligationDef]:
    """The obligations one claim file declares, in their order."""
    result = []
    for node in graph.subjects(RDF.type, BCL.Obligation):
        key = _text(graph, node, BCL.key)
        elements = sorted(
            (_element(graph, e) for e in graph.objects(node, BCL.element)),
            key=lambda e: e.order,
        )
        if not key or not elements:
            raise ValueError(f"obligation {node} lacks bcl:key or bcl:element")
        result.append(
            ObligationDef(
                key=key,
                regime=key.split("_", 1)[0],
                claim_type=claim_type,
                order=_int(graph, node, BCL.order),
                label_de=_text(graph, node, RDFS.label, "de"),
                label_en=_text(graph, node, RDFS.label, "en"),
                provision_de=_text(graph, node, BCL.provision, "de"),
                provision_en=_text(graph, node, BCL.provision, "en"),
                applicability_de=_text(graph, node, BCL.applicability, "de"),
                instrument=_key_of(graph.value(node, BCL.instrument)),
                evidence_sources=tuple(
                    sorted(str(s) for s in graph.objects(node, BCL.evidenceSource))
                ),
                elements=tuple(elements),
            )
        )
    return sorted(result, key=lambda o: o.order)


@lru_cache(maxsize=1)
def obligations_catalogue() -> dict[str, ObligationDef]:
    """Every compliance obligation by key, in regime and table order."""
    catalogue: dict[str, ObligationDef] = {}
    for name in CLAIM_FILES:
        graph = Graph()
        graph.parse(CLAIMS_DIR / name, format="turtle")
        for catalogue_node in graph.subjects(RDF.type, BCL.ObligationCatalogue):
            claim_type = _text(graph, catalogue_node, BCL.claimType)
            for obligation in obligations_from_graph(graph, claim_type):
                catalogue[obligation.key] = obligation
    return catalogue


def obligations_for_claim_type(claim_type: str) -> tuple[ObligationDef, ...]:
    """The obligations of one compliance claim type (``gdpr``, ``dora``,
    ``ai_act_high_risk``); empty for any other claim type."""
    return tuple(
        o for o in obligations_catalogue().values() if o.claim_type == claim_type
    )


def element_index() -> dict[str, tuple[ObligationDef, ElementDef]]:
    """Each element key with its obligation."""
    return {e.key: (o, e) for o in obligations_catalogue().values() for e in o.elements}


EXAMPLES_FILE = (
    Path(__file__).resolve().parent.parent / "data" / "compliance_examples.jsonl"
)


@dataclass(frozen=True)
class ElementExample:
    """A passage of a document that evidences an element, as a reviewer
    confirmed it: how organisations word the element in their own documents
    (which the law's wording and the labels do not show). ``source`` names
    the synthetic dossier of benchmarks/compliance_corpus it was taken from,
    ``set`` its blind set (the benchmark never scores a dossier against the
    examples of its own set)."""

    key: str
    text: str
    source: str
    set: int


@lru_cache(maxsize=1)
def element_examples() -> tuple[ElementExample, ...]:
    """The element examples of ``ontology/data/compliance_examples.jsonl``
    (written by benchmarks/compliance_corpus/export_examples.py from the spent
    dossiers only), each for an element of the catalogue with a fact type; a
    line naming no such element is an error, not silently skipped."""
    index = element_index()
    examples: list[ElementExample] = []
    with EXAMPLES_FILE.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            row = json.loads(line)
            found = index.get(row["key"])
            if found is None or found[1].fact_type is None:
                raise ValueError(
                    f"{EXAMPLES_FILE.name}:{number}: no element with a fact type "
                    f"'{row['key']}'"
                )
            examples.append(
                ElementExample(
                    key=row["key"],
                    text=str(row["text"]),
                    source=str(row["source"]),
                    set=int(row["set"]),
                )
            )
    return tuple(examples)
