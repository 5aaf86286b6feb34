"""Page images and highlight boxes for the page viewer.

A page is rendered by PyMuPDF to PNG once per (document SHA-256, page, zoom)
and cached on disk under ``MEDIA_ROOT/cache/pages/``: the bytes behind a hash
never change, so a cached image is never stale. Highlights are not drawn into
the image: the viewer lays boxes over it in HTML/CSS (percent of the page
size), so one cached image serves every chunk of the page.

A page is never rendered larger than BELEGT_MAX_RENDER_PIXELS (a 14,400-pt
page at zoom 1.5 would be 466 Mpx, 1.4 GB): the zoom is scaled down to fit,
and the boxes, being percentages, still line up. If MuPDF refuses even that,
a placeholder image says so. At most BELEGT_MAX_CONCURRENT_RENDERS pages are
rendered at once per process; a request that cannot get a slot in time is
told to come back (``RenderBusy``, 503)."""

from __future__ import annotations

import logging
import math
import os
import shutil
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pymupdf
from django.conf import settings
from django.db import connection
from django.utils.html import format_html
from django.utils.safestring import SafeString

from evidence.models import Chunk, Page, SourceDocument
from evidence.storage import document_bytes_read

#: The zoom factors the viewer offers (72 dpi x zoom); others are refused so
#: that the cache cannot be filled with arbitrary sizes.
ZOOMS = (1.0, 1.5, 2.0, 3.0)
DEFAULT_ZOOM = 1.5


logger = logging.getLogger(__name__)

#: Seconds a request waits for a render slot before it answers 503.
RENDER_SLOT_WAIT = 20.0


class PageNotRenderable(Exception):
    pass


class RenderBusy(Exception):
    """Every render slot of this process is taken; try again shortly."""


_render_slots: threading.BoundedSemaphore | None = None
_render_slots_size = 0
_render_slots_lock = threading.Lock()


def render_slots() -> threading.BoundedSemaphore:
    """The per-process semaphore bounding concurrent renders (re-created when
    the setting changes, e.g. in a test)."""
    global _render_slots, _render_slots_size
    size = max(1, int(settings.BELEGT_MAX_CONCURRENT_RENDERS))
    with _render_slots_lock:
        if _render_slots is None or _render_slots_size != size:
            _render_slots = threading.BoundedSemaphore(size)
            _render_slots_size = size
        return _render_slots


def render_scale(*, width: float, height: float, zoom: float) -> float:
    """The zoom actually used: ``zoom``, or less so that the image has at most
    BELEGT_MAX_RENDER_PIXELS pixels."""
    limit = float(settings.BELEGT_MAX_RENDER_PIXELS)
    width, height = max(width, 1.0), max(height, 1.0)
    scale = min(zoom, math.sqrt(limit / (width * height)))
    # MuPDF rounds the image size up to whole pixels.
    while math.ceil(width * scale) * math.ceil(height * scale) > limit:
        scale *= 0.999
    return scale


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
    slots = render_slots()
    if not slots.acquire(timeout=RENDER_SLOT_WAIT):
        raise RenderBusy("every page render slot is busy")
    try:
        png, complete = _render(
            document_bytes_read(document.storage_name), number, zoom
        )
    finally:
        slots.release()
    if not complete:
        return png  # a placeholder is not cached: a later version may render it
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


def _render(data: bytes, number: int, zoom: float) -> tuple[bytes, bool]:
    """(PNG, True) for the page, scaled down to the pixel cap; (placeholder PNG,
    False) when MuPDF cannot render it."""
    fitz: Any = pymupdf  # untyped library
    with fitz.open(stream=data, filetype="pdf") as pdf:
        page = pdf[number - 1]
        scale = render_scale(width=page.rect.width, height=page.rect.height, zoom=zoom)
        try:
            pixmap = page.get_pixmap(matrix=fitz.Matrix(scale, scale), alpha=False)
            png: bytes = pixmap.tobytes("png")
        except (RuntimeError, MemoryError) as exc:  # FzErrorLimit, FzErrorMemory
            logger.warning("page %s not renderable at %.3f: %s", number, scale, exc)
            return placeholder_png(
                width=page.rect.width, height=page.rect.height
            ), False
    return png, True


def placeholder_png(*, width: float, height: float) -> bytes:
    """A small grey image in the page's proportions that says the page could
    not be shown (the text layer beside it still can)."""
    from django.utils.translation import gettext as _

    fitz: Any = pymupdf
    ratio = height / width if width > 0 and height > 0 else 1.414
    w = 600.0
    h = max(200.0, min(w * ratio, 2400.0))
    doc = fitz.open()
    try:
        sheet = doc.new_page(width=w, height=h)
        sheet.draw_rect(sheet.rect, color=None, fill=(0.93, 0.94, 0.96))
        sheet.insert_textbox(
            fitz.Rect(40, h / 2 - 60, w - 40, h / 2 + 80),
            _(
                "This page cannot be shown as an image (it is too large). "
                "Its text is shown beside it."
            ),
            fontsize=16,
            fontname="helv",
            align=1,
        )
        placeholder: bytes = sheet.get_pixmap(alpha=False).tobytes("png")
    finally:
        doc.close()
    return placeholder


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

    def svg_attrs(self) -> SafeString:
        """x/y/width/height of a <rect> in a 0..100 viewBox laid over the
        image: geometry as markup, so the page needs no inline style (CSP)."""
        return format_html(
            'x="{}" y="{}" width="{}" height="{}"',
            f"{self.left:.3f}",
            f"{self.top:.3f}",
            f"{self.width:.3f}",
            f"{self.height:.3f}",
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
