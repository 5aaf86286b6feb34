"""Resolve cost per citation: in batches (one corpus query per check, each
version's provisions from the process cache) against one by one (the valid
version looked up in the database for each citation, as before issue 15; the
same in-memory resolve after it), in one process, on a throwaway
database ``bench_resolve`` with the whole pinned corpus imported.

    .venv/bin/python benchmarks/resolve.py [--kb 150] [--rounds 3] [--keepdb]

The text is the pinned corpus' own provision texts (they cite each other
densely) cut to ``--kb`` kilobytes; it is parsed once, then only resolving is
timed: at a date the pinned texts cover (2026-06-01) and at one before the
pinned BGB (2024-06-01, ``unpinned_at_date``). "cold" also loads every
version's provisions (one query per version). Timings swing on shared
machines: compare the ratio within one run.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _setup(keep: bool) -> None:
    from django.db import connection

    connection.settings_dict["TEST"]["NAME"] = "bench_resolve"
    t0 = time.perf_counter()
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=keep)
    from citations.corpus import corpus_dir_default
    from citations.services import corpus_import

    corpus_import(corpus_dir=corpus_dir_default())
    print(f"database bench_resolve ready in {time.perf_counter() - t0:.1f}s")


def _text(chars: int) -> str:
    """A brief-like text: sentences citing real paragraphs of the BGB and the
    GDPR (and every tenth a unit that does not exist), about one citation per
    60 characters."""
    from citations.models import Provision

    units = list(
        Provision.objects.filter(
            version__instrument__key__in=["bgb", "gdpr"],
            version__language="de",
            kind="para",
        )
        .order_by("version_id", "position")
        .values_list("version__instrument__key", "path")
    )
    sentences = []
    total = 0
    i = 0
    while total < chars:
        key, path = units[(i * 7919) % len(units)]
        parts = path.split("/")
        top, para = parts[1], parts[3]
        if i % 10 == 9:
            top = str(int("".join(ch for ch in top if ch.isdigit()) or 1) + 5000)
        if key == "bgb":
            sentence = f"Der Anspruch folgt aus § {top} Abs. {para} BGB."
        else:
            sentence = f"Das ergibt sich aus Art. {top} Abs. {para} DSGVO."
        sentences.append(sentence)
        total += len(sentence) + 1
        i += 1
    return " ".join(sentences)[:chars]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kb", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keepdb", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    _setup(args.keepdb)

    from citations import selectors
    from citations.domain.parser import parse_citations
    from citations.domain.resolver import resolve_in_index
    from citations.services import CitationChecker, citations_check

    text = _text(args.kb * 1000)
    t0 = time.perf_counter()
    citations = parse_citations(text)
    parse_s = time.perf_counter() - t0
    n = len(citations)
    print(f"text {len(text):,} chars, {n} citations, parse {parse_s * 1000:.0f} ms")

    def batch(at: date) -> tuple[float, float]:
        t, c = time.perf_counter(), time.process_time()
        CitationChecker().resolve_many(citations, at=at)
        return time.perf_counter() - t, time.process_time() - c

    def one_by_one(at: date) -> tuple[float, float]:
        """The look-up per citation of the code before batching: the valid
        version asked from the database for each citation, then the same
        in-memory resolve."""
        corpus = selectors.instruments_in_corpus()
        t, c = time.perf_counter(), time.process_time()
        for citation in citations:
            info = citation.instrument
            instrument = corpus.get(info.prefix) if info is not None else None
            if instrument is None:
                continue
            version, _ = selectors.version_valid_at(
                instrument=instrument, at=at, language=citation.lang
            )
            if version is not None:
                resolve_in_index(citation, selectors.provision_index(version))
        return time.perf_counter() - t, time.process_time() - c

    def cold(at: date) -> tuple[float, float]:
        selectors._CACHE.clear()
        return batch(at)

    print("(wall clock; in brackets this process' CPU time, which excludes the")
    print(" time other processes hold the shared cores)")
    for at in (date(2026, 6, 1), date(2024, 6, 1)):
        results = CitationChecker().resolve_many(citations, at=at)
        print(f"\nat {at}: {dict(Counter(r.status for r in results))}")
        rows = []
        for name, run in (
            ("batch", batch),
            ("one by one", one_by_one),
            ("cold batch", cold),
        ):
            timings = [run(at) for _ in range(args.rounds)]
            wall = min(t[0] for t in timings)
            cpu = min(t[1] for t in timings)
            rows.append((name, wall))
            print(
                f"  {name:<11} {wall * 1000:8.1f} ms  {wall / n * 1e6:8.1f} µs/citation"
                f"  (CPU {cpu / n * 1e6:.1f} µs)"
            )
        print(f"  one by one / batch: {rows[1][1] / rows[0][1]:.1f}×")
    t0 = time.perf_counter()
    citations_check(text, at=date(2024, 6, 1))
    print(
        f"\nfull citations_check (parse + resolve) of {args.kb} KB: "
        f"{time.perf_counter() - t0:.2f} s"
    )


if __name__ == "__main__":
    main()
