# ruff: noqa: E501  (a contract text: one clause per line, as PyMuPDF reads it)
"""Compliance evidence found by meaning (agents/extraction/compliance_semantic):
the matcher's rules with a scripted embedder, then the extractor with the
real offline embedder on clauses the pattern tables do not word."""

from __future__ import annotations

import pytest

from agents.extraction import compliance_semantic
from agents.extraction.compliance import ComplianceExtractor
from agents.extraction.compliance_patterns import never_evidence
from agents.extraction.compliance_semantic import ElementMatcher
from agents.extraction.extractor import ChunkText
from evidence.domain.quotes import quote_span
from ontology.domain.vocabulary import fact_value_validate


class ScriptedEmbedder:
    """Vectors by text: element queries and passages on fixed axes."""

    version = "1"
    dims = 4

    def __init__(self, name: str, vectors: dict[str, list[float]]) -> None:
        self.name = name
        self.vectors = vectors
        self.documents_embedded: list[str] = []

    def embed_query(self, text: str) -> list[float]:
        return self.vectors[text]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.documents_embedded.extend(texts)
        return [self.vectors[t] for t in texts]


ELEMENTS = [("a", "A de", "A en"), ("b", "B de", "B en"), ("c", "C de", "C en")]
P1 = "passage one, about element a, long enough"
P2 = "passage two, also about element a, closer"
P3 = "passage three, about b but only weakly so"
P4 = "passage four, about c, which is not allowed"
P5 = "passage five: best for a, yet b reaches 0.9"
P6 = "passage six, in English, close to a's English label"
P7 = "passage seven, about a as well, the closest of all"


@pytest.fixture
def scripted(monkeypatch):
    monkeypatch.setattr(compliance_semantic, "_queries", {})
    monkeypatch.setitem(compliance_semantic.MIN_SIMILARITY, "scripted", 0.84)
    return ScriptedEmbedder(
        "scripted",
        {
            "A de": [1.0, 0.0, 0.0, 0.0],
            "B de": [0.0, 1.0, 0.0, 0.0],
            "C de": [0.0, 0.0, 1.0, 0.0],
            # the English labels lie elsewhere: a passage scores the closer
            "A en": [0.0, 0.0, 0.0, 1.0],
            "B en": [0.0, 0.0, 0.0, 0.0],
            "C en": [0.0, 0.0, 0.0, 0.0],
            P1: [0.88, 0.1, 0.0, 0.0],
            P2: [0.95, 0.1, 0.0, 0.0],
            P3: [0.2, 0.7, 0.1, 0.0],
            P4: [0.0, 0.1, 0.99, 0.0],
            P5: [0.96, 0.9, 0.0, 0.0],
            P6: [0.0, 0.3, 0.0, 0.9],
            P7: [0.97, 0.1, 0.0, 0.0],
        },
    )


def test_per_element_the_best_passages_whose_best_element_it_is(scripted):
    assert compliance_semantic.PER_ELEMENT == 2
    matcher = ElementMatcher(scripted, ELEMENTS)
    everything = frozenset({"a", "b", "c"})
    matches = matcher.match([P1, P2, P3, P7], allowed=[everything] * 4)
    # a: P7 and P2 beat P1 (in document order); b: P3's best is b but
    # below the threshold
    assert [(m.element, m.passage) for m in matches] == [("a", 1), ("a", 3)]


def test_a_passage_counts_only_for_its_best_element(scripted):
    matcher = ElementMatcher(scripted, ELEMENTS)
    everything = frozenset({"a", "b", "c"})
    # P5 scores 0.9 for b, but it is more about a: b gets nothing
    matches = matcher.match([P5], allowed=[everything])
    assert [(m.element, m.passage) for m in matches] == [("a", 0)]


def test_an_element_the_document_may_not_evidence_is_not_matched(scripted):
    matcher = ElementMatcher(scripted, ELEMENTS)
    matches = matcher.match([P4, P1], allowed=[frozenset({"a", "b"})] * 2)
    assert [(m.element, m.passage) for m in matches] == [("a", 1)]


def test_a_passage_scores_the_label_in_its_own_language(scripted):
    matcher = ElementMatcher(scripted, ELEMENTS)
    matches = matcher.match([P6], allowed=[frozenset({"a", "b", "c"})])
    assert [(m.element, m.passage, m.similarity) for m in matches] == [("a", 0, 0.9)]


def test_an_uncalibrated_embedder_proposes_nothing_by_meaning(scripted):
    scripted.name = "someone-elses-model"
    matcher = ElementMatcher(scripted, ELEMENTS)
    assert matcher.match([P1, P2], allowed=[frozenset({"a"})] * 2) == []
    assert scripted.documents_embedded == []  # nor spends the time


def test_short_passages_are_not_embedded(scripted):
    matcher = ElementMatcher(scripted, ELEMENTS)
    scripted.vectors["Datum"] = [1.0, 0.0, 0.0]
    assert matcher.match(["Datum"], allowed=[frozenset({"a"})]) == []
    assert scripted.documents_embedded == []


