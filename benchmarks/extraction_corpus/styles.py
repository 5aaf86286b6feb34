"""House styles (letterheads, running headers/footers) and the page layout engine.

The renderer places every word itself, so it knows the page of each word and
therefore the page(s) of every truth quote, including sentences that run across
a page break with a running footer and header between their halves.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass

import pymupdf

from .model import Block, Doc

DEJAVU = "/usr/share/fonts/truetype/dejavu/"
PAGE_W, PAGE_H = 595.0, 842.0
BOTTOM = PAGE_H - 95


@dataclass(frozen=True)
class HouseStyle:
    key: str
    regular: str  # a .ttf path or a Base-14 name
    bold: str
    size: float
    lead: float
    letterhead: str
    left: float = 70.0
    right: float = 530.0

    def clean(self, s: str) -> str:
        """Base-14 Helvetica cannot show €, dashes or curly quotes."""
        if self.regular.endswith(".ttf"):
            return s
        for a, b in (
            ("€", "EUR"),
            ("–", "-"),
            ("—", "-"),
            ("„", '"'),
            ("“", '"'),
            ("”", '"'),
            ("’", "'"),
            ("…", "..."),
        ):
            s = s.replace(a, b)
        return s


def _dv(name: str) -> str:
    return DEJAVU + name + ".ttf"


STYLES = {
    "kanzlei_zweispaltig": HouseStyle(
        "kanzlei_zweispaltig",
        _dv("DejaVuSerif"),
        _dv("DejaVuSerif-Bold"),
        10.5,
        14.5,
        "two_column",
    ),
    "din5008_firma": HouseStyle(
        "din5008_firma", _dv("DejaVuSans"), _dv("DejaVuSans-Bold"), 10, 13.5, "din"
    ),
    "helvetica_tabellen": HouseStyle(
        "helvetica_tabellen", "helv", "hebo", 10, 13.5, "banner"
    ),
    "english_business": HouseStyle(
        "english_business",
        _dv("DejaVuSansCondensed"),
        _dv("DejaVuSansCondensed-Bold"),
        10.5,
        14,
        "english",
    ),
    "schreibmaschine": HouseStyle(
        "schreibmaschine",
        _dv("DejaVuSansMono"),
        _dv("DejaVuSansMono-Bold"),
        9.5,
        13,
        "mono",
        right=525,
    ),
    "email": HouseStyle(
        "email", _dv("DejaVuSans"), _dv("DejaVuSans-Bold"), 10, 13.5, "email"
    ),
    "formular": HouseStyle(
        "formular", _dv("DejaVuSans"), _dv("DejaVuSans-Bold"), 9.5, 13, "form"
    ),
}

_FONTS: dict[str, pymupdf.Font] = {}


def _font(spec: str) -> pymupdf.Font:
    if spec not in _FONTS:
        _FONTS[spec] = (
            pymupdf.Font(fontfile=spec) if spec.endswith(".ttf") else pymupdf.Font(spec)
        )
    return _FONTS[spec]


def width(spec: str, text: str, size: float) -> float:
    return _font(spec).text_length(text, fontsize=size)


def put(page, x, y, text, spec, size, color=(0, 0, 0)) -> None:
    if spec.endswith(".ttf"):
        name = f"F{zlib.crc32(spec.encode()) % 100000}"
        page.insert_text(
            (x, y), text, fontname=name, fontfile=spec, fontsize=size, color=color
        )
    else:
        page.insert_text((x, y), text, fontname=spec, fontsize=size, color=color)


def put_right(page, x1, y, text, spec, size, color=(0, 0, 0)) -> None:
    put(page, x1 - width(spec, text, size), y, text, spec, size, color)


def put_center(page, y, text, spec, size, color=(0, 0, 0)) -> None:
    put(page, (PAGE_W - width(spec, text, size)) / 2, y, text, spec, size, color)


def _address_field(page, st: HouseStyle, doc: Doc, top: float) -> None:
    """DIN 5008 form B: return line, Vermerkzone, then the recipient."""
    if doc.sender:
        put(
            page,
            st.left,
            top,
            doc.sender[0] + " · " + ", ".join(doc.sender[1:3]),
            st.regular,
            7,
        )
        page.draw_line((st.left, top + 2), (st.left + 240, top + 2), width=0.3)
    if doc.vermerk:
        put(page, st.left, top + 14, st.clean(doc.vermerk), st.bold, 8.5)
    y = top + 32
    for line in doc.recipient:
        put(page, st.left, y, st.clean(line), st.regular, st.size)
        y += st.lead


def _info_block(page, st: HouseStyle, doc: Doc, x: float, y: float) -> None:
    for label, value in doc.refs + (
        [("Datum", doc.date_text)] if doc.date_text else []
    ):
        put(page, x, y, st.clean(label), st.regular, 7.5)
        put(page, x + 70, y, st.clean(value), st.regular, 8.5)
        y += 12


def letterhead(page, st: HouseStyle, doc: Doc, n: int) -> float:
    """Draw the page head; return the y where the body starts."""
    lh, s = st.letterhead, doc.sender or [""]
    if lh == "email":
        put(page, st.left, 40, st.clean(doc.title or s[0]), st.bold, 12)
        page.draw_line((st.left, 46), (st.right, 46), width=1.6)
        if n > 1:
            return 70
        y = 66.0
        for label, value in doc.email:
            put(page, st.left, y, label + ":", st.bold, 9.5)
            put(page, st.left + 78, y, st.clean(value), st.regular, 9.5)
            y += 13.5
        page.draw_line((st.left, y - 6), (st.right, y - 6), width=0.4)
        return y + 14
    if lh == "form":
        page.draw_rect(pymupdf.Rect(st.left, 40, st.right, 78), width=0.8)
        put(page, st.left + 10, 64, st.clean(doc.title), st.bold, 15)
        put_right(page, st.right - 10, 64, s[0], st.regular, 8)
        return 110
    if n > 1:
        if lh == "two_column":
            put(page, st.left, 50, s[0], st.bold, 9)
            put_right(page, st.right, 50, st.clean(doc.subject[:60]), st.regular, 7.5)
            page.draw_line((st.left, 56), (st.right, 56), width=0.4)
            return 85
        if lh == "mono":
            put_center(page, 50, f"- {n} -", st.regular, st.size)
            return 80
        if lh == "english":
            put(
                page, st.left, 50, f"{s[0]} – {doc.date_text} – page {n}", st.regular, 8
            )
            return 80
    # first page, or a letterhead repeated on every page (din, banner)
    if lh == "two_column":
        put(page, st.left, 62, s[0], st.bold, 17)
        put(
            page,
            st.left,
            76,
            "Rechtsanwälte · Fachanwälte für Handelsrecht",
            st.regular,
            8.5,
        )
        y = 44.0
        for line in s[1:]:
            put_right(page, st.right, y, line, st.regular, 7.5)
            y += 10
    elif lh == "din":
        put_center(page, 56, s[0], st.bold, 18)
        page.draw_line((st.left, 66), (st.right, 66), width=1.0)
        put_center(page, 78, " · ".join(s[1:4]), st.regular, 8)
    elif lh == "banner":
        page.draw_rect(
            pymupdf.Rect(0, 0, PAGE_W, 84), color=None, fill=(0.16, 0.28, 0.45)
        )
        put(page, st.left, 50, st.clean(s[0]), st.bold, 20, (1, 1, 1))
        y = 30.0
        for line in s[1:]:
            put_right(page, st.right, y, st.clean(line), st.regular, 8, (1, 1, 1))
            y += 11
    elif lh == "english":
        put(page, st.left, 58, s[0], st.bold, 16)
        y = 42.0
        for line in s[1:]:
            put_right(page, st.right, y, line, st.regular, 8)
            y += 10.5
        page.draw_line((st.left, 92), (st.right, 92), width=0.5)
    elif lh == "mono":
        put(page, st.left, 56, s[0].upper(), st.bold, 12)
        put(page, st.left, 70, " - ".join(s[1:3]), st.regular, 9)
        put(page, st.left, 80, "-" * 76, st.regular, 9)
    if n > 1:
        return 110
    if lh == "english":
        y = 120.0
        for line in doc.recipient:
            put(page, st.left, y, line, st.regular, st.size)
            y += st.lead
        y = max(y, 190) + 10
        for label, value in doc.refs:
            put(page, st.left, y, f"{label}: {value}", st.regular, 9)
            y += 12
        if doc.date_text:
            put_right(page, st.right, y, doc.date_text, st.regular, st.size)
            y += st.lead
        if doc.subject:
            y += 8
            put(page, st.left, y, doc.subject, st.bold, st.size)
        return y + 24
    if not doc.recipient:
        y = 130.0
    else:
        _address_field(page, st, doc, 138)
        _info_block(page, st, doc, 360, 170)
        y = 285.0
    if doc.subject:
        put(page, st.left, y, st.clean(doc.subject), st.bold, st.size)
        y += 26
    return y


def footer(page, st: HouseStyle, doc: Doc, n: int, total: int) -> None:
    lh, s = st.letterhead, doc.sender or [""]
    y = PAGE_H - 55
    if lh == "two_column":
        page.draw_line((st.left, y - 12), (st.right, y - 12), width=0.3)
        put(page, st.left, y, " · ".join(s[:3]), st.regular, 7)
        put_right(page, st.right, y, f"Seite {n} von {total}", st.regular, 8)
        put(page, st.left, y + 11, doc.initials, st.regular, 7)
    elif lh == "din":
        put_center(page, y, f"Seite {n} von {total}", st.regular, 8)
        put(page, st.left, y + 14, f"Geschäftsführung: {s[-1]}", st.regular, 7)
    elif lh == "banner":
        page.draw_line((st.left, y - 10), (st.right, y - 10), width=0.5)
        put(page, st.left, y, st.clean(" | ".join(s[:2])), st.regular, 7.5)
        put_right(page, st.right, y, f"Seite {n}/{total}", st.regular, 7.5)
    elif lh == "english":
        put_center(page, y, f"Page {n} of {total}", st.regular, 8)
        put(page, st.left, y + 12, doc.initials, st.regular, 7)
    elif lh == "mono":
        if doc.initials:
            put(page, st.left, y, doc.initials, st.regular, 8)
        if n < total:
            put_right(page, st.right, y, "./.", st.regular, st.size)
    elif lh == "email":
        put_center(page, y + 10, str(n), st.regular, 9)


WORD = re.compile(r"\S+")
FILLER_DE = [
    "Wir bitten um Beachtung.",
    "Rückfragen richten Sie bitte an uns.",
    "Auf unser Zeichen nehmen Sie bitte Bezug.",
    "Die Einzelheiten ergeben sich aus den Ihnen vorliegenden Unterlagen, auf die wir "
    "zur Vermeidung von Wiederholungen Bezug nehmen.",
    "Wir fassen den bisherigen Verlauf der Angelegenheit nachfolgend noch einmal "
    "zusammen, soweit er für die weitere Bearbeitung von Bedeutung ist.",
    "Sämtliche Unterlagen stehen Ihnen auf Wunsch in Kopie zur Verfügung.",
    "Der bisherige Schriftwechsel ist Ihnen bekannt, sodass wir auf eine erneute "
    "Darstellung der einzelnen Schreiben an dieser Stelle verzichten.",
    "Bitte haben Sie Verständnis dafür, dass wir telefonische Auskünfte zu diesem "
    "Vorgang nur nach vorheriger Terminabsprache erteilen können.",
    "Unsere Geschäftszeiten haben sich geändert; Sie erreichen uns montags bis "
    "donnerstags von 8 bis 17 Uhr und freitags bis 14 Uhr.",
]
FILLER_EN = [
    "Please note the following.",
    "Please quote our reference.",
    "Any queries should be sent to us.",
    "The details are set out in the documents already in your possession, to which we "
    "refer in order to avoid repetition.",
    "We summarise the course of events so far below, in so far as it is relevant to "
    "the further handling of this matter.",
    "Copies of all documents are available to you on request.",
    "You are familiar with the previous correspondence, so we will not set out the "
    "individual letters again at this point.",
    "Please understand that we can only give information on this matter by telephone "
    "after an appointment has been arranged.",
    "Our office hours have changed; you can reach us from Monday to Thursday between "
    "8 am and 5 pm and on Fridays until 2 pm.",
]


class Renderer:
    """Lays out one Doc; records the page(s) of every fact and every bad quote."""

    def __init__(self, doc: Doc) -> None:
        self.doc, self.st = doc, STYLES[doc.style]
        self.pdf = pymupdf.open()
        self.page: pymupdf.Page | None = None
        self.y = 0.0
        self.facts: list[tuple] = []  # (Fact, quote, pages)
        self.bads: list[tuple] = []  # (Bad, quote, pages)

    def new_page(self) -> None:
        self.page = self.pdf.new_page(width=PAGE_W, height=PAGE_H)
        self.y = letterhead(self.page, self.st, self.doc, self.pdf.page_count)

    def _line(self, words: list[str], spec: str, size: float, lead: float, x: float):
        if self.page is None or self.y + lead > BOTTOM:
            self.new_page()
        assert self.page is not None
        put(self.page, x, self.y, " ".join(words), spec, size)
        self.y += lead
        return self.pdf.page_count

    def _wrap(self, text: str, spec: str, size: float) -> list[list[tuple]]:
        lines: list[list[tuple]] = [[]]
        for m in WORD.finditer(text):
            trial = " ".join([x for _, x in lines[-1]] + [m.group()])
            if lines[-1] and width(spec, trial, size) > self.st.right - self.st.left:
                lines.append([])
            lines[-1].append((m.span(), m.group()))
        return lines

    def _fill_until_split(self, n_lines: int, lead: float) -> None:
        """Write neutral filler until a paragraph of n_lines breaks after 1-2 lines."""
        fill = FILLER_EN if self.doc.lang == "en" else FILLER_DE
        k = 0
        while k < 400:
            if self.page is None:
                self.new_page()
            room = int((BOTTOM - self.y) // lead)
            if 1 <= room < min(n_lines, 3):
                return
            text = fill[k % 3]
            if room - n_lines > 4:
                text = " ".join(fill[3 + (k + i) % (len(fill) - 3)] for i in range(2))
            self.para(Block("para", text=text))
            k += 1
        raise ValueError(f"{self.doc.name}: cannot place a page break in a paragraph")

    def para(self, b: Block) -> None:
        st = self.st
        text = st.clean(b.text)
        spec = st.bold if b.bold else st.regular
        size = b.size or st.size
        lead = st.lead * size / st.size
        wrapped = self._wrap(text, spec, size)
        if b.break_at is not None:
            if len(wrapped) < 2:
                raise ValueError(f"{self.doc.name}: too short to split: {text!r}")
            self._fill_until_split(len(wrapped), lead)
        elif self.page is not None and self.y + 2 * lead > BOTTOM:
            self.new_page()
        spans, pages = [], []
        for line in wrapped:
            pn = self._line([x for _, x in line], spec, size, lead, st.left)
            spans += [sp for sp, _ in line]
            pages += [pn] * len(line)
        self.y += lead * 0.55

        def locate(quote: str | None) -> tuple[str, list[int]]:
            q = st.clean(quote) if quote else text
            at = text.find(q)
            if at < 0:
                raise ValueError(f"{self.doc.name}: quote not in paragraph: {q!r}")
            hit = {
                p
                for (a, z), p in zip(spans, pages, strict=True)
                if a < at + len(q) and z > at
            }
            return q, sorted(hit)

        for f in b.facts:
            self.facts.append((f, *locate(f.quote)))
        for bad in b.bad:
            self.bads.append((bad, *locate(bad.quote)))

    def table(self, b: Block) -> None:
        st = self.st
        for r, cells in enumerate(b.rows):
            cells = [st.clean(c) for c in cells]
            if self.page is None or self.y + st.lead > BOTTOM:
                self.new_page()
            assert self.page is not None
            spec = st.bold if r == 0 else st.regular
            for (x0, x1, align), cell in zip(b.cols, cells, strict=False):
                if not cell:
                    continue
                size = st.size - 0.5
                while width(spec, cell, size) > x1 - x0 and size > 6:
                    size -= 0.5
                if align == "r":
                    put_right(self.page, x1, self.y, cell, spec, size)
                else:
                    put(self.page, x0, self.y, cell, spec, size)
            if r == 0:
                self.page.draw_line(
                    (st.left, self.y + 4), (st.right, self.y + 4), width=0.6
                )
            row = " ".join(c for c in cells if c)
            pn = self.pdf.page_count
            for f in b.row_facts.get(r, []):
                q = st.clean(f.quote) if f.quote else row
                assert q in row, (self.doc.name, q, row)
                self.facts.append((f, q, [pn]))
            for bad in b.row_bad.get(r, []):
                q = st.clean(bad.quote) if bad.quote else row
                self.bads.append((bad, q, [pn]))
            self.y += st.lead + 2
        self.y += 8

    def render(self) -> pymupdf.Document:
        for b in self.doc.blocks:
            if b.kind == "para":
                self.para(b)
            elif b.kind == "table":
                self.table(b)
            elif b.kind == "space":
                if self.page is None:
                    self.new_page()
                self.y += b.size or 8
            elif b.kind == "sig":
                if self.page is None or self.y + 14 * len(b.rows) > BOTTOM:
                    self.new_page()
                self.y += 10
                for (line,) in b.rows:
                    put(
                        self.page,
                        self.st.left,
                        self.y,
                        self.st.clean(line),
                        self.st.regular,
                        self.st.size,
                    )
                    self.y += self.st.lead
        if self.page is None:
            self.new_page()
        total = self.pdf.page_count
        for i in range(total):
            page = self.pdf[i]
            footer(page, self.st, self.doc, i + 1, total)
        return self.pdf
