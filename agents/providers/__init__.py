"""Model providers behind one interface (``agents.domain.loop.Provider``):
``rules`` (offline, deterministic, default), ``openai`` (any OpenAI-compatible
chat-completions endpoint) and ``scripted`` (tests)."""

from __future__ import annotations

from agents.domain.loop import Provider

PROVIDERS = ("rules", "openai")


class UnknownProvider(ValueError):
    pass


def provider_get(name: str) -> Provider:
    if name == "rules":
        from agents.providers.rules import RulesProvider

        return RulesProvider()
    if name == "openai":
        from agents.providers.openai import OpenAICompatibleProvider

        return OpenAICompatibleProvider.from_settings()
    raise UnknownProvider(f"unknown provider {name!r}; choose one of {PROVIDERS}")
