"""Hybrid search over real ingested PDFs: embeddings stored per model version,
full text (German stemming, verbatim numbers), vector similarity, fusion, and
the one rule that matters most: a search never leaves its case."""

from __future__ import annotations

import re
from typing import cast

import pytest

from cases.models import Case
from evidence.embedding import EmbedderUnavailable, get_embedder
from evidence.models import Chunk, ChunkEmbedding
from evidence.search import (
    chunk_embeddings_create,
    query_terms,
    search_case_evidence,
)
from tests.evidence import pdfs
from tests.evidence.search_helpers import ingest, letter_pdf
from tests.factories import CaseFactory

pytestmark = pytest.mark.django_db

COURT_LETTER = [
    [
        "Landgericht Coburg, Aktenzeichen 12 O 345/26",
        "In dem Rechtsstreit Müller Baustoffe GmbH gegen Schmidt Bau KG wird "
        "Termin zur mündlichen Verhandlung bestimmt auf den 16.06.2026.",
    ]
]
OTHER_COURT_LETTER = [
    [
        "Landgericht Coburg, Aktenzeichen 12 O 346/26",
        "In dem Rechtsstreit Weber gegen Sommer wird die Klage zugestellt. "
        "Die Beklagte hat binnen zwei Wochen ihre "
        "Verteidigungsbereitschaft anzuzeigen.",
    ]
]


class BrokenEmbedder:
    """Stands in for an embedding endpoint that is down."""

    name = "down"
    version = "1"
    dims = 384

    def embed_documents(self, texts):
        raise EmbedderUnavailable("endpoint down", retryable=True)

    def embed_query(self, text):
        raise EmbedderUnavailable("endpoint down", retryable=True)


def _chunk_text(hit) -> str:
    return Chunk.objects.get(pk=hit.chunk_id).text


def _flat(text: str) -> str:
    return " ".join(text.split())


# --- embeddings ----------------------------------------------------------------------


def test_ingestion_stores_one_vector_per_chunk_with_model_name_and_version(case):
    document = ingest(case, pdfs.dunning_letter(), "mahnung.pdf")
    embedder = get_embedder()
    chunks = Chunk.objects.filter(document=document)
    rows = ChunkEmbedding.objects.filter(chunk__document=document)
    assert rows.count() == chunks.count() > 0
    assert set(rows.values_list("model_name", "model_version", "dims", "case_id")) == {
        (embedder.name, embedder.version, 384, case.pk)
    }


def test_chunk_embeddings_create_is_idempotent_and_reports_batches(case):
    document = ingest(case, pdfs.case_file(4), "akte.pdf")
    assert chunk_embeddings_create(document=document) == 0  # ingestion did it
    totals: list[int] = []
    before = ChunkEmbedding.objects.count()
    # a second model version lives beside the first
    embedder = get_embedder()

    class NextVersion:
        name = embedder.name
        version = embedder.version + "-next"
        dims = embedder.dims
        embed_documents = staticmethod(embedder.embed_documents)
        embed_query = staticmethod(embedder.embed_query)

    created = chunk_embeddings_create(
        document=document, embedder=NextVersion(), on_batch=totals.append
    )
    chunk_count = Chunk.objects.filter(document=document).count()
    assert created == chunk_count
    assert totals and totals[-1] == chunk_count
    assert ChunkEmbedding.objects.count() == before + chunk_count
    assert chunk_embeddings_create(document=document, embedder=NextVersion()) == 0
    assert ChunkEmbedding.objects.count() == before + chunk_count


# --- one case only -------------------------------------------------------------------


def test_search_never_returns_a_chunk_of_another_case(case, other_case, firm):
    same_firm_case = cast(Case, CaseFactory(organisation=firm, reference="7 C 1/26"))
    ingest(case, pdfs.dunning_letter(), "mahnung.pdf")
    # The very same letter in a case of another firm and another case of the
    # same firm: same words, same vectors.
    ingest(other_case, pdfs.dunning_letter(), "mahnung.pdf")
    ingest(same_firm_case, pdfs.dunning_letter(), "mahnung.pdf")
    own = set(Chunk.objects.filter(case=case).values_list("pk", flat=True))
    for query in ["Mahnung Zugang", "Briefkasten", "4.250,00 EUR", "Verzugszinsen"]:
        hits = search_case_evidence(case=case, query=query, k=50)
        assert hits, query
        assert {hit.chunk_id for hit in hits} <= own, query
    other_hits = search_case_evidence(case=other_case, query="Mahnung Zugang", k=50)
    assert other_hits
    assert not {hit.chunk_id for hit in other_hits} & own


