"""benchmarks/compliance.py credits a proposal that quotes an element's
main passage or, unless told not to, one of its ``alt_quotes`` (another
passage that evidences the element as well); never another element's."""

from __future__ import annotations

import importlib.util
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
