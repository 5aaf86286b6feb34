"""EUR-Lex OJ HTML (old style: p.oj-ti-art, tables for points)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import lxml.html

from citations.corpus.formex import _ART_NO
from citations.corpus.gii import _PARA_NO
from citations.corpus.ir import DocumentIR, UnitIR, add_sentences, clean, label_of

# --- EUR-Lex OJ HTML (old style: p.oj-ti-art, tables for points)


def _html_text(el: Any) -> str:
    parts: list[str] = []

    def walk(node: Any) -> None:
        cls = node.get("class") or "" if isinstance(node.tag, str) else ""
        if isinstance(node.tag, str) and (
            "oj-note-tag" in cls or node.tag == "a" and "oj-note" in cls
        ):
            if node.tail:
                parts.append(node.tail)
            return
        if isinstance(node.tag, str) and node.text:
            parts.append(node.text)
        for child in node:
            walk(child)
        if isinstance(node.tag, str) and node.tag in ("p", "td", "tr"):
            parts.append(" ")
        if node.tail and node is not el:
            parts.append(node.tail)

    walk(el)
    return clean("".join(parts))


def _html_points(doc: DocumentIR, base: str, table: Any, depth: int) -> None:
    kinds = ("point", "subpoint", "subsubpoint", "item")
    kind = kinds[min(depth, 3)]
    body = table.find("tbody")
    rows = (body if body is not None else table).findall("tr")
    for tr in rows:
        tds = tr.findall("td")
        if len(tds) < 2:
            continue
        label = label_of(_html_text(tds[0]))
        if not label or len(label) > 5:
            continue
        path = f"{base}/{kind}/{label}"
        doc.add(UnitIR(path, kind, label, _html_text(tds[1])))
        for inner in tds[1].findall("table"):
            _html_points(doc, path, inner, depth + 1)


def _html_blocks(doc: DocumentIR, base: str, container: Any, skip_first: bool) -> None:
    blocks = [c for c in container if c.tag in ("p", "table")]
    blocks = [b for b in blocks if "oj-ti-art" not in (b.get("class") or "")]
    blocks = [b for b in blocks if "oj-sti-art" not in (b.get("class") or "")]
    paras = [b for b in blocks if b.tag == "p"]
    multi = len(paras) > 1
    sub = 0
    target = base
    for b in blocks:
        if b.tag == "p":
            sub += 1
            if multi:
                target = f"{base}/subpara/{sub}"
                text = _PARA_NO.sub("", _html_text(b))
                doc.add(UnitIR(target, "subpara", str(sub), text))
        else:
            _html_points(doc, target, b, 0)


def read_oj_html(path: Path) -> DocumentIR:
    root = lxml.html.parse(str(path)).getroot()
    doc = DocumentIR()
    in_recitals = False
    for el in root.iter("p", "table"):
        text = el.text_content().strip() if el.tag == "p" else ""
        if el.tag == "p" and text.startswith("in Erwägung nachstehender Gründe"):
            in_recitals = True
            continue
        if el.tag == "p" and text.startswith("HABEN FOLGENDE"):
            break
        if in_recitals and el.tag == "table":
            tds = el.findall(".//td")
            if len(tds) >= 2:
                label = label_of(_html_text(tds[0]))
                if label.isdigit():
                    doc.add(
                        UnitIR(f"recital/{label}", "recital", label, _html_text(tds[1]))
                    )
    for div in root.iter("div"):
        ident = div.get("id") or ""
        if not re.fullmatch(r"\d{3}", ident):
            continue
        ti = div.find("p[@class='oj-ti-art']")
        if ti is None:
            continue
        m = _ART_NO.search(ti.text_content())
        if m is None:
            continue
        number = m.group(1)
        base = f"art/{number}"
        sti = div.find("p[@class='oj-sti-art']")
        heading = clean(sti.text_content()) if sti is not None else ""
        body = clean(
            " ".join(
                _html_text(c)
                for c in div
                if (c.get("class") or "") not in ("oj-ti-art", "oj-sti-art")
            )
        )
        doc.add(UnitIR(base, "art", number, body, heading=heading))
        pdivs = [
            c
            for c in div
            if c.tag == "div" and re.fullmatch(rf"{ident}\.\d{{3}}", c.get("id") or "")
        ]
        for pdiv in pdivs:
            ptext = _html_text(pdiv)
            pm = _PARA_NO.match(ptext)
            if pm is None:
                continue
            label = pm.group(1)
            ppath = f"{base}/para/{label}"
            doc.add(UnitIR(ppath, "para", label, ptext[pm.end() :]))
            _html_blocks(doc, ppath, pdiv, skip_first=True)
            if pdiv.find(".//table") is None:
                add_sentences(doc, ppath, ptext[pm.end() :])
        if not pdivs:
            _html_blocks(doc, base, div, skip_first=False)
    return doc
