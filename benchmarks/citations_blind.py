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

``--resolve`` also scores through the resolver: every pinned file of
citations/pins.json is read with the importer's readers into the resolver's
provision index (the same rows the import stores; the newest version per
language, no database), each citation is resolved, and

- the identifier is the resolver's reading where it re-reads a level from the
  text's structure ("Article 3(63)": a definition article has points, no
  paragraphs; "Art. 6 Abs. 1 S. 1": the Satz of a paragraph with
  subparagraphs is its subparagraph), otherwise the parser's;
- false flags: ``expected`` citations answered other than ``resolved``
  (a citation the parser did not find is counted apart);
- flag recall: ``nonexistent`` citations answered ``not_found``/``bad_unit``;
- ``unpinned`` citations should answer ``not_checked``.
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

from citations.corpus.pins import PinsFile  # noqa: E402
from citations.corpus.readers import read_document  # noqa: E402
from citations.corpus.registry import law_index_install  # noqa: E402
from citations.domain.instruments import instrument_lookup  # noqa: E402
from citations.domain.parser import Citation, parse_citations  # noqa: E402
from citations.domain.resolver import (  # noqa: E402
    Outcome,
    ProvisionIndex,
    ProvisionRef,
    resolve_in_index,
    unit_mismatch,
)

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


def corpus_indexes(corpus: Path) -> dict[tuple[str, str], ProvisionIndex]:
    """The newest pinned version of each instrument and language, by
    (canonical prefix, language), read with the importer's readers."""
    newest: dict[tuple[str, str], tuple[object, ProvisionIndex]] = {}
    for pin in PinsFile.load().pins:
        info = instrument_lookup(pin.instrument)
        if info is None:
            continue
        key = (info.prefix, pin.language)
        if key in newest and newest[key][0] >= pin.valid_from:  # type: ignore[operator]
            continue
        doc = read_document(pin.format, corpus / pin.path)
        index = ProvisionIndex.build(
            ProvisionRef(
                path=u.path,
                kind=u.kind,
                label=u.label,
                text=u.text,
                heading=u.heading,
                repealed=u.repealed,
            )
            for u in doc.units
        )
        newest[key] = (pin.valid_from, index)
    return {k: v[1] for k, v in newest.items()}


def resolved(
    c: Citation, indexes: dict[tuple[str, str], ProvisionIndex]
) -> tuple[str, Outcome]:
    """The citation's identifier as the resolver reads it, and its answer."""
    info = c.instrument
    if info is None:
        return "", Outcome("not_found", "no_instrument")
    ident = c.canonical or ""
    bad = unit_mismatch(c, info)
    if bad is not None:
        return ident, Outcome("bad_unit", bad)
    index = indexes.get((info.prefix, c.lang))
    if index is None:
        other = [v for (p, _), v in indexes.items() if p == info.prefix]
        if not other:
            return ident, Outcome("not_checked", "instrument_not_in_corpus")
        index = other[0]
    outcome = resolve_in_index(c, index)
    reason = outcome.reason or ""
    levels = dict(c.levels)
    if reason.startswith(("paragraph_read_as_point", "no_such_point_for_paragraph")):
        ident = ident.replace(f"/para/{levels['para']}", f"/point/{levels['para']}")
    elif reason.startswith("sentence_read_as_subparagraph"):
        ident = ident.replace(f"/sent/{levels['sent']}", f"/subpara/{levels['sent']}")
    return ident, outcome


def score_resolved(
    rows: list[dict], indexes: dict[tuple[str, str], ProvisionIndex]
) -> dict[str, float]:
    tp = fp = fn = 0
    counts = dict.fromkeys(
        (
            "expected",
            "expected_unparsed",
            "false_flags",
            "nonexistent",
            "flagged",
            "unpinned",
            "not_checked",
        ),
        0,
    )
    for row in rows:
        answers: dict[str, str] = {}
        for c in parse_citations(row["text"]):
            ident, outcome = resolved(c, indexes)
            if ident:
                answers[ident] = outcome.status
        want = {
            key: {notation(i) for i in row.get(key, [])}
            for key in ("expected", "nonexistent", "unpinned")
        }
        expected = set().union(*want.values())
        tp += len(set(answers) & expected)
        fp += len(set(answers) - expected)
        fn += len(expected - set(answers))
        for ident in want["expected"]:
            counts["expected"] += 1
            status = answers.get(ident)
            if status is None:
                counts["expected_unparsed"] += 1
            elif status != "resolved":
                counts["false_flags"] += 1
        for ident in want["nonexistent"]:
            counts["nonexistent"] += 1
            if answers.get(ident) in ("not_found", "bad_unit"):
                counts["flagged"] += 1
        for ident in want["unpinned"]:
            counts["unpinned"] += 1
            if answers.get(ident) == "not_checked":
                counts["not_checked"] += 1
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"tp": tp, "fp": fp, "fn": fn, "f1": f1, **counts}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--misses", action="store_true")
    parser.add_argument("--resolve", action="store_true")
    args = parser.parse_args()
    # as in the app (citations.apps): every federal law of the registry is
    # known by name
    corpus = Path(
        os.environ.get("BELEGT_CORPUS_DIR", ROOT.parent / "shared" / "corpus")
    )
    law_index_install(corpus_dir=corpus)
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
    if not args.resolve:
        return
    indexes = corpus_indexes(corpus)
    print("through the resolver:")
    for name, part in parts.items():
        r = score_resolved(part, indexes)
        print(
            f"{name:18} tp {r['tp']:3} fp {r['fp']:3} fn {r['fn']:3} "
            f"F1 {r['f1']:.3f}  false flags {r['false_flags']}/{r['expected']} "
            f"({r['false_flags'] / max(1, r['expected']):.1%}; not parsed "
            f"{r['expected_unparsed']})  flag recall {r['flagged']}/"
            f"{r['nonexistent']}  not_checked {r['not_checked']}/{r['unpinned']}"
        )


if __name__ == "__main__":
    main()
