"""Reports benchmark: one report with 200 findings, on a throwaway database
``bench_reports`` (real migrations, the pinned BGB and GDPR imported).

Measured, best of ``--repeat`` rounds:

- drafting (ontology evaluation + templates) for the case's claim;
- gate 1 (citations parsed from each finding's final text and resolved), with
  a baseline in the same process: one ``citations_check`` over all finding
  texts joined (the parser + resolver floor without per-finding overhead);
- gate 2 (the five deterministic refuters; no model);
- storing the report (findings, citations, verdicts, audit event);
- Word and Excel export of the stored report.

The 200 findings: the 4 template findings of a Verzugsschaden case repeated
with varied wording, plus 10 % with a citation that does not exist and 10 %
reading a GDPR recital as an obligation (so both gates have work to flag).

Run: ``.venv/bin/python benchmarks/reports.py [--findings 200] [--repeat 3]
[--keepdb]``. Shared 2-core machine: compare ratios within one run.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _setup(keep: bool) -> None:
    from django.db import connection

    connection.settings_dict["TEST"]["NAME"] = "bench_reports"
    t0 = time.perf_counter()
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=keep)
    from citations.corpus import corpus_dir_default
    from citations.services import corpus_import

    corpus_import(corpus_dir=corpus_dir_default(), only=["bgb", "gdpr"])
    print(f"database bench_reports ready in {time.perf_counter() - t0:.1f}s")


def _case() -> tuple[Any, Any, Any]:
    from django.contrib.auth import get_user_model

    from cases.models import Case, Membership, Organisation
    from tests.reports.helpers import verzug_case

    stamp = str(time.time_ns())[-8:]
    firm = Organisation.objects.create(name="Bench", slug=f"bench-{stamp}")
    user = get_user_model().objects.create(username=f"bench-{stamp}")
    Membership.objects.create(user=user, organisation=firm, role="lawyer")
    case = Case.objects.create(
        organisation=firm, reference=f"R {stamp}", title="Bench", client="Bench"
    )
    return case, user, verzug_case(case)


def _drafts(case: Any, claim: Any, n: int) -> list[Any]:
    from reports.services.drafting import rules_drafts
    from review.selectors import fact_records_for_case

    facts = fact_records_for_case(case=case)
    base, _ = rules_drafts(case=case, claims=[claim], language="de", facts=facts)
    drafts = []
    for i in range(n):
        d = base[i % len(base)]
        if i % 10 == 3:
            text = f"Nach § 286 Abs. {7 + i % 3} BGB ist der Schuldner in Verzug ({i})."
        elif i % 10 == 7:
            text = f"Nach Erwägungsgrund 47 DSGVO muss abgewogen werden ({i})."
        else:
            text = d.text + f" (Randnummer {i})"
        drafts.append(
            d.model_copy(
                update={"text": text, "requirement_key": f"{d.requirement_key}-{i}"}
            )
        )
    return drafts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--findings", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keepdb", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    from config.embedded_db import local_environment_prepare

    local_environment_prepare()  # the embedded PostgreSQL unless DATABASE_URL
    django.setup()
    _setup(args.keepdb)

    from citations.services import citations_check
    from evidence.models import Chunk
    from reports.exports import docx_render, xlsx_render
    from reports.selectors import report_document
    from reports.services.drafting import known_labels, rules_drafts
    from reports.services.gates import GateTimings, findings_gate
    from reports.services.lifecycle import report_create
    from review.models import Fact
    from review.selectors import fact_records_for_case

    case, user, claim = _case()
    best: dict[str, float] = {}

    def keep(name: str, seconds: float) -> None:
        best[name] = min(best.get(name, seconds), seconds)

    for _round in range(args.repeat):
        facts = fact_records_for_case(case=case)
        t0 = time.perf_counter()
        _base, evaluations = rules_drafts(
            case=case, claims=[claim], language="de", facts=facts
        )
        keep("drafting (evaluate + templates, 4 findings)", time.perf_counter() - t0)
        drafts = _drafts(case, claim, args.findings)

        joined = "\n".join(d.text for d in drafts)
        t0 = time.perf_counter()
        floor = citations_check(joined, at=claim.valid_at)
        keep("baseline: one citations_check over all texts", time.perf_counter() - t0)

        statuses = dict(Fact.objects.filter(case=case).values_list("pk", "status"))
        texts = dict(Chunk.objects.filter(case=case).values_list("pk", "text"))
        timings = GateTimings()
        gated = findings_gate(
            drafts=[(d, claim.valid_at) for d in drafts],
            fact_statuses=statuses,
            evidence_texts=texts,
            known_labels=known_labels(evaluations),
            use_model=False,
            timings=timings,
        )
        keep("gate 1: citations", timings.citations)
        keep("gate 2: refutation (deterministic)", timings.refutation)

        t0 = time.perf_counter()
        report = report_create(case=case, actor=user, drafts=drafts, language="de")
        keep("report_create (both gates + store)", time.perf_counter() - t0)

        t0 = time.perf_counter()
        document = report_document(report=report)
        keep("report_document (read back)", time.perf_counter() - t0)
        t0 = time.perf_counter()
        docx = docx_render(document)
        keep("export: Word (.docx)", time.perf_counter() - t0)
        t0 = time.perf_counter()
        xlsx = xlsx_render(document)
        keep("export: Excel (.xlsx)", time.perf_counter() - t0)

    printed = sum(1 for g in gated if g.printed)
    citations = sum(len(g.citations) for g in gated)
    print(
        f"{len(gated)} findings, {citations} citations ({len(floor)} in the joined "
        f"baseline), {printed} printed, {len(gated) - printed} flagged; "
        f"docx {len(docx) // 1024} KiB, xlsx {len(xlsx) // 1024} KiB"
    )
    base = best["baseline: one citations_check over all texts"]
    for name, seconds in best.items():
        per = seconds / args.findings * 1000
        print(
            f"{name:48s} {seconds * 1000:9.1f} ms  {per:7.2f} ms/finding"
            f"  x{seconds / base:6.2f} of baseline"
        )
    from django.db import connection

    if not args.keepdb:
        connection.creation.destroy_test_db("bench_reports", verbosity=0)


if __name__ == "__main__":
    main()
