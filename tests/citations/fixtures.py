"""The corpus in the test database, imported once per session.

Corpus tests are marked ``corpus`` and skipped only when the corpus folder
(``BASE_DIR.parent / "shared" / "corpus"`` or ``$BELEGT_CORPUS_DIR``) is absent.

Other apps' tests use the same fixtures by importing them into their conftest:
``from tests.citations.fixtures import _corpus_session, corpus  # noqa: F401``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from citations.corpus import corpus_dir_default

CORPUS_DIR: Path = corpus_dir_default()
CORPUS_PRESENT = (CORPUS_DIR / "MANIFEST.md").is_file()
SKIP_REASON = f"legal corpus folder not found at {CORPUS_DIR} (set BELEGT_CORPUS_DIR)"


# The EU acts, the BGB and the federal laws the tests cite: importing all 44
# pinned files takes ~2 minutes on this machine, too long for every test
# session (tests/citations/test_import_federal.py imports the whole folder).
FIXTURE_INSTRUMENTS = [
    "gdpr",
    "ai-act",
    "dora",
    "bgb",
    "egbgb",
    "rvg",
    "zpo",
    "gg",
    "uwg",
]


def _fixture_versions() -> int:
    """How many versions the fixture imports (one per pin of its instruments)."""
    from citations.corpus.pins import PinsFile

    return sum(1 for p in PinsFile.load().pins if p.instrument in FIXTURE_INSTRUMENTS)


def _import() -> None:
    from citations.services import corpus_import

    corpus_import(corpus_dir=CORPUS_DIR, only=FIXTURE_INSTRUMENTS)


@pytest.fixture(scope="session")
def _corpus_session(django_db_setup, django_db_blocker) -> Iterator[None]:
    if not CORPUS_PRESENT:
        pytest.skip(SKIP_REASON)
    with django_db_blocker.unblock():
        _import()
    yield


@pytest.fixture
def corpus(_corpus_session, db) -> None:
    """The whole pinned corpus. If a transactional test elsewhere flushed the
    tables, import again (inside this test's transaction)."""
    from citations.models import InstrumentVersion

    if InstrumentVersion.objects.count() < _fixture_versions():
        _import()


@pytest.fixture
def corpus_dir() -> Path:
    if not CORPUS_PRESENT:
        pytest.skip(SKIP_REASON)
    return CORPUS_DIR
