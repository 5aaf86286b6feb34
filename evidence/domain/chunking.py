"""Chunking of a document's pages into search passages. Pure: no database.

The pages are read as one stream (pages joined by a paragraph break). The
stream is cut into paragraphs (the blocks of the layout), a paragraph that ends
a page without closing punctuation continues on the next page, paragraphs are
cut into sentences, and whole sentences are packed into chunks of about
``target_chars`` characters. A chunk repeats the last sentences of the one
before (up to ``overlap_chars``), so a statement near a boundary is found with
its context. Only a sentence longer than the target is split (at whitespace).

Each chunk records where it lies: per page, the offsets into that page's text
and the line boxes (cut proportionally for a partly covered line) to highlight.
A sentence across a page break lands in one chunk with two spans; the running
header and footer between its halves are left out of the flow (``PageInput.flow``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

PAGE_SEPARATOR = "\n\n"
PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
SENTENCE_END = re.compile(r"[.!?…]+[\"'»«“”)\]]*(?=\s+[\"'»«„“(\[]?[A-ZÄÖÜ0-9§])")
CLOSING = tuple(".!?:…\"'»«“”)")
# Abbreviations after which a period does not end a sentence (lower case).
ABBREVIATIONS = frozenset(
    {
        "abs",
        "art",
        "bzw",
        "ca",
        "dr",
        "evtl",
        "ff",
        "ggf",
        "gem",
        "geb",
        "hr",
        "hrn",
        "fr",
        "inkl",
        "jr",
        "lit",
        "mio",
        "mrd",
        "nr",
        "nrn",
        "o.ä",
        "prof",
        "rn",
        "rz",
        "sog",
        "str",
        "tel",
        "u.a",
        "u.ä",
        "usw",
        "vgl",
        "z.b",
        "z.t",
        "zzgl",
        "ziff",
        "az",
        "anl",
        "i.v",
        "i.a",
        "d.h",
        "u.u",
        "o.g",
        "s.o",
        "s.u",
        "m.e",
        "m.w.n",
        "a.a.o",
        "i.s.d",
        "i.v.m",
        "no",
        "vol",
        "pp",
        "seq",
        "cf",
        "e.g",
        "i.e",
    }
)


@dataclass(frozen=True)
class LineBox:
    start: int
    end: int
    bbox: tuple[float, float, float, float]


@dataclass(frozen=True)
class PageInput:
    """A page's text and line boxes. ``flow`` is the part of the text that
    joins the document's text flow (without the running header and footer
    between pages, see ``evidence.domain.running``); None is all of it."""

    number: int
    text: str
    lines: tuple[LineBox, ...] = ()
    flow: tuple[int, int] | None = None

    def flow_range(self) -> tuple[int, int]:
        if self.flow is None:
            return 0, len(self.text)
        start, end = self.flow
        return max(0, start), min(len(self.text), max(start, end))


@dataclass(frozen=True)
class Span:
    page: int
    start: int
    end: int
    boxes: tuple[tuple[float, float, float, float], ...]

    def as_json(self) -> dict[str, object]:
        return {
            "page": self.page,
            "start": self.start,
            "end": self.end,
            "boxes": [list(box) for box in self.boxes],
        }


@dataclass(frozen=True)
class ChunkSpec:
    ordinal: int
    text: str
    page_start: int
    page_end: int
    spans: tuple[Span, ...]


@dataclass(frozen=True)
class ChunkingConfig:
    target_chars: int = 1200
    overlap_chars: int = 200

    def __post_init__(self) -> None:
        if self.target_chars < 50:
            raise ValueError("target_chars must be at least 50")
        if not 0 <= self.overlap_chars < self.target_chars:
            raise ValueError("overlap_chars must be below target_chars")


@dataclass(frozen=True)
class _PageRange:
    """Where a page's flow lies in the stream: stream ``start..end`` is page
    text ``base..base + (end - start)``."""

    page: PageInput
    start: int
    end: int
    base: int


@dataclass
class _Stream:
    text: str
    page_ranges: list[_PageRange] = field(default_factory=list)


def _build_stream(pages: list[PageInput]) -> _Stream:
    parts: list[str] = []
    stream = _Stream(text="")
    offset = 0
    for index, page in enumerate(pages):
        if index:
            parts.append(PAGE_SEPARATOR)
            offset += len(PAGE_SEPARATOR)
        flow_start, flow_end = page.flow_range()
        piece = page.text[flow_start:flow_end]
        stream.page_ranges.append(
            _PageRange(page, offset, offset + len(piece), flow_start)
        )
        parts.append(piece)
        offset += len(piece)
    stream.text = "".join(parts)
    return stream


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _paragraphs(stream: _Stream) -> list[tuple[int, int]]:
    """Paragraph ranges in the stream; a paragraph that ends a page without
    closing punctuation is joined with the first paragraph of the next page."""
    per_page: list[list[tuple[int, int]]] = []
    for part in stream.page_ranges:
        page_start, page_end = part.start, part.end
        ranges: list[tuple[int, int]] = []
        cursor = 0
        for match in PARAGRAPH_BREAK.finditer(stream.text, page_start, page_end):
            ranges.append((page_start + cursor, match.start()))
            cursor = match.end() - page_start
        ranges.append((page_start + cursor, page_end))
        trimmed = [_trimmed(stream.text, s, e) for s, e in ranges]
        per_page.append([(s, e) for s, e in trimmed if e > s])
    result: list[tuple[int, int]] = []
    carry: tuple[int, int] | None = None
    for paragraphs in per_page:
        for index, (start, end) in enumerate(paragraphs):
            if carry is not None and index == 0:
                start = carry[0]
                carry = None
            if carry is not None:
                result.append(carry)
                carry = None
            is_last = index == len(paragraphs) - 1
            if is_last and not stream.text[start:end].endswith(CLOSING):
                carry = (start, end)
            else:
                result.append((start, end))
        # An empty page ends a paragraph that was waiting for its continuation.
        if not paragraphs and carry is not None:
            result.append(carry)
            carry = None
    if carry is not None:
        result.append(carry)
    return result


def _is_abbreviation(text: str, period_at: int) -> bool:
    """Whether the period at ``period_at`` closes an abbreviation, an ordinal or
    a date part rather than a sentence."""
    start = period_at
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    token = text[start:period_at].strip("(\"'„“»«").lower()
    if not token:
        return False
    if token.replace(".", "").isdigit():  # "1." "26." "26.04."
        return True
    if len(token) == 1 and token.isalpha():  # initials, "S."
        return True
    return token in ABBREVIATIONS or token.rstrip(".") in ABBREVIATIONS


def _sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    result: list[tuple[int, int]] = []
    cursor = start
    for match in SENTENCE_END.finditer(text, start, end):
        if match.group().startswith(".") and _is_abbreviation(text, match.start()):
            continue
        result.append(_trimmed(text, cursor, match.end()))
        cursor = match.end()
    result.append(_trimmed(text, cursor, end))
    return [(s, e) for s, e in result if e > s]


def _split_long(text: str, start: int, end: int, limit: int) -> list[tuple[int, int]]:
    """Cut a unit longer than ``limit`` at whitespace (or hard, if it has none)."""
    pieces: list[tuple[int, int]] = []
    while end - start > limit:
        cut = text.rfind(" ", start + 1, start + limit)
        cut = cut if cut > start else start + limit
        pieces.append(_trimmed(text, start, cut))
        start, _ = _trimmed(text, cut, end)
    pieces.append((start, end))
    return [(s, e) for s, e in pieces if e > s]


@dataclass(frozen=True)
class _Unit:
    start: int
    end: int
    paragraph: int
    paragraph_end: int


def _units(stream: _Stream, config: ChunkingConfig) -> list[_Unit]:
    units: list[_Unit] = []
    for index, (p_start, p_end) in enumerate(_paragraphs(stream)):
        for s_start, s_end in _sentences(stream.text, p_start, p_end):
            for start, end in _split_long(
                stream.text, s_start, s_end, config.target_chars
            ):
                units.append(_Unit(start, end, index, p_end))
    return units


def _overlap_tail(units: list[_Unit], overlap: int) -> list[_Unit]:
    """The trailing units of a chunk that fit in ``overlap`` characters (never
    all of them, so that chunking always moves on)."""
    tail: list[_Unit] = []
    for unit in reversed(units[1:]):
        if units[-1].end - unit.start > overlap:
            break
        tail.insert(0, unit)
    return tail


def _pack(units: list[_Unit], config: ChunkingConfig) -> list[list[_Unit]]:
    target = config.target_chars
    soft_minimum = int(target * 0.6)
    groups: list[list[_Unit]] = []
    current: list[_Unit] = []
    for unit in units:
        if current:
            size = current[-1].end - current[0].start
            with_unit = unit.end - current[0].start
            new_paragraph = unit.paragraph != current[-1].paragraph
            paragraph_overflows = unit.paragraph_end - current[0].start > target
            if with_unit > target or (
                new_paragraph and size >= soft_minimum and paragraph_overflows
            ):
                groups.append(current)
                tail = _overlap_tail(current, config.overlap_chars)
                if tail and unit.end - tail[0].start > target:
                    tail = []
                current = [*tail, unit]
                continue
        current.append(unit)
    if current:
        groups.append(current)
    return groups


def _line_boxes(
    page: PageInput, start: int, end: int
) -> tuple[tuple[float, float, float, float], ...]:
    boxes: list[tuple[float, float, float, float]] = []
    for line in page.lines:
        a, b = max(line.start, start), min(line.end, end)
        if a >= b:
            continue
        x0, y0, x1, y1 = line.bbox
        length = max(line.end - line.start, 1)
        left = x0 + (x1 - x0) * (a - line.start) / length
        right = x0 + (x1 - x0) * (b - line.start) / length
        boxes.append((round(left, 2), y0, round(right, 2), y1))
    return tuple(boxes)


def _spans(stream: _Stream, start: int, end: int) -> tuple[Span, ...]:
    spans: list[Span] = []
    for part in stream.page_ranges:
        page = part.page
        a, b = max(start, part.start), min(end, part.end)
        if a >= b:
            continue
        local_start, local_end = _trimmed(
            page.text, a - part.start + part.base, b - part.start + part.base
        )
        if local_end <= local_start:
            continue
        spans.append(
            Span(
                page=page.number,
                start=local_start,
                end=local_end,
                boxes=_line_boxes(page, local_start, local_end),
            )
        )
    return tuple(spans)


def chunk_pages(
    pages: list[PageInput], config: ChunkingConfig | None = None
) -> list[ChunkSpec]:
    """Chunks of the pages in page order. Deterministic: the same pages always
    give the same chunks (which makes re-running ingestion idempotent)."""
    config = config or ChunkingConfig()
    ordered = sorted(pages, key=lambda page: page.number)
    stream = _build_stream(ordered)
    chunks: list[ChunkSpec] = []
    for ordinal, group in enumerate(_pack(_units(stream, config), config)):
        start, end = group[0].start, group[-1].end
        spans = _spans(stream, start, end)
        if not spans:
            continue
        chunks.append(
            ChunkSpec(
                ordinal=ordinal,
                text=stream.text[start:end],
                page_start=spans[0].page,
                page_end=spans[-1].page,
                spans=spans,
            )
        )
    return chunks
