"""Models of the evidence app: the immutable source layer (documents, pages,
chunks, embeddings) and the mutable state around it (ingestion progress,
refused uploads)."""

import contextlib

from evidence.models.documents import (
    Chunk,
    DocumentIngestion,
    Page,
    SourceDocument,
    UploadRefusal,
)

# The search helper's module (ChunkEmbedding), present once its migration lands.
with contextlib.suppress(ModuleNotFoundError):
    from evidence.models.embeddings import *  # noqa: F403

__all__ = [
    "Chunk",
    "DocumentIngestion",
    "Page",
    "SourceDocument",
    "UploadRefusal",
]
