"""Document types the ontology lacks: a heading such as "Lieferschein" or
"Mahnbescheid" on its own line becomes a ``propose_term`` candidate, so a
curator can add the type to the firm's vocabulary (the term is proposed,
never added)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

UNKNOWN_DOCUMENT_TYPES = (
    "Lieferschein", "Mahnbescheid", "Vollstreckungsbescheid", "Gutschrift",
    "Kontoauszug", "Inkassoschreiben", "Auftragsbestätigung", "Stornorechnung",
)  # fmt: skip
_DOCUMENT_TYPE_HEADING = re.compile(
    r"^[ \t]*(?P<label>" + "|".join(UNKNOWN_DOCUMENT_TYPES) + r")\b[^\n]{0,60}$",
    re.IGNORECASE | re.MULTILINE,
)


@dataclass(frozen=True)
class TermCandidateDraft:
    label: str
    kind: str
    chunk_id: int


def document_type_terms(chunk_id: int, text: str) -> Iterator[TermCandidateDraft]:
    """The unknown document types whose heading stands in the chunk."""
    for match in _DOCUMENT_TYPE_HEADING.finditer(text):
        yield TermCandidateDraft(match["label"], "document_type", chunk_id)
