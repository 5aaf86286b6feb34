"""gesetze-im-internet XML (German federal statutes)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from lxml import etree

from citations.corpus.ir import (
    DocumentIR,
    SourceMeta,
    UnitIR,
    add_sentences,
    clean,
    label_of,
)

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
        if tag in ("DD", "P", "LA", "entry", "row"):
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


_SEC = re.compile(r"§\s*(\d+[a-z]?)")
_ART = re.compile(r"Art(?:ikel|\.)?\s*(\d+[a-z]?)")
_ANLAGE = re.compile(r"Anlage(?:\s+(\d+[a-z]?))?\b")
_REPEALED_RANGE = re.compile(
    r"(§§|Art)\s*(\d+)([a-z]?)\s+(?:bis|und|u\.)\s+(\d+)([a-z]?)"
)
_PENDING = "textlich nachgewiesen, dokumentarisch noch nicht abschließend bearbeitet"
_STAND_DATE = re.compile(
    r"\b(?:G|V|Bek\.?|Gesetz)\s+v(?:om|\.)\s*(\d{1,2})\.(\d{1,2})\.(\d{4})"
)
_FEE_NO = re.compile(r"\d{4,5}")


def read_gii_meta(root: Any) -> SourceMeta:
    """The law's names and Standangabe from the first ``<norm>``'s metadata.

    Pending amendments are the "Hinweis" notes saying an amendment is
    "textlich nachgewiesen, dokumentarisch noch nicht abschließend
    bearbeitet": it is not worked into the text."""
    first = root.find("norm/metadaten")
    if first is None:
        return SourceMeta()
    stand = ""
    pending: list[str] = []
    for sa in first.findall("standangabe"):
        typ = (sa.findtext("standtyp") or "").strip()
        comment = clean(sa.findtext("standkommentar") or "")
        if typ == "Stand" and not stand:
            stand = comment
        elif _PENDING in comment:
            pending.append(clean(comment.replace(_PENDING, "")))
    stand_date = None
    dm = _STAND_DATE.search(stand)
    if dm is not None:
        stand_date = f"{dm.group(3)}-{int(dm.group(2)):02d}-{int(dm.group(1)):02d}"
    return SourceMeta(
        abbreviation=(first.findtext("jurabk") or "").strip(),
        official_abbreviation=(first.findtext("amtabk") or "").strip() or None,
        title=clean(first.findtext("langue") or ""),
        stand=stand,
        stand_date=stand_date,
        enacted=(first.findtext("ausfertigung-datum") or "").strip() or None,
        pending_amendments=tuple(pending),
    )


def _norm_body(
    doc: DocumentIR, base: str, kind: str, number: str, heading: str, norm: Any
) -> None:
    """One § or article: the unit, its numbered paragraphs, sentences, points."""
    content = norm.find("textdaten/text/Content")
    if content is None:
        doc.add(UnitIR(base, kind, number, "", heading=heading, repealed=True))
        return
    ps = [p for p in content if p.tag == "P"]
    texts = [(p, _gii_text(p)) for p in ps]
    texts = [(p, t) for p, t in texts if t]
    body = clean(" ".join(t for _, t in texts))
    repealed = body in ("-", "") or body.startswith("(weggefallen)")
    doc.add(UnitIR(base, kind, number, body, heading=heading, repealed=repealed))
    numbered = [(p, t) for p, t in texts if _PARA_NO.match(t)]
    if numbered:
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
    elif content.find(".//DL") is None:
        add_sentences(doc, base, body)
    else:
        for p, _t in texts:
            _gii_dl(doc, base, p, 0)


