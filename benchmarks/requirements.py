"""Benchmark: requirement evaluation for cases of 100, 1,000 and 10,000 facts.

Run: .venv/bin/python benchmarks/requirements.py [--repeat 3]

Each case mixes every fact type of the vocabulary (Verzugsschaden and the
compliance checklists) with statuses asserted / disputed / evidenced / confirmed
in equal shares, so the Verzugsschaden subgraph holds ~40 % of the facts and
e.g. ~25 due dates and ~25 reminders per 1,000 facts (a deliberately heavy
mix: real cases have a handful of each). Reported per size: the best of
``--repeat`` runs of the full ``claim_evaluate`` (graph, inference, SHACL,
sentences) and of its two main parts, and the growth against the 100-fact
baseline measured in the same process. Timings on shared machines swing; compare
the ratios.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pyshacl import validate as shacl_validate

from ontology.domain.claims import claim_version_get
from ontology.domain.evaluate import claim_evaluate
from ontology.domain.facts import ClaimContext, FactRecord
from ontology.domain.graph import claim_data_graph
from ontology.vocabulary import fact_types_all

STATUSES = ("asserted", "disputed", "evidenced", "confirmed")
SIZES = (100, 1_000, 10_000)


def case_facts(n: int, seed: int = 7) -> list[FactRecord]:
    rng = random.Random(seed)
    types = sorted(fact_types_all().values(), key=lambda t: t.key)
    start = date(2024, 1, 1)
    facts = []
    for i in range(n):
        info = types[i % len(types)]
        if info.value_kind == "date":
            value: object = (start + timedelta(days=rng.randrange(365))).isoformat()
        elif info.value_kind == "amount":
            value = {"cents": rng.randrange(1, 10_000_000), "currency": "EUR"}
        elif info.value_kind == "boolean":
            value = rng.random() < 0.5
        elif info.record_fields:  # record kinds (e.g. compliance elements)
            value = {
                f.key: (start + timedelta(days=rng.randrange(365))).isoformat()
                if f.kind == "date"
                else rng.random() < 0.5
                if f.kind == "boolean"
                else (f.choices[0] if f.choices else f"Nachweis {i}")
                for f in info.record_fields
            }
        elif info.key == "delivery_evidence":
            value = rng.choice(["Rückschein", "Einwurf-Einschreiben", "Fax"])
        else:
            value = f"Nachweis {i}"
        facts.append(
            FactRecord.model_validate(
                {
                    "id": i + 1,
                    "fact_type": info.key,
                    "status": STATUSES[rng.randrange(4)],
                    "value": value,
                }
            )
        )
    return facts


def best_of(repeat: int, fn: object) -> float:
    assert callable(fn)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    context = ClaimContext(
        claim_type="verzugsschaden",
        valid_at=date(2024, 1, 1),
        debtor_kind="business",
        creditor_kind="business",
        interest_until=date(2025, 6, 30),
    )
    version, claim_file = claim_version_get("verzugsschaden", "DE", date(2024, 1, 1))
    claim_evaluate(facts=case_facts(50), context=context)  # warm caches
    rows = []
    for n in SIZES:
        facts = case_facts(n)
        relevant = [f for f in facts if f.fact_type in version.fact_types]
        total = best_of(
            args.repeat, lambda f=facts: claim_evaluate(facts=f, context=context)
        )
        graph_time = best_of(
            args.repeat,
            lambda r=relevant: claim_data_graph(
                facts=r, context=context, fact_types=version.fact_types
            ),
        )
        data = claim_data_graph(
            facts=relevant, context=context, fact_types=version.fact_types
        )
        triples = len(data)
        shacl_time = (
            best_of(
                args.repeat,
                lambda r=relevant: shacl_validate(
                    claim_data_graph(
                        facts=r, context=context, fact_types=version.fact_types
                    ),
                    shacl_graph=claim_file.graph,
                    inplace=True,
                ),
            )
            - graph_time
        )
        compliance = best_of(
            args.repeat,
            lambda f=facts: claim_evaluate(
                facts=f,
                context=context.model_copy(
                    update={"claim_type": "dora", "valid_at": date(2025, 6, 1)}
                ),
            ),
        )
        rows.append(
            (n, len(relevant), triples, total, graph_time, shacl_time, compliance)
        )
    base = rows[0][3]
    print(
        f"{'facts':>7} {'in claim':>8} {'triples':>8} {'evaluate':>9} "
        f"{'growth':>7} {'graph+inf':>9} {'shacl':>7} {'dora':>7}"
    )
    for n, rel, triples, total, graph_time, shacl_time, compliance in rows:
        print(
            f"{n:>7} {rel:>8} {triples:>8} {total * 1000:>7.0f}ms "
            f"{total / base:>6.1f}x {graph_time * 1000:>7.0f}ms "
            f"{shacl_time * 1000:>5.0f}ms {compliance * 1000:>5.0f}ms"
        )
    for (n1, *_r1, t1, _g1, _s1, _c1), (n2, *_r2, t2, _g2, _s2, _c2) in zip(
        rows, rows[1:], strict=False
    ):
        print(f"{n1:>6} -> {n2:>6} facts ({n2 // n1}x): time x{t2 / t1:.1f}")


if __name__ == "__main__":
    main()
