"""Reading order for tables: one block per table row, its cells' lines in
order.

MuPDF builds its text blocks from lines that lie close together. In a table
that is wrong in two ways: the first lines of neighbouring cells can become
one line ("R-01 Unauthorised access to the …" where "R-01" is the ID cell),
and a cell whose text wraps can be cut into several blocks that ``sort=True``
then interleaves with the cells beside it. A quote from such a cell is no
longer one passage of the page text.

``table_reading_order`` rearranges a ``get_text("dict"/"rawdict")`` page so
that every table row is one block (a label and its value stay one passage:
"Gesamtbetrag 12.447,40 EUR"), in which the cells follow each other left to
right, each cell's lines together; rows top to bottom; everything outside a
table keeps MuPDF's blocks and order. Pure: it reads and returns page dicts, so the
ingestion and the viewer's character boxes (which must agree to the
character) apply the same arrangement.

Where a table has ruling lines, the caller supplies (lazily: the search is
slow) the cells PyMuPDF's ``find_tables`` finds, and a text line belongs to
the cell it lies in. A
table without lines is recognised from its text: lines side by side on the
same height, cut at the column gaps; a cell is a column's run of lines that
touch each other and does not cross a row's top, where another column's cell
starts at the same height.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

Rect = tuple[float, float, float, float]

#: A gap inside a line that may separate two cells, as a share of the font
#: size; wider than a word space of justified text is not enough on its own:
#: the text after the gap must also start where another line starts.
_CELL_GAP = 0.45
#: Lines of one paragraph (or cell) leave at most this much space between
#: their boxes, in line heights; rows with padding leave more.
_LINE_GAP = 0.1
#: The lines of one MuPDF block lie at most this far apart (line heights).
_BLOCK_LINE_GAP = 0.6
#: Rows of one table follow each other within this many line heights.
_ROW_SPACING = 2.0
#: A justified line given word by word has at least this many words.
_JUSTIFIED_WORDS = 5
#: Words of one justified line lie closer than this (in font sizes).
_WORD_SPREAD = 2.0
#: Two starts this close (points) are one column.
_ALIGN = 1.5
#: How far (in line heights) to look for a line starting in the same column.
_WINDOW = 4.0
#: A list marker or clause number before a hanging indent is not a cell.
_MARKER = re.compile(
    r"^\s*(?:[-–•·▪*]|\(?[0-9]{1,3}[.)]?|\(?[a-zA-Z]{1,2}[.)]|\(?[ivxIVX]{1,5}[.)]"
    r"|§+\s*[0-9]+[a-z]?|Art\.\s*[0-9]+|Nr\.\s*[0-9]+|[0-9]+(?:\.[0-9]+)+\.?)\s*$"
)


def _span_text(span: dict[str, Any]) -> str:
    if "text" in span:
        return str(span["text"])
    return "".join(str(c.get("c", "")) for c in span.get("chars", []))


@dataclass
class _Segment:
    """A run of spans of one line: the whole line, or one cell's part of it."""

    block: int
    line: dict[str, Any]
    spans: list[dict[str, Any]]
    order: int
    cut: bool = False  # starts after a cell gap of its line
    spread: bool = False  # one word of a justified line given word by word
    paragraph: bool = False  # its block's lines share one left edge
    bbox: Rect = field(init=False)
    size: float = field(init=False)

    def __post_init__(self) -> None:
        boxes = [s["bbox"] for s in self.spans]
        self.bbox = (
            min(float(b[0]) for b in boxes),
            min(float(b[1]) for b in boxes),
            max(float(b[2]) for b in boxes),
            max(float(b[3]) for b in boxes),
        )
        self.size = max((float(s.get("size", 0) or 0) for s in self.spans), default=0)
        if self.size <= 0:
            self.size = max(self.height * 0.8, 1.0)

    @property
    def height(self) -> float:
        return max(self.bbox[3] - self.bbox[1], 0.1)

    @property
    def text(self) -> str:
        return "".join(_span_text(s) for s in self.spans)

    def as_line(self) -> dict[str, Any]:
        line = dict(self.line)
        line["spans"] = self.spans
        line["bbox"] = self.bbox
        return line


