"""The curator's extension graph: accepted term candidates as Turtle.

The core ontology files are never rewritten. Each accepted term makes a new
version of a separate graph that only *adds* to the core: a synonym becomes a
``skos:altLabel`` of an existing concept, a new subclass becomes an
``owl:Class`` under it. A subclass of a fact type is itself a fact type (same
value kind and claim types, key ``ext_<slug>``), so the agents' gate accepts it
in the vocabulary of the firm whose curator accepted it
(``review.selectors.vocabulary_for_organisation``; each firm has its own
extension versions).

Pure: rdflib only, no database.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from rdflib import OWL, RDF, RDFS, Graph, Literal, Namespace, URIRef
from rdflib.namespace import SKOS

from ontology.domain.namespaces import BC
from ontology.domain.vocabulary import FactTypeInfo, fact_types_from_graph

EXT = Namespace("https://belegt.example/ns/ext#")
EXTENSION_ONTOLOGY = URIRef("https://belegt.example/ns/ext")
CORE_ONTOLOGY = URIRef("https://belegt.example/ns/core")


class ConceptUnknown(ValueError):
    """The concept a term should attach to is not in the ontology."""


@dataclass(frozen=True)
class Concept:
    iri: str
    label: str
    is_fact_type: bool


def _graph(turtle: str) -> Graph:
    graph = Graph()
    graph.bind("bc", BC)
    graph.bind("ext", EXT)
    graph.bind("skos", SKOS)
    if turtle.strip():
        graph.parse(data=turtle, format="turtle")
    return graph


def _label(graph: Graph, node: URIRef) -> str:
    labels = {
        getattr(obj, "language", None): str(obj)
        for obj in graph.objects(node, RDFS.label)
        if isinstance(obj, Literal)
    }
    return labels.get("de") or labels.get("en") or next(iter(labels.values()), "")


def concepts(*, core: Graph, extension_turtle: str = "") -> list[Concept]:
    """Every named class of the core and the extension a term may attach to,
    sorted by label."""
    merged = core + _graph(extension_turtle)
    result = []
    for node in set(merged.subjects(RDF.type, OWL.Class)):
        if not isinstance(node, URIRef):
            continue
        label = _label(merged, node)
        if not label:
            continue
        result.append(
            Concept(
                iri=str(node),
                label=label,
                is_fact_type=(node, RDF.type, BC.FactType) in merged,
            )
        )
    return sorted(result, key=lambda c: (c.label.casefold(), c.iri))


_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})


def term_slug(label: str) -> str:
    """'Zahlungserinnerung (2. Stufe)' → 'zahlungserinnerung_2_stufe'."""
    text = label.strip().lower().translate(_UMLAUTS)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "_", text).strip("_")
    return slug[:60] or "term"


def extension_term_add(
    *,
    turtle: str,
    core: Graph,
    label: str,
    resolution: str,
    concept_iri: str,
    version: int,
) -> tuple[str, str]:
    """The extension graph with one more accepted term, as Turtle, and the IRI
    of what was added to (the concept for a synonym, the new class for a
    subclass). Raises ConceptUnknown."""
    extension = _graph(turtle)
    merged = core + extension
    concept = URIRef(concept_iri)
    if (concept, RDF.type, OWL.Class) not in merged:
        raise ConceptUnknown(f"{concept_iri} is not a class of the ontology")
    clean = label.strip()
    extension.set((EXTENSION_ONTOLOGY, RDF.type, OWL.Ontology))
    extension.set((EXTENSION_ONTOLOGY, OWL.imports, CORE_ONTOLOGY))
    extension.set((EXTENSION_ONTOLOGY, OWL.versionInfo, Literal(str(version))))
    if resolution == "synonym":
        extension.add((concept, SKOS.altLabel, Literal(clean, lang="de")))
        return extension.serialize(format="turtle"), concept_iri
    if resolution != "subclass":
        raise ValueError(f"unknown resolution {resolution!r}")
    slug = term_slug(clean)
    node = EXT[slug]
    suffix = 2
    while (node, None, None) in merged and _label(merged, node) != clean:
        node = EXT[f"{slug}_{suffix}"]
        suffix += 1
    extension.add((node, RDF.type, OWL.Class))
    extension.add((node, RDFS.subClassOf, concept))
    extension.add((node, RDFS.label, Literal(clean, lang="de")))
    if (concept, RDF.type, BC.FactType) in merged:
        # A narrower fact type: same value kind and claim types as its parent.
        key = f"ext_{str(node).rsplit('#', 1)[-1]}"
        extension.add((node, RDF.type, BC.FactType))
        extension.add((node, BC.key, Literal(key)))
        kind = merged.value(concept, BC.valueKind)
        if kind is not None:
            extension.add((node, BC.valueKind, kind))
        for claim_type in merged.objects(concept, BC.claimType):
            extension.add((node, BC.claimType, claim_type))
        extension.add((node, RDFS.label, Literal(clean, lang="en")))
    return extension.serialize(format="turtle"), str(node)


def extension_fact_types(*, turtle: str, core: Graph) -> list[FactTypeInfo]:
    """The fact types the extension graph defines (to hand to
    ``ontology.vocabulary.vocabulary_for``)."""
    extension = _graph(turtle)
    own = {s for s in extension.subjects(RDF.type, BC.FactType)}
    if not own:
        return []
    merged = Graph()
    for triple in core.triples((None, RDF.type, BC.ValueKind)):
        merged.add(triple)
    for triple in core.triples((None, BC.key, None)):
        merged.add(triple)
    for node in own:
        for triple in extension.triples((node, None, None)):
            merged.add(triple)
    infos = fact_types_from_graph(merged)
    keys = {str(extension.value(node, BC.key)) for node in own}
    return [info for key, info in sorted(infos.items()) if key in keys]
