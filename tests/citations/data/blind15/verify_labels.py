"""Check the blind-15 labels against the corpus texts, independently of Belegt.

This script reads the pinned law texts in ../shared/corpus directly (gesetze-im-
internet XML, Formex XML, the DORA unit JSON) with its own small readers. It
imports nothing from the project. Usage (from the worktree root):

    python tests/citations/data/blind15/verify_labels.py [--show ID ...]

It fails (exit 1) when an "expected" id does not exist in the text, a
"nonexistent" id does exist, or an "unpinned" id names a law that is in the
corpus. Sentence counts come from a heuristic splitter; every sentence label
was also read by eye (--show).
"""

from __future__ import annotations

import html
import json
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from functools import cache
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[4].parent / "shared" / "corpus"
if not CORPUS.exists():
    CORPUS = Path("/work/shared/corpus")
HERE = Path(__file__).resolve().parent

DE_FOLDERS = {
    "ao": "ao_1977",
    "bdsg": "bdsg_2018",
    "uwg": "uwg_2004",
    "vag": "vag_2016",
    "zag": "zag_2018",
    "ustg": "ustg_1980",
    "vvg": "vvg_2008",
    "bsig": "bsig_2025",
    "tdddg": "ttdsg",  # amtabk TDDDG, jurabk (and folder) still TTDSG
}

ABBREV = (
    "Abs|Nr|S|Art|vgl|bzw|ca|Buchst|BGBl|Bl|Ges|Gesetz|St|Ziff|lit|Anl|Anh|Verf|Kap|Abschn|"
    "Sept|Okt|Nov|Dez|Jan|Feb|Aug|z|B|d|h|u|a|i|V|m|W|e|E|o|g|Vorbem|Vorb"
)
ABBREV_SET = set(ABBREV.split("|"))
BOUNDARY = re.compile(r"[.!?]\s+(?=[A-ZÄÖÜ§„(])")


def _text(el: ET.Element) -> str:
    return re.sub(r"\s+", " ", "".join(el.itertext())).strip()


def split_sentences(text: str) -> list[str]:
    parts: list[str] = []
    start = 0
    for m in BOUNDARY.finditer(text):
        before = re.search(r"(\S+)$", text[start : m.start()])
        word = before.group(1) if before else ""
        if word in ABBREV_SET or word[-1:].isdigit() or re.fullmatch(r"[a-z]", word):
            continue
        parts.append(text[start : m.start() + 1].strip())
        start = m.end()
    parts.append(text[start:].strip())
    return [p for p in parts if p]


# ------------------------------------------------- German statutes (GII XML)


class Unit(dict):
    """children: name -> Unit; text kept for --show."""

    def __init__(self, text: str = "") -> None:
        super().__init__()
        self.text = text


def _german_block(container: ET.Element, unit: Unit) -> None:
    """Fill sentences, numbers and letters of one Absatz (or an Absatz-less section)."""
    for node in container.iter():
        if node.tag == "DL":
            for dt, dd in zip(node.findall("DT"), node.findall("DD"), strict=False):
                label = (dt.text or "").strip().rstrip(".").rstrip(")")
                if not label:
                    continue
                key = "no" if label[0].isdigit() else "letter"
                item = unit.setdefault(f"{key}/{label}", Unit(_text(dd)))
                for k, sent_text in enumerate(split_sentences(_text(dd)), 1):
                    item.setdefault(f"sent/{k}", Unit(sent_text))
                for sub in dd.iter("DL"):
                    for dt2, dd2 in zip(
                        sub.findall("DT"), sub.findall("DD"), strict=False
                    ):
                        lab2 = (dt2.text or "").strip().rstrip(".").rstrip(")")
                        if lab2 and not lab2[0].isdigit():
                            item.setdefault(f"letter/{lab2}", Unit(_text(dd2)))
                        elif lab2:
                            item.setdefault(f"no/{lab2}", Unit(_text(dd2)))

    # Sentences: text with lists collapsed into one placeholder.
    def flatten(el: ET.Element) -> str:
        out = [el.text or ""]
        for child in el:
            if child.tag == "DL":
                out.append(" [LISTE]. ")
            elif child.tag != "SUP":  # EStG prints sentence numbers as <SUP>; drop them
                out.append(flatten(child))
            out.append(child.tail or "")
        return "".join(out)

    flat = re.sub(r"\s+", " ", flatten(container)).strip()
    flat = re.sub(r"^\(\d+[a-z]?\)\s*", "", flat)
    flat_parts = split_sentences(flat)
    for k, s in enumerate(flat_parts, 1):
        sent = unit.setdefault(f"sent/{k}", Unit(s))
        if "[LISTE]" in s:
            # The numbers and letters belong to the sentence that contains the list.
            for key, item in unit.items():
                if key.startswith(("no/", "letter/")):
                    sent.setdefault(key, item)
        halves = [h for h in re.split(r";", s) if h.strip()]
        for h, half in enumerate(halves, 1):
            sent.setdefault(f"halfsent/{h}", Unit(half))