def _blank(span: dict[str, Any]) -> bool:
    return not _span_text(span).strip()


def _gaps(line: dict[str, Any]) -> list[tuple[int, int, float]]:
    """Candidate cell gaps of a line: (last span before, first span after, x
    where the text after starts), where a blank span or empty space at least
    ``_CELL_GAP`` of the font size wide separates two runs of text."""
    spans = line.get("spans", [])
    found: list[tuple[int, int, float]] = []
    previous: int | None = None
    for index, span in enumerate(spans):
        if _blank(span):
            continue
        if previous is not None:
            size = float(spans[index].get("size", 0) or 0) or 8.0
            gap = float(span["bbox"][0]) - float(spans[previous]["bbox"][2])
            blanks = spans[previous + 1 : index]
            blank_width = sum(float(b["bbox"][2]) - float(b["bbox"][0]) for b in blanks)
            if max(gap, blank_width) >= _CELL_GAP * size:
                found.append((previous, index, float(span["bbox"][0])))
        previous = index
    return found


def _segments(blocks: list[dict[str, Any]]) -> list[_Segment]:
    """The page's lines, each cut at the cell gaps whose text after the gap
    starts in a column another line nearby also starts in."""
    lines: list[tuple[int, dict[str, Any]]] = []
    for block_index, block in enumerate(blocks):
        for line in block.get("lines", []):
            if any(not _blank(s) for s in line.get("spans", [])):
                lines.append((block_index, line))
    # Where a row of a block begins: the leftmost of the block's lines at
    # that height (justified text can come as one line per word).
    starts: list[tuple[float, float, float, int]] = []  # x, y-middle, height, line no
    candidates: list[list[tuple[int, int, float]]] = []
    spread: list[bool] = []
    for number, (block_index, line) in enumerate(lines):
        spans = [s for s in line["spans"] if not _blank(s)]
        y0, y1 = float(line["bbox"][1]), float(line["bbox"][3])
        x0 = float(spans[0]["bbox"][0])
        mates = [
            other
            for other_block, other in lines
            if other_block == block_index
            and min(y1, float(other["bbox"][3])) - max(y0, float(other["bbox"][1]))
            > 0.5 * (y1 - y0)
        ]
        if not any(float(other["bbox"][0]) < x0 for other in mates):
            starts.append((x0, (y0 + y1) / 2, y1 - y0, number))
        # a justified line that MuPDF gives word by word: many one-word lines
        # of one block side by side (a row of one-word cells has fewer)
        spread.append(
            len(mates) >= _JUSTIFIED_WORDS
            and all(
                len("".join(_span_text(s) for s in m["spans"]).split()) == 1
                for m in mates
            )
        )
        candidates.append(_gaps(line))
    cut_starts = [
        (x, (float(line["bbox"][1]) + float(line["bbox"][3])) / 2, number)
        for number, (_b, line) in enumerate(lines)
        for _p, _n, x in candidates[number]
    ]
    segments: list[_Segment] = []
    order = 0
    for number, (block_index, line) in enumerate(lines):
        spans = line["spans"]
        y_mid = (float(line["bbox"][1]) + float(line["bbox"][3])) / 2
        height = max(float(line["bbox"][3]) - float(line["bbox"][1]), 1.0)
        window = _WINDOW * height
        cuts: list[tuple[int, int]] = []
        for before, after, x in candidates[number]:
            head = "".join(_span_text(s) for s in spans[: before + 1])
            if _MARKER.match(head):
                continue
            aligned = any(
                other != number and abs(sx - x) <= _ALIGN and abs(sy - y_mid) <= window
                for sx, sy, _h, other in starts
            ) or any(
                other != number and abs(cx - x) <= _ALIGN and abs(cy - y_mid) <= window
                for cx, cy, other in cut_starts
            )
            if aligned:
                cuts.append((before, after))
        begin = 0
        for before, after in [*cuts, (len(spans) - 1, len(spans))]:
            part = [s for s in spans[begin : before + 1] if not _blank(s)]
            if part:
                segments.append(
                    _Segment(
                        block_index,
                        line,
                        spans[begin : before + 1],
                        order,
                        cut=begin > 0,
                        spread=spread[number],
                    )
                )
                order += 1
            begin = after
    # A block whose lines all start at one left edge is one paragraph (a
    # letter's address field); a block mixing columns is a table row.
    lefts: dict[int, list[float]] = {}
    for segment in segments:
        lefts.setdefault(segment.block, []).append(segment.bbox[0])
    for segment in segments:
        edge = lefts[segment.block]
        segment.paragraph = max(edge) - min(edge) <= 2 * _ALIGN
    return segments


