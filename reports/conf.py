"""Settings of the reports app. The model refuter uses the same
OpenAI-compatible provider settings as the agents app (``BELEGT_LLM_*``):
Django settings first, then the environment. It runs when
``BELEGT_REPORT_MODEL_REFUTER`` is ``on``, or ``auto`` (default) and a model
is configured (``BELEGT_LLM_MODEL``)."""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings

DEFAULTS: dict[str, Any] = {
    "BELEGT_REPORT_MODEL_REFUTER": "auto",
    "BELEGT_LLM_BASE_URL": "http://127.0.0.1:11434/v1",
    "BELEGT_LLM_MODEL": "",
    "BELEGT_LLM_API_KEY": "",
    "BELEGT_LLM_TIMEOUT": 60.0,
    "BELEGT_LLM_CONNECT_TIMEOUT": 5.0,
    "BELEGT_LLM_MAX_TOKENS": 2048,
}


def setting(name: str) -> Any:
    value: Any = getattr(settings, name, None)
    if value in (None, ""):
        value = os.environ.get(name)
    if value in (None, ""):
        return DEFAULTS[name]
    return value


def model_refuter_enabled() -> bool:
    mode = str(setting("BELEGT_REPORT_MODEL_REFUTER")).lower()
    if mode in ("off", "0", "false", "no"):
        return False
    return bool(setting("BELEGT_LLM_MODEL"))
