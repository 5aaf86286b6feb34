"""Settings of the agent runtime: Django settings first, then the environment,
then the defaults here (so that ``config/settings`` need not list them)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from django.conf import settings

DEFAULTS: dict[str, Any] = {
    "BELEGT_AGENT_PROVIDER": "rules",
    # Start an extraction run for each document once its ingestion is ready.
    "BELEGT_AGENT_AUTO_EXTRACT": True,
    "BELEGT_AGENT_STEP_LIMIT": 5000,
    "BELEGT_AGENT_TOKEN_BUDGET": 2_000_000,
    "BELEGT_AGENT_COST_BUDGET_CENTS": 500.0,
    "BELEGT_AGENT_IDENTICAL_FAILURE_LIMIT": 5,
    "BELEGT_AGENT_BATCH_CHARS": 12000,
    "BELEGT_LLM_BASE_URL": "http://127.0.0.1:11434/v1",
    "BELEGT_LLM_MODEL": "",
    "BELEGT_LLM_API_KEY": "",
    "BELEGT_LLM_TIMEOUT": 60.0,
    "BELEGT_LLM_CONNECT_TIMEOUT": 5.0,
    "BELEGT_LLM_RETRIES": 2,
    "BELEGT_LLM_PRICE_IN_CENTS_PER_1K": 0.0,
    "BELEGT_LLM_PRICE_OUT_CENTS_PER_1K": 0.0,
    "BELEGT_LLM_MAX_TOKENS": 2048,
    "BELEGT_POLICY_GRAPH": "",
}


def setting(name: str) -> Any:
    value: Any = getattr(settings, name, None)
    if value in (None, ""):
        value = os.environ.get(name)
    if value in (None, ""):
        return DEFAULTS[name]
    default = DEFAULTS[name]
    if isinstance(default, bool):
        return str(value).lower() in ("1", "true", "yes", "on")
    if isinstance(default, int):
        return int(value)
    if isinstance(default, float):
        return float(value)
    return value


def policy_graph_paths() -> list[Path]:
    """The Turtle files of the policy graph (``BELEGT_POLICY_GRAPH`` names one
    file or folder; default: ``ontology/policies/*.ttl``)."""
    configured = setting("BELEGT_POLICY_GRAPH")
    base = (
        Path(configured)
        if configured
        else Path(settings.BASE_DIR) / "ontology" / "policies"
    )
    if base.is_dir():
        return sorted(base.glob("*.ttl"))
    return [base]
