"""Self-check of the compliance scenario files.

Standard library only; imports nothing from Belegt. Checks that every element and
obligation key is in ELEMENTS.md, that every fact ref named in an expectation exists,
that each obligation's status follows from its element statuses by the rule of
ELEMENTS.md §5, that violated/missing lists match, and reports the holdout share.

    python tests/ontology/scenarios/compliance/check_scenarios.py
"""

import json
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).parent
STATUSES = {"erfuellt", "nicht_erfuellt", "offen"}
NON_EVIDENCE = {"marketing_claim", "recital", "summary", "machine_instruction"}
DETERMINATION_PREFIXES = ("gdpr_35_", "aia_6_", "aia_25_")


def never_counts(fact: dict) -> bool:
    return fact["status"] == "asserted" or fact.get("source_kind") in NON_EVIDENCE


def out(line: str) -> None:
    sys.stdout.write(line + "\n")


def vocabulary():
    text = (HERE / "ELEMENTS.md").read_text(encoding="utf-8")
    elements, obligations = {}, set()
    current = None
    for line in text.splitlines():
        m = re.match(r"^### `([a-z0-9_]+)`", line)
        if m:
            current = m.group(1)
            obligations.add(current)
            continue
        m = re.match(r"^\| `([a-z0-9_]+)` \| ", line)
        if m and current:
            elements[m.group(1)] = current
    return elements, obligations


def main() -> int:
    elements, obligations = vocabulary()
    problems = []
    files = sorted(HERE.glob("C*.json"))
    holdouts = []
    for path in files:
        d = json.loads(path.read_text(encoding="utf-8"))
        sid = d["id"]
        if d.get("holdout"):
            holdouts.append(sid)
        refs = {f["ref"] for f in d["facts"]}
        for f in d["facts"]:
            k = f["key"]
            known = k in elements or "_ctx_" in k or "_doc_" in k
            if not (known or k.startswith(DETERMINATION_PREFIXES)):
                problems.append(f"{sid}: unknown fact key {k}")
            if f["status"] not in ("evidenced", "confirmed", "asserted"):
                problems.append(f"{sid}: bad status {f['status']}")
        exp = d["expected"]
        for ref in exp.get("ignored_facts", {}):
            fact = next((f for f in d["facts"] if f["ref"] == ref), None)
            if fact is None or not never_counts(fact):
                problems.append(f"{sid}: ignored fact {ref} would count")
        for det in exp.get("determinations", {}).values():
            for r in det.get("decisive", []):
                if r not in refs:
                    problems.append(f"{sid}: determination names unknown fact {r}")
        for o in exp["obligations"]:
            key = o["key"]
            if key not in obligations:
                problems.append(f"{sid}: unknown obligation {key}")
            if o["applicable"] is False:
                if o["status"] is not None:
                    problems.append(f"{sid}/{key}: not applicable but has a status")
                continue
            own = [k for k, v in elements.items() if v == key]
            if sorted(o["elements"]) != sorted(own):
                problems.append(f"{sid}/{key}: element list differs from ELEMENTS.md")
            sts = []
            for ek, e in o["elements"].items():
                if e["applicable"] is False:
                    continue
                if e["status"] not in STATUSES:
                    problems.append(f"{sid}/{ek}: bad status {e['status']}")
                for r in e.get("decisive", []):
                    if r not in refs:
                        problems.append(f"{sid}/{ek}: unknown decisive fact {r}")
                    else:
                        fact = next(f for f in d["facts"] if f["ref"] == r)
                        if e["status"] == "erfuellt" and never_counts(fact):
                            problems.append(
                                f"{sid}/{ek}: erfuellt from non-evidence {r}"
                            )
                sts.append(e["status"])
            if o["applicable"] is None:
                want = "offen"
            elif "nicht_erfuellt" in sts:
                want = "nicht_erfuellt"
            elif "offen" in sts:
                want = "offen"
            else:
                want = "erfuellt"
            if o["status"] != want:
                problems.append(f"{sid}/{key}: status {o['status']}, elements: {want}")
            els = o["elements"].items()
            viol = [k for k, e in els if e["status"] == "nicht_erfuellt"]
            miss = [
                k
                for k, e in els
                if e["status"] == "offen" and e["applicable"] is not None
            ]
            if viol != o["violated"] or miss != o["missing"]:
                problems.append(f"{sid}/{key}: violated/missing lists differ")
    for p in problems:
        out(p)
    share = len(holdouts) / max(1, len(files))
    names = ", ".join(holdouts)
    out(f"{len(files)} scenarios, {len(holdouts)} holdout ({share:.0%}): {names}")
    out(f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
