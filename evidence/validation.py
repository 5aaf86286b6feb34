"""Upload validation: everything is checked before a single byte is stored.

A refused file gets an ``UploadRefused`` with a stable ``code`` and a message
in the user's language. The checks run cheapest first: size (from the upload's
declared size, before reading), magic bytes (the first kilobyte), then the PDF
structure through PyMuPDF (damaged, encrypted, zero pages, page limit).

Active content is never run: PyMuPDF does not execute document JavaScript when
it opens, renders or extracts text, and embedded files are never extracted.
We only record that they are present (``has_javascript``,
``has_embedded_files``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pymupdf
from django.conf import settings
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _

from cases.errors import DomainError

# PyMuPDF has no type hints; its objects are Any here.
_PYMUPDF: Any = pymupdf

PDF_MAGIC = b"%PDF-"
# Acrobat accepts the header anywhere in the first kilobyte; so do we.
MAGIC_WINDOW = 1024
EOF_WINDOW = 2048

# Signatures of files that are often renamed to .pdf by mistake.
_KNOWN_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\xff\xd8\xff", "JPEG"),
    (b"\x89PNG\r\n\x1a\n", "PNG"),
    (b"GIF8", "GIF"),
    (b"II*\x00", "TIFF"),
    (b"MM\x00*", "TIFF"),
    (b"PK\x03\x04", "ZIP"),
    (b"PK\x05\x06", "ZIP"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "MS Office (OLE)"),
    (b"{\\rtf", "RTF"),
    (b"\x1f\x8b", "GZIP"),
    (b"Rar!", "RAR"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip"),
)

_JS_NAMES = re.compile(rb"/(JavaScript|JS)\b")


class UploadRefused(DomainError):
    """A file that is not stored. ``code`` is one of: file_too_large, empty_file,
    not_pdf, damaged, encrypted, no_pages, too_many_pages."""

    code = "upload_refused"
    http_status = 400


@dataclass(frozen=True)
class ValidatedPdf:
    data: bytes
    page_count: int
    has_javascript: bool
    has_embedded_files: bool
    metadata: dict[str, Any] = field(default_factory=dict)


def max_upload_bytes() -> int:
    return int(settings.BELEGT_MAX_UPLOAD_BYTES)


def max_pages() -> int:
    return int(settings.BELEGT_MAX_PAGES)


def check_declared_size(*, filename: str, size: int) -> None:
    """Refuse an oversized upload before reading it."""
    limit = max_upload_bytes()
    if size > limit:
        raise UploadRefused(
            _("“%(name)s” is %(size)s; the limit is %(limit)s.")
            % {
                "name": filename,
                "size": filesizeformat(size),
                "limit": filesizeformat(limit),
            },
            code="file_too_large",
        )
    if size == 0:
        raise UploadRefused(
            _("“%(name)s” is empty.") % {"name": filename}, code="empty_file"
        )


def sniff_type(head: bytes) -> str | None:
    """The name of a known non-PDF format the bytes start with, if any."""
    for signature, name in _KNOWN_SIGNATURES:
        if head.startswith(signature):
            return name
    return None


def check_magic(*, filename: str, head: bytes) -> None:
    # A known signature at the start wins: a ZIP holding a PDF has "%PDF-" in
    # its first kilobyte too.
    detected = sniff_type(head)
    if detected is None and PDF_MAGIC in head[:MAGIC_WINDOW]:
        return
    if detected:
        message = _(
            "“%(name)s” is not a PDF: its content is a %(type)s file "
            "(only the file name ends in .pdf)."
        ) % {"name": filename, "type": detected}
    else:
        message = _(
            "“%(name)s” is not a PDF: it does not start with the PDF signature."
        ) % {"name": filename}
    raise UploadRefused(message, code="not_pdf", hint={"detected_type": detected})


def _damaged(filename: str, detail: str) -> UploadRefused:
    return UploadRefused(
        _("“%(name)s” is damaged and cannot be read (%(detail)s).")
        % {"name": filename, "detail": detail},
        code="damaged",
    )


def _scan_active_content(doc: Any) -> tuple[bool, bool]:
    """Look for JavaScript actions and embedded files in the object table,
    without resolving or running anything."""
    has_js = False
    has_files = doc.embfile_count() > 0
    for xref in range(1, doc.xref_length()):
        try:
            source = doc.xref_object(xref, compressed=True).encode("latin-1", "ignore")
        except Exception:  # noqa: BLE001 - a broken object is not active content
            continue
        if not has_js and _JS_NAMES.search(source):
            has_js = True
        if not has_files and (
            b"/EmbeddedFile" in source or b"/FileAttachment" in source
        ):
            has_files = True
        if has_js and has_files:
            break
    return has_js, has_files


def validate_pdf(*, filename: str, data: bytes) -> ValidatedPdf:
    """Check the whole file. Raises UploadRefused."""
    check_declared_size(filename=filename, size=len(data))
    check_magic(filename=filename, head=data[:MAGIC_WINDOW])
    if b"%%EOF" not in data[-EOF_WINDOW:]:
        raise _damaged(filename, _("the end of the file is missing; truncated?"))
    _PYMUPDF.TOOLS.mupdf_display_errors(False)
    try:
        doc = _PYMUPDF.open(stream=data, filetype="pdf")
    except Exception as exc:
        raise _damaged(filename, str(exc) or exc.__class__.__name__) from exc
    try:
        if doc.needs_pass or doc.is_encrypted or _is_encrypted_trailer(doc):
            raise UploadRefused(
                _(
                    "“%(name)s” is encrypted or password-protected. Please upload "
                    "a copy without a password or restrictions."
                )
                % {"name": filename},
                code="encrypted",
            )
        page_count = doc.page_count
        if page_count == 0:
            raise UploadRefused(
                _("“%(name)s” has no pages.") % {"name": filename}, code="no_pages"
            )
        limit = max_pages()
        if page_count > limit:
            raise UploadRefused(
                _("“%(name)s” has %(pages)d pages; the limit is %(limit)d.")
                % {"name": filename, "pages": page_count, "limit": limit},
                code="too_many_pages",
            )
        try:
            # Loading the first and last page catches a broken page tree.
            doc.load_page(0)
            doc.load_page(page_count - 1)
        except Exception as exc:
            raise _damaged(filename, str(exc)) from exc
        has_js, has_files = _scan_active_content(doc)
        metadata = {k: v for k, v in (doc.metadata or {}).items() if v}
    finally:
        doc.close()
    return ValidatedPdf(
        data=data,
        page_count=page_count,
        has_javascript=has_js,
        has_embedded_files=has_files,
        metadata=metadata,
    )


def _is_encrypted_trailer(doc: Any) -> bool:
    """Owner-password-only files open without a password; their trailer still
    names an /Encrypt dictionary."""
    try:
        return bool(doc.xref_get_key(-1, "Encrypt")[0] != "null")
    except Exception:  # noqa: BLE001
        return False