def test_an_empty_case_finds_nothing(case, other_case):
    ingest(other_case, pdfs.dunning_letter(), "mahnung.pdf")
    assert search_case_evidence(case=case, query="Mahnung", k=10) == []


# --- full text -----------------------------------------------------------------------


def test_german_stemming_finds_the_singular_for_a_plural(case):
    ingest(case, pdfs.dunning_letter(), "mahnung.pdf")
    hits = search_case_evidence(case=case, query="Mahnungen", k=5)
    assert hits[0].text_rank == 1
    assert "Mahnung" in _chunk_text(hits[0])
    assert "<mark>Mahnung</mark>" in hits[0].snippet_html


def test_simple_configuration_finds_a_file_reference_verbatim(case):
    ingest(case, letter_pdf(OTHER_COURT_LETTER), "zustellung.pdf")
    ingest(case, letter_pdf(COURT_LETTER), "ladung.pdf")
    hits = search_case_evidence(case=case, query="12 O 345/26", k=5)
    assert hits[0].document == "ladung.pdf"
    assert hits[0].text_rank == 1
    assert "345/26" in hits[0].snippet
    other = [h for h in hits if h.document == "zustellung.pdf"]
    # the other reference shares "12" and "O" but not "345/26": ranked below
    assert other  # it is found (it shares words and meaning), yet below
    assert all(h.text_rank is None or h.text_rank > 1 for h in other)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("4.250,00 EUR", "4.250,00"),
        ("2026-0417", "2026-0417"),
        ("08.05.2026", "08.05.2026"),
        ("§ 288 Abs. 5", "288"),
    ],
)
def test_amounts_dates_and_numbers_are_found_by_full_text(case, query, expected):
    ingest(case, pdfs.reminder_letter(), "erinnerung.pdf")
    ingest(case, pdfs.dunning_letter(), "mahnung.pdf")
    hit = search_case_evidence(case=case, query=query, k=3)[0]
    assert hit.text_rank == 1
    assert expected in _chunk_text(hit)


def test_query_terms_split_words_from_verbatim_tokens():
    assert query_terms('Mahnung "vom" 12 O 345/26, -Rechnung 4.250,00 or Zugang') == (
        ["Mahnung", "vom", "O", "Zugang"],
        ["12", "345/26", "4.250,00"],
    )


def test_a_sentence_across_a_page_break_is_found_whole(case):
    ingest(case, pdfs.letter_with_sentence_across_pages(), "zweiseitig.pdf")
    hits = search_case_evidence(
        case=case, query="Gesamtbetrag Mahnkosten 31.05.2026 Klage erheben", k=3
    )
    top = hits[0]
    assert (top.page_start, top.page_end) == (1, 2)
    assert top.page == 1  # words on both pages: open the first
    assert _flat(pdfs.CROSS_PAGE_SENTENCE) in _flat(_chunk_text(top))
    chunk = Chunk.objects.get(pk=top.chunk_id)
    assert {span["page"] for span in chunk.spans} == {1, 2}


def test_a_hit_across_pages_opens_the_page_holding_the_query_words(case):
    document = ingest(case, pdfs.letter_with_sentence_across_pages(), "zwei.pdf")
    chunk = Chunk.objects.get(document=document, page_start=1, page_end=2)
    # "Ankündigung" stands only in the part of the sentence on page 2
    hits = search_case_evidence(case=case, query="Ankündigung", k=10)
    hit = next(h for h in hits if h.chunk_id == chunk.pk)
    assert (hit.page, hit.page_start, hit.page_end) == (2, 1, 2)
    assert f"/documents/{document.pk}/pages/2/?chunk={chunk.pk}" in hit.url
    first = search_case_evidence(case=case, query="Gesamtbetrag", k=10)
    assert next(h for h in first if h.chunk_id == chunk.pk).page == 1


def test_snippets_are_escaped_html_with_marks(case):
    ingest(
        case,
        letter_pdf([["Vermerk: Streitwert < 5.000 EUR, Mahnung & Zugang bestätigt."]]),
        "vermerk.pdf",
    )
    hit = search_case_evidence(case=case, query="Mahnung", k=1)[0]
    assert "&lt; 5.000 EUR" in hit.snippet_html
    assert "<mark>Mahnung</mark> &amp; Zugang" in hit.snippet_html
    assert re.sub(r"</?mark>", "", hit.snippet_html).count("<") == 0
    assert "< 5.000 EUR, Mahnung & Zugang" in hit.snippet


