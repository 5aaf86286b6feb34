"""Units of reading: the sentences and table rows of a chunk, as spans of its
text, so that every quote is a verbatim slice of what the gate checks.

PyMuPDF's layout (``evidence.extraction``) joins the spans of one block with
line breaks and separates blocks by a blank line. A table row whose cells share
a baseline lands in one block ("Gesamtbetrag\\n12.447,40 €"), so a block is the
row unit, and the quote matcher reads its line breaks as spaces ("Gesamtbetrag
12.447,40 €"). Prose blocks are split into sentences; a running header or
footer between the halves of a sentence is a block of its own and so never
enters a quote. Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass

_PARAGRAPH = re.compile(r"\n[ \t]*\n")
# A sentence ends at . ! ? followed by whitespace and an upper-case letter,
# a digit or an opening quote - except after the abbreviations letters use.
_END = re.compile(
    r"(?<=[.!?])[\"“”»]?\s+(?=[A-ZÄÖÜ0-9„\"“»(])"  # . then a capital
    r"|(?<=[.!?])[ \t]*\n\s*"  # . at a line end (OCR loses the capitals)
)
_ABBREVIATION_LIST = (
    "nr dr abs art bzw ca ggf hs inkl vgl str tel co no mr mrs ms st zb usw evtl "
    "z.b u.a s ziff lit gem bgb rvg vv i.v i.a b.v n.v s.a s.r.l ref az rn rz tz"
)
_ABBREVIATIONS = frozenset(_ABBREVIATION_LIST.split())
# Leading debris of OCR lines and bullets; the quote starts at a letter/digit.
_LEAD = re.compile(r"^[\s‘'\"„“”»«·•\-–|:;,.~_=*]+")
_TRAIL = re.compile(r"[\s|~_=*]+$")


@dataclass(frozen=True)
class Unit:
    """A sentence or a table row: ``text`` is ``chunk[start:end]``."""

    start: int
    end: int
    text: str
    paragraph: int  # index of its block in the chunk
    # What the rules read: the text, or for a sentence cut by a page break
    # both halves without the page furniture between them.
    reading: str = ""

    def __post_init__(self) -> None:
        if not self.reading:
            object.__setattr__(self, "reading", self.text)


def _abbreviation_before(text: str, period: int) -> bool:
    word = re.search(r"([\wäöüÄÖÜß.]+)\.$", text[max(0, period - 12) : period + 1])
    if not word:
        return False
    token = word.group(1).lower()
    return token in _ABBREVIATIONS or len(token) == 1 or token.isdigit()


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    piece = text[start:end]
    lead = _LEAD.match(piece)
    if lead:
        start += lead.end()
    piece = text[start:end]
    trail = _TRAIL.search(piece)
    if trail:
        end -= len(piece) - trail.start()
    return start, end


def units(text: str) -> list[Unit]:
    """The sentences and rows of ``text`` in order."""
    found: list[Unit] = []
    cursor = 0
    paragraphs: list[tuple[int, int]] = []
    for m in _PARAGRAPH.finditer(text):
        paragraphs.append((cursor, m.start()))
        cursor = m.end()
    paragraphs.append((cursor, len(text)))
    paragraphs = [piece for p in paragraphs for piece in _without_debris(text, *p)]
    paragraphs = [piece for p in paragraphs for piece in _table_lines(text, *p)]
    for index, (p_start, p_end) in enumerate(paragraphs):
        s = p_start
        for m in _END.finditer(text, p_start, p_end):
            period = m.start() - 1
            while period > s and text[period] not in ".!?":
                period -= 1
            if text[period] == "." and _abbreviation_before(text, period):
                continue
            found.append(_unit(text, s, m.start(), index))
            s = m.end()
        found.append(_unit(text, s, p_end, index))
    return _joined_across_breaks(text, [u for u in found if u.text.strip()])


# Furniture between the halves of a sentence: page numbers, "Seite 1 von 2",
# initials, a repeated letterhead line, a running subject line.
_FURNITURE_MAX = 90
_TERMINAL = (".", "!", "?", ":", ";")


_FURNITURE = re.compile(
    r"Seite\s+\d+\s*(?:von|/)\s*\d+|Page\s+\d+\s+of\s+\d+|^\s*-\s*\d+\s*-\s*$"
    r"|^\s*\d{1,3}\s*$|\./\.|^\s*[A-ZÄÖÜ][\w.]{0,4}\s?[A-ZÄÖÜ]?\.?/\w{1,4}\s*$",
    re.IGNORECASE | re.MULTILINE,
)
_LABEL_LINE = re.compile(r"^[\w\-. ]{2,30}:\s*\S", re.MULTILINE)


def _prose(text: str) -> bool:
    """A sentence rather than a label block ("Rechnungsdatum: 28.04.2026")."""
    return len(text.split()) >= 6 and not _LABEL_LINE.search(text)


def _joined_across_breaks(text: str, found: list[Unit]) -> list[Unit]:
    """A sentence that a page break cut in two ("… mit der Wahrnehmung ihrer"
    / footer / header / "rechtlichen Interessen beauftragt hat; …") is read
    as one: its second half starts in lower case after at most a few short
    lines of which one at least is page furniture (a page number, "Seite 1
    von 2", initials). With nothing between the halves (ingestion kept
    the furniture out of the flow) the quote is the whole sentence; otherwise
    it is the half that carries the figures (a date or an amount), so that it
    is verbatim on one page, and the rules read both halves."""
    out: list[Unit] = []
    i = 0
    while i < len(found):
        unit = found[i]
        j = i + 1
        if _prose(unit.text) and not unit.text.rstrip().endswith(_TERMINAL):
            while (
                j < len(found)
                and j - i <= 6
                and len(found[j].text) <= _FURNITURE_MAX
                and not found[j].text[:1].islower()
                and not found[j].text.rstrip().endswith((".", "!", "?"))
            ):
                j += 1
            between = found[i + 1 : j]
            if (
                j < len(found)
                and found[j].text[:1].islower()
                and (not between or any(_FURNITURE.search(u.text) for u in between))
            ):
                if j == i + 1:  # nothing between the halves: one quote
                    end = found[j].end
                    whole = Unit(
                        unit.start, end, text[unit.start : end], found[j].paragraph
                    )
                    out.append(whole)
                else:
                    out.append(_halves(unit, found[j]))
                i = j + 1
                continue
        out.append(unit)
        i += 1
    return out


_WORD = re.compile(r"[^\W\d_]{3,}")


_ROW_END = re.compile(
    r"\d[\d.,]*\s?(?:€|EUR|Euro)\s*$|(?:€|EUR)\s?\d[\d.,]*\d\s*$", re.I
)


def _table_lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A block that is a whole table set as text lines ("Mahnkosten    5,00 €"
    under "Hauptforderung    4.250,00 €"): every line ends in an amount, so
    every line is a row of its own."""
    lines: list[tuple[int, int]] = []
    pos = start
    while pos <= end:
        nl = text.find("\n", pos, end)
        line_end = end if nl < 0 else nl
        lines.append((pos, line_end))
        if nl < 0:
            break
        pos = nl + 1
    filled = [(s, e) for s, e in lines if text[s:e].strip()]
    if len(filled) >= 2 and all(_ROW_END.search(text[s:e]) for s, e in filled):
        return filled
    return [(start, end)]


