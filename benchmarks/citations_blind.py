"""Score the parser on the blind issue-15 set (tests/citations/data/blind15/),
written from the law by someone who never read or ran the parser.

    .venv/bin/python benchmarks/citations_blind.py [--misses]

The set's id notation differs from the parser's canonical identifiers in a few
documented, purely notational ways (the set's README, "Id conventions"); they
are mapped here, and only here, before comparing:

- German list units: the set writes ``/no/N`` and ``/letter/x`` and
  ``/halfsent/N``, the parser ``/point/N``, ``/subpoint/x``, ``/half/N``;
- EU annexes: the set numbers them in arabic, the parser in Roman numerals;
- the EGBGB: the set keys it ``bgbeg`` with ``art/229/sec/34``, the corpus
  ``egbgb`` with ``art/229/asec/34``; the KWG: ``kredwg`` against ``kwg``;
- German letters: the set writes ``/letter/x`` whatever the depth, the parser
  (like the corpus) names list levels by depth: ``/point/x`` right below a
  paragraph or section, ``/subpoint/x`` below a number;
- the SGB X: the set keys it ``sgbx`` (its README: "SGB X" and "SGB 10" are
  both ``sgbx``), the parser by the registry's jurabk "SGB 10" (``sgb-10``).

Nothing else is mapped: a different unit, a missing book number (SGB X) or a
point read as a paragraph counts as an error. Reports micro precision, recall
and F1 of exact identifiers, for the hold-out (b15-h-*) and the rest apart.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from citations.corpus.registry import law_index_install  # noqa: E402
from citations.domain.parser import parse_citations  # noqa: E402

DATA = ROOT / "tests" / "citations" / "data" / "blind15" / "sentences.jsonl"
ROMAN = {
    n: r
    for n, r in enumerate(
        [
            "I",
            "II",
            "III",
            "IV",
            "V",
            "VI",
            "VII",
            "VIII",
            "IX",
            "X",
            "XI",
            "XII",
            "XIII",
            "XIV",
            "XV",
        ],
        start=1,
    )
}


def notation(ident: str) -> str:
    """The set's id in the parser's notation (see the module docstring)."""
    # the set names German list levels by kind (no, letter), the parser by
    # depth (point, subpoint): a letter right below a paragraph is a point
    ident = re.sub(r"(/no/[^/]+)/letter/", r"\1/subpoint/", ident)
    ident = ident.replace("/no/", "/point/").replace("/letter/", "/point/")
    ident = ident.replace("/halfsent/", "/half/")
    ident = re.sub(r"^de/bgbeg/art/(\w+)/sec/", r"de/egbgb/art/\1/asec/", ident)
    ident = re.sub(r"^de/bgbeg/", "de/egbgb/", ident)
    ident = re.sub(r"^de/kredwg/", "de/kwg/", ident)
    # the set's README: "SGB X" and "SGB 10" are both ``sgbx``; the parser
    # keys the book by the registry's jurabk "SGB 10"
    ident = re.sub(r"^de/sgbx/", "de/sgb-10/", ident)
    if ident.startswith("eu/"):
        ident = re.sub(
            r"/annex/(\d+)", lambda m: f"/annex/{ROMAN[int(m.group(1))]}", ident
        )
    return ident


def score(rows: list[dict], show: bool) -> dict[str, float]:
    tp = fp = fn = 0
    for row in rows:
        expected = {
            notation(i)
            for key in ("expected", "nonexistent", "unpinned")
            for i in row.get(key, [])
        }
        found = {c.canonical for c in parse_citations(row["text"]) if c.canonical}
        tp += len(found & expected)
        fp += len(found - expected)
        fn += len(expected - found)
        if show and found != expected:
            print(
                row["id"],
                "missed",
                sorted(expected - found),
                "extra",
                sorted(found - expected),
            )
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "n": len(rows),
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "precision": precision,
        "recall": recall,
        "f1": f1,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--misses", action="store_true")
    args = parser.parse_args()
    # as in the app (citations.apps): every federal law of the registry is
    # known by name
    corpus = os.environ.get("BELEGT_CORPUS_DIR", ROOT.parent / "shared" / "corpus")
    law_index_install(corpus_dir=Path(corpus))
    rows = [json.loads(line) for line in DATA.read_text().splitlines() if line]
    parts = {
        "hold-out (b15-h)": [r for r in rows if r["id"].startswith("b15-h-")],
        "rest": [r for r in rows if not r["id"].startswith("b15-h-")],
        "all": rows,
    }
    for name, part in parts.items():
        # misses of the development part only: the hold-out is scored, never shown
        s = score(part, args.misses and name == "rest")
        print(
            f"{name:18} sentences {s['n']:3}  tp {s['tp']:3} fp {s['fp']:3} "
            f"fn {s['fn']:3}  P {s['precision']:.3f} R {s['recall']:.3f} "
            f"F1 {s['f1']:.3f}"
        )


if __name__ == "__main__":
    main()
