"""A small letter typesetter on PyMuPDF for the demo case file: letterhead,
address window (DIN 5008 form B, roughly), information block, flowing
paragraphs with automatic page breaks, amount tables, signatures, footers with
the firm's register and bank details, page numbers, and a "scanned" page that
carries no text layer.

Text is set line by line with a TrueType font (DejaVu Sans) so that the text
layer says "€", "ä" and plain spaces the way a word processor's PDF does. A
table row is one line of text (label, padding, amount), so that PDF text
extraction keeps a label and its amount on one line."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pymupdf

fitz: Any = pymupdf

A4_W, A4_H = 595.0, 842.0
LEFT = 70.0
RIGHT = A4_W - 62.0
TOP_BODY = 100.0
BOTTOM = A4_H - 92.0  # above the footer

_FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
_FONTS = {
    "regular": _FONT_DIR / "DejaVuSans.ttf",
    "bold": _FONT_DIR / "DejaVuSans-Bold.ttf",
    "italic": _FONT_DIR / "DejaVuSans-Oblique.ttf",
}
HAS_TRUETYPE = all(path.is_file() for path in _FONTS.values())
# Without DejaVu the Base-14 Helvetica is used; it cannot put "€" into the text
# layer, so amounts then read "EUR".
_BASE14 = {"regular": "helv", "bold": "hebo", "italic": "heit"}

INK = (0.08, 0.08, 0.1)
GREY = (0.38, 0.38, 0.42)
PEN_BLUE = (0.1, 0.18, 0.55)


@dataclass(frozen=True)
class Firm:
    """Who writes: the letterhead and the footer."""

    name: str
    street: str
    city: str
    tagline: str = ""
    phone: str = ""
    email: str = ""
    web: str = ""
    register: str = ""  # e.g. "Amtsgericht Chemnitz HRB 12345"
    management: str = ""  # e.g. "Geschäftsführer: Jens Müller"
    vat_id: str = ""
    bank: str = ""  # e.g. "Sparkasse Chemnitz · IBAN DE.. · BIC .."
    colour: tuple[float, float, float] = (0.1, 0.25, 0.45)

    @property
    def sender_line(self) -> str:
        return f"{self.name} · {self.street} · {self.city}"


@dataclass
class _Fonts:
    objects: dict[str, Any] = field(default_factory=dict)

    def font(self, style: str) -> Any:
        if style not in self.objects:
            if HAS_TRUETYPE:
                self.objects[style] = fitz.Font(fontfile=str(_FONTS[style]))
            else:
                self.objects[style] = fitz.Font(_BASE14[style])
        return self.objects[style]


def _plain(text: str) -> str:
    return text if HAS_TRUETYPE else text.replace("€", "EUR")


class Letter:
    """One PDF document of one or more pages, written top to bottom."""

    def __init__(
        self,
        *,
        firm: Firm | None,
        title: str,
        author: str,
        number_pages: bool = True,
    ) -> None:
        self.doc = fitz.open()
        self.firm = firm
        self.fonts = _Fonts()
        self.title = title
        self.author = author
        self.page: Any = None
        self.y = 0.0
        self.running_head = ""
        # Without numbers a sentence across a page break meets no footer line.
        self._numbered = not number_pages
        self.new_page()

    # -- pages ------------------------------------------------------------------
    def new_page(self) -> None:
        self.page = self.doc.new_page(width=A4_W, height=A4_H)
        first = len(self.doc) == 1
        if self.firm is not None and first:
            self._letterhead()
            self.y = 150.0
        elif self.firm is not None:
            self._small_head()
            self.y = 88.0
        else:
            self.y = 60.0
        if self.firm is not None:
            self._footer()

    def _font_args(self, style: str) -> dict[str, Any]:
        if HAS_TRUETYPE:
            return {"fontname": f"dj{style[0]}", "fontfile": str(_FONTS[style])}
        return {"fontname": _BASE14[style]}

    def text_at(
        self,
        x: float,
        y: float,
        text: str,
        *,
        size: float = 10.0,
        style: str = "regular",
        colour: tuple[float, float, float] = INK,
        align: str = "left",
    ) -> None:
        text = _plain(text)
        if align == "right":
            x -= self.width(text, size=size, style=style)
        elif align == "centre":
            x -= self.width(text, size=size, style=style) / 2
        self.page.insert_text(
            (x, y), text, fontsize=size, color=colour, **self._font_args(style)
        )

    def width(self, text: str, *, size: float = 10.0, style: str = "regular") -> float:
        return float(self.fonts.font(style).text_length(_plain(text), fontsize=size))

    def _letterhead(self) -> None:
        firm = self.firm
        assert firm is not None
        self.text_at(RIGHT, 58, firm.name, size=17, style="bold", colour=firm.colour,
                     align="right")  # fmt: skip
        if firm.tagline:
            self.text_at(RIGHT, 73, firm.tagline, size=8.5, colour=GREY, align="right")
        self.page.draw_line((LEFT, 84), (RIGHT, 84), color=firm.colour, width=1.2)
        contact = " · ".join(p for p in (firm.phone, firm.email, firm.web) if p)
        if contact:
            self.text_at(RIGHT, 96, contact, size=7.5, colour=GREY, align="right")
        # fold and punch marks (DIN 5008)
        for y in (297.6, 421.0, 595.3):
            self.page.draw_line((12, y), (22 if y != 421.0 else 18, y),
                                color=GREY, width=0.4)  # fmt: skip

    def _small_head(self) -> None:
        firm = self.firm
        assert firm is not None
        self.text_at(LEFT, 50, firm.name, size=9, style="bold", colour=firm.colour)
        if self.running_head:
            self.text_at(RIGHT, 50, self.running_head, size=7.5, colour=GREY,
                         align="right")  # fmt: skip
        self.page.draw_line((LEFT, 58), (RIGHT, 58), color=firm.colour, width=0.6)

    def _footer(self) -> None:
        firm = self.firm
        assert firm is not None
        self.page.draw_line((LEFT, A4_H - 70), (RIGHT, A4_H - 70), color=GREY,
                            width=0.4)  # fmt: skip
        cols = [
            [firm.name, firm.street, firm.city],
            [p for p in (firm.management, firm.register, firm.vat_id) if p],
            [p.strip() for p in firm.bank.split("·") if p.strip()],
        ]
        xs = [LEFT, LEFT + 150, LEFT + 320]
        for x, lines in zip(xs, cols, strict=True):
            for i, line in enumerate(lines):
                self.text_at(x, A4_H - 58 + i * 9, line, size=6.5, colour=GREY)

    def page_numbers(self) -> None:
        total = len(self.doc)
        if total < 2 or self._numbered:
            return
        self._numbered = True
        for number in range(total):
            page = self.doc[number]
            text = _plain(f"Seite {number + 1} von {total}")
            x = RIGHT - self.width(text, size=7.5)
            page.insert_text((x, A4_H - 78), text, fontsize=7.5, color=GREY,
                             **self._font_args("regular"))  # fmt: skip

    # -- blocks -----------------------------------------------------------------
    def address_window(
        self, recipient: Sequence[str], *, note: str = "", sender: str = ""
    ) -> None:
        """Sender line, a delivery note (e.g. "Einwurf-Einschreiben") and the
        recipient in the window of a DL envelope."""
        top = 128.0
        sender = sender or (self.firm.sender_line if self.firm else "")
        if sender:
            self.text_at(LEFT, top, sender, size=6.5, colour=GREY)
            self.page.draw_line((LEFT, top + 2.5),
                                (LEFT + self.width(sender, size=6.5), top + 2.5),
                                color=GREY, width=0.3)  # fmt: skip
        y = top + 16
        if note:
            self.text_at(LEFT, y, note, size=9, style="bold")
            y += 16
        for line in recipient:
            self.text_at(LEFT, y, line, size=10)
            y += 13
        self._window_bottom = y

    def info_block(self, rows: Sequence[str]) -> None:
        """The block right of the address window: references, contact, date.
        Each row is one line; a date row such as "Chemnitz, 20.05.2026" stays
        a line of its own."""
        x = 360.0
        y = 140.0
        for row in rows:
            self.text_at(x, y, row, size=8.5)
            y += 12
        self.y = max(getattr(self, "_window_bottom", 0.0), y) + 34

    def vspace(self, points: float) -> None:
        self.y += points

    def _ensure(self, height: float) -> None:
        if self.y + height > BOTTOM:
            self.new_page()

    def heading(self, text: str, *, size: float = 11.5) -> None:
        self._ensure(size * 2.2)
        for line in self._wrap(text, size=size, style="bold"):
            self.text_at(LEFT, self.y, line, size=size, style="bold")
            self.y += size * 1.35
        self.y += 8

    def paragraph(
        self,
        text: str,
        *,
        size: float = 10.0,
        style: str = "regular",
        break_after_lines: int | None = None,
        indent: float = 0.0,
        gap: float = 7.0,
    ) -> None:
        """Flowing text; a page break falls where the page ends (or after
        ``break_after_lines`` lines, to place a sentence across the break)."""
        leading = size * 1.42
        for index, line in enumerate(
            self._wrap(text, size=size, style=style, indent=indent)
        ):
            if index and index == break_after_lines:
                self.new_page()
            if self.y + leading > BOTTOM:
                self.new_page()
            self.text_at(LEFT + indent, self.y, line, size=size, style=style)
            self.y += leading
        self.y += gap

    def lines(self, rows: Sequence[str], *, size: float = 10.0) -> None:
        """Short lines kept together (a greeting, a list)."""
        self._ensure(len(rows) * size * 1.42)
        for row in rows:
            self.text_at(LEFT, self.y, row, size=size)
            self.y += size * 1.42
        self.y += 7

    def amount_table(
        self,
        rows: Sequence[tuple[str, str]],
        *,
        right: float = 470.0,
        size: float = 10.0,
        indent: float = 0.0,
        bold_last: bool = False,
        rule_before_last: bool = False,
    ) -> None:
        """Label … amount rows, the amounts right-aligned at ``right``. Each row
        is written as one line (label, spaces, amount), as a word processor's
        tab would look in the text layer."""
        self._ensure(len(rows) * size * 1.5 + 10)
        for index, (label, amount) in enumerate(rows):
            last = index == len(rows) - 1
            style = "bold" if (bold_last and last) else "regular"
            if last and rule_before_last:
                start, end = (LEFT + indent, self.y - size), (right, self.y - size)
                self.page.draw_line(start, end, color=INK, width=0.5)
                self.y += 3
            self.text_at(LEFT + indent, self.y,
                         self._padded(label, amount, LEFT + indent, right, size, style),
                         size=size, style=style)  # fmt: skip
            self.y += size * 1.5
        self.y += 8

    def _padded(
        self, label: str, amount: str, x: float, right: float, size: float, style: str
    ) -> str:
        label_w = self.width(label, size=size, style=style)
        amount_w = self.width(amount, size=size, style=style)
        space_w = self.width(" ", size=size, style=style)
        gap = right - amount_w - (x + label_w)
        spaces = max(2, math.floor(gap / space_w))
        return f"{label}{' ' * spaces}{amount}"

    def signature(
        self,
        closing: Sequence[str],
        name: str,
        *,
        seed: int,
        x: float = LEFT,
        role: str = "",
    ) -> None:
        """Closing lines, a hand-drawn (blue ink) signature and the typed name."""
        self._ensure(len(closing) * 14 + 70)
        for line in closing:
            self.text_at(x, self.y, line, size=10)
            self.y += 14
        self.draw_signature(x + 4, self.y + 6, seed=seed)
        self.y += 40
        self.text_at(x, self.y, name, size=10)
        if role:
            self.y += 12
            self.text_at(x, self.y, role, size=8.5, colour=GREY)
        self.y += 20

    def draw_signature(self, x: float, y: float, *, seed: int) -> None:
        rnd = random.Random(seed)
        shape = self.page.new_shape()
        px, py = x, y + 14
        for _ in range(7):
            nx = px + rnd.uniform(14, 24)
            ny = y + rnd.uniform(4, 26)
            c1 = (px + rnd.uniform(2, 8), py - rnd.uniform(10, 22))
            c2 = (nx - rnd.uniform(2, 8), ny + rnd.uniform(8, 20))
            shape.draw_bezier((px, py), c1, c2, (nx, ny))
            px, py = nx, ny
        shape.draw_line((x - 2, y + 24), (px + 6, y + 20))
        shape.finish(color=PEN_BLUE, width=1.1, closePath=False)
        shape.commit()

    def _wrap(
        self, text: str, *, size: float, style: str, indent: float = 0.0
    ) -> list[str]:
        width = RIGHT - LEFT - indent
        out: list[str] = []
        for raw in text.split("\n"):
            line = ""
            for word in raw.split(" "):
                candidate = f"{line} {word}" if line else word
                if line and self.width(candidate, size=size, style=style) > width:
                    out.append(line)
                    line = word
                else:
                    line = candidate
            out.append(line)
        return out

    # -- output -----------------------------------------------------------------
    def to_bytes(self) -> bytes:
        self.page_numbers()
        self.doc.set_metadata(
            {
                "title": self.title,
                "author": self.author,
                "creator": "Belegt demo case",
                "producer": "PyMuPDF",
                "creationDate": "",
                "modDate": "",
            }
        )
        if HAS_TRUETYPE:
            self.doc.subset_fonts()
        data = self.doc.tobytes(garbage=4, deflate=True, no_new_id=True)
        self.doc.close()
        return bytes(data)


def scanned(letter: Letter, *, seed: int, dpi: int = 150, tilt: float = 0.6) -> bytes:
    """The letter as a scan: every page rendered to a slightly tilted grey
    image with specks, placed on an A4 page without any text layer."""
    rnd = random.Random(seed)
    for page in letter.doc:
        shape = page.new_shape()
        for _ in range(90):
            cx, cy = rnd.uniform(0, A4_W), rnd.uniform(0, A4_H)
            shape.draw_circle((cx, cy), rnd.uniform(0.2, 0.7))
        shape.finish(color=None, fill=(0.55, 0.55, 0.55))
        shape.commit()
    letter.page_numbers()
    source = letter.doc
    out = fitz.open()
    zoom = dpi / 72.0
    for page in source:
        matrix = fitz.Matrix(zoom, zoom).prerotate(tilt)
        pix = page.get_pixmap(matrix=matrix, colorspace=fitz.csGRAY, alpha=False)
        pix.gamma_with(0.85)  # a little darker, like a copier
        target = out.new_page(width=A4_W, height=A4_H)
        target.insert_image(
            target.rect,
            stream=pix.tobytes("jpeg", jpg_quality=72),
            keep_proportion=False,
        )
    out.set_metadata(
        {"title": letter.title, "author": letter.author, "creator": "Scanner",
         "producer": "PyMuPDF", "creationDate": "", "modDate": ""}
    )  # fmt: skip
    data = out.tobytes(garbage=4, deflate=True, no_new_id=True)
    out.close()
    source.close()
    return bytes(data)
