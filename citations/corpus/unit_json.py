"""The unit-level JSON of ``eurlex-unit-parser``."""

from __future__ import annotations

import json
from pathlib import Path

from citations.corpus.ir import DocumentIR, UnitIR, clean

# --- eurlex-unit-parser JSON

_JSON_SEG = {
    "art": "art",
    "par": "para",
    "subpar": "subpara",
    "pt": "point",
    "sub": "subpoint",
    "subsub": "subsubpoint",
    "n3": "item",
}


def read_unit_json(path: Path) -> DocumentIR:
    data = json.loads(path.read_text(encoding="utf-8"))
    doc = DocumentIR()
    units = data["units"]
    by_id = {u["id"]: u for u in units}
    for u in units:
        uid = u["id"]
        if uid.startswith("recital-"):
            label = uid.split("-", 1)[1]
            doc.add(UnitIR(f"recital/{label}", "recital", label, clean(u["text"])))
            continue
        if not uid.startswith("art-"):
            continue
        segs: list[str] = []
        for seg in uid.split("."):
            name, _, value = seg.partition("-")
            kind = _JSON_SEG.get(name)
            if kind is None:
                break
            if (
                kind == "para"
                and by_id.get(".".join(uid.split(".")[: len(segs) + 1]), {}).get(
                    "paragraph_number"
                )
                is None
            ):
                continue  # an unnumbered paragraph is the article itself
            if kind == "subpara":
                value = str(int(value) + 1)
            segs.append(f"{kind}/{value.lower()}")
        else:
            path_ = "/".join(segs)
            kind = segs[-1].split("/")[0]
            label = segs[-1].split("/")[1]
            text = clean(u.get("text") or "")
            if kind == "art":
                children = [c for c in units if c.get("parent_id") == uid]
                text = clean(" ".join(c.get("text") or "" for c in children)) or text
            if any(x.path == path_ for x in doc.units[-3:]):
                continue
            doc.add(
                UnitIR(path_, kind, label, text, heading=u.get("article_heading") or "")
            )
            if kind == "para" and any(
                c.get("parent_id") == uid and c.get("type") == "subparagraph"
                for c in units
            ):
                # the file numbers only the subparagraphs after the first
                # ("subpar-1" is the second, see above): the paragraph's own
                # text is its first subparagraph
                doc.add(UnitIR(f"{path_}/subpara/1", "subpara", "1", text))
    return doc
