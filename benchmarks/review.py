"""Review queue benchmark: time to the next item with 10,000 proposals pending.

What it measures, in one process, on a throwaway database ``bench_review``
with the real migrations and indexes:

1. ``next item`` — the selector the UI and API call after each decision
   (``proposal_queue(..., after_id=current, limit=1)``), firm-wide and per
   case, at the start, middle and end of the queue, with and without filters.
   Baseline in the same run: the same query on a queue of 100 proposals, and
   OFFSET paging at the same position (what keyset paging avoids).
2. ``decide → next`` — the whole htmx request a reviewer makes by pressing
   ``a``: POST accept, the fact, decision and audit event written, and the next
   item rendered with its highlighted page (image bytes are a separate
   request, not counted). 100 consecutive decisions = clearing a queue of 100.
3. ``queue page`` — the first page of the firm-wide queue (50 rows + the item).

Data: firm A with 20 cases, 10,000 pending and 10,000 decided proposals; firm
B with another 10,000 pending (tenancy filtering must not cost). Rows are
bulk-inserted (the services' audit writes are not what is measured here).

Run: ``.venv/bin/python benchmarks/review.py [--pending 10000] [--json out]``.
Timings swing on a shared 2-core machine: read the ratios.

Measured 2026-11-29 (2 shared cores, other suites running):
next item p50 2.0–4.4 ms with 10,000 pending (firm-wide, per case, filtered)
vs 2.0–3.8 ms with 100 (ratio 0.93); OFFSET at the middle 8.8 ms (3.7× keyset);
decide + next item (whole htmx request) p50 43 ms, p95 61 ms with 10,000
pending vs p50 51 ms with 100; 100 decisions 4.7 s server time; item partial
(j/k) p50 30 ms; queue page p50 69 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def timed(fn: Callable[[], Any], repeat: int) -> dict[str, float]:
    """p50/p95/max in milliseconds over ``repeat`` calls (after one warm-up)."""
    fn()
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000)
    ordered = sorted(samples)
    return {
        "p50_ms": round(statistics.median(ordered), 3),
        "p95_ms": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 3),
        "max_ms": round(ordered[-1], 3),
    }


def setup_database(keep: bool) -> Any:
    from django.db import connection

    connection.settings_dict["TEST"]["NAME"] = "bench_review"
    t0 = time.perf_counter()
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=keep)
    print(f"database bench_review ready in {time.perf_counter() - t0:.1f}s")
    return connection


def _firm(name: str, cases: int) -> tuple[Any, Any, list[Any], list[Any]]:
    from django.contrib.auth import get_user_model

    from cases.models import Case, Membership, Organisation
    from tests.review.helpers import make_chunk

    firm = Organisation.objects.create(name=name, slug=name.lower().replace(" ", "-"))
    user = get_user_model().objects.create_user(f"reviewer-{firm.slug}", password="x")
    Membership.objects.create(user=user, organisation=firm, role="reviewer")
    case_rows = [
        Case.objects.create(
            organisation=firm, reference=f"{i} O {i}/26", title=f"Fall {i}", client="M"
        )
        for i in range(cases)
    ]
    chunks = [make_chunk(case) for case in case_rows for _ in range(5)]
    return firm, user, case_rows, chunks


FACT_TYPES = [
    ("reminder_sent", {"date": "2026-05-05"}),
    ("due_date", {"date": "2026-04-26"}),
    ("claim_amount", {"cents": 425000, "currency": "EUR"}),
    ("delivery_evidence", {"text": "Rückschein"}),
    ("damage_item", {"cents": 4000, "currency": "EUR"}),
]


def load(chunks: list[Any], *, pending: int, decided: int, prefix: str) -> None:
    """Bulk-insert proposals spread over the chunks (and so the cases)."""
    from review.models import ExtractionProposal

    rows = []
    for i in range(pending + decided):
        chunk = chunks[i % len(chunks)]
        fact_type, value = FACT_TYPES[i % len(FACT_TYPES)]
        rows.append(
            ExtractionProposal(
                case_id=chunk.case_id,
                fact_type=fact_type,
                value=value,
                source_chunk=chunk,
                quote="Zahlungserinnerung vom 05.05.2026",
                confidence=((i * 37) % 100) / 100,
                status="pending" if i % 2 == 0 or decided == 0 else "rejected",
                agent_run_id=i // 50,
                agent_step_id=i,
                model_id="rules:bench",
                call_id=f"{prefix}-{i}",
            )
        )
        if len(rows) == 5000:
            ExtractionProposal.objects.bulk_create(rows)
            rows = []
    ExtractionProposal.objects.bulk_create(rows)


def bench_next_item(user: Any, cases: list[Any], label: str) -> dict[str, Any]:
    from django.db import connection

    from review.models import ExtractionProposal
    from review.selectors import QueueFilters, proposal_queue

    ids = list(
        ExtractionProposal.objects.filter(case__in=cases, status="pending")
        .order_by("id")
        .values_list("id", flat=True)
    )
    if not ids:
        return {}
    positions = {"start": ids[0], "middle": ids[len(ids) // 2], "end": ids[-2]}
    any_case = QueueFilters()
    one_case = QueueFilters(case_id=cases[len(cases) // 2].pk)
    filtered = QueueFilters(fact_type="claim_amount", min_confidence=0.5)
    out: dict[str, Any] = {"pending": len(ids)}
    for name, after in positions.items():
        for fname, filters in (
            ("firm", any_case),
            ("case", one_case),
            ("type+conf", filtered),
        ):
            out[f"{name}/{fname}"] = timed(
                lambda f=filters, a=after: proposal_queue(
                    user=user, filters=f, after_id=a, limit=1
                ),
                repeat=50,
            )
    # OFFSET paging at the middle, for comparison with keyset.
    offset = len(ids) // 2

    def by_offset() -> None:
        list(
            ExtractionProposal.objects.filter(
                case__organisation_id=cases[0].organisation_id, status="pending"
            ).order_by("id")[offset : offset + 1]
        )

    out["middle/firm OFFSET"] = timed(by_offset, repeat=50)
    with connection.cursor() as cursor:
        queryset = ExtractionProposal.objects.filter(
            case__organisation_id=cases[0].organisation_id,
            status="pending",
            id__gt=positions["middle"],
        ).order_by("id")[:1]
        sql, params = queryset.query.sql_with_params()
        cursor.execute(f"EXPLAIN {sql}", params)
        out["plan"] = [row[0] for row in cursor.fetchall()][:6]
    print(f"[{label}]")
    for key, value in out.items():
        print(f"  {key}: {value}")
    return out


def bench_decide(user: Any, rounds: int) -> dict[str, Any]:
    from django.test import Client
    from django.urls import reverse

    from review.models import ExtractionProposal

    client = Client()
    client.force_login(user)
    first = (
        ExtractionProposal.objects.filter(
            status="pending", case__organisation__memberships__user=user
        )
        .order_by("id")
        .first()
    )
    assert first is not None
    current = first.pk
    samples = []
    for _ in range(rounds):
        url = reverse("review:proposal_decide", kwargs={"proposal_id": current})
        t0 = time.perf_counter()
        response = client.post(
            url, {"action": "accept", "filters": ""}, HTTP_HX_REQUEST="true"
        )
        samples.append((time.perf_counter() - t0) * 1000)
        assert response.status_code == 200, response.content[:500]
        body = response.content.decode()
        marker = 'data-proposal-id="'
        start = body.index(marker) + len(marker)
        current = int(body[start : body.index('"', start)])
    ordered = sorted(samples)
    page = timed(lambda: client.get(reverse("review:queue")), repeat=20)
    detail = timed(
        lambda: client.get(
            reverse("review:proposal_detail", kwargs={"proposal_id": current}),
            HTTP_HX_REQUEST="true",
        ),
        repeat=50,
    )
    result = {
        "decisions": rounds,
        "decide+next p50_ms": round(statistics.median(ordered), 2),
        "decide+next p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 2),
        "decide+next max_ms": round(ordered[-1], 2),
        "total_s": round(sum(ordered) / 1000, 2),
        "queue page (50 rows + item)": page,
        "item partial (j/k)": detail,
    }
    for key, value in result.items():
        print(f"  {key}: {value}")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pending", type=int, default=10_000)
    parser.add_argument("--decisions", type=int, default=100)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    # Test settings: plain static storage (no manifest needed to render pages).
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only")
    import django

    from config.embedded_db import local_environment_prepare

    local_environment_prepare()  # the embedded PostgreSQL unless DATABASE_URL
    django.setup()
    from django.test.utils import setup_test_environment

    setup_test_environment()
    connection = setup_database(args.keep)
    figures: dict[str, Any] = {}
    try:
        t0 = time.perf_counter()
        _, small_user, small_cases, small_chunks = _firm("Kanzlei Klein", 2)
        load(small_chunks, pending=100, decided=0, prefix="small")
        _, user, cases, chunks = _firm("Kanzlei Gross", 20)
        load(chunks, pending=args.pending * 2, decided=0, prefix="a")
        # half of firm A's rows decided: 10,000 pending + 10,000 history
        from review.models import ExtractionProposal

        ExtractionProposal.objects.filter(
            case__in=cases, agent_step_id__in=range(1, args.pending * 2, 2)
        ).update(status="rejected")
        _, _, _, other_chunks = _firm("Kanzlei Fremd", 20)
        load(other_chunks, pending=args.pending, decided=0, prefix="b")
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        print(f"data loaded in {time.perf_counter() - t0:.1f}s")
        figures["baseline_100"] = bench_next_item(
            small_user, small_cases, "queue of 100"
        )
        figures["queue_10000"] = bench_next_item(user, cases, "queue of 10,000")
        base = figures["baseline_100"]["middle/firm"]["p50_ms"]
        big = figures["queue_10000"]["middle/firm"]["p50_ms"]
        offset = figures["queue_10000"]["middle/firm OFFSET"]["p50_ms"]
        print(f"  ratio next item 10,000 / 100: {big / base:.2f}")
        print(f"  ratio OFFSET / keyset at the middle: {offset / big:.2f}")
        print(f"[decide → next item, {args.decisions} decisions, 10,000 pending]")
        figures["decide"] = bench_decide(user, args.decisions)
        print("[decide → next item, queue of 100]")
        figures["decide_baseline_100"] = bench_decide(small_user, 50)
    finally:
        if not args.keep:
            connection.creation.destroy_test_db(
                connection.settings_dict["NAME"], verbosity=0
            )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=2, default=str))


if __name__ == "__main__":
    main()
