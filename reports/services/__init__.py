"""Services of the reports app (writes)."""

from reports.services.drafting import argument_draft
from reports.services.gates import GateTimings, findings_gate
from reports.services.lifecycle import (
    report_create,
    report_issue,
    reports_mark_stale_for_corpus_change,
)

__all__ = [
    "GateTimings",
    "argument_draft",
    "findings_gate",
    "report_create",
    "report_issue",
    "reports_mark_stale_for_corpus_change",
]
