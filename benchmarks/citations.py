"""Citation parser benchmark: Belegt's parser against legal-reference-extraction
(refex) on the same ≥ 5 MB of legal text, in one process; plus accuracy on the
labelled sets in tests/citations/data/: dev.jsonl (written before the parser
was run on it; the parser was later fixed on its misses) and blind.jsonl
(written last and never tuned on).

    .venv/bin/pip install -r benchmarks/requirements-citations.txt   # refex
    .venv/bin/python benchmarks/citations.py [--mb 5] [--no-refex] [--reference]

Belegt's parser is timed on both of its paths: "belegt-compiled" (the
compiled reader, citations/domain/_cparser.c, with the Python steps for what
it hands over) and "belegt-python" (the Python steps alone,
BELEGT_CITATIONS_COMPILED=0); both must find the same citations.

The text is the pinned corpus itself (GDPR en/de, AI Act, DORA de/en, BGB:
provision texts, which cite each other densely), repeated until it reaches the
target size and cut into documents of about 20,000 characters. refex runs with
its law extractor only ("refex-law", the same job) and as shipped with the
case-law engine too ("refex-all").
Numbers swing on shared machines: read the ratio, not the absolute values.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from citations.corpus.pins import PinsFile  # noqa: E402
from citations.corpus.readers import read_document  # noqa: E402
from citations.corpus.registry import law_index_install  # noqa: E402
from citations.domain.parser import parse_citations  # noqa: E402
from citations.domain.parser_compiled import ENV, compiled_parser  # noqa: E402

DATA = ROOT / "tests" / "citations" / "data"


def corpus_dir() -> Path:
    import os

    return Path(os.environ.get("BELEGT_CORPUS_DIR", ROOT.parent / "shared" / "corpus"))


def legal_text(target_chars: int) -> list[str]:
    """Documents of ~20k characters built from the corpus' provision texts
    (as written: no headings are added)."""
    pieces: list[str] = []
    for pin in PinsFile.load().pins:
        if pin.path.startswith("de-federal/"):
            continue  # the text stays the one measured before the 37 laws came
        doc = read_document(pin.format, corpus_dir() / pin.path)
        for unit in doc.units:
            if unit.path.count("/") == 1 and unit.text:
                pieces.append(unit.text)
    base = "\n\n".join(pieces)
    text = base
    while len(text) < target_chars:
        text += "\n\n" + base
    text = text[:target_chars]
    docs, start = [], 0
    while start < len(text):
        end = text.find("\n\n", start + 20_000)
        end = len(text) if end == -1 else end
        docs.append(text[start:end])
        start = end
    return docs


def accuracy(path: Path) -> None:
    tp = fp = fn = 0
    exact_texts = 0
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x]
    misses = []
    for item in lines:
        got = Counter(c.canonical for c in parse_citations(item["text"]))
        want = Counter(item["expected"])
        hit = sum((got & want).values())
        tp += hit
        fp += sum(got.values()) - hit
        fn += sum(want.values()) - hit
        if got == want:
            exact_texts += 1
        else:
            misses.append((item["text"], sorted(map(str, want)), sorted(map(str, got))))
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    print(
        f"{path.name}: {len(lines)} texts, {tp + fn} labelled citations; "
        f"precision {precision:.3f}, recall {recall:.3f}, "
        f"texts fully right {exact_texts}/{len(lines)}"
    )
    for text, want, got in misses:
        print(f"  miss: {text}\n        want {want}\n        got  {got}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--no-refex", action="store_true")
    parser.add_argument(
        "--reference",
        action="store_true",
        help="also time the parser's reference steps (before the speed-ups)",
    )
    args = parser.parse_args()
    # full depth: every federal law of the registry is known by name
    law_index_install(corpus_dir=corpus_dir())
    for path in sorted(DATA.glob("*.jsonl")):
        accuracy(path)
    docs = legal_text(int(args.mb * 1_000_000))
    chars = sum(len(d) for d in docs)
    print(f"text: {chars / 1e6:.2f} MB in {len(docs)} documents")
    eu = sum(
        1
        for d in docs[: max(1, len(docs) // 10)]
        for c in parse_citations(d)
        if c.instrument is not None and c.instrument.prefix.startswith("eu/")
    )
    print(f"EU-law citations with a named act in the first 10 % of the text: {eu}")
    count = lambda d: len(parse_citations(d))  # noqa: E731
    # runner name -> (BELEGT_CITATIONS_COMPILED while it runs, the runner)
    runners = {}
    if compiled_parser() is not None:
        runners["belegt-compiled"] = ("1", count)
    else:
        print("compiled reader not built: the Python steps only")
    runners["belegt-python"] = ("0", count)
    setting = os.environ.get(ENV)
    os.environ[ENV] = "0"
    by_python = [parse_citations(d) for d in docs]
    if "belegt-compiled" in runners:
        os.environ[ENV] = "1"
        same = [parse_citations(d) for d in docs] == by_python
        print(f"compiled reader and Python steps give the same citations: {same}")
    if args.reference:
        # the parser with its faster steps replaced by their first forms
        # (citations/domain/parser_reference.py): the same citations, slower
        from citations.domain.parser_reference import parse_citations_reference

        same = all(
            found == parse_citations_reference(d)
            for found, d in zip(by_python, docs, strict=True)
        )
        print(f"parser and reference steps give the same citations: {same}")
        runners["reference"] = ("0", lambda d: len(parse_citations_reference(d)))
    if not args.no_refex:
        try:
            from refex.engines.regex import RegexLawExtractor
            from refex.orchestrator import CitationExtractor
        except ImportError:
            print("refex missing: pip install -r benchmarks/requirements-citations.txt")
        else:
            law_only = CitationExtractor(engines=[RegexLawExtractor()])
            default = CitationExtractor()
            runners["refex-law"] = ("0", lambda d: len(law_only.extract(d).citations))
            runners["refex-all"] = ("0", lambda d: len(default.extract(d).citations))
    # Rounds alternate between the systems so that a burst of load on this
    # shared machine hits all of them alike; the best round of each counts.
    # CPU time of this process counts (wall time swings with the other
    # processes on a shared machine); both are printed.
    best = {name: float("inf") for name in runners}
    best_wall = {name: float("inf") for name in runners}
    counts = dict.fromkeys(runners, 0)
    load_before = os.getloadavg()
    for _ in range(args.rounds):
        for name, (path, fn) in runners.items():
            os.environ[ENV] = path
            started, wall = time.process_time(), time.perf_counter()
            counts[name] = sum(fn(d) for d in docs)
            best[name] = min(best[name], time.process_time() - started)
            best_wall[name] = min(best_wall[name], time.perf_counter() - wall)
    load_after = os.getloadavg()
    if setting is None:
        del os.environ[ENV]
    else:
        os.environ[ENV] = setting
    print(
        f"load average (1, 5, 15 min) before {_load(load_before)}, "
        f"after {_load(load_after)}; {os.cpu_count()} cores"
    )
    for name in runners:
        seconds, found = best[name], counts[name]
        print(
            f"{name:16} {seconds:8.3f} s CPU ({best_wall[name]:.3f} s wall)  "
            f"{found:8d} citations  {found / seconds:10.0f} citations/s  "
            f"{chars / seconds / 1e6:7.2f} MB/s"
        )
    for ours in ("belegt-compiled", "belegt-python"):
        if ours not in runners:
            continue
        for name in runners:
            if name.startswith("belegt"):
                continue
            print(
                f"ratio {ours} vs {name}: "
                f"{best[name] / best[ours]:.1f}x the characters/s, "
                f"{(counts[ours] / best[ours]) / (counts[name] / best[name]):.1f}x "
                "the citations/s"
            )
    if "belegt-compiled" in runners:
        ratio = best["belegt-python"] / best["belegt-compiled"]
        print(f"ratio belegt-compiled vs belegt-python: {ratio:.1f}x")


def _load(values: tuple[float, float, float]) -> str:
    return " ".join(f"{v:.2f}" for v in values)


if __name__ == "__main__":
    main()