def _is_debris(line: str) -> bool:
    """A line of OCR noise ("ug,", "|", "Bas"): no digit, and short or
    without a word of three letters."""
    stripped = line.strip()
    if len(stripped) <= 2:
        return True
    if re.search(r"\d", stripped):
        return False
    return len(stripped) <= 4 or not _WORD.search(stripped)


def _without_debris(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The block cut at lines of OCR noise, which separate like blank lines."""
    pieces: list[tuple[int, int]] = []
    piece_start = start
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        line_end = end if nl < 0 else nl
        if _is_debris(text[pos:line_end]) and text[pos:line_end].strip() != "":
            if pos > piece_start:
                pieces.append((piece_start, pos))
            piece_start = line_end + 1
        pos = line_end + 1
    if piece_start < end:
        pieces.append((piece_start, end))
    return pieces or [(start, end)]


def _unit(text: str, start: int, end: int, paragraph: int) -> Unit:
    start, end = _trimmed(text, start, end)
    # OCR debris: lines without a word of three letters at either end
    while True:
        nl = text.find("\n", start, end)
        if nl < 0 or _WORD.search(text, start, nl) or re.search(r"\d", text[start:nl]):
            break
        start, end = _trimmed(text, nl + 1, end)
    while True:
        nl = text.rfind("\n", start, end)
        if nl < 0 or _WORD.search(text, nl, end) or re.search(r"\d", text[nl:end]):
            break
        start, end = _trimmed(text, start, nl)
    return Unit(start, end, text[start:end] if end > start else "", paragraph)


def squash(text: str) -> str:
    """Whitespace runs as one space (how the quote matcher reads them)."""
    return re.sub(r"\s+", " ", text).strip()


def _halves(first: Unit, second: Unit) -> Unit:
    reading = f"{first.text} {second.text}"
    quoted = second if re.search(r"\d", second.text) else first
    return Unit(quoted.start, quoted.end, quoted.text, second.paragraph, reading)
