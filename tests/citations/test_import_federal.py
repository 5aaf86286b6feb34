"""The 37 federal laws of ../shared/corpus/de-federal: one generic reader, pins,
names from <jurabk>/<amtabk>, pending amendments, idempotent import."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest

from citations.corpus.pins import PinsFile
from citations.corpus.readers import read_document
from citations.domain.federal import federal_info
from citations.models import InstrumentVersion, Provision
from citations.services import citations_check, corpus_import

pytestmark = pytest.mark.corpus


def _federal_pins() -> list:
    return [p for p in PinsFile.load().pins if p.path.startswith("de-federal/")]


def test_every_law_in_the_folder_has_a_pin(corpus_dir: Path) -> None:
    files = sorted(
        p.relative_to(corpus_dir).as_posix()
        for p in (corpus_dir / "de-federal").glob("*/source.xml")
    )
    assert len(files) == 37
    assert sorted(p.path for p in _federal_pins()) == files


def test_pins_take_the_law_and_its_pending_amendments_from_the_file(
    corpus_dir: Path,
) -> None:
    manifest = (corpus_dir / "MANIFEST.md").read_text(encoding="utf-8")
    for pin in _federal_pins():
        document = read_document("gii", corpus_dir / pin.path)
        meta = document.meta
        info = federal_info(
            jurabk=meta.abbreviation,
            title=meta.title,
            amtabk=meta.official_abbreviation,
        )
        assert info.key == pin.instrument, pin.path
        cells = r"\| `[0-9a-f]{64}` \| \d+ \| \d+ \| (\d+) \|"
        row = re.search(rf"\| `{re.escape(pin.path)}` " + cells, manifest)
        assert row is not None, pin.path
        assert len(meta.pending_amendments) == int(row.group(1)), pin.path


def test_common_variants_name_the_pinned_law() -> None:
    keys = {p.instrument for p in _federal_pins()}
    # EGBGB for BGBEG, KWG for KredWG, UWG for "UWG 2004", TDDDG for the TTDSG file
    assert {"egbgb", "kwg", "uwg", "tdddg", "ao", "bdsg", "vvg"} <= keys


@pytest.mark.django_db
def test_whole_folder_imports_and_a_second_import_adds_nothing(
    corpus_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    keys = sorted({p.instrument for p in _federal_pins()})
    started = time.perf_counter()
    first = corpus_import(corpus_dir=corpus_dir, only=keys)
    seconds = time.perf_counter() - started
    with capsys.disabled():
        sys.stderr.write(f"\nde-federal import: {len(first)} laws in {seconds:.1f} s\n")
    assert len(first) == 37
    provisions = Provision.objects.count()
    versions = InstrumentVersion.objects.count()
    second = corpus_import(corpus_dir=corpus_dir, only=keys)
    assert {r.action for r in second} == {"unchanged"}
    assert Provision.objects.count() == provisions
    assert InstrumentVersion.objects.count() == versions
    zpo = InstrumentVersion.objects.get(instrument__key="zpo")
    assert len(zpo.pending_amendments) == 3
    for text in (
        "§ 1 AGG",
        "§ 15 GmbHG",
        "§ 93 AktG",
        "§ 4a UWG",
        "§ 3 StGB",
        "§ 25a KWG",
        "§ 343 HGB",
        "§ 26 BDSG",
        "§ 1 TDDDG",
    ):
        assert citations_check(text)[0].status == "resolved", text
