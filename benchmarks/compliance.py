"""Benchmark: compliance assessments (issue 17), in two parts.

Run: .venv/bin/python benchmarks/compliance.py [--json PATH] [--part tuned|holdout|all]
     [--dossiers K8,K9,K10]

1. **Scenarios.** The element evaluator against the blind scenario suite
   tests/ontology/scenarios/compliance (tuned and ``"holdout": true`` apart):
   element-status accuracy (applicability and status both match),
   obligation-status accuracy, obligations wrongly "erfüllt".
2. **Dossiers.** For each dossier of benchmarks/compliance_corpus: its Markdown
   documents are rendered to PDF (PyMuPDF Story), read through the app's own
   text path (``evidence.extraction``, ``chunk_pages`` with the configured
   sizes, as benchmarks/extraction.py does) and handed, batched as a run
   batches them, to the rules provider for a case whose claims are the
   dossier's regimes. Then, as a perfect reviewer would: accept exactly the
   proposals whose element key, document and quote match a ground-truth
   element (the quote contains the truth's, is contained in it, or shares 80 %
   of its characters), reject the rest; the reviewer also enters the
   dossier's context, determination and instrument facts from the ground
   truth (the rules provider proposes element evidence only); evaluate at the
   dossier's Stichtag. Printed: **evidence recall** (truth elements with a
   quote that some proposal of the same key quotes), **element-status
   accuracy** and obligation-status accuracy end to end, obligations wrongly
   "erfüllt", proposals whose quote lies in a distractor (marketing claim,
   summary, recital, the injected instruction; target 0), all proposals and
   **proposal precision** (proposals the perfect reviewer accepts / all
   proposals: a flood of wrong proposals costs the reviewer even at full
   recall); the rejected proposals are listed.
   Tuned dossiers (K1, K3, K5, K7) and the holdout (K2, K4, K6) apart.
"""

from __future__ import annotations

import argparse
import difflib
import html
import importlib.util
import json
import re
import sys
import tempfile
import unicodedata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ontology.domain.compliance import compliance_evaluate  # noqa: E402
from ontology.domain.compliance_facts import compliance_input_from_json  # noqa: E402

# The app's text path without the database, as the extraction benchmark runs it.
_spec = importlib.util.spec_from_file_location(
    "_extraction_benchmark", ROOT / "benchmarks" / "extraction.py"
)
assert _spec is not None and _spec.loader is not None
_extraction = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_extraction)

_export_spec = importlib.util.spec_from_file_location(
    "_export_examples", ROOT / "benchmarks" / "compliance_corpus" / "export_examples.py"
)
assert _export_spec is not None and _export_spec.loader is not None
_export = importlib.util.module_from_spec(_export_spec)
_export_spec.loader.exec_module(_export)

SCENARIOS = ROOT / "tests" / "ontology" / "scenarios" / "compliance"


def score(paths: list[Path]) -> dict[str, Any]:
    elements = elements_right = obligations = obligations_right = 0
    wrongly_erfuellt: list[str] = []
    wrong: list[str] = []
    for path in paths:
        scenario = json.loads(path.read_text(encoding="utf-8"))
        result = compliance_evaluate(compliance_input_from_json(scenario))
        for want in scenario["expected"]["obligations"]:
            got = next(
                (
                    o
                    for o in result.obligations
                    if o.key == want["key"] and o.subject == want.get("subject")
                ),
                None,
            )
            obligations += 1
            code = got.code if got else None
            applicable = got.applicable if got else "missing"
            if applicable == want["applicable"] and code == want["status"]:
                obligations_right += 1
            else:
                wrong.append(
                    f"{scenario['id']}/{want['key']}: {code} != {want['status']}"
                )
            if code == "erfuellt" and want["status"] != "erfuellt":
                wrongly_erfuellt.append(f"{scenario['id']}/{want['key']}")
            for key, element in want["elements"].items():
                elements += 1
                mine = (
                    next((e for e in got.elements if e.key == key), None)
                    if got
                    else None
                )
                if (
                    mine is not None
                    and mine.applicable == element["applicable"]
                    and mine.code == element["status"]
                ):
                    elements_right += 1
                else:
                    wrong.append(
                        f"{scenario['id']}/{key}: "
                        f"{mine.code if mine else None} != {element['status']}"
                    )
    return {
        "scenarios": len(paths),
        "elements": elements,
        "element_status_accuracy": round(elements_right / elements, 3)
        if elements
        else None,
        "obligations": obligations,
        "obligation_status_accuracy": round(obligations_right / obligations, 3)
        if obligations
        else None,
        "obligations_wrongly_erfuellt": wrongly_erfuellt,
        "wrong": wrong,
    }


