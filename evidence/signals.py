"""Signals the evidence app sends. Apps above it (the agents) listen; the
evidence app never imports them."""

from django.dispatch import Signal

# Sent once a document's ingestion reached "ready" (after its transaction
# committed), with ``document=SourceDocument``.
document_ready = Signal()
