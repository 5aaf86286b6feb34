"""Score extractor proposals against the corpus truth (pure; PDFs only for verbatim).

    score(truth_cases, proposals, pdf_root=None) -> report
    format_report(report) -> str
    python -m benchmarks.extraction_corpus.score CORPUS_DIR proposals.jsonl

A proposal is a dict {case_id, key, value, file, page, quote} (optionally
"sources": [{file, page, quote}, ...] when the extractor grouped passages).

Matching rule (recall, precision): a proposal matches a truth fact when the case
and key are equal, the proposal's file (or one of its sources' files) is one of
the fact's source files, and the value is equal on the key's MAIN fields:
dates exact (ISO), amounts exact to the cent and currency, enums and ints exact.
Keys whose value is free text (TEXT_KEYS) match by quote instead: the proposal's
quote overlaps the truth quote from the same file (see `overlaps`). Old one-field
shapes are read as the record's main field (amount-only payment_received /
damage_item). Several proposals matching one fact: the first counts for recall,
the rest are reported as duplicates (they are not false positives).

type_accuracy: among proposals whose quote overlaps a truth quote in the same file
(or that match a fact), the share whose key is one of those facts' keys.
value_accuracy: among proposals with such an aligned fact of the same key, the
share whose value equals the truth on ALL fields the truth gives (text fields:
normalised containment either way).

Quotes are compared normalised: case-sensitive, soft hyphens dropped, a hyphen
at a line end joined or kept, all whitespace removed. verbatim_share: the share of
proposals whose quote is found so in the text layer of the proposal's page (or
split across that page and the next: sentences across a page break). On a page
without a text layer (a scan) the quote is compared with the text printed on it
(truth "scanned_pages") with an approximate-substring edit distance of at most
max(3, 12 % of the quote): OCR noise is tolerated, invented text is not. Without
pdf_root the verbatim check is skipped (None).

forbidden: proposals whose source is a must_not_propose entry (same file and
one quote contains the other - containment only, as bank rows or fee rows look
alike - or any quote for whole_file entries; restricted to the entry's
"keys" when given, and to proposals carrying the entry's "amount" when given:
the Gegenstandswert in a fee row is forbidden as the item's amount, the fee in
the same row is not). Must be 0. type_trap_hits: a one-sided deadline proposed as
one of the entry's wrong_keys (e.g. calendar_payment_date).

Several proposals matching one fact, and "sources": a truth fact stated in
several documents is ONE fact with "sources" (all places, the first repeated at
top level); a proposal from any of them matches it.
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

MAIN_FIELDS: dict[str, list[str] | None] = {
    "contract_concluded": ["date"],
    "calendar_payment_date": ["date"],
    "payment_term": ["event", "period_days"],
    "invoice_issued": ["date"],
    "claim_amount": None,
    "invoice_payment_deadline": ["date"],
    "consumer_notice_in_invoice": None,
    "invoice_received": ["date"],
    "performance_delivered": ["date"],
    "acceptance_requested": ["date"],
    "acceptance_declared": ["date"],
    "acceptance_refused": ["date"],
    "defects_asserted": ["date"],
    "deferral_requested": ["date"],
    "deferral_consented": ["date", "until"],
    "deferral_agreed": ["date", "until"],
    "reminder_sent": ["date"],
    "reminder_delivered": ["date"],
    "delivery_evidence": ["kind"],
    "receipt_denied": ["date"],
    "debtor_admission": ["date"],
    "refusal_to_pay": ["date", "kind"],
    "debtor_consumer": None,
    "exoneration_pleaded": ["kind"],
    "exoneration_evidenced": ["kind"],
    "lack_of_funds_pleaded": [],
    "payment_attempt_failed": ["date"],
    "payment_received": ["amount"],
    "lawyer_instructed": ["date"],
    "fee_note_item": ["kind", "net"],
    "damage_item": ["amount"],
    "interest_rate_claimed": None,
    "creditor_input_vat": None,
}  # fmt: skip  (None: the whole value; []: key and file only)
TEXT_KEYS = {
    "governing_law",
    "acceptance_clause",
    "special_reasons",
    "creditor_payment_details",
    "damage_unquantified",
}
AMOUNT_ONLY_OLD_SHAPE = {"payment_received", "damage_item"}


def _squash(s: str) -> list[str]:
    s = s.replace("\xad", "")
    joined = re.sub(r"(\w)-[ \t]*\n\s*(\w)", r"\1\2", s)
    return [re.sub(r"\s+", "", x) for x in {s, joined}]


def contains(hay: str, needle: str) -> bool:
    """Normalised containment (case-sensitive, whitespace and hyphenation free)."""
    return any(n and n in h for n in _squash(needle) for h in _squash(hay))


def overlaps(a: str | None, b: str | None) -> bool:
    """One quote contains the other, or they share >= 60 % of the shorter one's
    words (words with a letter; only when it has at least 3, so that bare
    numbers such as a Gegenstandswert never make two table rows overlap)."""
    if not a or not b:
        return False
    if contains(a, b) or contains(b, a):
        return True
    ta, tb = (set(re.findall(r"\w*[^\W\d_]\w*", x)) for x in (a, b))
    small = min(len(ta), len(tb))
    return small >= 3 and len(ta & tb) / small >= 0.6


def approx_in(needle: str, hay: str) -> bool:
    """Approximate substring (Sellers): edit distance <= max(3, 12 % of needle)."""
    n, h = re.sub(r"\s+", "", needle), re.sub(r"\s+", "", hay)
    limit = max(3, len(n) * 12 // 100)
    prev = list(range(len(n) + 1))
    best = prev[-1]
    for ch in h:
        cur = [0]
        for i, c in enumerate(n, 1):
            cur.append(min(prev[i] + 1, cur[i - 1] + 1, prev[i - 1] + (c != ch)))
        prev = cur
        best = min(best, cur[-1])
        if best <= limit:
            return True
    return best <= limit


def _norm_value(key: str, v: Any) -> Any:
    if key in AMOUNT_ONLY_OLD_SHAPE and isinstance(v, dict) and "cents" in v:
        return {"amount": v}
    return v


def _eq(a: Any, b: Any) -> bool:
    if isinstance(a, dict) and "cents" in a:
        return (
            isinstance(b, dict)
            and a.get("cents") == b.get("cents")
            and a.get("currency", "EUR") == b.get("currency", "EUR")
        )
    if isinstance(a, float) or isinstance(b, float):
        try:
            return abs(float(a) - float(b)) < 1e-9
        except (TypeError, ValueError):
            return False
    return a == b


def _text_eq(a: Any, b: Any) -> bool:
    return (
        isinstance(a, str) and isinstance(b, str) and (contains(a, b) or contains(b, a))
    )


def _files(p: dict[str, Any]) -> set[str]:
    return {p["file"], *(s["file"] for s in p.get("sources", []))}


def _quotes(p: dict[str, Any]) -> list[tuple[str, str]]:
    return [(p["file"], p.get("quote") or "")] + [
        (s["file"], s.get("quote") or "") for s in p.get("sources", [])
    ]


def _sources(f: dict[str, Any]) -> list[dict[str, Any]]:
    return f.get("sources") or [f]


def matches(p: dict[str, Any], f: dict[str, Any]) -> bool:
    if p["key"] != f["key"] or not _files(p) & {s["file"] for s in _sources(f)}:
        return False
    if f["key"] in TEXT_KEYS:
        return aligned(p, f)
    main = MAIN_FIELDS.get(f["key"])
    pv, tv = _norm_value(p["key"], p["value"]), f["value"]
    if main is None:
        return _eq(tv, pv)
    return isinstance(pv, dict) and all(_eq(tv.get(k), pv.get(k)) for k in main)


def aligned(p: dict[str, Any], f: dict[str, Any]) -> bool:
    return any(
        pf == s["file"] and overlaps(q, s.get("quote"))
        for pf, q in _quotes(p)
        for s in _sources(f)
    )


def value_correct(p: dict[str, Any], f: dict[str, Any]) -> bool:
    pv, tv = _norm_value(p["key"], p["value"]), f["value"]
    if not isinstance(tv, dict):
        return _eq(tv, pv)
    if not isinstance(pv, dict):
        return False
    return all(
        _text_eq(v, pv.get(k))
        if k in ("text", "evidence", "reason")
        else _eq(v, pv.get(k))
        for k, v in tv.items()
    )


def _cents(v: Any) -> set[int]:
    """Every amount in a value, however nested."""
    if isinstance(v, dict):
        own = {v["cents"]} if isinstance(v.get("cents"), int) else set()
        return own.union(*(_cents(x) for x in v.values()))
    return set()


def forbidden(p: dict[str, Any], case: dict[str, Any]) -> str | None:
    for b in case.get("must_not_propose", []):
        if b["file"] not in _files(p) or (b.get("keys") and p["key"] not in b["keys"]):
            continue
        if b.get("amount") and b["amount"]["cents"] not in _cents(p.get("value")):
            continue
        if b.get("whole_file") or any(
            f == b["file"]
            and q
            and (contains(b["quote"], q) or contains(q, b["quote"]))
            for f, q in _quotes(p)
        ):
            return b["reason"]
    return None


class PageText:
    """Text layer of corpus pages, read once; '' for a page without text."""

    def __init__(self, root: Path | None) -> None:
        self.root = root
        self.cache: dict[tuple[str, str], list[str]] = {}

    def get(self, case_id: str, file: str, page: int) -> str | None:
        if self.root is None:
            return None
        if (case_id, file) not in self.cache:
            import pymupdf

            path = self.root / case_id / file
            with pymupdf.open(path) as doc:
                self.cache[(case_id, file)] = [
                    doc[i].get_text() for i in range(doc.page_count)
                ]
        pages = self.cache[(case_id, file)]
        return pages[page - 1] if 1 <= page <= len(pages) else ""


def verbatim(p: dict[str, Any], case: dict[str, Any], texts: PageText) -> bool | None:
    q, page = p.get("quote") or "", int(p.get("page") or 0)
    text = texts.get(case["case_id"], p["file"], page)
    if text is None:
        return None
    if not q.strip():
        return False
    if text.strip():
        if contains(text, q):
            return True
        nxt = texts.get(case["case_id"], p["file"], page + 1) or ""
        words = q.split()
        return any(
            contains(text, " ".join(words[:k])) and contains(nxt, " ".join(words[k:]))
            for k in range(1, len(words))
        )
    printed = [
        s["printed_text"]
        for s in case.get("scanned_pages", [])
        if s["file"] == p["file"] and s["page"] == page
    ]
    return bool(printed) and approx_in(q, printed[0])


def _part(cases: list[dict], props: list[dict], texts: PageText) -> dict[str, Any]:
    by_case = defaultdict(list)
    for p in props:
        by_case[p["case_id"]].append(p)
    per_key: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    r = dict.fromkeys(
        (
            "facts",
            "found",
            "proposals",
            "tp",
            "duplicates",
            "typed",
            "typed_ok",
            "valued",
            "valued_ok",
            "verb_checked",
            "verb_ok",
            "forbidden",
            "trap_hits",
        ),
        0,
    )
    forb: dict[str, int] = defaultdict(int)
    misses, wrong = [], []
    for case in cases:
        ps = by_case.get(case["case_id"], [])
        used: set[int] = set()
        for f in case["facts"]:
            per_key[f["key"]][1] += 1
            r["facts"] += 1
            hits = [i for i, p in enumerate(ps) if matches(p, f)]
            if hits:
                per_key[f["key"]][0] += 1
                r["found"] += 1
                r["duplicates"] += len(hits) - 1
                used.update(hits)
            else:
                misses.append((case["case_id"], f["key"], f["file"], f["value"]))
        for i, p in enumerate(ps):
            r["proposals"] += 1
            r["tp"] += i in used
            if i not in used:
                wrong.append((case["case_id"], p["key"], p["file"], p.get("value")))
            al = [f for f in case["facts"] if aligned(p, f) or matches(p, f)]
            if al:
                r["typed"] += 1
                r["typed_ok"] += any(f["key"] == p["key"] for f in al)
            same = [f for f in al if f["key"] == p["key"]]
            if same:
                r["valued"] += 1
                r["valued_ok"] += any(value_correct(p, f) for f in same)
            v = verbatim(p, case, texts)
            if v is not None:
                r["verb_checked"] += 1
                r["verb_ok"] += v
            reason = forbidden(p, case)
            if reason:
                r["forbidden"] += 1
                forb[reason] += 1
            r["trap_hits"] += any(
                p["file"] == t["file"]
                and p["key"] in t["wrong_keys"]
                and overlaps(p.get("quote"), t["quote"])
                for t in case.get("type_traps", [])
            )

    def ratio(a: int, b: int) -> float | None:
        return round(a / b, 4) if b else None

    return {
        "cases": len(cases),
        "facts": r["facts"],
        "proposals": r["proposals"],
        "recall": ratio(r["found"], r["facts"]),
        "precision": ratio(r["tp"], r["proposals"]),
        "type_accuracy": ratio(r["typed_ok"], r["typed"]),
        "value_accuracy": ratio(r["valued_ok"], r["valued"]),
        "verbatim_share": ratio(r["verb_ok"], r["verb_checked"]),
        "verbatim_checked": r["verb_checked"],
        "duplicates": r["duplicates"],
        "forbidden_source_proposals": r["forbidden"],
        "forbidden_by_reason": dict(forb),
        "type_trap_hits": r["trap_hits"],
        "recall_by_key": {
            k: {"found": v[0], "facts": v[1]} for k, v in sorted(per_key.items())
        },
        "misses": misses,
        "unmatched_proposals": wrong,
    }


def score(
    truth_cases: list[dict], proposals: list[dict], pdf_root: Path | str | None = None
) -> dict[str, Any]:
    texts = PageText(Path(pdf_root) if pdf_root else None)
    blind = {c["case_id"] for c in truth_cases if c["blind"]}
    parts = {
        "blind": [c for c in truth_cases if c["blind"]],
        "non_blind": [c for c in truth_cases if not c["blind"]],
    }
    return {
        name: _part(
            cs,
            [p for p in proposals if (p["case_id"] in blind) == (name == "blind")],
            texts,
        )
        for name, cs in parts.items()
    }


def _f(x: float | None) -> str:
    return "  –  " if x is None else f"{x:5.3f}"


def format_report(report: dict[str, Any]) -> str:
    b, n = report["blind"], report["non_blind"]
    lines = [f"{'':30}{'blind':>14}{'non-blind':>14}"]
    for label, k in (
        ("case files", "cases"),
        ("facts", "facts"),
        ("proposals", "proposals"),
    ):
        lines.append(f"{label:30}{b[k]:>14}{n[k]:>14}")
    for label, k in (
        ("recall", "recall"),
        ("precision", "precision"),
        ("type accuracy", "type_accuracy"),
        ("value accuracy", "value_accuracy"),
        ("quotes verbatim on page", "verbatim_share"),
    ):
        lines.append(f"{label:30}{_f(b[k]):>14}{_f(n[k]):>14}")
    for label, k in (
        ("duplicates", "duplicates"),
        ("from must_not_propose (=0)", "forbidden_source_proposals"),
        ("one-sided deadline mistyped", "type_trap_hits"),
    ):
        lines.append(f"{label:30}{b[k]:>14}{n[k]:>14}")
    lines.append("")
    lines.append(f"{'recall per fact kind':30}{'blind':>14}{'non-blind':>14}")
    for key in sorted(set(b["recall_by_key"]) | set(n["recall_by_key"])):
        cells = []
        for part in (b, n):
            v = part["recall_by_key"].get(key)
            cells.append(f"{v['found']}/{v['facts']}" if v else "–")
        lines.append(f"  {key:28}{cells[0]:>14}{cells[1]:>14}")
    return "\n".join(lines)


def load_truth(root: Path) -> list[dict[str, Any]]:
    index = json.loads((root / "index.json").read_text())
    return [
        json.loads((root / c["case_id"] / "truth.json").read_text())
        for c in index["cases"]
    ]


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(
            "usage: python -m benchmarks.extraction_corpus.score CORPUS proposals.jsonl"
        )
        return 2
    root = Path(argv[0])
    props = [json.loads(x) for x in Path(argv[1]).read_text().splitlines() if x.strip()]
    print(format_report(score(load_truth(root), props, root)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
