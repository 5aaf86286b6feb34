"""Models of the evidence app: the immutable source layer (documents, pages,
chunks, embeddings) and the mutable state around it (ingestion progress,
refused uploads)."""

from evidence.models.documents import (
    Chunk,
    DocumentIngestion,
    Page,
    SourceDocument,
    UploadRefusal,
)
from evidence.models.embeddings import ChunkEmbedding

__all__ = [
    "Chunk",
    "ChunkEmbedding",
    "DocumentIngestion",
    "Page",
    "SourceDocument",
    "UploadRefusal",
]
