"""fetch_corpus against a local HTTP server that serves the corpus folder the
way EUR-Lex serves texts (by CELEX)."""

from __future__ import annotations

import hashlib
import shutil
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from django.core.management import CommandError, call_command

from citations.corpus.pins import DEFAULT_PINS_PATH, PinsFile

pytestmark = pytest.mark.corpus

# What the fake EUR-Lex serves: (language, format, CELEX) → file in the corpus.
ROUTES = {
    ("EN", "XML", "32016R0679"): "gdpr/en/gdpr.fmx.xml",
    ("DE", "XML", "32016R0679"): "gdpr/de/L_2016119DE.01000101.xml",
    ("EN", "XML", "32024R1689"): "ai-act/en/aia.fmx.xml",
    ("DE", "HTML", "32022R2554"): "dora/de/L_2022333DE.01000101.html",
}


class _State:
    corpus: Path
    tamper: set[str] = set()
    requests: list[str] = []


def _handler(state: type[_State]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            url = urlparse(self.path)
            state.requests.append(self.path)
            parts = url.path.strip("/").split("/")
            celex = parse_qs(url.query).get("uri", [""])[0].removeprefix("CELEX:")
            key = (parts[1], parts[3], celex) if len(parts) >= 4 else ("", "", "")
            rel = ROUTES.get(key)
            if rel is None:
                self.send_error(404)
                return
            body = (state.corpus / rel).read_bytes()
            if celex in state.tamper:
                body += b"<!-- changed -->"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            return

    return Handler


@pytest.fixture
def eurlex(corpus_dir: Path) -> Iterator[tuple[str, type[_State]]]:
    class State(_State):
        pass

    State.corpus = corpus_dir
    State.tamper = set()
    State.requests = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(State))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", State
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def pins_copy(tmp_path: Path) -> Path:
    target = tmp_path / "pins.json"
    shutil.copyfile(DEFAULT_PINS_PATH, target)
    return target


def test_fetch_downloads_by_celex_and_verifies_against_the_pins(
    eurlex, tmp_path: Path, pins_copy: Path
) -> None:
    base, state = eurlex
    dest = tmp_path / "fetched"
    call_command(
        "fetch_corpus", str(dest), "--base-url", base, "--pins", str(pins_copy)
    )
    fetched = {p.path for p in PinsFile.load(pins_copy).pins if p.fetch}
    assert fetched == set(ROUTES.values())
    for pin in PinsFile.load(pins_copy).pins:
        if pin.fetch:
            body = (dest / pin.path).read_bytes()
            assert hashlib.sha256(body).hexdigest() == pin.sha256
    assert any("CELEX:32024R1689" in r for r in state.requests)
    assert pins_copy.read_bytes() == DEFAULT_PINS_PATH.read_bytes()


@pytest.mark.django_db
def test_fetched_texts_import_like_the_corpus(
    eurlex, tmp_path: Path, pins_copy: Path
) -> None:
    base, _ = eurlex
    dest = tmp_path / "fetched"
    call_command(
        "fetch_corpus",
        str(dest),
        "--base-url",
        base,
        "--pins",
        str(pins_copy),
        "--only",
        "ai-act",
    )
    call_command(
        "import_corpus", str(dest), "--pins", str(pins_copy), "--only", "ai-act"
    )
    from citations.services import citations_check

    (result,) = citations_check("Art. 14 Abs. 4 lit. e KI-VO")
    assert result.status == "resolved"


def test_download_whose_hash_differs_is_refused_and_not_saved(
    eurlex, tmp_path: Path, pins_copy: Path
) -> None:
    base, state = eurlex
    state.tamper.add("32022R2554")
    dest = tmp_path / "fetched"
    with pytest.raises(CommandError, match="corpus_pin_mismatch"):
        call_command(
            "fetch_corpus",
            str(dest),
            "--base-url",
            base,
            "--pins",
            str(pins_copy),
            "--only",
            "dora",
        )
    assert not (dest / "dora/de/L_2022333DE.01000101.html").exists()
    call_command(
        "fetch_corpus",
        str(dest),
        "--base-url",
        base,
        "--pins",
        str(pins_copy),
        "--only",
        "dora",
        "--update-pin",
    )
    pin = next(p for p in PinsFile.load(pins_copy).pins if p.path.startswith("dora/de"))
    body = (dest / pin.path).read_bytes()
    assert pin.sha256 == hashlib.sha256(body).hexdigest()
    assert body.endswith(b"<!-- changed -->")


def test_unreachable_server_is_a_clear_error(tmp_path: Path, pins_copy: Path) -> None:
    with pytest.raises(CommandError, match="corpus_fetch_failed"):
        call_command(
            "fetch_corpus",
            str(tmp_path),
            "--base-url",
            "http://127.0.0.1:9",
            "--pins",
            str(pins_copy),
            "--only",
            "gdpr",
            "--timeout",
            "2",
        )
