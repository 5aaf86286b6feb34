"""The agents' reactions to what happens below them (connected in apps.py)."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model

logger = logging.getLogger(__name__)


def start_extraction_after_ingestion(sender: Any, document: Any, **kwargs: Any) -> None:
    """Queue an extraction run for a document that became ready, acting for
    the person who uploaded it. A document without a known uploader (or an
    uploader who left the firm) is left for a lawyer to start by hand."""
    if not settings.BELEGT_AGENT_AUTO_EXTRACT:
        return
    from agents.services import RunNotStartable, extraction_run_start

    actor = (
        get_user_model()
        .objects.filter(
            pk=document.uploaded_by_id,
            membership__organisation_id=document.case.organisation_id,
            is_active=True,
        )
        .first()
    )
    if actor is None:
        logger.info("document %s has no active uploader; no extraction", document.pk)
        return
    try:
        extraction_run_start(
            case=document.case, document=document, actor=actor, run_async=True
        )
    except RunNotStartable as exc:
        logger.info("no extraction for document %s: %s", document.pk, exc)