@cache
def german_law(law: str) -> Unit:
    if law == "bgb":
        path = CORPUS / "bgb" / "de" / "source.xml"
    else:
        path = CORPUS / "de-federal" / DE_FOLDERS.get(law, law) / "source.xml"
    root = ET.parse(path).getroot()
    top = Unit()
    for norm in root.iter("norm"):
        meta = norm.find("metadaten")
        if meta is None:
            continue
        enbez = (meta.findtext("enbez") or "").strip()
        glied = (meta.findtext("gliederungseinheit/gliederungsbez") or "").strip()
        content = norm.find("textdaten/text/Content")
        if not enbez or content is None:
            continue
        m = re.fullmatch(r"(§|Art|Artikel)\s*(\d+[a-z]?)", enbez)
        ma = re.fullmatch(r"Anlage\s*(\d+)", enbez)
        if ma:
            annex = top.setdefault(f"annex/{ma.group(1)}", Unit(enbez))
            for row in content.iter("row"):
                entries = row.findall("entry")
                if entries:
                    first = _text(entries[0])
                    if re.fullmatch(r"\d{4}[a-z]?", first):
                        annex.setdefault(
                            f"no/{first}", Unit(" | ".join(_text(e) for e in entries))
                        )
            continue
        if not m:
            continue
        kind = "sec" if m.group(1) == "§" else "art"
        key = f"{kind}/{m.group(2)}"
        g = re.fullmatch(r"Art\s*(\d+[a-z]?)", glied)
        if kind == "sec" and law == "bgbeg" and g:
            holder = top.setdefault(f"art/{g.group(1)}", Unit(glied))
        else:
            holder = top
        title = meta.findtext("titel") or ""
        sec = holder.setdefault(key, Unit(f"{enbez} {title}"))
        paras = content.findall("P")
        numbered = False
        for p in paras:
            t = _text(p)
            mp = re.match(r"\((\d+[a-z]?)\)", t)
            if mp:
                numbered = True
                u = sec.setdefault(f"para/{mp.group(1)}", Unit(t))
                _german_block(p, u)
        if not numbered:
            wrapper = ET.Element("P")
            for p in paras:
                wrapper.append(p)
            sec.text += " :: " + _text(wrapper)
            _german_block(wrapper, sec)
    return top


# ------------------------------------------------- EU Formex (GDPR, AI Act)


def _formex_points(lst: ET.Element, unit: Unit, level: str = "point") -> None:
    for item in lst.findall("ITEM"):
        np_ = item.find("NP")
        if np_ is None:
            continue
        label = (np_.findtext("NO.P") or "").strip().strip("().")
        if not label:
            continue
        pt = unit.setdefault(f"{level}/{label}", Unit(_text(np_)))
        for sub in np_.iter("LIST"):
            _formex_points(sub, pt, "subpoint" if level == "point" else "subsubpoint")


