"""The curator's extension graph: synonyms and subclasses as Turtle, versions,
the core files untouched, and the agents' vocabulary learning the new fact
types on its next load."""

from __future__ import annotations

from typing import Any

import pytest
from rdflib import RDFS, Graph, Literal, URIRef
from rdflib.namespace import SKOS

from ontology.domain.vocabulary import VOCABULARY_DIR, vocabulary_graph
from ontology.vocabulary import fact_type_keys
from review.domain.extension import (
    ConceptUnknown,
    concepts,
    extension_fact_types,
    extension_term_add,
    term_slug,
)
from review.selectors import (
    ontology_extension_graph_latest,
    vocabulary_for_case,
)
from review.services.terms import term_candidate_decide
from tests.review.helpers import make_term

BC = "https://belegt.example/ns/core#"
BFT = "https://belegt.example/ns/facttype#"


def test_slug_transliterates_german() -> None:
    assert term_slug("Zahlungserinnerung (2. Stufe)") == "zahlungserinnerung_2_stufe"
    assert term_slug("Übergabe-Einschreiben") == "uebergabe_einschreiben"


def test_synonym_is_an_alt_label_of_the_concept() -> None:
    turtle, added = extension_term_add(
        turtle="",
        core=vocabulary_graph(),
        label="Zahlungsaufforderung",
        resolution="synonym",
        concept_iri=BC + "PaymentReminder",
        version=1,
    )
    graph = Graph().parse(data=turtle, format="turtle")
    assert added == BC + "PaymentReminder"
    assert (
        URIRef(BC + "PaymentReminder"),
        SKOS.altLabel,
        Literal("Zahlungsaufforderung", lang="de"),
    ) in graph


def test_a_subclass_of_a_fact_type_is_a_fact_type_of_the_same_kind() -> None:
    turtle, added = extension_term_add(
        turtle="",
        core=vocabulary_graph(),
        label="Inkassokosten",
        resolution="subclass",
        concept_iri=BFT + "damage_item",
        version=1,
    )
    graph = Graph().parse(data=turtle, format="turtle")
    assert (URIRef(added), RDFS.subClassOf, URIRef(BFT + "damage_item")) in graph
    [info] = extension_fact_types(turtle=turtle, core=vocabulary_graph())
    assert info.key == "ext_inkassokosten"
    assert info.value_kind == "damage_item"
    assert "verzugsschaden" in info.claim_types
    assert any(
        c.iri == added
        for c in concepts(core=vocabulary_graph(), extension_turtle=turtle)
    )


def test_an_unknown_concept_is_refused() -> None:
    with pytest.raises(ConceptUnknown):
        extension_term_add(
            turtle="",
            core=vocabulary_graph(),
            label="x",
            resolution="subclass",
            concept_iri="https://example.test/Nope",
            version=1,
        )


@pytest.mark.django_db
def test_accepted_terms_make_versions_and_reach_the_vocabulary(
    case: Any, curator: Any
) -> None:
    core_files = {p: p.read_bytes() for p in VOCABULARY_DIR.glob("*.ttl")}
    org = case.organisation_id
    assert ontology_extension_graph_latest(organisation_id=org) == ""
    noise = make_term(case, label="Seite 2 von 3")
    term_candidate_decide(candidate=noise, curator=curator, resolution="noise")
    # noise adds nothing
    assert ontology_extension_graph_latest(organisation_id=org) == ""
    term = make_term(case, label="Inkassokosten")
    term_candidate_decide(
        candidate=term,
        curator=curator,
        resolution="subclass",
        concept=BFT + "damage_item",
        reason="häufig in Mahnverfahren",
    )
    assert "Inkassokosten" in ontology_extension_graph_latest(organisation_id=org)
    assert "ext_inkassokosten" not in fact_type_keys()
    vocabulary = vocabulary_for_case(case)
    assert vocabulary.version == 1
    assert vocabulary.fact_type("ext_inkassokosten").value_kind == "damage_item"
    assert {p: p.read_bytes() for p in VOCABULARY_DIR.glob("*.ttl")} == core_files