def _anlage(doc: DocumentIR, base: str, number: str, heading: str, norm: Any) -> None:
    """An Anlage; a fee table (the RVG's Vergütungsverzeichnis: rows whose first
    cell is a four-digit number) gives one point per number, with the
    Anmerkung rows below it."""
    content = norm.find("textdaten/text/Content")
    body = _gii_text(content) if content is not None else ""
    doc.add(UnitIR(base, "annex", number, body, heading=heading))
    if content is None:
        return
    current: UnitIR | None = None
    for row in content.iter("row"):
        entries = row.findall("entry")
        if not entries:
            continue
        first = _gii_text(entries[0])
        if _FEE_NO.fullmatch(first):
            text = clean(" ".join(_gii_text(e) for e in entries[1:]))
            current = UnitIR(f"{base}/point/{first}", "point", first, text)
            doc.add(current)
        elif current is not None and not first:
            extra = clean(" ".join(_gii_text(e) for e in entries[1:]))
            if extra:
                current.text = f"{current.text} {extra}".strip()
        elif first:
            current = None


def read_gii(path: Path) -> DocumentIR:
    """Any gesetze-im-internet law: §§ ("§ 286"), articles ("Art 9", also given
    only as a Gliederungseinheit as in the EGBGB), sections inside articles
    ("Art 229 § 34" → ``art/229/asec/34``), Anlagen (``annex/1``, fee numbers
    as points) and repealed ranges; the law's names and Standangabe as meta."""
    root = etree.parse(str(path)).getroot()
    doc = DocumentIR(meta=read_gii_meta(root))
    for norm in root.iter("norm"):
        enbez = (norm.findtext("metadaten/enbez") or "").strip()
        gbez = (
            norm.findtext("metadaten/gliederungseinheit/gliederungsbez") or ""
        ).strip()
        titel = norm.find("metadaten/titel")
        heading = _gii_text(titel) if titel is not None else ""
        art_of_group = _ART.fullmatch(gbez)
        sm = _SEC.fullmatch(enbez)
        if sm is not None:
            number = sm.group(1)
            if art_of_group is not None:
                article = art_of_group.group(1)
                if f"art/{article}" not in doc.seen:
                    doc.add(UnitIR(f"art/{article}", "art", article, ""))
                base = f"art/{article}/asec/{number}"
                _norm_body(doc, base, "asec", number, heading, norm)
            else:
                _norm_body(doc, f"sec/{number}", "sec", number, heading, norm)
            continue
        am = _ART.fullmatch(enbez)
        if am is None and not enbez and art_of_group is not None:
            am = art_of_group
            gtitel = norm.find("metadaten/gliederungseinheit/gliederungstitel")
            heading = _gii_text(gtitel) if gtitel is not None else heading
        if am is not None:
            number = am.group(1)
            if norm.find("textdaten/text/Content") is None and not enbez:
                # an article that only groups sections (Art 229 EGBGB)
                doc.add(UnitIR(f"art/{number}", "art", number, "", heading=heading))
            else:
                _norm_body(doc, f"art/{number}", "art", number, heading, norm)
            continue
        lm = _ANLAGE.match(enbez)
        if lm is not None:
            number = lm.group(1) or "1"
            _anlage(doc, f"annex/{number}", number, heading, norm)
            continue
        rm = _REPEALED_RANGE.search(enbez)
        if rm is not None and enbez.startswith("("):
            _gii_repealed_range(doc, rm)
    _articles_with_sections(doc)
    return doc


def _articles_with_sections(doc: DocumentIR) -> None:
    """An article divided into §§ (Art 229 EGBGB) is in force while any of its
    §§ is, whatever its group norm says ("(weggefallen)" in the GII file)."""
    grouping = {u.path.rsplit("/asec/", 1)[0] for u in doc.units if u.kind == "asec"}
    for unit in doc.units:
        if unit.kind == "art" and unit.path in grouping:
            unit.repealed = False
            unit.text = ""


def _gii_repealed_range(doc: DocumentIR, rm: re.Match[str]) -> None:
    kind = "sec" if rm.group(1) == "§§" else "art"
    first, last = int(rm.group(2)), int(rm.group(4))
    if rm.group(3) or rm.group(5) or last - first > 500:
        return
    for n in range(first, last + 1):
        doc.add(UnitIR(f"{kind}/{n}", kind, f"({n})", "(weggefallen)", repealed=True))