# ------------------------------------------------------------------ dossiers
CORPUS = ROOT / "benchmarks" / "compliance_corpus"
CLAIM_TYPE_OF_REGIME = {"gdpr": "gdpr", "aia": "ai_act_high_risk", "dora": "dora"}
_INLINE = re.compile(r"\*\*(.+?)\*\*|\*(.+?)\*|`(.+?)`")


def _inline(text: str) -> str:
    escaped = html.escape(text, quote=False)
    return _INLINE.sub(
        lambda m: f"<b>{m.group(1) or m.group(2) or m.group(3)}</b>", escaped
    )


def markdown_html(text: str) -> str:
    """The dossiers' Markdown (headings, paragraphs, lists, pipe tables) as
    HTML for PyMuPDF's Story; nothing else is used in the corpus."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        if not line.strip():
            i += 1
            continue
        if m := re.match(r"^(#{1,6})\s+(.*)$", line):
            level = min(len(m.group(1)), 4)
            out.append(f"<h{level}>{_inline(m.group(2))}</h{level}>")
            i += 1
            continue
        if line.lstrip().startswith("|"):
            rows: list[list[str]] = []
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
                if not all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c):
                    rows.append(cells)
                i += 1
            body = "".join(
                "<tr>"
                + "".join(
                    "<{0}>{1}</{0}>".format("th" if r == 0 else "td", _inline(c))
                    for c in row
                )
                + "</tr>"
                for r, row in enumerate(rows)
            )
            out.append(
                "<table border='1' cellpadding='2' style='font-size:8pt'>"
                f"{body}</table>"
            )
            continue
        if re.match(r"^\s*\d+\.\s+", line):
            # a numbered list keeps its numbers as typed ("1. ICT risk
            # management framework."): until 7.12.2026 it became bullets
            # and the numbers a document refers to were lost
            while i < len(lines) and re.match(r"^\s*\d+\.\s+", lines[i]):
                out.append(f"<p>{_inline(lines[i].strip())}</p>")
                i += 1
            continue
        if re.match(r"^\s*[-*]\s+", line):
            items: list[str] = []
            while i < len(lines) and re.match(r"^\s*[-*]\s+", lines[i]):
                items.append(re.sub(r"^\s*[-*]\s+", "", lines[i]))
                i += 1
            out.append(
                "<ul>" + "".join(f"<li>{_inline(t)}</li>" for t in items) + "</ul>"
            )
            continue
        para: list[str] = []
        while (
            i < len(lines)
            and lines[i].strip()
            and not re.match(r"^(#{1,6}\s|\s*\||\s*(?:[-*]|\d+\.)\s)", lines[i])
        ):
            para.append(lines[i].strip())
            i += 1
        out.append(f"<p>{_inline(' '.join(para))}</p>")
    return "\n".join(out)


def render_pdf(markdown: str, path: Path) -> None:
    """A4 pages; where a block does not fit one (MuPDF's Story cannot split a
    table row across pages and places it below the page's end, where nothing
    is drawn: until 7.12.2026 the rest of such a document was silently lost),
    every page is made as tall as the tallest block needs."""
    import pymupdf

    html_text = markdown_html(markdown)
    a4 = pymupdf.paper_rect("a4")
    height = a4.height
    for _ in range(4):
        _pages, tallest = _place_pages(pymupdf, html_text, a4.width, height, path)
        # a full page reports a little below its frame (a line's descent);
        # a block placed past the page's end reports far below it
        if tallest <= height - 56 + 30:
            return
        height = tallest + 56 + 30
    raise RuntimeError(f"{path.name}: a block taller than {height:.0f} pt")


def _place_pages(
    pymupdf: Any, html_text: str, width: float, height: float, path: Path
) -> tuple[int, float]:
    """Render at the page size; the lowest point any page's content reached."""
    story = pymupdf.Story(html=html_text)
    writer = pymupdf.DocumentWriter(str(path))
    mediabox = pymupdf.Rect(0, 0, width, height)
    where = mediabox + (56, 56, -56, -56)
    more, pages, tallest = 1, 0, 0.0
    while more:
        device = writer.begin_page(mediabox)
        more, filled = story.place(where)
        tallest = max(tallest, float(filled[3]))
        story.draw(device)
        writer.end_page()
        pages += 1
    writer.close()
    return pages, tallest


