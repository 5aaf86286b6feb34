"""Ingestion benchmark: end-to-end pages/s against its floors, in one run.

On a generated corpus of German case-file prose (default 10 documents × 50
pages = 500 pages) it measures, on the same files:

1. raw PyMuPDF ``page.get_text()``: the physical floor of text extraction;
2. our page extraction (``get_text("dict")`` + layout with offsets and boxes);
3. chunking alone (pure Python, on the extracted pages);
4. embedding alone (the configured embedder on exactly the chunks of the run);
5. end to end: ``documents_upload`` (validation, hashing, storage) plus
   ``source_document_ingest`` (pages, chunks, embeddings, database writes),
   with the time spent per stage.

It prints pages/s for each, the ratios against raw PyMuPDF and the share of
end-to-end time per stage. Optional ``--ocr-pages N`` adds N image-only pages
to measure OCR on its own (Tesseract deu+eng).

Run: ``.venv/bin/python benchmarks/ingest.py [--documents 10 --pages 50]``.
Uses a throwaway database ``bench_ingest`` on the configured server (embedded
PostgreSQL by default) and a temporary media folder; both are removed.
Timings swing on a shared 2-core machine: compare ratios within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OMP_NUM_THREADS", "2")


def make_corpus(documents: int, pages: int) -> list[bytes]:
    from tests.evidence import pdfs

    return [pdfs.case_file(pages, seed=seed) for seed in range(documents)]


def bench_raw_pymupdf(corpus: list[bytes]) -> tuple[float, int]:
    import pymupdf

    t0 = time.perf_counter()
    n = chars = 0
    for data in corpus:
        with pymupdf.open(stream=data, filetype="pdf") as doc:
            for page in doc:
                chars += len(page.get_text())
                n += 1
    return time.perf_counter() - t0, n


def bench_extraction(corpus: list[bytes]) -> tuple[float, list[list]]:
    from evidence import extraction

    t0 = time.perf_counter()
    extracted = []
    for data in corpus:
        doc = extraction.open_pdf(data)
        extracted.append(
            list(extraction.iter_pages(doc, list(range(1, doc.page_count + 1))))
        )
        doc.close()
    return time.perf_counter() - t0, extracted


def bench_chunking(extracted: list[list]) -> tuple[float, list[str]]:
    from evidence.domain.chunking import LineBox, PageInput, chunk_pages
    from evidence.services.ingest import chunking_config

    config = chunking_config()
    inputs = [
        [
            PageInput(
                number=p.number,
                text=p.text,
                lines=tuple(
                    LineBox(line["start"], line["end"], tuple(line["bbox"]))
                    for block in p.blocks
                    for line in block["lines"]
                ),
            )
            for p in pages
        ]
        for pages in extracted
    ]
    t0 = time.perf_counter()
    texts = [c.text for doc in inputs for c in chunk_pages(doc, config)]
    return time.perf_counter() - t0, texts


def bench_embedding(texts: list[str], sample: int | None) -> tuple[float, int, str]:
    from evidence.embedding import get_embedder

    embedder = get_embedder()
    embedder.embed_documents(texts[:2])  # load the model outside the timing
    chosen = texts if not sample else texts[:sample]
    t0 = time.perf_counter()
    for start in range(0, len(chosen), 32):
        embedder.embed_documents(chosen[start : start + 32])
    return time.perf_counter() - t0, len(chosen), f"{embedder.name} {embedder.version}"


def bench_end_to_end(corpus: list[bytes]) -> dict:
    """Upload and ingest every document in-process, timing each stage by
    wrapping the pipeline's stage functions (benchmark-only instrumentation)."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from cases.models import Case, Organisation
    from evidence import validation
    from evidence.services import ingest

    spent: dict[str, float] = defaultdict(float)

    def timed(name, fn):
        def wrapper(*args, **kwargs):
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name] += time.perf_counter() - t0

        return wrapper

    originals = {
        "validate": (validation, "validate_pdf"),
        "store": (ingest, "source_document_store"),
        "pages": (ingest, "_stage_pages"),
        "ocr": (ingest, "_stage_ocr"),
        "chunks": (ingest, "_stage_chunks"),
        "embeddings": (ingest, "_stage_embeddings"),
    }
    saved = {name: getattr(mod, attr) for name, (mod, attr) in originals.items()}
    for name, (mod, attr) in originals.items():
        setattr(mod, attr, timed(name, saved[name]))
    try:
        firm = Organisation.objects.create(name="Bench", slug="bench-ingest")
        case = Case.objects.create(
            organisation=firm, reference="BENCH 1/26", title="Bench", client="Bench"
        )
        t0 = time.perf_counter()
        uploads = [
            SimpleUploadedFile(f"akte-{i}.pdf", data, content_type="application/pdf")
            for i, data in enumerate(corpus)
        ]
        outcomes = ingest.documents_upload(
            actor=None, case=case, uploads=uploads, dispatch=False
        )
        upload_done = time.perf_counter()
        ingestions = [
            ingest.source_document_ingest(document=o.document)
            for o in outcomes
            if o.document is not None
        ]
        total = time.perf_counter() - t0
    finally:
        for name, (mod, attr) in originals.items():
            setattr(mod, attr, saved[name])
    assert all(i.stage == "ready" for i in ingestions), [
        (i.stage, i.error_message) for i in ingestions
    ]
    return {
        "seconds": total,
        "upload_seconds": upload_done - t0,
        "pages": sum(i.pages for i in ingestions),
        "ocr_pages": sum(i.ocr_pages for i in ingestions),
        "chunks": sum(i.chunks for i in ingestions),
        "embedded": sum(i.embedded for i in ingestions),
        "stages": dict(spent),
    }


