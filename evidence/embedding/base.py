"""The embedder interface shared by every backend."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol, TypeVar, runtime_checkable

from cases.errors import DomainError

T = TypeVar("T")


class EmbedderUnavailable(DomainError):
    """The configured embedder cannot be loaded or reached. Retryable when it is
    a remote endpoint that may come back."""

    code = "embedder_unavailable"
    http_status = 503


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised vectors of ``dims`` floats.

    ``embed_documents`` is for stored chunks, ``embed_query`` for a search query:
    asymmetric models (e5) prefix them differently."""

    name: str
    version: str

    @property
    def dims(self) -> int: ...

    def embed_documents(self, texts: list[str]) -> list[list[float]]: ...

    def embed_query(self, text: str) -> list[float]: ...


def batched(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    """Consecutive slices of at most ``size`` items."""
    if size < 1:
        raise ValueError("batch size must be at least 1")
    for start in range(0, len(items), size):
        yield items[start : start + size]


def normalise(vector: Sequence[float]) -> list[float]:
    """Scale to unit length (cosine distance then equals 1 - dot product)."""
    norm = sum(x * x for x in vector) ** 0.5
    if norm == 0:
        return [float(x) for x in vector]
    return [float(x) / norm for x in vector]
