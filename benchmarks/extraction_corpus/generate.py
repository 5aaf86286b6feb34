"""Write the extraction evaluation corpus: PDFs, truth.json per case, index.json.

    python -m benchmarks.extraction_corpus.generate OUTDIR

Deterministic: same input, same text, same truth (seeded scan noise). The truth
is taken from the documents as written; the generator checks every quote
against the text layer of the PDF it wrote (pages without a text layer, the
scans, are checked against the text printed on them before scanning).
"""

from __future__ import annotations

import json
import re
import sys
import time
import zlib
from pathlib import Path
from typing import Any

from .model import Case
from .scan import scan_document
from .styles import Renderer

VOCABULARY_KEYS = [
    "contract_concluded",
    "governing_law",
    "calendar_payment_date",
    "payment_term",
    "acceptance_clause",
    "invoice_issued",
    "claim_amount",
    "invoice_payment_deadline",
    "consumer_notice_in_invoice",
    "invoice_received",
    "performance_delivered",
    "acceptance_requested",
    "acceptance_declared",
    "acceptance_refused",
    "defects_asserted",
    "deferral_requested",
    "deferral_consented",
    "deferral_agreed",
    "reminder_sent",
    "reminder_delivered",
    "delivery_evidence",
    "receipt_denied",
    "debtor_admission",
    "refusal_to_pay",
    "special_reasons",
    "debtor_consumer",
    "exoneration_pleaded",
    "exoneration_evidenced",
    "lack_of_funds_pleaded",
    "payment_attempt_failed",
    "creditor_payment_details",
    "payment_received",
    "lawyer_instructed",
    "fee_note_item",
    "damage_item",
    "interest_rate_claimed",
    "damage_unquantified",
    "creditor_input_vat",
]


def norm(s: str) -> str:
    """The scorer's quote normalisation: hyphenated line breaks joined, whitespace
    collapsed; case and punctuation kept."""
    s = re.sub(r"(\w)-\s*\n\s*(\w)", r"\1\2", s)
    return re.sub(r"\s+", " ", s).strip()


def _check(quote: str, pages: list[int], texts: list[str], where: str) -> None:
    q = norm(quote)
    if len(pages) == 1:
        if q not in norm(texts[pages[0] - 1]):
            raise AssertionError(f"{where}: quote not on page {pages[0]}: {q!r}")
        return
    a, b = norm(texts[pages[0] - 1]), norm(texts[pages[1] - 1])
    words = q.split(" ")
    for k in range(1, len(words)):
        if " ".join(words[:k]) in a and " ".join(words[k:]) in b:
            return
    raise AssertionError(f"{where}: cross-page quote not found: {q!r}")


def _source(file: str, pages: list[int], quote: str, ocr: bool) -> dict[str, Any]:
    src: dict[str, Any] = {"file": file, "quote": quote, "ocr": ocr}
    if len(pages) == 1:
        src["page"] = pages[0]
    else:
        src["page"], src["pages"] = pages[0], pages
    return src


def write_case(case: Case, out: Path) -> dict[str, Any]:
    folder = out / case.case_id
    folder.mkdir(parents=True, exist_ok=True)
    facts: dict[str, dict[str, Any]] = {}
    bad: list[dict[str, Any]] = []
    scanned: list[dict[str, Any]] = []
    injection_files: list[str] = []
    for doc in case.docs:
        r = Renderer(doc)
        pdf = r.render()
        texts = [pdf[i].get_text() for i in range(pdf.page_count)]
        where = f"{case.case_id}/{doc.name}"
        for f, quote, pages in r.facts:
            _check(quote, pages, texts, where)
            fid = json.dumps([f.key, f.value], sort_keys=True, ensure_ascii=False)
            src = _source(doc.name, pages, quote, doc.scanned)
            if fid in facts:
                facts[fid]["sources"].append(src)
            else:
                facts[fid] = {"key": f.key, "value": f.value, **src, "sources": [src]}
        for b, quote, pages in r.bads:
            _check(quote, pages, texts, where)
            entry = {
                "file": doc.name,
                "reason": b.reason,
                "quote": quote,
                "page": pages[0],
            }
            if b.keys:
                entry["keys"] = b.keys
            if b.cents is not None:
                entry["amount"] = {"cents": b.cents, "currency": "EUR"}
            bad.append(entry)
        if doc.whole_file_bad:
            bad.append(
                {
                    "file": doc.name,
                    "reason": doc.whole_file_bad,
                    "quote": None,
                    "whole_file": True,
                }
            )
        if doc.injection:
            injection_files.append(doc.name)
        if doc.scanned:
            for i, t in enumerate(texts):
                scanned.append(
                    {"file": doc.name, "page": i + 1, "printed_text": norm(t)}
                )
            pdf = scan_document(pdf, zlib.crc32(where.encode()))
        pdf.set_metadata(
            {
                "producer": "belegt extraction corpus",
                "creator": "",
                "creationDate": "D:20240101000000",
                "modDate": "D:20240101000000",
                "title": doc.name,
            }
        )
        pdf.subset_fonts()
        pdf.save(folder / doc.name, garbage=3, deflate=True, no_new_id=True)
    for f in facts.values():
        for s in [f, *f["sources"]]:
            if not s["ocr"]:
                del s["ocr"]
        if len(f["sources"]) == 1:
            del f["sources"]
    truth = {
        "case_id": case.case_id,
        "lang": case.lang,
        "house_style": case.house_style,
        "blind": case.blind,
        "parties": {"creditor": case.creditor, "debtor": case.debtor},
        "valid_at": case.valid_at.isoformat(),
        "facts": list(facts.values()),
        "must_not_propose": bad,
        "injection_files": injection_files,
        "type_traps": case.traps,
        "scanned_pages": scanned,
        "files": [doc.name for doc in case.docs],
    }
    (folder / "truth.json").write_text(json.dumps(truth, ensure_ascii=False, indent=1))
    return truth


def all_cases() -> list[Case]:
    from .cases_de import CASES_DE
    from .cases_en import CASES_EN
    from .story import build

    return [build(s) for s in CASES_DE + CASES_EN]


def coverage(truths: list[dict[str, Any]]) -> dict[str, int]:
    """How many case files carry each fact kind."""
    return {
        k: sum(any(f["key"] == k for f in t["facts"]) for t in truths)
        for k in VOCABULARY_KEYS
    }


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m benchmarks.extraction_corpus.generate OUTDIR")
        return 2
    out = Path(argv[0])
    started = time.perf_counter()
    truths = [write_case(c, out) for c in all_cases()]
    cov = coverage(truths)
    missing = [k for k, n in cov.items() if n < 2]
    index = {
        "cases": [
            {k: t[k] for k in ("case_id", "lang", "house_style", "blind", "files")}
            | {"facts": len(t["facts"])}
            for t in truths
        ],
        "coverage": cov,
    }
    (out / "index.json").write_text(json.dumps(index, ensure_ascii=False, indent=1))
    took = time.perf_counter() - started
    print(
        f"{len(truths)} case files, {sum(len(t['facts']) for t in truths)} facts, "
        f"{took:.1f} s -> {out}"
    )
    for k, n in cov.items():
        print(f"  {k:28} {n:3} case files")
    if missing:
        print("fact kinds in fewer than 2 case files:", ", ".join(missing))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