def bench_ocr(pages: int) -> tuple[float, int]:
    from evidence import extraction
    from tests.evidence import pdfs

    data = pdfs.image_only()
    t0 = time.perf_counter()
    for _ in range(pages):
        doc = extraction.open_pdf(data)
        page = extraction.extract_page(doc[0])
        assert page.ocr and "Mahnung" in page.text
        doc.close()
    return time.perf_counter() - t0, pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=10)
    parser.add_argument("--pages", type=int, default=50, help="pages per document")
    parser.add_argument(
        "--embed-sample",
        type=int,
        default=0,
        help="embed only this many chunks in the 'embedding alone' part (0: all)",
    )
    parser.add_argument("--ocr-pages", type=int, default=0)
    parser.add_argument("--json", type=Path, help="write the figures as JSON")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only")
    media = tempfile.mkdtemp(prefix="bench-ingest-media-")
    os.environ["BELEGT_MEDIA_ROOT"] = media
    import django

    from config.embedded_db import local_environment_prepare

    local_environment_prepare()  # the embedded PostgreSQL unless DATABASE_URL
    django.setup()
    from django.db import connection

    t0 = time.perf_counter()
    corpus = make_corpus(args.documents, args.pages)
    print(
        f"corpus: {args.documents} documents × {args.pages} pages "
        f"= {args.documents * args.pages} pages, "
        f"{sum(map(len, corpus)) / 1e6:.1f} MB, generated in "
        f"{time.perf_counter() - t0:.1f}s"
    )
    figures: dict = {}
    load: dict[str, float] = {}
    raw_s, n_pages = bench_raw_pymupdf(corpus)
    extract_s, extracted = bench_extraction(corpus)
    chunk_s, texts = bench_chunking(extracted)
    connection.settings_dict["TEST"]["NAME"] = "bench_ingest"
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        load["end to end"] = os.getloadavg()[0]
        e2e = bench_end_to_end(corpus)
    finally:
        connection.creation.destroy_test_db(
            connection.settings_dict["NAME"], verbosity=0
        )
    # Embedding alone right after the end-to-end run, on the same chunks, so
    # that both see similar load on a shared machine.
    load["embedding alone"] = os.getloadavg()[0]
    embed_s, n_embedded, model = bench_embedding(texts, args.embed_sample or None)
    embed_pages_s = embed_s * len(texts) / n_embedded  # extrapolated if sampled
    figures.update(
        pages=n_pages,
        chunks=len(texts),
        raw_pymupdf_s=raw_s,
        extraction_s=extract_s,
        chunking_s=chunk_s,
        embedding_s=embed_s,
        embedded_chunks=n_embedded,
        embedder=model,
    )
    figures["end_to_end"] = e2e
    figures["load_average_1min"] = load
    if args.ocr_pages:
        ocr_s, ocr_n = bench_ocr(args.ocr_pages)
        figures["ocr_s"], figures["ocr_pages"] = ocr_s, ocr_n

    def rate(seconds: float, n: int = n_pages) -> str:
        return f"{n / seconds:9.1f} pages/s" if seconds else "      n/a"

    e2e_s = e2e["seconds"]
    print(f"\n{'part':<34}{'seconds':>9}  {'rate':>15}  {'vs raw':>8}")
    rows = [
        ("raw PyMuPDF get_text()", raw_s),
        ("our extraction (layout, boxes)", extract_s),
        ("chunking alone", chunk_s),
        ("embedding alone", embed_pages_s),
        ("end to end (upload + ingest)", e2e_s),
    ]
    for label, seconds in rows:
        print(f"{label:<34}{seconds:9.2f}  {rate(seconds)}  {seconds / raw_s:7.1f}×")
    print(
        f"\nchunks: {len(texts)} ({len(texts) / n_pages:.2f}/page); embedder {model}: "
        f"{n_embedded / embed_s:.1f} chunks/s"
        + (f" (sample of {n_embedded}, extrapolated)" if args.embed_sample else "")
    )
    e2e_embed = e2e["stages"].get("embeddings", 0.0)
    if e2e_embed:
        print(
            f"embedding inside end to end: {e2e['embedded'] / e2e_embed:.1f} "
            f"chunks/s; load average at start: "
            + ", ".join(f"{k} {v:.1f}" for k, v in load.items())
        )
    print(
        f"end to end: {e2e['pages']} pages, {e2e['chunks']} chunks, "
        f"{e2e['embedded']} embedded; upload+validation+storage "
        f"{e2e['upload_seconds']:.2f}s"
    )
    print("\nwhere the end-to-end time goes:")
    accounted = 0.0
    for stage, seconds in sorted(e2e["stages"].items(), key=lambda kv: -kv[1]):
        accounted += seconds
        print(f"  {stage:<12}{seconds:9.2f}s  {100 * seconds / e2e_s:5.1f} %")
    other = e2e_s - accounted
    print(f"  {'other':<12}{other:9.2f}s  {100 * other / e2e_s:5.1f} %")
    print(
        f"\nratios: end to end is {e2e_s / raw_s:.0f}× raw PyMuPDF; "
        f"embedding alone is {embed_pages_s / e2e_s:.0%} of end to end; "
        f"end to end without embeddings would run at "
        f"{n_pages / max(e2e_s - e2e['stages'].get('embeddings', 0), 1e-9):.0f} "
        f"pages/s"
    )
    if args.ocr_pages:
        print(
            f"OCR (Tesseract deu+eng, {figures['ocr_pages']} image-only pages): "
            f"{figures['ocr_pages'] / figures['ocr_s']:.2f} pages/s"
        )
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2, default=str))


if __name__ == "__main__":
    main()
