"""English case files: English parties and phrasing, German law."""

from __future__ import annotations

from typing import Any

CASES_EN: list[dict[str, Any]] = []
