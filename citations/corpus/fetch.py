"""Download the pinned EU texts from EUR-Lex by CELEX and verify them like the
import does (same pins, same hashes)."""

from __future__ import annotations

import hashlib
import os
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from citations.corpus.pins import Pin, PinsFile
from citations.errors import CorpusFetchFailed, CorpusPinMismatch

DEFAULT_BASE_URL = "https://eur-lex.europa.eu"
# {lang}: EN/DE; {fmt}: the EUR-Lex download format of the pin (HTML, XML).
URL_TEMPLATE = "{base}/legal-content/{lang}/TXT/{fmt}/?uri=CELEX:{celex}"
_FORMATS = {"html": "HTML", "fmx4": "XML"}


def eurlex_base_url() -> str:
    return os.environ.get("BELEGT_EURLEX_BASE_URL", DEFAULT_BASE_URL).rstrip("/")


def pin_url(pin: Pin, base_url: str) -> str | None:
    if not pin.fetch:
        return None
    return URL_TEMPLATE.format(
        base=base_url.rstrip("/"),
        lang=pin.fetch["lang"],
        fmt=_FORMATS[pin.fetch["format"]],
        celex=pin.fetch["celex"],
    )


@dataclass(frozen=True, slots=True)
class FetchReport:
    pin: Pin
    url: str
    target: Path
    sha256: str
    pin_updated: bool


def corpus_fetch(
    *,
    dest: Path,
    pins_file: PinsFile,
    base_url: str,
    update_pin: bool = False,
    only: list[str] | None = None,
    timeout: float = 60.0,
) -> list[FetchReport]:
    """Fetch every pin that has a CELEX into ``dest`` (same layout as the
    corpus folder). A download whose hash differs from its pin is not kept
    unless ``update_pin``; the pins file is then rewritten by the caller."""
    reports = []
    for pin in pins_file.pins:
        if only and pin.instrument not in only:
            continue
        url = pin_url(pin, base_url)
        if url is None:
            continue
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response:
                body = response.read()
        except (urllib.error.URLError, TimeoutError) as exc:
            raise CorpusFetchFailed(f"{url}: {exc}") from exc
        digest = hashlib.sha256(body).hexdigest()
        changed = False
        if digest != pin.sha256:
            if not update_pin:
                raise CorpusPinMismatch(
                    f"{url}: SHA-256 {digest} differs from the pin {pin.sha256} "
                    f"({pin.path}); not saved",
                    hint="EUR-Lex may serve another rendition; use --update-pin "
                    "only after checking it.",
                )
            pin.sha256, pin.bytes, changed = digest, len(body), True
        target = dest / pin.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(body)
        reports.append(FetchReport(pin, url, target, digest, changed))
    return reports
