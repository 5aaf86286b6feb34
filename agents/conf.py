"""Where the agent runtime finds its policy graph. Its settings
(``BELEGT_AGENT_*``, ``BELEGT_LLM_*``) are read in ``config/settings`` like
every other setting."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings


def policy_graph_paths() -> list[Path]:
    """The Turtle files of the policy graph (``BELEGT_POLICY_GRAPH`` names one
    file or folder; default: ``ontology/policies/*.ttl``)."""
    configured = settings.BELEGT_POLICY_GRAPH
    base = (
        Path(configured)
        if configured
        else Path(settings.BASE_DIR) / "ontology" / "policies"
    )
    if base.is_dir():
        return sorted(base.glob("*.ttl"))
    return [base]