def _norm(text: str) -> str:
    """Whitespace collapsed, soft hyphens removed, the PDF's ligatures
    resolved (NFKC), as the gate's quote matcher reads a quote."""
    text = unicodedata.normalize("NFKC", text.replace("\u00ad", ""))
    # a hyphen at a line's end: "IKT-\nRisiko" and "Technik-\nund" read alike
    # on both sides (the truth writes "Technik- und" on one line)
    text = re.sub(r"(?<=\w)-\s+", "-", text)
    return re.sub(r"\s+", " ", text).strip()


def quotes_overlap(proposed: str, truth: str) -> bool:
    """The README's rule: one contains the other, or they share at least
    80 % of the truth's characters (as one common passage)."""
    a, b = _norm(proposed), _norm(truth)
    if not a or not b:
        return False
    if a in b or b in a:
        return True
    match = difflib.SequenceMatcher(None, a, b, autojunk=False).find_longest_match(
        0, len(a), 0, len(b)
    )
    return match.size >= 0.8 * len(b)


def dossier_proposals(
    dossier: dict[str, Any], folder: Path, tmp: Path
) -> tuple[list[dict], int]:
    """The rules provider's element proposals for one dossier, each with the
    dossier's document id (D1 …) of the PDF it quotes; second: the calls the
    gate would refuse (unknown kind, invalid value, quote not in its chunk)."""
    from django.conf import settings

    from agents.domain.loop import Episode
    from agents.domain.prompts import batches
    from agents.providers.rules import RulesProvider
    from evidence.domain.quotes import quote_span
    from ontology.domain.vocabulary import fact_value_validate

    files: list[str] = []
    doc_of_file: dict[str, str] = {}
    for document in dossier["documents"]:
        # The PDF is named after its document id only: the title and kind
        # are benchmark metadata the pipeline must not see.
        pdf = f"{document['doc']}.pdf"
        render_pdf((folder / document["file"]).read_text(encoding="utf-8"), tmp / pdf)
        files.append(pdf)
        doc_of_file[pdf] = document["doc"]
    chunks, _where = _extraction.case_chunks(tmp, files)
    file_of_chunk = {c.chunk_id: c.document for c in chunks}
    text_of_chunk = {c.chunk_id: c.text for c in chunks}
    refused = 0
    claim_types = tuple(CLAIM_TYPE_OF_REGIME[r] for r in dossier["regimes"])
    provider = RulesProvider()
    proposals: list[dict[str, Any]] = []
    for batch in batches(chunks, max_chars=int(settings.BELEGT_AGENT_BATCH_CHARS)):
        episode = Episode(
            messages=[{"role": "user", "content": ""}],
            chunks=batch,
            claim_types=claim_types,
        )
        turn = provider.next_turn(episode=episode, messages=episode.messages)
        for call in turn.calls:
            if call.name != "propose_case_fact":
                continue
            args = json.loads(call.arguments)
            # The gate's own checks without the database: the quote is in its
            # chunk, the fact type is known and the value admitted.
            try:
                fact_value_validate(fact_type=args["fact_type"], value=args["value"])
            except ValueError:
                refused += 1
                continue
            if (
                quote_span(text_of_chunk[args["source_chunk_id"]], args["quote"])
                is None
            ):
                refused += 1
                continue
            value = dict(args["value"])
            doc = doc_of_file[file_of_chunk[args["source_chunk_id"]]]
            if "doc" in value:
                value["doc"] = doc
            proposals.append(
                {
                    "key": args["fact_type"],
                    "quote": args["quote"],
                    "doc": doc,
                    "value": value,
                }
            )
    return proposals, refused