# --- vectors and fusion --------------------------------------------------------------


def test_a_paraphrase_without_shared_words_is_found_by_meaning(case):
    ingest(case, pdfs.dunning_letter(), "mahnung.pdf")
    ingest(case, letter_pdf(COURT_LETTER), "ladung.pdf")
    hits = search_case_evidence(case=case, query="Wann ist der Gerichtstermin?", k=3)
    assert hits[0].document == "ladung.pdf"
    assert hits[0].vector_rank == 1


def test_hits_carry_document_page_score_snippet_and_viewer_link(case):
    document = ingest(case, pdfs.dunning_letter(), "mahnung.pdf")
    hits = search_case_evidence(case=case, query="Mahnung Zugang", k=10)
    assert hits
    top = hits[0]
    assert top.text_rank is not None and top.vector_rank is not None
    assert top.document_id == document.pk
    assert top.page == 1
    assert top.url == (
        f"/evidence/cases/{case.pk}/documents/{document.pk}/pages/1/"
        f"?chunk={top.chunk_id}"
    )
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert top.as_dict()["snippet_html"] == top.snippet_html


def test_search_falls_back_to_full_text_when_the_embedder_is_down(case):
    ingest(case, pdfs.dunning_letter(), "mahnung.pdf")
    hits = search_case_evidence(
        case=case, query="Mahnung Zugang", k=5, embedder=BrokenEmbedder()
    )
    assert hits
    assert all(h.vector_rank is None and h.text_rank for h in hits)


def test_vectors_of_another_model_version_are_not_compared(case):
    ingest(case, pdfs.dunning_letter(), "mahnung.pdf")
    embedder = get_embedder()

    class OtherVersion:
        name = embedder.name
        version = "not-embedded-yet"
        dims = embedder.dims
        embed_documents = staticmethod(embedder.embed_documents)
        embed_query = staticmethod(embedder.embed_query)

    # The words are in the letter, so full text answers; the vectors must not.
    query = "Mahnung Zugang"
    hits = search_case_evidence(case=case, query=query, k=5, embedder=OtherVersion())
    assert hits and all(h.text_rank for h in hits)
    assert all(h.vector_rank is None for h in hits)
    same_model = search_case_evidence(case=case, query=query, k=5, embedder=embedder)
    assert any(h.vector_rank is not None for h in same_model)


def test_filtered_hnsw_and_exact_scan_agree_on_a_small_case(case):
    ingest(case, pdfs.case_file(6), "akte.pdf")
    ingest(case, pdfs.dunning_letter(), "mahnung.pdf")
    for query in ["Bote Briefkasten", "Lieferschein Unterschrift", "Verjährung"]:
        exact = search_case_evidence(case=case, query=query, k=5, strategy="exact")
        hnsw = search_case_evidence(case=case, query=query, k=5, strategy="hnsw")
        assert [h.chunk_id for h in exact][:1] == [h.chunk_id for h in hnsw][:1]


@pytest.mark.parametrize(
    "query",
    ["&|!():*", "'; DROP TABLE evidence_chunk; --", '"unclosed', "-", "or", "<->"],
)
def test_odd_queries_do_not_fail(case, query):
    ingest(case, pdfs.dunning_letter(), "mahnung.pdf")
    # Without the similarity floor (it rightly cuts such a query's vector
    # hits): full text finds nothing in such a query; the vectors still answer.
    hits = search_case_evidence(case=case, query=query, k=3, min_similarity=0.0)
    assert hits and all(h.vector_rank is not None for h in hits)
    assert all(h.text_rank is None for h in hits)
    assert Chunk.objects.filter(case=case).exists()


def test_blank_query_returns_nothing(case):
    ingest(case, pdfs.dunning_letter(), "mahnung.pdf")
    assert search_case_evidence(case=case, query="   ", k=5) == []


def test_stopwords_only_query_does_not_fail(case):
    ingest(case, pdfs.dunning_letter(), "mahnung.pdf")
    hits = search_case_evidence(case=case, query="die der und", k=3, min_similarity=0.0)
    assert hits and all(h.vector_rank is not None for h in hits)  # vectors answer
    assert all(h.text_rank is None for h in hits)
