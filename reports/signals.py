"""Reports become stale when the corpus they cite changes."""

from __future__ import annotations

from typing import Any


def corpus_changed(
    sender: Any, *, instrument_key: str, language: str, **kwargs: Any
) -> None:
    from reports.services import reports_mark_stale_for_corpus_change

    reports_mark_stale_for_corpus_change(
        instrument_key=instrument_key, language=language
    )