# shape fields of element values a reviewer checks (ground-truth README)
SHAPE_FIELDS = (
    "retention_months", "last_review", "submitted_at", "deadline", "entries",
    "missing_arrangements", "delegated_to_independent_third_party",
)  # fmt: skip


# A ground truth's ``alt_quotes`` are other passages that evidence the same
# element just as well (the board minutes and the incident file both state
# the submission time): a careful reviewer accepts a proposal of either.
# ``--no-alt-quotes`` credits the main quote only.
CREDIT_ALT_QUOTES = True
# The one subject of an obligation is unnamed in the evaluator's verdict and
# may be named in a ground truth: they are the same (``--strict-subjects``:
# only the same name matches).
SUBJECT_CONVENTION = True


def _truth_match(proposal: dict, truth: dict) -> bool:
    if proposal["key"] != truth["key"] or not truth.get("quote"):
        return False
    passages = [{"doc": truth.get("doc"), "quote": truth["quote"]}]
    if CREDIT_ALT_QUOTES:
        passages += [
            {"doc": alt.get("doc", truth.get("doc")), "quote": alt["quote"]}
            for alt in truth.get("alt_quotes", [])
            if alt.get("quote")
        ]
    return any(
        proposal["doc"] == passage["doc"]
        and quotes_overlap(proposal["quote"], passage["quote"])
        for passage in passages
    )