def _side_by_side(a: _Segment, b: _Segment) -> bool:
    """Two cells of a row: beside each other at the same height, unless they
    are two words of a justified line that MuPDF gives word by word and lie
    no further apart than such a line spreads its words."""
    overlap = min(a.bbox[3], b.bbox[3]) - max(a.bbox[1], b.bbox[1])
    if overlap < 0.5 * min(a.height, b.height):
        return False
    gap = max(b.bbox[0] - a.bbox[2], a.bbox[0] - b.bbox[2])
    if gap < 0:
        return False
    return (
        a.block != b.block
        or a.cut
        or b.cut
        or not (a.spread and b.spread)
        or gap >= _WORD_SPREAD * max(a.size, b.size)
    )


def _between(a: _Segment, b: _Segment, row: list[_Segment]) -> bool:
    """Another line of the same row lies between ``a`` and ``b`` (a justified
    line's words are only compared with their neighbours)."""
    left, right = (a, b) if a.bbox[0] < b.bbox[0] else (b, a)
    return any(
        c is not a
        and c is not b
        and c.bbox[0] >= left.bbox[2] - _ALIGN
        and c.bbox[2] <= right.bbox[0] + _ALIGN
        and min(c.bbox[3], left.bbox[3]) - max(c.bbox[1], left.bbox[1]) > 0
        for c in row
    )


def _x_overlap(a: Rect, b: Rect) -> bool:
    width = min(a[2], b[2]) - max(a[0], b[0])
    narrower = min(a[2] - a[0], b[2] - b[0])
    return width >= 0.5 * max(narrower, 0.1) or abs(a[0] - b[0]) <= _ALIGN


def _touches(above: _Segment, below: _Segment) -> bool:
    """``below`` is the next line of ``above``'s paragraph: no space between
    their boxes (a row's padding leaves some)."""
    return (
        below.bbox[1] - above.bbox[3] <= _LINE_GAP * above.height
        and below.bbox[1] > above.bbox[1] + 0.5 * above.height
    )


def _continues(above: _Segment, below: _Segment) -> bool:
    """``below`` is the next line of ``above``'s paragraph or cell: touching
    it, or the next line of the same one-column MuPDF block (a letter's
    address field and information block are spaced wider than touching)."""
    return _touches(above, below) or (
        above.block == below.block
        and above.paragraph
        and above.bbox[1] + 0.5 * above.height
        < below.bbox[1]
        <= above.bbox[3] + _BLOCK_LINE_GAP * above.height
    )


def _centred_under(a: _Segment, b: _Segment) -> bool:
    """``b`` is centred under ``a`` (a centred header cell wrapping)."""
    return abs((a.bbox[0] + a.bbox[2]) - (b.bbox[0] + b.bbox[2])) <= 2 * _ALIGN


