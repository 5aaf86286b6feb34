"""The rules provider on a realistic case file: invoice, reminder across a
page break, tracking printout, refusal, lawyer's costs — ingested through the
real pipeline, proposed through the gate."""

from __future__ import annotations

import time

import pytest

from agents.selectors import proposal_summary, proposals_of_run
from agents.services import extraction_run_start

pytestmark = pytest.mark.django_db


def test_ingest_timing(ingested_case, lawyer):  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    run = extraction_run_start(
        case=ingested_case, actor=lawyer, provider="rules", run_async=False
    )
    print(
        "run",
        time.perf_counter() - started,
        run.status,
        run.reason,
        run.steps,
        run.rejections_by_code,
    )
    for p in proposals_of_run(run=run):
        print(proposal_summary(p))