def score_dossier(truth: dict, proposals: list[dict]) -> dict[str, Any]:
    from ontology.domain.compliance_catalogue import element_index
    from ontology.domain.compliance_facts import ComplianceFact, ComplianceInput

    index = element_index()
    quoted = [e for e in truth["elements"] if e.get("quote")]
    found = [e for e in quoted if any(_truth_match(p, e) for p in proposals)]
    # A derived element (no fact of its own, ELEMENTS.md §3: the register's
    # CIF column) cannot be proposed: it is evidenced where the fact it is
    # derived from is (the register), and counts as found with it.
    for element in quoted:
        definition = index.get(element["key"])
        if definition is None or definition[1].fact_type is not None:
            continue
        source_shape = definition[1].shape.removeprefix("derived:")
        if element not in found and any(
            index[e["key"]][1].shape == source_shape for e in found if e["key"] in index
        ):
            found.append(element)
    # A passage the truth quotes without a state and judges open (an action
    # item "to notify the authority", a reference to a report not in the
    # file) shows where the element is talked about, not that it is met: the
    # reviewer rejects a proposal of it.
    shown = [
        e
        for e in quoted
        if e.get("state") is not None or e.get("expected_status") != "offen"
    ]
    accepted = [p for p in proposals if any(_truth_match(p, e) for e in shown)]
    distractor_hits = [
        p
        for p in proposals
        for d in truth["distractors"]
        if p["doc"] == d["doc"] and quotes_overlap(p["quote"], d["quote"])
    ]
    facts = [
        ComplianceFact(ref=f"c{i}", key=c["key"], value=c["value"], status="confirmed")
        for i, c in enumerate(truth["context"])
    ]
    # The reviewer accepts a matching proposal as the truth says it: a wrong
    # state (present where the passage contradicts) or shape field is
    # corrected, and counted, as a careful reviewer would.
    corrected: list[str] = []
    for i, p in enumerate(accepted):
        matches = [e for e in shown if _truth_match(p, e)]
        want = matches[0]
        value = dict(p["value"])
        fixes = {
            k: want[k]
            for k in ("state", *SHAPE_FIELDS)
            if want.get(k) is not None and value.get(k) != want[k]
        }
        # several contracts of one obligation (Art. 28(3) per processor, Art. 30
        # DORA per provider): a clause the truth gives to one of them only is
        # tied to it; one it gives to several (a framework contract's general
        # part) stays without a subject and counts for each by its document
        named = {e.get("subject") for e in quoted if e["key"] == p["key"]} - {None}
        # several AI systems: the truth judges the element's obligation for
        # each, and the reviewer ties the passage to the system it describes
        owner = index[p["key"]][0].key if p["key"] in index else None
        judged_for = {
            o.get("subject") for o in truth["obligations"] if o["key"] == owner
        } - {None}
        subjects = {e.get("subject") for e in matches}
        several = len(named) > 1 or len(judged_for) > 1
        if several and len(subjects) == 1 and None not in subjects:
            fixes["subject"] = subjects.pop()
        # the register's CIF column: the truth states it as the derived
        # element's status; the reviewer sets the flag accordingly
        cif = next(
            (
                e
                for e in truth["elements"]
                if e["key"] == "dora_28_3_cif_distinguished"
                and e.get("expected_status") in ("erfuellt", "nicht_erfuellt")
            ),
            None,
        )
        if p["key"] == "dora_28_3_register_maintained" and cif is not None:
            flag = cif["expected_status"] == "erfuellt"
            if value.get("distinguishes_cif") != flag:
                fixes["distinguishes_cif"] = flag
        if fixes:
            corrected.append(f"{truth['dossier']}/{p['key']}: {sorted(fixes)}")
            value.update(fixes)
        facts.append(
            ComplianceFact(ref=f"p{i}", key=p["key"], value=value, status="confirmed")
        )
    regimes = tuple(sorted({e["key"].split("_", 1)[0] for e in truth["elements"]}))
    result = compliance_evaluate(
        ComplianceInput(
            valid_at=truth["valid_at"],
            facts=tuple(facts),
            four_eyes=bool(truth.get("four_eyes")),
            regimes=regimes,
        )
    )
    # A verdict without a subject is that of the obligation's only subject
    # (ELEMENTS.md §3: a fact without a subject belongs to the only subject;
    # the evaluator names subjects only where there are several), so a truth
    # that names the one processor meets it (SUBJECT_CONVENTION).
    judged: dict[str, list[Any]] = {}
    for o in result.obligations:
        judged.setdefault(o.key, []).append(o)

    def same_subject(o: Any, subject: str | None) -> bool:
        if o.subject == subject:
            return True
        if not SUBJECT_CONVENTION:
            return False
        if o.subject is None:
            return len(judged[o.key]) == 1
        # and the other way round: a truth without a subject is that of the
        # only subject the obligation applies to (Art. 30(3) DORA for the one
        # contract supporting a critical function, among several contracts)
        applicable = [v for v in judged[o.key] if v.applicable is not False]
        return subject is None and applicable == [o]

    elements_right = 0
    wrong: list[str] = []
    for want in truth["elements"]:
        mine = next(
            (
                e
                for o in result.obligations
                if same_subject(o, want.get("subject"))
                for e in o.elements
                if e.key == want["key"]
            ),
            None,
        )
        if want.get("applicable") is False:
            ok = mine is not None and mine.applicable is False
        else:
            ok = mine is not None and mine.code == want["expected_status"]
        elements_right += ok
        if not ok:
            wrong.append(
                f"{truth['dossier']}/{want['key']}: "
                f"{mine.code if mine else None} != {want['expected_status']}"
            )
    obligations_right = 0
    wrongly: list[str] = []
    for want in truth["obligations"]:
        verdict = next(
            (
                o
                for o in result.obligations
                if o.key == want["key"] and same_subject(o, want.get("subject"))
            ),
            None,
        )
        code = verdict.code if verdict else None
        if want.get("applicable") is False:
            obligations_right += verdict is not None and verdict.applicable is False
        else:
            obligations_right += code == want["status"]
        if code == "erfuellt" and want["status"] != "erfuellt":
            wrongly.append(f"{truth['dossier']}/{want['key']}")
    # Evidence recall counts the passages that evidence (or show missing) an
    # element; proposing one the truth marks as no evidence is counted apart.
    return {
        "quoted": len(shown),
        "found": sum(1 for e in shown if e in found),
        "missed": [f"{truth['dossier']}/{e['key']}" for e in shown if e not in found],
        "not_evidence_proposed": [
            f"{truth['dossier']}/{e['key']}"
            for e in quoted
            if e not in shown and e in found
        ],
        "elements": len(truth["elements"]),
        "elements_right": elements_right,
        "obligations": len(truth["obligations"]),
        "obligations_right": obligations_right,
        "wrongly_erfuellt": wrongly,
        "distractor_proposals": [
            f"{truth['dossier']}/{p['key']}: {p['quote'][:70]}" for p in distractor_hits
        ],
        "proposals": len(proposals),
        "accepted": len(accepted),
        "state_corrected": corrected,
        "wrong": wrong,
        "rejected": [
            f"{truth['dossier']}/{p['doc']}/{p['key']}: "
            + " ".join(p["quote"].split())[:90]
            for p in proposals
            if p not in accepted
        ],
    }