def _regions(segments: list[_Segment]) -> list[list[_Segment]]:
    """Groups of segments forming one table each: lines side by side, the
    lines that continue them, joined while they follow within two lines."""
    ordered = sorted(segments, key=lambda s: (s.bbox[1], s.bbox[0]))
    in_table = [False] * len(ordered)
    for i, a in enumerate(ordered):
        row = []
        for j in range(i + 1, len(ordered)):
            if ordered[j].bbox[1] > a.bbox[3]:
                break
            row.append(j)
        for j in row:
            b = ordered[j]
            if _side_by_side(a, b) and not _between(a, b, [ordered[k] for k in row]):
                in_table[i] = in_table[j] = True
    # Continuation lines: a cell's wrapped lines below its row. One pass from
    # the top; such a line stays within its column (not left of the line it
    # continues, not wider than the cell's first line), so a paragraph right
    # under a table is not taken for part of its last row.
    limit = [float("inf")] * len(ordered)
    for i, a in enumerate(ordered):
        if in_table[i]:
            # a cell wraps where its column ends: no later line of it is
            # wider than its first
            limit[i] = min(
                (
                    b.bbox[0]
                    for b in ordered
                    if b.bbox[0] > a.bbox[2] and _side_by_side(a, b)
                ),
                default=float("inf"),
            )
            limit[i] = min(limit[i], a.bbox[2] + _ALIGN)
    for j, b in enumerate(ordered):
        if in_table[j]:
            continue
        for i in range(j):
            a = ordered[i]
            if (
                in_table[i]
                and _continues(a, b)
                and _x_overlap(a.bbox, b.bbox)
                and b.bbox[2] <= limit[i] + _ALIGN
                and (b.bbox[0] >= a.bbox[0] - _ALIGN or _centred_under(a, b))
            ):
                in_table[j] = True
                limit[j] = limit[i]
                break
    regions: list[list[_Segment]] = []
    bottom = float("-inf")
    open_region = False
    for segment, flagged in zip(ordered, in_table, strict=True):
        if not flagged:
            # text between two tables (a heading) ends the first: it must
            # stay between them
            if open_region and segment.bbox[1] >= bottom - _ALIGN:
                open_region = False
            continue
        if open_region and segment.bbox[1] <= bottom + _ROW_SPACING * segment.height:
            regions[-1].append(segment)
            bottom = max(bottom, segment.bbox[3])
        else:
            regions.append([segment])
            bottom = segment.bbox[3]
            open_region = True
    return [r for r in regions if _rows_with_cells(r) >= 2]


def _rows_with_cells(region: list[_Segment]) -> int:
    """How many rows of the region (heights that do not overlap) hold two
    cells side by side: a table has a header and a row at least, a footer
    with a name left and a page number right has one."""
    tops: list[_Segment] = []
    for a in region:
        if any(_side_by_side(a, b) for b in region if b is not a) and not any(
            min(a.bbox[3], t.bbox[3]) - max(a.bbox[1], t.bbox[1])
            > 0.5 * min(a.height, t.height)
            for t in tops
        ):
            tops.append(a)
    return len(tops)


def _cells_by_text(region: list[_Segment]) -> list[list[_Segment]]:
    """A region's cells: a column's lines joined while each touches the one
    above, unless another column starts a cell at the same height (a row's
    top: the rows of a tight table touch too)."""
    ordered = sorted(region, key=lambda s: (s.bbox[1], s.bbox[0]))

    def above(segment: _Segment) -> _Segment | None:
        found = [
            other
            for other in ordered
            if _x_overlap(other.bbox, segment.bbox) and _continues(other, segment)
        ]
        return max(found, key=lambda o: o.bbox[1]) if found else None

    def level(segment: _Segment) -> list[_Segment]:
        return [o for o in ordered if abs(o.bbox[1] - segment.bbox[1]) <= _ALIGN]

    parent = {id(s): above(s) for s in ordered}
    tops = [s for s in ordered if parent[id(s)] is None]
    columns = max(len(level(s)) for s in ordered)
    # Every line has a partner at its height in every column and touches the
    # line above: single-line cells in rows without space between ("Von: … /
    # Gesendet: …"), one row per height. Where rows leave space between
    # them, lines touching the one above are a cell wrapping.
    grid = (
        columns > 1
        # MuPDF gave the columns as one block, line by line: had it seen two
        # paragraphs side by side (a letter's address field and information
        # block), it would have made two blocks
        and len({s.block for s in ordered}) == 1
        and all(
            len(level(s)) == columns and (parent[id(s)] is not None or s.bbox[1] <= top)
            for top in [min(o.bbox[1] for o in ordered) + _ALIGN]
            for s in ordered
        )
    )
    cells: list[list[_Segment]] = []
    cell_of: dict[int, list[_Segment]] = {}
    for segment in ordered:
        up = parent[id(segment)]
        row_top = (
            any(
                abs(top.bbox[1] - segment.bbox[1]) <= _ALIGN
                and not _x_overlap(top.bbox, segment.bbox)
                for top in tops
            )
            or grid
        )
        if up is not None and id(up) in cell_of and not row_top:
            cell = cell_of[id(up)]
            cell.append(segment)
        else:
            cell = [segment]
            cells.append(cell)
        cell_of[id(segment)] = cell
    return cells


