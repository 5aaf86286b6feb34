"""gesetze-im-internet XML (German federal statutes)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from lxml import etree

from citations.corpus.ir import DocumentIR, UnitIR, add_sentences, clean, label_of

# --- gesetze-im-internet XML


def _gii_text(el: Any) -> str:
    parts: list[str] = []

    def walk(node: Any) -> None:
        tag = node.tag if isinstance(node.tag, str) else ""
        if tag in ("FnR", "Footnotes", "noindex"):
            if node.tail:
                parts.append(node.tail)
            return
        if tag in ("DT", "BR"):
            parts.append(" ")
        if node.text and tag:
            parts.append(node.text)
        for child in node:
            walk(child)
        if tag in ("DD", "P", "LA"):
            parts.append(" ")
        if node.tail and node is not el:
            parts.append(node.tail)

    walk(el)
    return clean("".join(parts))


_PARA_NO = re.compile(r"^\((\d+[a-z]?)\)\s*")


def _gii_dl(doc: DocumentIR, base: str, container: Any, depth: int) -> None:
    kinds = ("point", "subpoint", "subsubpoint", "item")
    kind = kinds[min(depth, 3)]
    for dl in container.iter("DL"):
        parent = dl.getparent()
        # only lists directly in this container (not inside a DD below it)
        node = parent
        nested = False
        while node is not None and node is not container:
            if node.tag == "DD":
                nested = True
                break
            node = node.getparent()
        if nested:
            continue
        label = ""
        for child in dl:
            if child.tag == "DT":
                label = label_of(_gii_text(child))
            elif child.tag == "DD" and label:
                path = f"{base}/{kind}/{label}"
                doc.add(UnitIR(path, kind, label, _gii_text(child)))
                _gii_dl(doc, path, child, depth + 1)


def read_gii(path: Path) -> DocumentIR:
    root = etree.parse(str(path)).getroot()
    doc = DocumentIR()
    for norm in root.iter("norm"):
        enbez = norm.findtext("metadaten/enbez") or ""
        titel = norm.find("metadaten/titel")
        heading = _gii_text(titel) if titel is not None else ""
        m = re.fullmatch(r"§\s*(\d+[a-z]?)", enbez.strip())
        if m is None:
            rm = re.search(r"§§\s*(\d+)([a-z]?)\s+(?:bis|und)\s+(\d+)([a-z]?)", enbez)
            if rm is not None and enbez.startswith("("):
                _gii_repealed_range(doc, rm)
            continue
        number = m.group(1)
        base = f"sec/{number}"
        content = norm.find("textdaten/text/Content")
        if content is None:
            doc.add(UnitIR(base, "sec", number, "", heading=heading, repealed=True))
            continue
        ps = [p for p in content if p.tag == "P"]
        texts = [(p, _gii_text(p)) for p in ps]
        texts = [(p, t) for p, t in texts if t]
        body = clean(" ".join(t for _, t in texts))
        repealed = body in ("-", "") or body.startswith("(weggefallen)")
        doc.add(UnitIR(base, "sec", number, body, heading=heading, repealed=repealed))
        numbered = [(p, t) for p, t in texts if _PARA_NO.match(t)]
        if numbered:
            current: str | None = None
            for p, t in texts:
                pm = _PARA_NO.match(t)
                if pm is None:
                    continue
                current = pm.group(1)
                ppath = f"{base}/para/{current}"
                ptext = t[pm.end() :]
                doc.add(UnitIR(ppath, "para", current, ptext))
                if p.find(".//DL") is None:
                    add_sentences(doc, ppath, ptext)
                else:
                    _gii_dl(doc, ppath, p, 0)
        else:
            if content.find(".//DL") is None:
                add_sentences(doc, base, body)
            else:
                for p, _t in texts:
                    _gii_dl(doc, base, p, 0)
    return doc


def _gii_repealed_range(doc: DocumentIR, rm: re.Match[str]) -> None:
    first, last = int(rm.group(1)), int(rm.group(3))
    if rm.group(2) or rm.group(4) or last - first > 500:
        return
    for n in range(first, last + 1):
        doc.add(UnitIR(f"sec/{n}", "sec", f"({n})", "(weggefallen)", repealed=True))
