"""Benchmark: the compliance element evaluator against the blind scenario suite.

Run: .venv/bin/python benchmarks/compliance.py [--json PATH]

For the tuned part and the holdout part of tests/ontology/scenarios/compliance
(``"holdout": true``, not looked at while the evaluator was built) it prints:
element-status accuracy (an element counts as right when its applicability and
status both match), obligation-status accuracy, and the number of obligations
the evaluator calls "erfüllt" where the scenario does not (the one error a
compliance officer must never see). Evidence recall from the dossiers of
benchmarks/compliance_corpus needs the rules provider's element proposals,
which are not built yet; it is reported as such, not estimated.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ontology.domain.compliance import compliance_evaluate  # noqa: E402
from ontology.domain.compliance_facts import compliance_input_from_json  # noqa: E402

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


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    paths = sorted(SCENARIOS.glob("C*.json"))
    holdout = [
        p for p in paths if json.loads(p.read_text(encoding="utf-8")).get("holdout")
    ]
    tuned = [p for p in paths if p not in holdout]
    figures: dict[str, Any] = {"tuned": score(tuned), "holdout": score(holdout)}
    figures["evidence_recall"] = "not measured: no element proposals from dossiers yet"
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
    sys.stdout.write(f"evidence recall: {figures['evidence_recall']}\n")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
