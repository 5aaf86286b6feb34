"""Formex 4 XML (the EU Official Journal's own format)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from lxml import etree

from citations.corpus.ir import DocumentIR, UnitIR, add_sentences, clean, label_of

# --- Formex


def _fmx_text(el: Any) -> str:
    parts: list[str] = []

    def walk(node: Any) -> None:
        tag = node.tag if isinstance(node.tag, str) else ""
        if tag == "NOTE":
            if node.tail:
                parts.append(node.tail)
            return
        if tag in ("QUOT.START", "QUOT.END"):
            code = node.get("CODE")
            if code:
                char = chr(int(code, 16))
                parts.append(char + "\x00" if tag == "QUOT.START" else "\x01" + char)
        elif node.text and tag:
            parts.append(node.text)
        for child in node:
            walk(child)
        if node.tail and node is not el:
            parts.append(node.tail)

    walk(el)
    return clean("".join(parts))


def _fmx_items(doc: DocumentIR, base: str, container: Any, depth: int) -> None:
    """Points of the LISTs directly inside ``container`` (not nested deeper)."""
    kinds = ("point", "subpoint", "subsubpoint", "item")
    kind = kinds[min(depth, 3)]
    for lst in _own(container, "LIST"):
        for item in lst.findall("ITEM"):
            np_ = item.find("NP")
            holder = np_ if np_ is not None else item
            no = holder.find("NO.P")
            if no is None:
                continue
            label = label_of(_fmx_text(no))
            path = f"{base}/{kind}/{label}"
            text = clean(" ".join(_fmx_text(c) for c in holder if c.tag != "NO.P"))
            doc.add(UnitIR(path, kind, label, text))
            _fmx_items(doc, path, holder, depth + 1)


def _own(container: Any, tag: str) -> Iterable[Any]:
    """Descendants named ``tag`` not nested inside another ITEM below container."""
    for el in container.iter(tag):
        if el is container:
            continue
        node = el.getparent()
        nested = False
        while node is not None and node is not container:
            if node.tag == "ITEM":
                nested = True
                break
            node = node.getparent()
        if not nested:
            yield el


def _fmx_container(doc: DocumentIR, base: str, container: Any) -> None:
    alineas = [c for c in container if c.tag == "ALINEA"]
    if len(alineas) > 1:
        for i, alinea in enumerate(alineas, 1):
            sub = f"{base}/subpara/{i}"
            text = _fmx_text(alinea)
            doc.add(UnitIR(sub, "subpara", str(i), text))
            if alinea.find(".//LIST") is None:
                add_sentences(doc, sub, text)
            _fmx_items(doc, sub, alinea, 0)
    else:
        if container.find(".//LIST") is None:
            add_sentences(doc, base, _fmx_text(container))
        _fmx_items(doc, base, container, 0)


_ART_NO = re.compile(r"(\d+[a-z]?)")


def read_formex(path: Path) -> DocumentIR:
    root = etree.parse(str(path)).getroot()
    doc = DocumentIR()
    for consid in root.iter("CONSID"):
        no = consid.find(".//NO.P")
        txt = consid.find(".//TXT")
        if no is None:
            continue
        label = label_of(_fmx_text(no))
        body = _fmx_text(txt) if txt is not None else _fmx_text(consid)
        doc.add(UnitIR(f"recital/{label}", "recital", label, body))
    for art in root.iter("ARTICLE"):
        title = _fmx_text(art.find("TI.ART"))
        m = _ART_NO.search(title)
        if m is None:
            continue
        number = m.group(1)
        base = f"art/{number}"
        sti = art.find("STI.ART")
        heading = _fmx_text(sti) if sti is not None else ""
        body = clean(
            " ".join(_fmx_text(c) for c in art if c.tag not in ("TI.ART", "STI.ART"))
        )
        doc.add(UnitIR(base, "art", number, body, heading=heading))
        parags = art.findall("PARAG")
        for parag in parags:
            no = parag.find("NO.PARAG")
            if no is None:
                continue
            label = label_of(_fmx_text(no))
            ppath = f"{base}/para/{label}"
            text = clean(" ".join(_fmx_text(c) for c in parag if c.tag != "NO.PARAG"))
            doc.add(UnitIR(ppath, "para", label, text))
            _fmx_container(doc, ppath, parag)
        if not parags:
            _fmx_container(doc, base, art)
    for annex in root.iter("ANNEX"):
        ti = annex.find("TITLE/TI")
        if ti is None:
            continue
        m = re.search(r"ANNEX\s+([IVXL]+)", _fmx_text(ti), re.IGNORECASE)
        if m is None:
            continue
        number = m.group(1).upper()
        base = f"annex/{number}"
        sti = annex.find("TITLE/STI")
        contents = annex.find("CONTENTS")
        heading = _fmx_text(sti) if sti is not None else ""
        body = _fmx_text(contents) if contents is not None else ""
        doc.add(UnitIR(base, "annex", number, body, heading=heading))
        if contents is None:
            continue
        seqs = [s for s in contents.iter("GR.SEQ") if s.getparent() is contents]
        if not seqs:
            _fmx_items(doc, base, contents, 0)
            continue
        for i, seq in enumerate(seqs, 1):
            title = seq.find("TITLE")
            ttext = _fmx_text(title) if title is not None else ""
            sm = re.match(r"(?:Section|Part)\s+([A-Z0-9]+)\b", ttext)
            nm = re.match(r"(\d+)\.", ttext)
            if sm is not None:
                spath, kind, label = f"{base}/part/{sm.group(1)}", "part", sm.group(1)
            elif nm is not None:
                spath, kind, label = f"{base}/point/{nm.group(1)}", "point", nm.group(1)
            else:
                spath, kind, label = f"{base}/part/{i}", "part", str(i)
            doc.add(UnitIR(spath, kind, label, _fmx_text(seq), heading=ttext))
            _fmx_items(doc, spath, seq, 0 if kind == "part" else 1)
    return doc
