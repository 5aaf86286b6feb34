"""Fit the weights of the compliance evidence matcher (issue 17).

    .venv/bin/pip install -r benchmarks/requirements-compliance.txt   # scikit-learn
    .venv/bin/python benchmarks/compliance_train.py [--check]

Reads every *spent* dossier of benchmarks/compliance_corpus (the sets in
``export_examples.SPENT``; a blind holdout is never read here before its one
blind measurement) through the app's text path and the compliance extractor,
records each batch's readable passages with the elements their document may
evidence, labels a pair (passage, element) positive where the passage overlaps
the ground-truth quote of that element, and computes each pair's
``FEATURES`` with the matcher's own code (``ElementMatcher.features``),
without the examples of the passage's own dossier set: as a new dossier meets
them. Then it fits a logistic regression on the standardised features:

- on all spent sets: the shipped weights,
  ``agents/extraction/data/compliance_matcher.json``;
- once per set, on all other sets: the folds the benchmark scores that set
  with (``benchmarks/compliance_corpus/matcher_folds.json``), so that no
  dossier is scored by weights fitted on it.

Decision constants (threshold, per element, per passage) were chosen by
leave-one-set-out on the spent sets (benchmarks/README.md, compliance).
``--check`` fits nothing and fails if the written weights are not those the
data gives (CI-free reproducibility check for a developer)."""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

_spec = importlib.util.spec_from_file_location(
    "_compliance_benchmark", ROOT / "benchmarks" / "compliance.py"
)
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

MODEL_OUT = ROOT / "agents" / "extraction" / "data" / "compliance_matcher.json"
FOLDS_OUT = ROOT / "benchmarks" / "compliance_corpus" / "matcher_folds.json"
EXAMPLE_OFFSET = 0.03
THRESHOLD = 0.10
PER_ELEMENT = 2
PER_PASSAGE = 2
C = 1.0


class Recorder:
    """Stands in for the matcher: records what the extractor would match."""

    def __init__(self) -> None:
        self.batches: list[tuple[list[str], list[frozenset[str]], list[str]]] = []

    def match(
        self,
        passages: Sequence[str],
        *,
        allowed: Sequence[frozenset[str]],
        headings: Sequence[str] | None = None,
    ) -> list[Any]:
        self.batches.append(
            (list(passages), list(allowed), list(headings or [""] * len(passages)))
        )
        return []


def dossier_batches(dossier_id: str) -> tuple[Any, Recorder]:
    from django.conf import settings

    from agents.domain.prompts import batches
    from agents.extraction.compliance import ComplianceExtractor, regimes_of
    from agents.extraction.extractor import ChunkText

    folder = bench.CORPUS / "dossiers" / dossier_id
    dossier = json.loads((folder / "dossier.json").read_text(encoding="utf-8"))
    claim_types = tuple(bench.CLAIM_TYPE_OF_REGIME[r] for r in dossier["regimes"])
    recorder = Recorder()
    extractor = ComplianceExtractor(regimes=regimes_of(claim_types), matcher=recorder)
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for document in dossier["documents"]:
            pdf = f"{document['doc']}.pdf"
            bench.render_pdf(
                (folder / document["file"]).read_text(encoding="utf-8"),
                Path(tmp) / pdf,
            )
            files.append(pdf)
        chunks, _ = bench._extraction.case_chunks(Path(tmp), files)
    for batch in batches(chunks, max_chars=int(settings.BELEGT_AGENT_BATCH_CHARS)):
        extractor.extract(
            [ChunkText(c.chunk_id, c.document_id, c.text, c.document) for c in batch]
        )
    return extractor, recorder


def truth_quotes(dossier_id: str) -> list[tuple[str, str]]:
    truth = json.loads(
        (bench.CORPUS / "ground_truth" / f"{dossier_id}.json").read_text("utf-8")
    )
    found: list[tuple[str, str]] = []
    for element in truth["elements"]:
        for quote in [element.get("quote")] + [
            q.get("quote") for q in element.get("alt_quotes", [])
        ]:
            if quote:
                found.append((element["key"], quote))
    return found


