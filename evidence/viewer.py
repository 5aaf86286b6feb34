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

import functools
import logging
import math
import os
import shutil
import tempfile
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pymupdf
from django.conf import settings
from django.db import connection
from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy

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


# ------------------------------------------------------- word-exact geometry
#: Pages whose character boxes are kept per process: (sha256, page number).
_CHAR_BOX_CACHE = 64


def page_line_char_boxes(
    *, document: SourceDocument, page: Page
) -> list[list[tuple[float, float, float, float]]] | None:
    """Per stored line of the page (``Page.blocks``, in order), the box of each
    of its characters, read from the stored PDF with the same PyMuPDF call as
    the ingestion (so offsets agree). None when that is not possible: an OCR
    page (its text is not in the PDF), a file that cannot be read, or a text
    layer that no longer reads like the stored text; callers then cut the
    line boxes in proportion (``range_boxes``)."""
    if page.ocr or not page.blocks:
        return None
    return _line_char_boxes_cached(document.sha256, document.storage_name, page.pk)


@functools.lru_cache(maxsize=_CHAR_BOX_CACHE)
def _line_char_boxes_cached(
    sha256: str, storage_name: str, page_pk: int
) -> list[list[tuple[float, float, float, float]]] | None:
    from evidence.extraction import page_reading_dict

    page = Page.objects.filter(pk=page_pk).first()
    if page is None:
        return None
    try:
        data = document_bytes_read(storage_name)
    except (OSError, ValueError) as exc:
        logger.info("no PDF for word boxes of %s: %s", sha256[:12], exc)
        return None
    fitz: Any = pymupdf
    try:
        with fitz.open(stream=data, filetype="pdf") as pdf:
            raw = page_reading_dict(pdf[page.number - 1], "rawdict")
    except (RuntimeError, ValueError, IndexError) as exc:
        logger.info("word boxes of %s p.%s: %s", sha256[:12], page.number, exc)
        return None
    lines: list[tuple[str, list[tuple[float, float, float, float]]]] = []
    for block in raw.get("blocks", []):
        if block.get("type", 0) != 0:
            continue
        for line in block.get("lines", []):
            chars = [c for span in line.get("spans", []) for c in span.get("chars", [])]
            text = "".join(c.get("c", "") for c in chars).rstrip()
            if not text.strip():
                continue
            boxes = [
                (float(b[0]), float(b[1]), float(b[2]), float(b[3]))
                for b in (c["bbox"] for c in chars[: len(text)])
            ]
            lines.append((text, boxes))
    stored = [line for block in page.blocks for line in block.get("lines", [])]
    page_text = page.text or ""
    if len(stored) != len(lines) or any(
        page_text[int(line["start"]) : int(line["end"])] != text
        for line, (text, _boxes) in zip(stored, lines, strict=True)
    ):
        return None  # the PDF no longer reads like the stored text
    return [boxes for _text, boxes in lines]


def quote_word_boxes(
    *, document: SourceDocument, page: Page, start: int, end: int
) -> list[Box]:
    """Boxes over exactly the words of characters ``start..end`` of the page
    text: per line, the union of its characters' boxes (spaces at either end
    left out), so a short quote is marked word by word, not as whole lines.
    Falls back to the line boxes cut in proportion when the characters'
    geometry is not available (``page_line_char_boxes``)."""
    from evidence.domain.quotes import range_boxes

    if page.width <= 0 or page.height <= 0 or end <= start:
        return []
    per_line = page_line_char_boxes(document=document, page=page)
    stored = [line for block in page.blocks or [] for line in block.get("lines", [])]
    text = page.text or ""
    raw: list[tuple[float, float, float, float]] = []
    if per_line is None:
        raw = range_boxes(blocks=page.blocks or [], start=start, end=end)
    else:
        for line, boxes in zip(stored, per_line, strict=True):
            line_start, line_end = int(line["start"]), int(line["end"])
            lo, hi = max(start, line_start), min(end, line_end)
            while lo < hi and text[lo].isspace():
                lo += 1
            while hi > lo and text[hi - 1].isspace():
                hi -= 1
            if hi <= lo:
                continue
            picked = boxes[lo - line_start : hi - line_start]
            raw.append(
                (
                    min(b[0] for b in picked),
                    min(b[1] for b in picked),
                    max(b[2] for b in picked),
                    max(b[3] for b in picked),
                )
            )
    return [
        Box(
            left=100 * max(0.0, x0) / page.width,
            top=100 * max(0.0, y0) / page.height,
            width=100 * max(0.0, x1 - x0) / page.width,
            height=100 * max(0.0, y1 - y0) / page.height,
        )
        for x0, y0, x1, y1 in raw
    ]


# ------------------------------------------------------------ viewer state
#: What the viewer's zoom buttons offer: fitted to the column ("fit"), or a
#: render zoom shown at its own size (the page scrolls).
ZOOM_CHOICES: tuple[tuple[str, str], ...] = (
    ("fit", "⤢"),
    ("1.0", "100 %"),
    ("1.5", "150 %"),
    ("2.0", "200 %"),
    ("3.0", "300 %"),
)
#: Longest quote the viewer takes from its URL.
VIEWER_QUOTE_CHARS = 1000


