"""The ``openai`` provider: any OpenAI-compatible chat-completions endpoint
(hosted, vLLM, Ollama, LM Studio) with tool calling.

Plain ``httpx`` rather than the ``openai`` package: we need one endpoint, want
explicit connect/read timeouts and our own retry rule (retry 429, 5xx and
network errors; never a 4xx that will fail again), and must not depend on a
vendor SDK's view of which servers are "compatible". The model sees the tools'
JSON schemas; its answers are never trusted beyond being proposals for the
gate."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import httpx
from django.conf import settings

from agents.domain.gate import ToolCall
from agents.domain.loop import Episode, ProviderError, ProviderTurn

RETRY_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}


class OpenAICompatibleProvider:
    name = "openai"
    call_id_scope: Literal["run", "global"] = "run"

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str = "",
        timeout: float = 60.0,
        connect_timeout: float = 5.0,
        retries: int = 2,
        max_tokens: int = 2048,
        backoff: float = 0.5,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        if not model:
            raise ProviderError("BELEGT_LLM_MODEL is not set")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.retries = retries
        self.max_tokens = max_tokens
        self.backoff = backoff
        self.tools: list[dict[str, Any]] = []
        headers = {"Content-Type": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._client = httpx.Client(
            headers=headers,
            timeout=httpx.Timeout(timeout, connect=connect_timeout),
            transport=transport,
        )

    @classmethod
    def from_settings(cls) -> OpenAICompatibleProvider:
        return cls(
            base_url=str(settings.BELEGT_LLM_BASE_URL),
            model=str(settings.BELEGT_LLM_MODEL),
            api_key=str(settings.BELEGT_LLM_API_KEY),
            timeout=float(settings.BELEGT_LLM_TIMEOUT),
            connect_timeout=float(settings.BELEGT_LLM_CONNECT_TIMEOUT),
            retries=int(settings.BELEGT_LLM_RETRIES),
            max_tokens=int(settings.BELEGT_LLM_MAX_TOKENS),
        )

    def close(self) -> None:
        self._client.close()

    def _post(self, body: Mapping[str, Any]) -> dict[str, Any]:
        url = f"{self.base_url}/chat/completions"
        last = ""
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self.backoff * 2 ** (attempt - 1))
            try:
                response = self._client.post(url, json=body)
            except httpx.TransportError as exc:  # connect, read timeout, reset
                last = f"{type(exc).__name__}: {exc}"
                continue
            if response.status_code in RETRY_STATUS:
                last = f"HTTP {response.status_code}"
                continue
            if response.status_code >= 400:
                raise ProviderError(
                    f"HTTP {response.status_code}: {response.text[:300]}"
                )
            try:
                data = response.json()
            except ValueError as exc:
                raise ProviderError("the endpoint did not answer JSON") from exc
            if not isinstance(data, dict):
                raise ProviderError("the endpoint answered no JSON object")
            return data
        raise ProviderError(f"no answer after {self.retries + 1} attempts ({last})")

    def next_turn(
        self, *, episode: Episode, messages: Sequence[Mapping[str, Any]]
    ) -> ProviderTurn:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": list(messages),
            "temperature": 0,
            "max_tokens": self.max_tokens,
        }
        if self.tools:
            body["tools"] = self.tools
            body["tool_choice"] = "auto"
        data = self._post(body)
        raw = json.dumps(data, ensure_ascii=False)[:20000]
        try:
            message = data["choices"][0]["message"]
        except (KeyError, IndexError, TypeError) as exc:
            raise ProviderError("the answer has no choices[0].message") from exc
        usage = data.get("usage") or {}
        calls: list[ToolCall] = []
        for position, call in enumerate(message.get("tool_calls") or []):
            function = call.get("function") or {}
            arguments = function.get("arguments", "")
            if not isinstance(arguments, str):  # some servers send an object
                arguments = json.dumps(arguments, ensure_ascii=False)
            calls.append(
                ToolCall(
                    str(call.get("id") or f"call_{position}"),
                    str(function.get("name", "")),
                    arguments,
                )
            )
        return ProviderTurn(
            calls=calls,
            text=str(message.get("content") or ""),
            tokens_in=int(usage.get("prompt_tokens") or 0),
            tokens_out=int(usage.get("completion_tokens") or 0),
            model_id=str(data.get("model") or self.model),
            raw=raw,
        )
