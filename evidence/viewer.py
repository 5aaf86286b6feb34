"""Page images and highlight boxes for the page viewer.

A page is rendered by PyMuPDF to PNG once per (document SHA-256, page, zoom)
and cached on disk under ``MEDIA_ROOT/cache/pages/``: the bytes behind a hash
never change, so a cached image is never stale. Highlights are not drawn into
the image: the viewer lays boxes over it in HTML/CSS (percent of the page
size), so one cached image serves every chunk of the page."""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pymupdf
from django.conf import settings
from django.db import connection

from evidence.models import Chunk, Page, SourceDocument
from evidence.storage import document_bytes_read

#: The zoom factors the viewer offers (72 dpi x zoom); others are refused so
#: that the cache cannot be filled with arbitrary sizes.
ZOOMS = (1.0, 1.5, 2.0, 3.0)
DEFAULT_ZOOM = 1.5


class PageNotRenderable(Exception):
    pass


def page_cache_dir(sha256: str) -> Path:
    return Path(settings.MEDIA_ROOT) / "cache" / "pages" / sha256[:2] / sha256


def page_image_png(*, document: SourceDocument, number: int, zoom: float) -> bytes:
    """The page as PNG, from the cache or rendered now (and cached)."""
    if zoom not in ZOOMS:
        raise ValueError(f"zoom must be one of {ZOOMS}")
    if not 1 <= number <= document.page_count:
        raise PageNotRenderable(f"page {number} out of range")
    path = page_cache_dir(document.sha256) / f"{number}@{int(zoom * 100)}.png"
    if path.exists():
        return path.read_bytes()
    png = _render(document_bytes_read(document.storage_name), number, zoom)
    path.parent.mkdir(parents=True, exist_ok=True)
    # Write-then-rename: a concurrent reader never sees half a file.
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "wb") as handle:
        handle.write(png)
    Path(tmp).replace(path)
    return png


def page_cache_clear(*, sha256: str) -> None:
    """Drop the cached images of a document (for the whole-case erasure)."""
    shutil.rmtree(page_cache_dir(sha256), ignore_errors=True)


def _render(data: bytes, number: int, zoom: float) -> bytes:
    fitz: Any = pymupdf  # untyped library
    with fitz.open(stream=data, filetype="pdf") as pdf:
        page = pdf[number - 1]
        pixmap = page.get_pixmap(matrix=fitz.Matrix(zoom, zoom), alpha=False)
        png: bytes = pixmap.tobytes("png")
    return png


@dataclass(frozen=True)
class Box:
    """A highlight box in percent of the page's width and height."""

    left: float
    top: float
    width: float
    height: float

    def style(self) -> str:
        return (
            f"left:{self.left:.3f}%;top:{self.top:.3f}%;"
            f"width:{self.width:.3f}%;height:{self.height:.3f}%"
        )


def chunk_boxes(*, chunk: Chunk, page: Page) -> list[Box]:
    """The chunk's boxes on this page, scaled to percent of the page size."""
    if page.width <= 0 or page.height <= 0:
        return []
    boxes = []
    for span in chunk.spans or []:
        if span.get("page") != page.number:
            continue
        for x0, y0, x1, y1 in span.get("boxes") or []:
            boxes.append(
                Box(
                    left=100 * max(0.0, x0) / page.width,
                    top=100 * max(0.0, y0) / page.height,
                    width=100 * max(0.0, x1 - x0) / page.width,
                    height=100 * max(0.0, y1 - y0) / page.height,
                )
            )
    return boxes


def matching_line_boxes(*, chunk: Chunk, page: Page, query: str) -> list[Box]:
    """The lines of the chunk on this page that contain a word of the search
    query, matched by PostgreSQL the same way the search matched (German stems,
    verbatim numbers): the viewer draws them stronger than the rest of the
    chunk, so a long chunk still points at its line."""
    from evidence.search import loose_tsquery_sql, search_query_clean

    query = search_query_clean(query)
    if not query or page.width <= 0 or page.height <= 0:
        return []
    ranges = [
        (int(s["start"]), int(s["end"]))
        for s in chunk.spans or []
        if s.get("page") == page.number
    ]
    lines = [
        line
        for block in page.blocks or []
        for line in block.get("lines", [])
        if any(line["start"] < end and start < line["end"] for start, end in ranges)
    ]
    if not lines:
        return []
    text = page.text or ""
    loose, params = loose_tsquery_sql(query)
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT t.i FROM unnest(%s::text[]) WITH ORDINALITY AS t(line, i)
            WHERE (to_tsvector('german', t.line) || to_tsvector('simple', t.line))
                  @@ {loose}
            """,
            [[text[line["start"] : line["end"]] for line in lines], *params],
        )
        matched = [lines[row[0] - 1] for row in cursor.fetchall()]
    boxes = []
    for line in matched:
        x0, y0, x1, y1 = line["bbox"]
        boxes.append(
            Box(
                left=100 * max(0.0, x0) / page.width,
                top=100 * max(0.0, y0) / page.height,
                width=100 * max(0.0, x1 - x0) / page.width,
                height=100 * max(0.0, y1 - y0) / page.height,
            )
        )
    return boxes


def chunk_text_segments(*, chunk: Chunk | None, page: Page) -> list[dict[str, Any]]:
    """The page's text cut into segments, those inside the chunk marked: the
    text-layer view (used for OCR pages, where the image is a scan)."""
    text = page.text or ""
    ranges = sorted(
        (max(0, int(s["start"])), min(len(text), int(s["end"])))
        for s in (chunk.spans if chunk else []) or []
        if s.get("page") == page.number
    )
    segments: list[dict[str, Any]] = []
    position = 0
    for start, end in ranges:
        if start < position or end <= start:
            continue
        if start > position:
            segments.append({"text": text[position:start], "marked": False})
        segments.append({"text": text[start:end], "marked": True})
        position = end
    if position < len(text):
        segments.append({"text": text[position:], "marked": False})
    return segments
