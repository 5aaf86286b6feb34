"""Telling the rest of the system that a case's facts changed.

A decision calls ``facts_changed_on_commit(case_id=...)``; after the commit
(never for a rolled-back decision) the ``facts_changed`` signal is sent and, if
the ontology app provides a task to evaluate a case's requirements, it is
dispatched. ``review`` does not import the ontology's tasks at module level:
dependencies run ontology → review, so the lookup is by name and guarded.
"""

from __future__ import annotations

import importlib
import logging

from django.db import transaction
from django.dispatch import Signal

logger = logging.getLogger(__name__)

# Sent with ``case_id`` after a decision committed.
facts_changed = Signal()

# Where the ontology app may put its re-evaluation task (first match wins).
REEVALUATION_TASKS: tuple[tuple[str, str], ...] = (
    ("ontology.tasks", "case_requirements_evaluate_task"),
    ("ontology.tasks", "case_graph_rebuild_task"),
)


def _reevaluation_task() -> object | None:
    for module_name, attribute in REEVALUATION_TASKS:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        task = getattr(module, attribute, None)
        if task is not None:
            return task
    return None


def facts_changed_dispatch(case_id: int) -> None:
    """Send the signal and enqueue the re-evaluation (if one exists). A broker
    failure is logged, not raised: the decision is already committed and the
    requirements page evaluates on demand."""
    facts_changed.send(sender=None, case_id=case_id)
    task = _reevaluation_task()
    if task is None:
        return
    try:
        task.delay(case_id)  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - the decision must stand regardless
        logger.exception("could not enqueue the re-evaluation of case %s", case_id)


def facts_changed_on_commit(*, case_id: int) -> None:
    transaction.on_commit(lambda: facts_changed_dispatch(case_id))
