"""A sentence-transformers model from a local directory or an installed model
package. Optional: ``sentence-transformers`` (and so torch) is not a dependency
of Belegt. Set ``HF_HUB_OFFLINE=1`` in production so that nothing is fetched."""

from __future__ import annotations

import threading
from importlib.metadata import version as package_version
from typing import Any

from evidence.embedding.base import EmbedderUnavailable, batched


class SentenceTransformersEmbedder:
    def __init__(
        self,
        *,
        model: str,
        query_prefix: str = "",
        passage_prefix: str = "",
        batch_size: int = 32,
    ) -> None:
        if not model:
            raise EmbedderUnavailable(
                "The 'sentence-transformers' embedder needs BELEGT_EMBEDDING_MODEL "
                "(a local model directory).",
                code="embedder_misconfigured",
            )
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise EmbedderUnavailable(
                "The 'sentence-transformers' embedder needs the optional package "
                "'sentence-transformers' (pip install sentence-transformers).",
                code="embedder_missing_package",
            ) from exc
        self.name = model
        self.version = package_version("sentence-transformers")
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        self.batch_size = batch_size
        self._model: Any = SentenceTransformer(model, device="cpu")
        self.dims = int(self._model.get_sentence_embedding_dimension())
        self._lock = threading.Lock()

    def _encode(self, texts: list[str]) -> list[list[float]]:
        with self._lock:
            matrix = self._model.encode(
                texts, batch_size=self.batch_size, normalize_embeddings=True
            )
        return [row.tolist() for row in matrix]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        for batch in batched(texts, self.batch_size):
            vectors.extend(self._encode([self.passage_prefix + t for t in batch]))
        return vectors

    def embed_query(self, text: str) -> list[float]:
        return self._encode([self.query_prefix + text])[0]
