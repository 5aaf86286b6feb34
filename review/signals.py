"""Telling the rest of the system that a case's facts changed.

A decision calls ``facts_changed_on_commit(case_id=...)``; after the commit
(never for a rolled-back decision) the ``facts_changed`` signal is sent with
``case_id``. Apps above ``review`` (the ontology's requirements page, the
reports) connect receivers to it; ``review`` imports none of them.
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

# Sent with ``case_id`` after a decision committed.
facts_changed = Signal()


def facts_changed_dispatch(case_id: int) -> None:
    facts_changed.send(sender=None, case_id=case_id)


def facts_changed_on_commit(*, case_id: int) -> None:
    transaction.on_commit(lambda: facts_changed_dispatch(case_id))
