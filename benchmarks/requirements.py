"""Benchmark: Verzugsschaden evaluation for cases of 1,000 and 10,000 facts
(targets: ≤ 100 ms and ≤ 1 s, issue 12 § 6).

Run: .venv/bin/python benchmarks/requirements.py [--repeat 3]

Each case cycles through every Verzugsschaden fact type of the vocabulary with
statuses asserted / disputed / evidenced / confirmed in equal shares; each
value is the schema's own example with random dates, read through the one
value schema. Reported per size: the best of ``--repeat`` runs of the full
``claim_evaluate`` (rules, damage, sentences), with four-eyes off and on (on
decides every requirement twice).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ontology.domain.evaluate import claim_evaluate
from ontology.domain.facts import ClaimContext, FactRecord
from ontology.vocabulary import fact_types_all

STATUSES = ("asserted", "disputed", "evidenced", "confirmed")
SIZES = (1_000, 10_000)
TARGETS = {1_000: 0.1, 10_000: 1.0}


def _value(
    example: Any, rng: random.Random, choices: dict[str, tuple[str, ...]]
) -> Any:
    start = date(2024, 1, 1)
    if example == "YYYY-MM-DD":
        return (start + timedelta(days=rng.randrange(700))).isoformat()
    if isinstance(example, dict):
        return {
            k: rng.choice(choices[k]) if k in choices else _value(v, rng, {})
            for k, v in example.items()
        }
    return example


def case_facts(n: int, seed: int = 7) -> list[FactRecord]:
    rng = random.Random(seed)
    types = sorted(
        (t for t in fact_types_all().values() if "verzugsschaden" in t.claim_types),
        key=lambda t: t.key,
    )
    facts = []
    for i in range(n):
        info = types[i % len(types)]
        schema = info.value_schema
        choices = {f.key: f.choices for f in info.record_fields if f.choices}
        raw = _value(schema.example(), rng, choices)
        facts.append(
            FactRecord(
                id=i + 1,
                fact_type=info.key,
                status=STATUSES[rng.randrange(4)],  # type: ignore[arg-type]
                value=schema.read(raw),
            )
        )
    return facts


def best_of(repeat: int, facts: list[FactRecord], four_eyes: bool) -> float:
    context = ClaimContext(
        claim_type="verzugsschaden",
        valid_at=date(2025, 12, 31),
        debtor_kind="business",
        creditor_kind="business",
        four_eyes=four_eyes,
    )
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        claim_evaluate(facts=facts, context=context)
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    case_facts(10)  # warm the vocabulary and claim caches
    best_of(1, case_facts(10), False)
    for n in SIZES:
        facts = case_facts(n)
        off = best_of(args.repeat, facts, False)
        on = best_of(args.repeat, facts, True)
        verdict = "ok" if max(off, on) <= TARGETS[n] else "OVER TARGET"
        print(
            f"{n:>6} facts: {off * 1000:7.1f} ms (four-eyes off), "
            f"{on * 1000:7.1f} ms (on); target {TARGETS[n] * 1000:.0f} ms: {verdict}"
        )


if __name__ == "__main__":
    main()
