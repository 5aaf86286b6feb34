"""Where a quote lies on a page: character range and boxes (pure).

Page layout (``evidence.Page.blocks``) gives each line's box and its character
range in the page text; a quote's boxes are the parts of the lines it covers,
cut horizontally in proportion to the characters (exact enough to mark a
quote; the chunk's own boxes come from the ingestion)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

BoxT = tuple[float, float, float, float]


def quote_range(
    *, text: str, quote: str, start: int = 0, end: int | None = None
) -> tuple[int, int] | None:
    """The quote's character range in ``text`` (searched within
    ``start..end`` first, then anywhere), ignoring differences in whitespace."""
    needle = quote.strip()
    if not needle:
        return None
    pattern = re.compile(r"\s+".join(re.escape(word) for word in needle.split()))
    stop = len(text) if end is None else end
    match = pattern.search(text, start, stop) or pattern.search(text)
    return (match.start(), match.end()) if match else None


def range_boxes(
    *, blocks: Iterable[Mapping[str, Any]], start: int, end: int
) -> list[BoxT]:
    """Boxes covering characters ``start..end`` of the page text."""
    boxes: list[BoxT] = []
    for block in blocks:
        if block.get("end", 0) <= start or block.get("start", 0) >= end:
            continue
        for line in block.get("lines", []):
            line_start, line_end = int(line["start"]), int(line["end"])
            lo, hi = max(start, line_start), min(end, line_end)
            if hi <= lo or line_end <= line_start:
                continue
            x0, y0, x1, y1 = (float(v) for v in line["bbox"])
            width = x1 - x0
            length = line_end - line_start
            boxes.append(
                (
                    x0 + width * (lo - line_start) / length,
                    y0,
                    x0 + width * (hi - line_start) / length,
                    y1,
                )
            )
    return boxes
