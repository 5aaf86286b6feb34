"""Write the element examples the compliance evidence matcher reads
(``ontology/data/compliance_examples.jsonl``) from the ground truth of the
*spent* dossiers of this corpus: every verbatim quote (and ``alt_quotes``) of
an element with a fact type, with the dossier and set it comes from.

Only sets listed in ``SPENT`` are exported: a blind holdout is added here only
after its one blind measurement, never before (benchmarks/README.md,
compliance). The benchmark leaves the examples of a dossier's own set out
when it scores that dossier, so that no dossier is measured against its own
quotes.

    python benchmarks/compliance_corpus/export_examples.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
OUT = ROOT / "ontology" / "data" / "compliance_examples.jsonl"

#: The sets whose blind measurement is done (0: K1, K3, K5, K7; 1: K2, K4,
#: K6; 2..19: the ``holdout_set`` of dossier.json; 9-19 were each run once,
#: blind, on the code of their day before they joined: benchmarks/
#: README.md, compliance). Set 20 stays out until its measurement.
SPENT = frozenset({*range(20)})
_FIRST_SETS = {"K1": 0, "K3": 0, "K5": 0, "K7": 0, "K2": 1, "K4": 1, "K6": 1}


def dossier_set(dossier: str) -> int:
    meta = json.loads((HERE / "dossiers" / dossier / "dossier.json").read_text("utf-8"))
    return int(meta.get("holdout_set") or _FIRST_SETS[dossier])


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from ontology.domain.compliance_catalogue import element_index

    index = element_index()
    rows: list[dict[str, object]] = []
    for path in sorted(
        HERE.glob("ground_truth/K*.json"), key=lambda p: int(p.stem[1:])
    ):
        truth = json.loads(path.read_text(encoding="utf-8"))
        dossier = truth["dossier"]
        number = dossier_set(dossier)
        if number not in SPENT:
            continue
        for element in truth["elements"]:
            found = index.get(element["key"])
            if found is None or found[1].fact_type is None:
                continue  # derived elements have no fact to propose
            quotes = [element.get("quote")] + [
                q.get("quote") for q in element.get("alt_quotes", [])
            ]
            for quote in quotes:
                if quote:
                    rows.append(
                        {
                            "key": element["key"],
                            "text": " ".join(quote.split()),
                            "source": dossier,
                            "set": number,
                        }
                    )
    OUT.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
        encoding="utf-8",
    )
    sys.stdout.write(f"{len(rows)} examples -> {OUT.relative_to(ROOT)}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
