"""A minimal client for an OpenAI-compatible chat-completions endpoint, for
the model refuter and model drafting. Any failure (network, HTTP, no content)
is a ``ModelUnavailable``; the caller turns it into *uncertain*."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import httpx
from django.conf import settings


class ModelUnavailable(Exception):
    pass


def chat_complete(
    messages: Sequence[dict[str, str]],
    *,
    response_format: dict[str, Any] | None = None,
) -> tuple[str, str]:
    """(content, model id) of one chat completion at temperature 0."""
    model = str(settings.BELEGT_LLM_MODEL)
    if not model:
        raise ModelUnavailable("BELEGT_LLM_MODEL is not set")
    base = str(settings.BELEGT_LLM_BASE_URL).rstrip("/")
    headers = {"Content-Type": "application/json"}
    key = str(settings.BELEGT_LLM_API_KEY)
    if key:
        headers["Authorization"] = f"Bearer {key}"
    body: dict[str, Any] = {
        "model": model,
        "messages": list(messages),
        "temperature": 0,
        "max_tokens": int(settings.BELEGT_LLM_MAX_TOKENS),
    }
    if response_format is not None:
        body["response_format"] = response_format
    timeout = httpx.Timeout(
        float(settings.BELEGT_LLM_TIMEOUT),
        connect=float(settings.BELEGT_LLM_CONNECT_TIMEOUT),
    )
    try:
        response = httpx.post(
            f"{base}/chat/completions", json=body, headers=headers, timeout=timeout
        )
    except httpx.HTTPError as exc:
        raise ModelUnavailable(f"{type(exc).__name__}: {exc}") from exc
    if response.status_code >= 400:
        raise ModelUnavailable(f"HTTP {response.status_code}")
    try:
        data = response.json()
        content = data["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise ModelUnavailable("no choices[0].message.content in the answer") from exc
    if not isinstance(content, str):
        raise ModelUnavailable("the answer's content is not text")
    return content, str(data.get("model") or model)
