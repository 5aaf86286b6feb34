"""The pins file: which source file, which version, which hash, which counts."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

DEFAULT_PINS_PATH = Path(__file__).resolve().parent.parent / "pins.json"


@dataclass(slots=True)
class Pin:
    instrument: str
    language: str
    valid_from: date
    text_kind: str
    label: str
    path: str
    format: str
    sha256: str
    bytes: int
    counts: dict[str, int]
    fetch: dict[str, str] | None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pin:
        return cls(
            instrument=data["instrument"],
            language=data["language"],
            valid_from=date.fromisoformat(data["valid_from"]),
            text_kind=data["text_kind"],
            label=data["label"],
            path=data["path"],
            format=data["format"],
            sha256=data["sha256"],
            bytes=int(data["bytes"]),
            counts=dict(data["counts"]),
            fetch=data.get("fetch"),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "instrument": self.instrument,
            "language": self.language,
            "valid_from": self.valid_from.isoformat(),
            "text_kind": self.text_kind,
            "label": self.label,
            "path": self.path,
            "format": self.format,
            "fetch": self.fetch,
            "sha256": self.sha256,
            "bytes": self.bytes,
            "counts": self.counts,
        }


@dataclass(slots=True)
class PinsFile:
    path: Path
    comment: str
    pins: list[Pin]

    @classmethod
    def load(cls, path: Path = DEFAULT_PINS_PATH) -> PinsFile:
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(
            path=path,
            comment=data.get("comment", ""),
            pins=[Pin.from_json(p) for p in data["pins"]],
        )

    def save(self) -> None:
        body = {"comment": self.comment, "pins": [p.to_json() for p in self.pins]}
        self.path.write_text(
            json.dumps(body, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )


def sha256_file(path: Path) -> tuple[str, int]:
    digest = hashlib.sha256()
    size = 0
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
            size += len(block)
    return digest.hexdigest(), size
