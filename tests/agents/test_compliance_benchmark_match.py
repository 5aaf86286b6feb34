"""benchmarks/compliance.py credits a proposal that quotes an element's
main passage or, unless told not to, one of its ``alt_quotes`` (another
passage that evidences the element as well); never another element's."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location(
        "_compliance_benchmark", ROOT / "benchmarks" / "compliance.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TRUTH: dict[str, Any] = {
    "key": "dora_19_4_a_initial_notification",
    "doc": "D3",
    "quote": "Die Erstmeldung wurde um 12:40 Uhr an die BaFin übermittelt",
    "alt_quotes": [
        {
            "doc": "D2",
            "quote": "Der Vorstand stellt fest, dass die Erstmeldung erfolgte",
        }
    ],
}


def _proposal(doc, quote, key="dora_19_4_a_initial_notification"):
    return {"key": key, "doc": doc, "quote": quote}


def test_the_main_quote_and_an_alternative_passage_are_credited(bench, monkeypatch):
    monkeypatch.setattr(bench, "CREDIT_ALT_QUOTES", True)
    assert bench._truth_match(_proposal("D3", TRUTH["quote"]), TRUTH)
    assert bench._truth_match(_proposal("D2", TRUTH["alt_quotes"][0]["quote"]), TRUTH)
    # the alternative's words in another document, or under another key: no
    assert not bench._truth_match(
        _proposal("D3", TRUTH["alt_quotes"][0]["quote"]), TRUTH
    )
    assert not bench._truth_match(
        _proposal(
            "D2", TRUTH["alt_quotes"][0]["quote"], key="dora_19_4_b_intermediate_report"
        ),
        TRUTH,
    )


def test_without_alt_quotes_only_the_main_quote_counts(bench, monkeypatch):
    monkeypatch.setattr(bench, "CREDIT_ALT_QUOTES", False)
    assert bench._truth_match(_proposal("D3", TRUTH["quote"]), TRUTH)
    assert not bench._truth_match(
        _proposal("D2", TRUTH["alt_quotes"][0]["quote"]), TRUTH
    )


def test_recall_counts_evidence_passages_and_a_no_evidence_passage_apart(bench):
    """A passage the truth quotes without a state and judges open (K61: "the
    2026 results are recorded in test report TR-2026-07") is no evidence:
    proposing it is listed apart, never counted as found, and not proposing
    it is no miss."""
    truth = json.loads(
        (ROOT / "benchmarks/compliance_corpus/ground_truth/K61.json").read_text("utf-8")
    )
    quoted = [e for e in truth["elements"] if e.get("quote")]
    no_evidence = [
        e for e in quoted if e.get("state") is None and e["expected_status"] == "offen"
    ]
    assert no_evidence
    every = [
        {
            "key": e["key"],
            "doc": e["doc"],
            "quote": e["quote"],
            "value": {"state": "present"},
        }
        for e in quoted
    ]
    scored = bench.score_dossier(truth, every)
    assert scored["quoted"] == scored["found"] == len(quoted) - len(no_evidence)
    assert sorted(scored["not_evidence_proposed"]) == sorted(
        f"K61/{e['key']}" for e in no_evidence
    )
    evidence_only = [
        p for p, e in zip(every, quoted, strict=True) if e not in no_evidence
    ]
    scored = bench.score_dossier(truth, evidence_only)
    assert scored["missed"] == [] and scored["not_evidence_proposed"] == []
