"""Readers for the formats of the pinned corpus.

Each reader turns one source file into a flat list of :class:`UnitIR` (a tree by
``parent`` path) and counts of its top-level units. Paths use the same segment
names as the parser's canonical identifiers (``art/6/para/1/point/f``,
``sec/286/para/2/point/3``, ``recital/47``, ``annex/III/point/1/subpoint/a``).

Formats: Formex 4 XML (EU OJ), EUR-Lex OJ HTML (old style), the unit-level JSON
of ``eurlex-unit-parser`` and gesetze-im-internet XML (German statutes).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import lxml.html
from lxml import etree


@dataclass(slots=True)
class UnitIR:
    path: str
    kind: str
    label: str
    text: str
    heading: str = ""
    repealed: bool = False

    @property
    def parent(self) -> str | None:
        segs = self.path.split("/")
        return "/".join(segs[:-2]) if len(segs) > 2 else None


@dataclass(slots=True)
class DocumentIR:
    units: list[UnitIR] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)

    def add(self, unit: UnitIR) -> None:
        """Add a unit; a path seen before (a second list in one paragraph with
        the same labels) keeps its first occurrence, a label that is not a
        number or letter (a dash item) is not addressable and is skipped."""
        if unit.path in self.seen or not _LABEL_OK.match(unit.label):
            return
        self.seen.add(unit.path)
        self.units.append(unit)

    def counts(self) -> dict[str, int]:
        tops: dict[str, int] = {}
        for u in self.units:
            if u.path.count("/") == 1:
                key = {
                    "art": "articles",
                    "sec": "sections",
                    "recital": "recitals",
                    "annex": "annexes",
                }[u.kind]
                if u.kind == "sec" and u.repealed and u.label.startswith("("):
                    continue
                tops[key] = tops.get(key, 0) + 1
        tops["units"] = len(self.units)
        return tops


_LABEL_OK = re.compile(r"^\(?[0-9A-Za-z]+\)?$")
_WS = re.compile(r"\s+")
_SPACE_AFTER_OPEN = re.compile(r"([(\[]) |\x00\s*")
_SPACE_BEFORE_CLOSE = re.compile(r" ([)\],.;:])|\s*\x01")


def clean(text: str) -> str:
    """Normalise whitespace (the German Formex files are pretty-printed, with
    line breaks inside mixed content). \x00/\x01 mark the inside of quotes."""
    text = _WS.sub(" ", text)
    text = _SPACE_AFTER_OPEN.sub(lambda m: m.group(1) or "", text)
    text = _SPACE_BEFORE_CLOSE.sub(lambda m: m.group(1) or "", text)
    return text.strip()


def label_of(raw: str) -> str:
    """ "(a)" → "a", "1." → "1", "a)" → "a", "(iv)" → "iv"."""
    return raw.strip().strip("().").strip(")").strip().lower()


_ABBREVIATIONS = frozenset(
    [
        "Abs",
        "Nr",
        "S",
        "Art",
        "Buchst",
        "bzw",
        "z",
        "B",
        "v",
        "d",
        "h",
        "i",
        "ff",
        "f",
        "u",
        "a",
        "vgl",
        "Ziff",
        "lit",
        "Ges",
        "Bek",
        "BGBl",
        "Hs",
        "Alt",
        "St",
        "etc",
        "ca",
        "gem",
        "No",
        "p",
        "e",
        "g",
        "Mio",
        "Prof",
        "Dr",
        "EUR",
        "Nrn",
        "Dez",
        "Jan",
        "Feb",
        "Okt",
        "Nov",
        "Sept",
        "Aug",
        "Rn",
        "Anh",
        "Unterabs",
        "UAbs",
        "Kap",
        "Tz",
        "Verf",
        "Einl",
    ]
)
_SENT_END = re.compile(r"[.!?]\s+(?=[A-ZÄÖÜ„\"(])")


def split_sentences(text: str) -> list[str]:
    """Sentences of a provision (German "Satz" counting: ";" does not end one)."""
    out: list[str] = []
    start = 0
    for m in _SENT_END.finditer(text):
        before = text[start : m.start()]
        word = re.search(r"([\wÄÖÜäöü]+)$", before)
        if word is not None and (
            word.group(1) in _ABBREVIATIONS or word.group(1).isdigit()
        ):
            continue
        if len(before.strip()) < 3:
            continue
        out.append(text[start : m.start() + 1].strip())
        start = m.end()
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return out


def _add_sentences(doc: DocumentIR, base: str, text: str) -> None:
    sentences = split_sentences(text)
    if len(sentences) < 2:
        return
    for i, sentence in enumerate(sentences, 1):
        doc.add(UnitIR(f"{base}/sent/{i}", "sent", str(i), sentence))


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
                _add_sentences(doc, sub, text)
            _fmx_items(doc, sub, alinea, 0)
    else:
        if container.find(".//LIST") is None:
            _add_sentences(doc, base, _fmx_text(container))
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
                    _add_sentences(doc, ppath, ptext)
                else:
                    _gii_dl(doc, ppath, p, 0)
        else:
            if content.find(".//DL") is None:
                _add_sentences(doc, base, body)
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
                _add_sentences(doc, ppath, ptext[pm.end() :])
        if not pdivs:
            _html_blocks(doc, base, div, skip_first=False)
    return doc


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
    return doc


READERS = {
    "formex": read_formex,
    "gii": read_gii,
    "oj_html": read_oj_html,
    "unit_json": read_unit_json,
}


def read_document(fmt: str, path: Path) -> DocumentIR:
    return READERS[fmt](path)