@dataclass(frozen=True)
class ViewerState:
    """The page viewer's URL parameters, parsed and bounded: highlighted chunk,
    search query, quote, zoom ("fit" or one of ZOOMS), full width, and where
    the user came from. ``url`` writes them back for a link that keeps them."""

    chunk_id: int | None = None
    query: str = ""
    quote: str = ""
    zoom: str = "fit"
    wide: bool = False
    back: str = ""

    @classmethod
    def from_params(cls, params: Any, *, chunk_id: int | None) -> ViewerState:
        zoom = str(params.get("zoom", "") or "fit")
        try:
            if zoom != "fit":
                zoom = f"{float(zoom):.1f}" if float(zoom) in ZOOMS else "fit"
        except ValueError:
            zoom = "fit"
        back = str(params.get("back", "") or "")
        return cls(
            chunk_id=chunk_id,
            query=str(params.get("q", "") or "")[:500],
            quote=str(params.get("quote", "") or "")[:VIEWER_QUOTE_CHARS],
            zoom=zoom,
            wide=str(params.get("wide", "")) == "1",
            back=back if back_target(back) else "",
        )

    @property
    def render_zoom(self) -> float:
        """The zoom the image is rendered at: a fitted page is rendered sharp
        enough for the column (1.5) or the full width (2.0)."""
        if self.zoom == "fit":
            return 2.0 if self.wide else DEFAULT_ZOOM
        return float(self.zoom)

    def display_width(self, width: float) -> int:
        """The image's width attribute: the page at its zoom (a fitted page is
        scaled down by CSS)."""
        return round(max(width, 1.0) * self.render_zoom)

    def display_height(self, height: float) -> int:
        return round(max(height, 1.0) * self.render_zoom)

    def url(
        self,
        *,
        case_id: int,
        document_id: int,
        number: int,
        **changes: Any,
    ) -> str:
        from urllib.parse import urlencode

        from django.urls import reverse

        chunk_id = changes.get("chunk_id", self.chunk_id)
        params = {
            "chunk": chunk_id,
            "q": self.query,
            "quote": changes.get("quote", self.quote),
            "zoom": changes.get("zoom", self.zoom),
            "wide": "1" if changes.get("wide", self.wide) else "",
            "back": self.back,
        }
        if params["zoom"] == "fit":
            params["zoom"] = ""
        path = reverse(
            "evidence:page_view",
            kwargs={"case_id": case_id, "document_id": document_id, "number": number},
        )
        query = urlencode({k: v for k, v in params.items() if v not in ("", None)})
        return f"{path}?{query}" if query else path


#: Where the viewer may lead back to, by URL name, and how the link reads.
BACK_TARGETS: Mapping[str, str | Promise] = {
    "review:fact_detail": gettext_lazy("Back to the fact"),
    "review:case_facts": gettext_lazy("Back to the facts"),
    "review:case_review": gettext_lazy("Back to the proposal"),
    "review:queue": gettext_lazy("Back to the proposal"),
    "review:proposal_detail": gettext_lazy("Back to the proposal"),
    "evidence:case_evidence": gettext_lazy("Back to the search results"),
    "ontology:case_requirements": gettext_lazy("Back to the requirements"),
}


def back_target(url: str) -> str:
    """The URL name of ``url`` if it is a page of this site the viewer may
    link back to (a relative path resolving to one of BACK_TARGETS), else "":
    nothing from the query string can point the link elsewhere."""
    from django.urls import Resolver404, resolve
    from django.utils.http import url_has_allowed_host_and_scheme

    if (
        not url
        or not url.startswith("/")
        or url.startswith("//")
        or "\\" in url
        or not url_has_allowed_host_and_scheme(url, allowed_hosts=None)
    ):
        return ""
    try:
        match = resolve(url.split("?", 1)[0].split("#", 1)[0])
    except (Resolver404, ValueError):
        return ""
    return match.view_name if match.view_name in BACK_TARGETS else ""


@dataclass(frozen=True)
class BackLink:
    url: str
    label: str


def back_link(back: str, *, query: str, case_id: int) -> BackLink:
    """Where "←" leads: the page the user came from (``back``), else the
    search results of ``query``, else the case's search."""
    from urllib.parse import urlencode

    from django.urls import reverse
    from django.utils.translation import gettext as _

    name = back_target(back)
    if name:
        return BackLink(url=back, label=str(BACK_TARGETS[name]))
    search = reverse("evidence:case_evidence", kwargs={"case_id": case_id})
    if query:
        return BackLink(
            url=f"{search}?{urlencode({'q': query})}",
            label=_("Back to the search results"),
        )
    return BackLink(url=search, label=_("Search"))


def viewer_url(
    *,
    case_id: int,
    document_id: int,
    number: int,
    chunk_id: int | None = None,
    quote: str = "",
    back: str = "",
) -> str:
    """A link into the page viewer that marks ``quote`` in the chunk and
    leads back to ``back`` (a page of this site, see ``back_target``)."""
    state = ViewerState(
        chunk_id=chunk_id,
        quote=quote[:VIEWER_QUOTE_CHARS],
        back=back if back_target(back) else "",
    )
    return state.url(case_id=case_id, document_id=document_id, number=number)


def quote_boxes_on_page(*, chunk: Chunk, page: Page, quote: str) -> list[Box]:
    """The quote's words on this page (the one quote matcher locates the quote
    in the chunk and maps it to the page, ``quote_page_ranges_for_chunk``);
    empty when the quote is not in the chunk or lies on another page."""
    from evidence.selectors import quote_page_ranges_for_chunk

    boxes: list[Box] = []
    for found in quote_page_ranges_for_chunk(
        chunk=chunk, quote=quote, pages={page.number: page}
    ):
        if found.page == page.number:
            boxes.extend(
                quote_word_boxes(
                    document=page.document, page=page, start=found.start, end=found.end
                )
            )
    return boxes
