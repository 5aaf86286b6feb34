"""Reading and pinning the legal corpus (files in ../shared/corpus, read in place)."""

from __future__ import annotations

import os
from pathlib import Path

from django.conf import settings


def corpus_dir_default() -> Path:
    """``BELEGT_CORPUS_DIR`` or ``BASE_DIR.parent / "shared" / "corpus"``."""
    configured = os.environ.get("BELEGT_CORPUS_DIR")
    if configured:
        return Path(configured)
    return Path(settings.BASE_DIR).parent / "shared" / "corpus"