def _rows(cells: list[list[_Segment]]) -> list[list[_Segment]]:
    """The lines of each row (a row: the cells starting at the height of its
    first cell), cell after cell from left to right."""
    by_top = sorted(cells, key=lambda c: (c[0].bbox[1], c[0].bbox[0]))
    rows: list[list[list[_Segment]]] = []
    for cell in by_top:
        if rows and cell[0].bbox[1] <= rows[-1][0][0].bbox[1] + 0.5 * cell[0].height:
            rows[-1].append(cell)
        else:
            rows.append([cell])
    return [
        [line for cell in sorted(row, key=lambda c: c[0].bbox[0]) for line in cell]
        for row in rows
    ]


def _block(lines: list[_Segment]) -> dict[str, Any]:
    boxes = [s.bbox for s in lines]
    return {
        "type": 0,
        "bbox": (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        ),
        "lines": [s.as_line() for s in lines],
    }


def table_reading_order(
    page_dict: dict[str, Any],
    ruled_cells: Callable[[], Sequence[Sequence[Rect]]] | None = None,
) -> dict[str, Any]:
    """The page dict with each table row as one block whose lines are its
    cells' lines, cell after cell (see the module). ``ruled_cells``: gives,
    per ruled table, its cell rectangles (PyMuPDF's ``find_tables``); called
    only when the page has lines side by side, as the search is slow. Blocks
    that are not text are dropped, as the layout never reads them."""
    blocks = [b for b in page_dict.get("blocks", []) if b.get("type", 0) == 0]
    segments = _segments(blocks)
    if not _regions(segments):
        return {**page_dict, "blocks": blocks}
    placed: dict[int, list[list[_Segment]]] = {}  # first segment order -> rows
    taken: set[int] = set()
    for table in ruled_cells() if ruled_cells is not None else ():
        by_row: dict[int, list[tuple[Rect, list[_Segment]]]] = {}
        for rect in table:
            by_row.setdefault(round(rect[1]), []).append((rect, []))
        for segment in segments:
            x = (segment.bbox[0] + segment.bbox[2]) / 2
            y = (segment.bbox[1] + segment.bbox[3]) / 2
            cell = next(
                (
                    lines
                    for row in by_row.values()
                    for rect, lines in row
                    if rect[0] <= x <= rect[2] and rect[1] <= y <= rect[3]
                ),
                None,
            )
            if cell is not None and segment.order not in taken:
                cell.append(segment)
                taken.add(segment.order)
        rows = [
            [
                line
                for _rect, lines in sorted(by_row[top], key=lambda c: c[0][0])
                for line in sorted(lines, key=lambda s: (s.bbox[1], s.bbox[0]))
            ]
            for top in sorted(by_row)
        ]
        rows = [row for row in rows if row]
        if rows:
            placed[min(s.order for row in rows for s in row)] = rows
    free = [s for s in segments if s.order not in taken]
    for region in _regions(free):
        rows = _rows(_cells_by_text(region))
        if len(rows) < 2 and all(s.paragraph for s in region):
            # paragraphs side by side, one row only (a letter's address field
            # and information block, a three-column footer): MuPDF's blocks
            continue
        placed[min(s.order for s in region)] = rows
        taken.update(s.order for s in region)
    if not placed:
        return {**page_dict, "blocks": blocks}
    result: list[dict[str, Any]] = []
    by_block: dict[int, list[_Segment]] = {}
    for segment in segments:
        by_block.setdefault(segment.block, []).append(segment)
    for index in range(len(blocks)):
        kept: list[_Segment] = []
        for segment in by_block.get(index, []):
            if segment.order in placed:
                if kept:
                    result.append(_block(kept))
                    kept = []
                result.extend(_block(row) for row in placed[segment.order])
            elif segment.order not in taken:
                kept.append(segment)
        if kept:
            result.append(_block(kept))
    return {**page_dict, "blocks": result}
