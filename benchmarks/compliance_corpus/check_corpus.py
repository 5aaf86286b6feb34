"""Self-check of the compliance benchmark corpus (stdlib only, no Belegt import).

Every ground-truth quote must occur verbatim in the named document's text, every element
key must be in tests/ontology/scenarios/compliance/ELEMENTS.md, each obligation's status
must follow from its element statuses, and the corpus must hold exactly one injected
machine instruction outside the second holdout; each second-holdout dossier
(`"holdout_set"` 2 and later, K8-K16) may hold at most one of its own.

    python benchmarks/compliance_corpus/check_corpus.py
"""

import json
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).parent
ELEMENTS_MD = HERE.parents[1] / "tests/ontology/scenarios/compliance/ELEMENTS.md"


def out(line: str) -> None:
    sys.stdout.write(line + "\n")


def vocabulary() -> dict[str, str]:
    elements, current = {}, None
    for line in ELEMENTS_MD.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^### `([a-z0-9_]+)`", line)
        if m:
            current = m.group(1)
            continue
        m = re.match(r"^\| `([a-z0-9_]+)` \| ", line)
        if m and current:
            elements[m.group(1)] = current
    return elements


def verdict(statuses: list[str]) -> str:
    if "nicht_erfuellt" in statuses:
        return "nicht_erfuellt"
    if "offen" in statuses:
        return "offen"
    return "erfuellt"


def main() -> int:
    elements = vocabulary()
    problems: list[str] = []
    injected = 0
    n_elements = n_quotes = 0
    for gt_path in sorted((HERE / "ground_truth").glob("K*.json")):
        gt = json.loads(gt_path.read_text(encoding="utf-8"))
        did = gt["dossier"]
        meta = json.loads((HERE / "dossiers" / did / "dossier.json").read_text("utf-8"))
        texts = {
            d["doc"]: (HERE / "dossiers" / did / d["file"]).read_text(encoding="utf-8")
            for d in meta["documents"]
        }
        quoted = gt["context"] + gt["elements"] + gt["distractors"]
        for item in quoted:
            if item.get("quote") and item["quote"] not in texts.get(item["doc"], ""):
                problems.append(
                    f"{did}: quote not verbatim in {item['doc']}: {item['quote'][:50]}"
                )
        mine_injected = sum(
            i["kind"] == "machine_instruction" for i in gt["distractors"]
        )
        if gt.get("holdout_set", 1) >= 2:  # later sets: at most one each
            if mine_injected > 1:
                problems.append(f"{did}: more than one injected machine instruction")
        else:
            injected += mine_injected
        for e in gt["elements"]:
            if e["key"] not in elements:
                problems.append(f"{did}: unknown element {e['key']}")
            if e.get("applicable", True):
                n_elements += 1
                n_quotes += bool(e.get("quote"))
        for o in gt["obligations"]:
            if o["applicable"] is False:
                continue
            mine = [
                e
                for e in gt["elements"]
                if elements.get(e["key"]) == o["key"] and e["subject"] == o["subject"]
            ]
            keys = {e["key"] for e in mine}
            if keys != {k for k, ob in elements.items() if ob == o["key"]}:
                problems.append(f"{did}/{o['key']}: elements incomplete")
            sts = [e["expected_status"] for e in mine if e.get("applicable", True)]
            if verdict(sts) != o["status"]:
                problems.append(
                    f"{did}/{o['key']}: status does not follow from elements"
                )
    if injected != 1:
        problems.append(
            f"expected exactly one injected machine instruction, found {injected}"
        )
    for p in problems:
        out(p)
    out(f"{n_elements} applicable elements, {n_quotes} with a verbatim quote")
    out(f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