# ------------------------------------------------ the extractor, real embedder
CONTRACT = """ICT Services Agreement

Clause 2 Services

2.1 The Provider shall provide the Customer with managed hosting of its payment platform as described in Schedule 1.

2.2 The Services are provided from data centres in Frankfurt am Main (Germany) and Dublin (Ireland); the Provider shall notify the Customer before moving them.

Clause 9 Term and termination

9.1 This Agreement runs for an indefinite period. Either party may bring it to an end for convenience by giving six months' written notice to the end of a calendar quarter.

Clause 10 Customer data

10.1 On expiry, the Provider shall hand back all Customer Data in a commonly used, machine-readable format and then erase its copies.
"""


def _read(text: str, *, by_meaning: bool, name: str = "contract.pdf"):
    extractor = ComplianceExtractor(regimes={"dora"}, by_meaning=by_meaning)
    chunk = ChunkText(1, 1, text, name)
    found = extractor.extract([chunk])
    for finding in found:
        assert quote_span(text, finding.quote) is not None
        fact_value_validate(fact_type=finding.fact_type, value=finding.value)
    return found


def test_contract_terms_worded_otherwise_are_found_by_meaning():
    patterns = {f.fact_type for f in _read(CONTRACT, by_meaning=False)}
    assert "dora_30_2_h_termination_rights" not in patterns
    assert "dora_30_2_d_data_access_return" not in patterns
    found = _read(CONTRACT, by_meaning=True)
    by_meaning = {f.fact_type: f for f in found if f.confidence < 0.7}
    termination = by_meaning["dora_30_2_h_termination_rights"]
    assert "six months' written notice" in termination.quote
    assert termination.value["state"] == "present"
    # the pattern findings stay as they were
    assert patterns <= {f.fact_type for f in found}


VERTRAG = """IKT-Dienstleistungsvertrag

§ 2 Leistungen

(1) Der Anbieter betreibt für den Kunden die Handelsplattform nach Maßgabe der Anlage 1.

(2) Die Leistungen werden aus Rechenzentren in Frankfurt am Main und Wien erbracht; eine Verlagerung zeigt der Anbieter vorher an.

§ 9 Laufzeit und Beendigung

(1) Jede Partei kann den Vertrag ohne Angabe von Gründen mit einer Frist von sechs Monaten zum Quartalsende beenden.

§ 10 Kundendaten

(1) Nach Vertragsende gibt der Anbieter sämtliche Kundendaten in einem gängigen, maschinenlesbaren Format heraus und löscht danach seine Kopien.
"""


def test_german_contract_terms_are_found_by_meaning_too():
    patterns = {f.fact_type for f in _read(VERTRAG, by_meaning=False)}
    found = {
        f.fact_type: f.quote
        for f in _read(VERTRAG, by_meaning=True, name="vertrag.pdf")
        if f.confidence < 0.7
    }
    assert not patterns & set(found)
    assert "Frist von sechs Monaten" in found["dora_30_2_h_termination_rights"]
    assert "sämtliche Kundendaten" in found["dora_30_2_d_data_access_return"]


def test_a_document_the_patterns_do_not_recognise_is_not_read_by_meaning():
    # the same termination clause in a letter that is no instrument of Art. 30
    letter = (
        "Dear Ms Byrne,\n\nthank you for your call. Either party may bring the "
        "hosting agreement to an end for convenience by giving six months' "
        "written notice to the end of a calendar quarter.\n"
    )
    assert _read(letter, by_meaning=True, name="letter.pdf") == []


def test_nothing_of_a_summary_paragraph_is_proposed():
    summary = (
        "Subject: go-live summary\n\n"
        "The ICT contract is fully compliant with DORA. The Provider shall "
        "hand back all Customer Data in a machine-readable format on expiry, "
        "and either party may terminate with six months' notice.\n"
    )
    assert _read(CONTRACT + "\n" + summary, by_meaning=True) == _read(
        CONTRACT, by_meaning=True
    )


@pytest.mark.parametrize(
    "sentence",
    [
        "MietScore ist nach der KI-Verordnung zertifiziert.",
        "Unser AVV mit PackWerk erfüllt Art. 28 DSGVO vollständig.",
        "The DPA satisfies Article 28 GDPR in full.",
        "Aus meiner Sicht ist beim Fulfilment datenschutzrechtlich alles sauber.",
    ],
)
def test_assertions_and_claims_worded_otherwise_are_never_evidence(sentence):
    assert never_evidence(sentence) in {"summary", "marketing_claim"}


@pytest.mark.parametrize(
    "sentence",
    [
        "The Provider shall fully cooperate with the competent authorities.",
        "prüft vor jeder Bewertung, ob die Eingabedaten vollständig sind.",
        "This Agreement consists of Clauses 1 to 15, reproduced in full below.",
    ],
)
def test_obligations_using_the_same_words_stay_evidence(sentence):
    assert never_evidence(sentence) is None