def _formex_alineas(container: ET.Element, unit: Unit) -> None:
    """Subparagraphs (ALINEA) and, across them, a paragraph's sentences.

    A list of points belongs to the sentence that introduces it.
    """
    alineas = container.findall("ALINEA")
    sentences: list[Unit] = []
    for k, al in enumerate(alineas, 1):
        sub = unit.setdefault(f"subpara/{k}", Unit(_text(al)))
        lists = list(al.iter("LIST"))
        if lists:
            lead = " ".join(_text(p) for p in al.findall("P") if p.find("LIST") is None)
            lead = lead or (al.text or "").strip()
        else:
            lead = _text(al)
        own = [Unit(s) for s in re.split(r"(?<=[.:;])\s+(?=[A-Z])", lead) if s.strip()]
        own = own or [Unit(lead)]
        if lists:
            _formex_points(lists[0], sub)
            _formex_points(lists[0], unit)
            _formex_points(lists[0], own[-1])
        sentences.extend(own)
    for j, sent in enumerate(sentences, 1):
        unit.setdefault(f"sent/{j}", sent)


@cache
def formex(path: str) -> Unit:
    root = ET.parse(CORPUS / path).getroot()
    top = Unit()
    for art in root.iter("ARTICLE"):
        n = str(int(art.get("IDENTIFIER", "0")[:3]))
        a = top.setdefault(f"art/{n}", Unit(_text(art)[:200]))
        parags = art.findall("PARAG")
        for pg in parags:
            no = (pg.findtext("NO.PARAG") or "").strip().rstrip(".")
            pu = a.setdefault(f"para/{no}", Unit(_text(pg)))
            _formex_alineas(pg, pu)
        if not parags:
            _formex_alineas(art, a)
    for cons in root.iter("CONSID"):
        no = (cons.findtext("NP/NO.P") or "").strip().strip("()")
        top.setdefault(f"recital/{no}", Unit(_text(cons)[:200]))
    for annex in root.iter("ANNEX"):
        title = annex.findtext("TITLE/TI/P") or ""
        m = re.fullmatch(r"ANNEX\s+([IVXL]+)", title.strip())
        if not m:
            continue
        num = roman(m.group(1))
        an = top.setdefault(f"annex/{num}", Unit(title))
        contents = annex.find("CONTENTS")
        if contents is None:
            continue
        for lst in contents.iter("LIST"):
            for item in lst.findall("ITEM"):
                np_ = item.find("NP")
                if np_ is None:
                    continue
                label = (np_.findtext("NO.P") or "").strip().strip("().")
                if label.isdigit():
                    pt = an.setdefault(f"point/{label}", Unit(_text(np_)[:300]))
                    for sub in np_.iter("LIST"):
                        for it2 in sub.findall("ITEM"):
                            lab2 = (it2.findtext("NP/NO.P") or "").strip().strip("().")
                            if lab2:
                                pt.setdefault(
                                    f"subpoint/{lab2}", Unit(_text(it2)[:300])
                                )
    return top


def roman(s: str) -> int:
    vals = {"I": 1, "V": 5, "X": 10, "L": 50}
    total = 0
    for i, ch in enumerate(s):
        v = vals[ch]
        total += -v if i + 1 < len(s) and vals[s[i + 1]] > v else v
    return total


# ------------------------------------------------- DORA (unit JSON, EN)


@cache
def dora() -> Unit:
    data = json.loads(
        (CORPUS / "dora" / "en" / "DORA.json").read_text(encoding="utf-8")
    )
    top = Unit()
    for u in data["units"]:
        if u["type"] == "recital" and u.get("recital_number"):
            top.setdefault(f"recital/{u['recital_number']}", Unit(u["text"][:200]))
            continue
        if not u.get("article_number"):
            continue
        node = top.setdefault(f"art/{u['article_number']}", Unit(u["text"][:200]))
        if u.get("paragraph_number"):
            node = node.setdefault(
                f"para/{u['paragraph_number']}", Unit(u["text"][:300])
            )
            node.setdefault("subpara/1", Unit(u["text"][:300]))
        if u.get("subparagraph_index"):
            # The JSON counts subparagraphs after the first: subpar-1 is the 2nd.
            node = node.setdefault(
                f"subpara/{u['subparagraph_index'] + 1}", Unit(u["text"][:300])
            )
        if u.get("point_label"):
            node = node.setdefault(f"point/{u['point_label']}", Unit(u["text"][:300]))
        if u.get("subpoint_label"):
            node = node.setdefault(
                f"subpoint/{u['subpoint_label']}", Unit(u["text"][:300])
            )
    return top


