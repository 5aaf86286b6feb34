"""The compiled policy graph of this process. Built once at start-up by
``AgentsConfig.ready`` (which refuses to start on a mismatch) and cached."""

from __future__ import annotations

from functools import lru_cache

from agents.conf import policy_graph_paths
from agents.domain.policies import (
    EVALUATORS,
    CompiledPolicies,
    PolicyGraphError,
    compile_policy_graph,
    load_policy_graph,
)
from agents.domain.tools import TOOL_SPECS


def policy_graph_build() -> CompiledPolicies:
    paths = policy_graph_paths()
    missing = [str(p) for p in paths if not p.is_file()]
    if not paths or missing:
        raise PolicyGraphError([f"policy graph file(s) missing: {missing or paths}"])
    try:
        graph = load_policy_graph(paths)
    except Exception as exc:  # a syntax error in Turtle is a start-up error too
        raise PolicyGraphError([f"policy graph does not parse: {exc}"]) from exc
    return compile_policy_graph(graph, evaluators=EVALUATORS, tools=TOOL_SPECS)


@lru_cache(maxsize=1)
def compiled_policies() -> CompiledPolicies:
    return policy_graph_build()
