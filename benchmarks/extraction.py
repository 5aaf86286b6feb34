"""Extraction benchmark (issue 16): the offline rules provider on the generated
evaluation corpus (``benchmarks/extraction_corpus``), not on the demo case.

For every case file it

1. generates the corpus into a temporary folder (or reads ``--corpus DIR``);
2. reads each PDF through the app's own text path: ``evidence.extraction``
   (PyMuPDF layout text, Tesseract OCR for image-only pages) and
   ``evidence.domain.chunking.chunk_pages`` with the configured chunk sizes -
   the same functions ingestion uses, without the database;
3. hands the case's chunks, in document order and in the batches a run uses,
   to ``agents.providers.rules.RulesProvider``;
4. maps each ``propose_case_fact`` back to its file and page with the one quote
   matcher (``quote_page_ranges``) and scores with ``score()``.

It prints recall per fact kind, precision, type accuracy, value accuracy, the
share of quotes verbatim on the proposal's page, duplicates, proposals from
injected or distractor passages and deadline-trap hits: tuned (16 case files)
and blind (8) separately. The blind part is only measured, never tuned on.

Run: ``.venv/bin/python benchmarks/extraction.py [--corpus DIR] [--json OUT]``
(OCR of the scanned pages dominates: a few minutes on a 2-core machine).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OMP_NUM_THREADS", "1")


def _django_setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only")
    os.environ.setdefault("DATABASE_URL", "postgres://unused@127.0.0.1:1/unused")
    import django

    django.setup()


ALLOW_OCR = True
CACHE: Path | None = None  # --cache: extracted pages kept between runs (OCR is slow)


def _extract_pages(path: Path) -> list[Any]:
    import pymupdf

    from evidence import extraction

    cached = None
    if CACHE is not None:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        cached = CACHE / f"{digest}.json"
        if cached.is_file():
            return [
                extraction.ExtractedPage(**p) for p in json.loads(cached.read_text())
            ]
    with pymupdf.open(path) as pdf:
        pages = [extraction.extract_page(p, allow_ocr=ALLOW_OCR) for p in pdf]
    if cached is not None:
        cached.write_text(json.dumps([dataclasses.asdict(p) for p in pages]))
    return pages


def read_document(path: Path) -> tuple[list[Any], dict[int, str], bool]:
    """Pages (as chunker input) and page texts of one PDF, read as ingestion
    reads it; third: whether any page needed OCR."""
    from evidence.domain.chunking import LineBox, PageInput

    pages = _extract_pages(path)
    ocr = any(p.ocr for p in pages)
    # as evidence.services.ingest.page_inputs builds them from Page rows
    inputs = [
        PageInput(
            number=p.number,
            text=p.text,
            lines=tuple(
                LineBox(start=ln["start"], end=ln["end"], bbox=tuple(ln["bbox"]))
                for block in p.blocks
                for ln in block.get("lines", [])
            ),
        )
        for p in pages
    ]
    return inputs, {p.number: p.text for p in pages}, ocr


def case_chunks(case_dir: Path, files: Iterable[str]) -> tuple[list[Any], dict]:
    """The case's chunks as a run sees them (ChunkInput, document order) and,
    per chunk id, what maps a quote back to a page."""
    from agents.domain.loop import ChunkInput
    from evidence.domain.chunking import chunk_pages
    from evidence.services.ingest import chunking_config

    chunks: list[ChunkInput] = []
    where: dict[int, dict[str, Any]] = {}
    next_id = 1
    for doc_id, name in enumerate(files, 1):
        inputs, page_texts, _ = read_document(case_dir / name)
        for spec in chunk_pages(inputs, chunking_config()):
            chunk = ChunkInput(
                chunk_id=next_id,
                document_id=doc_id,
                document=name,
                pages=tuple(range(spec.page_start, spec.page_end + 1)),
                text=spec.text,
            )
            chunks.append(chunk)
            where[next_id] = {
                "file": name,
                "text": spec.text,
                "spans": [s.as_json() for s in spec.spans],
                "page_texts": page_texts,
                "page": spec.page_start,
            }
            next_id += 1
    return chunks, where


def run_provider(chunks: list[Any]) -> list[dict[str, Any]]:
    """Every ``propose_case_fact`` call the rules provider makes over the
    case's chunks, batched as an extraction run batches them."""
    from django.conf import settings

    from agents.domain.loop import Episode
    from agents.domain.prompts import batches
    from agents.providers.rules import RulesProvider

    provider = RulesProvider()
    calls: list[dict[str, Any]] = []
    for batch in batches(chunks, max_chars=int(settings.BELEGT_AGENT_BATCH_CHARS)):
        episode = Episode(messages=[{"role": "user", "content": ""}], chunks=batch)
        turn = provider.next_turn(episode=episode, messages=episode.messages)
        for call in turn.calls:
            if call.name == "propose_case_fact":
                calls.append(json.loads(call.arguments))
    return calls


def to_proposal(case_id: str, args: dict[str, Any], where: dict) -> dict[str, Any]:
    from evidence.domain.quotes import quote_page_ranges

    info = where[args["source_chunk_id"]]
    ranges = quote_page_ranges(
        chunk_text=info["text"],
        spans=info["spans"],
        page_texts=info["page_texts"],
        quote=args["quote"],
    )
    value = args["value"]
    if set(value) == {"boolean"}:  # the scorer reads the vocabulary's bare boolean
        value = value["boolean"]
    return {
        "case_id": case_id,
        "key": args["fact_type"],
        "value": value,
        "file": info["file"],
        "page": ranges[0].page if ranges else info["page"],
        "quote": args["quote"],
        "in_chunk": bool(ranges),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, help="an already generated corpus")
    parser.add_argument("--json", type=Path, help="write the proposals here")
    parser.add_argument("--cache", type=Path, help="keep extracted pages here")
    parser.add_argument("--only", choices=("tuned", "blind", "all"), default="all")
    args = parser.parse_args()
    _django_setup()
    global CACHE
    if args.cache:
        args.cache.mkdir(parents=True, exist_ok=True)
        CACHE = args.cache
    from benchmarks.extraction_corpus.score import format_report, score

    with tempfile.TemporaryDirectory() as tmp:
        corpus = args.corpus
        if corpus is None:
            corpus = Path(tmp) / "corpus"
            subprocess.run(
                [sys.executable, "-m", "benchmarks.extraction_corpus.generate", corpus],
                check=True,
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
            )
        index = json.loads((corpus / "index.json").read_text())
        truths = []
        for entry in index["cases"]:
            case_id = entry["case_id"] if isinstance(entry, dict) else entry
            truth = json.loads((corpus / case_id / "truth.json").read_text())
            if args.only == "tuned" and truth["blind"]:
                continue
            if args.only == "blind" and not truth["blind"]:
                continue
            truths.append(truth)
        proposals: list[dict[str, Any]] = []
        started = time.perf_counter()
        for truth in truths:
            chunks, where = case_chunks(corpus / truth["case_id"], truth["files"])
            for call in run_provider(chunks):
                proposals.append(to_proposal(truth["case_id"], call, where))
        elapsed = time.perf_counter() - started
        report = score(truths, proposals, pdf_root=corpus)
        print(format_report(report))
        not_in_chunk = sum(1 for p in proposals if not p["in_chunk"])
        print(
            f"\n{len(proposals)} proposals from {len(truths)} case files in "
            f"{elapsed:.1f} s; quotes not found in their chunk by the quote "
            f"matcher: {not_in_chunk}"
        )
        if args.json:
            args.json.write_text(
                "\n".join(json.dumps(p, ensure_ascii=False) for p in proposals)
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