EU: dict[str, Callable[[], Unit]] = {
    "eu/reg/2016/679": lambda: formex("gdpr/en/gdpr.fmx.xml"),
    "eu/reg/2024/1689": lambda: formex("ai-act/en/aia.fmx.xml"),
    "eu/reg/2022/2554": dora,
}


def pinned_german() -> set[str]:
    names = {"bgb"}
    for folder in (CORPUS / "de-federal").iterdir():
        if (folder / "source.xml").exists():
            names.add(folder.name.split("_")[0])
    return names | set(DE_FOLDERS)


def _walk(root: Unit, parts: list[str]) -> Unit | None:
    node = root
    i = 0
    while i < len(parts):
        key = f"{parts[i]}/{parts[i + 1]}"
        if key not in node:
            return None
        node = node[key]
        i += 2
    return node


def resolve(uid: str) -> tuple[bool, str]:
    """(exists, text) for one id; ranges and ff. check their first (and last) unit."""
    if uid.startswith("eu/"):
        prefix = "/".join(uid.split("/")[:4])
        root = EU[prefix]()
        parts = uid.split("/")[4:]
    else:
        _, law, *parts = uid.split("/")
        root = german_law(law)
    last = parts[-1]
    m = re.fullmatch(r"(\w+?)-(\w+)", last)
    if m and len(parts) % 2 == 0:
        a = _walk(root, parts[:-1] + [m.group(1)])
        b = _walk(root, parts[:-1] + [m.group(2)])
        return (a is not None and b is not None), (a.text if a is not None else "")[
            :200
        ]
    if last.endswith("ff") or (last.endswith("f") and last[:-1].isdigit()):
        base = last[:-2] if last.endswith("ff") else last[:-1]
        a = _walk(root, parts[:-1] + [base])
        return a is not None, (a.text if a is not None else "")[:200]
    node = _walk(root, parts)
    return node is not None, (node.text if node is not None else "")


def say(*parts: object) -> None:
    sys.stdout.write(" ".join(str(p) for p in parts) + "\n")


def main(argv: list[str]) -> int:
    if argv[:1] == ["--show"]:
        for uid in argv[1:]:
            ok, text = resolve(uid)
            say(uid, "EXISTS" if ok else "MISSING", "::", text[:600])
        return 0
    pinned = pinned_german()
    errors = 0
    counts = {
        "expected": 0,
        "nonexistent": 0,
        "unpinned": 0,
        "no_citation": 0,
        "lines": 0,
    }
    seen: set[str] = set()
    for n, line in enumerate(
        (HERE / "sentences.jsonl").read_text(encoding="utf-8").splitlines(), 1
    ):
        row = json.loads(line)
        counts["lines"] += 1
        if row["id"] in seen:
            say(f"line {n}: duplicate id {row['id']}")
            errors += 1
        seen.add(row["id"])
        if not (row["expected"] or row["nonexistent"] or row["unpinned"]):
            counts["no_citation"] += 1
        for uid in row["expected"]:
            counts["expected"] += 1
            ok, _ = resolve(uid)
            if not ok:
                say(f"{row['id']}: expected {uid} does NOT exist")
                errors += 1
        for uid in row["nonexistent"]:
            counts["nonexistent"] += 1
            ok, _ = resolve(uid)
            if ok:
                say(f"{row['id']}: nonexistent {uid} DOES exist")
                errors += 1
        for uid in row["unpinned"]:
            counts["unpinned"] += 1
            law = uid.split("/")[1]
            if uid.startswith("eu/") or law in pinned:
                say(f"{row['id']}: unpinned {uid} is a pinned law")
                errors += 1
        html_text = html.unescape(row["text"])
        if not html_text:
            errors += 1
    say(json.dumps(counts))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