def same_set_sources(dossier_id: str) -> frozenset[str]:
    """The dossiers of ``dossier_id``'s blind set (itself included): their
    quotes are left out of the element examples while it is scored."""
    from ontology.domain.compliance_catalogue import element_examples

    own = _export.dossier_set(dossier_id)
    return frozenset(
        {dossier_id} | {e.source for e in element_examples() if e.set == own}
    )


FOLDS = CORPUS / "matcher_folds.json"


def fold_models(dossier_id: str) -> dict[str, Any] | None:
    """The matcher weights fitted without ``dossier_id``'s set
    (compliance_train.py), or None: a set never trained on (a blind holdout)
    is scored with the shipped weights."""
    from agents.extraction.compliance_semantic import MatcherModel

    if not FOLDS.exists():
        return None
    folds = json.loads(FOLDS.read_text(encoding="utf-8"))["folds"]
    fold = folds.get(str(_export.dossier_set(dossier_id)))
    if fold is None:
        return None
    model = MatcherModel.from_json(fold)
    return {model.embedder: model}


def score_dossiers(ids: list[str]) -> dict[str, Any]:
    from agents.extraction.compliance_semantic import evaluation_fold

    totals: dict[str, Any] = {
        "dossiers": ids,
        "quoted": 0,
        "found": 0,
        "elements": 0,
        "elements_right": 0,
        "obligations": 0,
        "obligations_right": 0,
        "proposals": 0,
        "gate_refused": 0,
        "accepted": 0,
        "wrongly_erfuellt": [],
        "distractor_proposals": [],
        "missed": [],
        "not_evidence_proposed": [],
        "wrong": [],
        "state_corrected": [],
        "rejected": [],
    }
    with tempfile.TemporaryDirectory() as tmp_root:
        for dossier_id in ids:
            folder = CORPUS / "dossiers" / dossier_id
            dossier = json.loads((folder / "dossier.json").read_text(encoding="utf-8"))
            truth = json.loads(
                (CORPUS / "ground_truth" / f"{dossier_id}.json").read_text(
                    encoding="utf-8"
                )
            )
            tmp = Path(tmp_root) / dossier_id
            tmp.mkdir()
            # never against the examples of its own set (export_examples.py)
            with evaluation_fold(same_set_sources(dossier_id), fold_models(dossier_id)):
                proposals, refused = dossier_proposals(dossier, folder, tmp)
            part = score_dossier(truth, proposals)
            part["gate_refused"] = refused
            for key, value in part.items():
                totals[key] = totals[key] + value
    totals["evidence_recall"] = (
        round(totals["found"] / totals["quoted"], 3) if totals["quoted"] else None
    )
    totals["element_status_accuracy"] = (
        round(totals["elements_right"] / totals["elements"], 3)
        if totals["elements"]
        else None
    )
    # Proposal precision: proposals a perfect reviewer accepts (they match a
    # ground-truth element) over all proposals - a flood of wrong proposals
    # costs the reviewer even when recall is high.
    totals["proposal_precision"] = (
        round(totals["accepted"] / totals["proposals"], 3)
        if totals["proposals"]
        else None
    )
    totals["obligation_status_accuracy"] = (
        round(totals["obligations_right"] / totals["obligations"], 3)
        if totals["obligations"]
        else None
    )
    return totals


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--part",
        choices=("tuned", "holdout", "all"),
        default="all",
        help="which dossiers to run (the holdout only once the rules are final)",
    )
    parser.add_argument(
        "--dossiers",
        help="only these dossiers, comma-separated (e.g. K8,K9,K10), as one part",
    )
    parser.add_argument(
        "--no-alt-quotes",
        action="store_true",
        help="credit a proposal only where it matches an element's main quote",
    )
    parser.add_argument(
        "--strict-subjects",
        action="store_true",
        help="subjects by name only: no unnamed verdict or truth stands for the "
        "only (applicable) subject",
    )
    args = parser.parse_args()
    global CREDIT_ALT_QUOTES, SUBJECT_CONVENTION
    CREDIT_ALT_QUOTES = not args.no_alt_quotes
    SUBJECT_CONVENTION = not args.strict_subjects
    paths = sorted(SCENARIOS.glob("C*.json"))
    holdout = [
        p for p in paths if json.loads(p.read_text(encoding="utf-8")).get("holdout")
    ]
    tuned = [p for p in paths if p not in holdout]
    figures: dict[str, Any] = {"tuned": score(tuned), "holdout": score(holdout)}
    for part in ("tuned", "holdout"):
        f = figures[part]
        sys.stdout.write(
            f"{part:8} scenarios {f['scenarios']:3}  elements {f['elements']:4}  "
            f"element-status accuracy {f['element_status_accuracy']}  "
            f"obligation-status accuracy {f['obligation_status_accuracy']}  "
            f"wrongly erfuellt {len(f['obligations_wrongly_erfuellt'])}\n"
        )
        for line in f["wrong"]:
            sys.stdout.write(f"    {line}\n")
    _extraction._django_setup()
    all_ids = sorted(p.name for p in (CORPUS / "dossiers").iterdir() if p.is_dir())
    holdout_ids = [
        i
        for i in all_ids
        if json.loads((CORPUS / "dossiers" / i / "dossier.json").read_text()).get(
            "holdout"
        )
    ]
    parts = {
        "tuned": [i for i in all_ids if i not in holdout_ids],
        "holdout": holdout_ids,
    }
    if args.dossiers:
        chosen = [i.strip() for i in args.dossiers.split(",") if i.strip()]
        unknown = [i for i in chosen if i not in all_ids]
        if unknown:
            parser.error(f"unknown dossiers: {', '.join(unknown)}")
        parts = {"chosen": chosen}
        args.part = "all"
    for part, ids in parts.items():
        if args.part not in ("all", part):
            continue
        d = score_dossiers(ids)
        figures[f"dossiers_{part}"] = d
        sys.stdout.write(
            f"dossiers {part:8} {','.join(ids)}: "
            f"evidence recall {d['evidence_recall']} "
            f"({d['found']}/{d['quoted']})  element-status accuracy "
            f"{d['element_status_accuracy']} ({d['elements_right']}/{d['elements']})  "
            f"obligation-status accuracy {d['obligation_status_accuracy']}  "
            f"wrongly erfuellt {len(d['wrongly_erfuellt'])}  distractor proposals "
            f"{len(d['distractor_proposals'])}  no-evidence passages proposed "
            f"{len(d['not_evidence_proposed'])}  proposal precision "
            f"{d['proposal_precision']}  proposals {d['proposals']} "
            f"(accepted {d['accepted']}, refused by the gate {d['gate_refused']})  "
            f"state corrected by the reviewer {len(d['state_corrected'])}\n"
        )
        for label in (
            "wrongly_erfuellt",
            "distractor_proposals",
            "missed",
            "not_evidence_proposed",
            "wrong",
            "state_corrected",
            "rejected",
        ):
            for line in d[label]:
                sys.stdout.write(f"    {label}: {line}\n")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