def pairs_of(dossier_id: str) -> tuple[np.ndarray, np.ndarray]:
    """Features and labels of every allowed pair of the dossier's batches,
    computed without the examples of its own set."""
    from agents.extraction.compliance_semantic import (
        FEATURES,
        ElementMatcher,
        MatcherModel,
        element_examples_for,
        evaluation_fold,
    )
    from evidence.embedding import get_embedder

    extractor, recorder = dossier_batches(dossier_id)
    quotes = truth_quotes(dossier_id)
    placeholder = MatcherModel(
        embedder="",
        example_offset=EXAMPLE_OFFSET,
        mean=(0.0,) * len(FEATURES),
        scale=(1.0,) * len(FEATURES),
        coef=(0.0,) * len(FEATURES),
        intercept=0.0,
        threshold=1.0,
        per_element=0,
        per_passage=0,
    )
    elements = extractor.meaning_elements()
    with evaluation_fold(bench.same_set_sources(dossier_id)):
        matcher = ElementMatcher(
            get_embedder(),
            elements,
            element_examples_for([key for key, _, _ in elements]),
            model=placeholder,
        )
    matrices, labels = [], []
    for passages, allowed, headings in recorder.batches:
        rows, cols, matrix = matcher.features(
            passages, allowed=allowed, headings=headings
        )
        matrices.append(matrix)
        labels.append(
            np.asarray(
                [
                    any(
                        key == matcher.keys[col]
                        and bench.quotes_overlap(passages[row], quote)
                        for key, quote in quotes
                    )
                    for row, col in zip(rows.tolist(), cols.tolist(), strict=True)
                ],
                dtype=bool,
            )
        )
    if not matrices:
        return np.zeros((0, len(FEATURES))), np.zeros(0, dtype=bool)
    return np.vstack(matrices), np.concatenate(labels)


def fit(matrix: np.ndarray, labels: np.ndarray, embedder: str) -> dict[str, Any]:
    from sklearn.linear_model import LogisticRegression

    from agents.extraction.compliance_semantic import FEATURES

    mean = matrix.mean(axis=0)
    scale = matrix.std(axis=0) + 1e-9
    model = LogisticRegression(C=C, max_iter=2000)
    model.fit((matrix - mean) / scale, labels)
    return {
        "embedder": embedder,
        "features": list(FEATURES),
        "example_offset": EXAMPLE_OFFSET,
        "mean": [round(float(v), 6) for v in mean],
        "scale": [round(float(v), 6) for v in scale],
        "coef": [round(float(v), 6) for v in model.coef_[0]],
        "intercept": round(float(model.intercept_[0]), 6),
        "threshold": THRESHOLD,
        "per_element": PER_ELEMENT,
        "per_passage": PER_PASSAGE,
        "pairs": int(len(labels)),
        "positives": int(labels.sum()),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    bench._extraction._django_setup()
    from evidence.embedding import get_embedder

    embedder = get_embedder().name
    ids = sorted(
        (p.name for p in (bench.CORPUS / "dossiers").iterdir() if p.is_dir()),
        key=lambda name: int(name[1:]),
    )
    spent = [i for i in ids if bench._export.dossier_set(i) in bench._export.SPENT]
    data: dict[int, list[tuple[np.ndarray, np.ndarray]]] = {}
    for dossier_id in spent:
        matrix, labels = pairs_of(dossier_id)
        data.setdefault(bench._export.dossier_set(dossier_id), []).append(
            (matrix, labels)
        )
        sys.stdout.write(
            f"{dossier_id}: {len(labels)} pairs, {int(labels.sum())} positive\n"
        )

    def stacked(sets: list[int]) -> tuple[np.ndarray, np.ndarray]:
        parts = [part for s in sets for part in data[s]]
        return np.vstack([m for m, _ in parts]), np.concatenate([y for _, y in parts])

    every = sorted(data)
    shipped = fit(*stacked(every), embedder)
    shipped["trained_on"] = spent
    folds = {
        str(held): fit(*stacked([s for s in every if s != held]), embedder)
        for held in every
    }
    model_json = json.dumps({"models": [shipped]}, indent=1) + "\n"
    folds_json = json.dumps({"folds": folds}, indent=1) + "\n"
    if args.check:
        same = (
            MODEL_OUT.read_text(encoding="utf-8") == model_json
            and FOLDS_OUT.read_text(encoding="utf-8") == folds_json
        )
        sys.stdout.write(f"weights reproduced: {same}\n")
        return 0 if same else 1
    MODEL_OUT.parent.mkdir(parents=True, exist_ok=True)
    MODEL_OUT.write_text(model_json, encoding="utf-8")
    FOLDS_OUT.write_text(folds_json, encoding="utf-8")
    sys.stdout.write(
        f"{shipped['pairs']} pairs, {shipped['positives']} positive; "
        f"coef {dict(zip(shipped['features'], shipped['coef'], strict=True))}\n"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
