"""import_corpus: pins (hash, counts), --update-pin, idempotent re-import."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from citations.corpus.pins import DEFAULT_PINS_PATH, PinsFile
from citations.errors import CorpusCountMismatch, CorpusPinMismatch
from citations.models import InstrumentVersion, Provision
from citations.services import citations_check, corpus_import
from tests.citations.fixtures import FIXTURE_INSTRUMENTS

TINY_FORMEX = """<?xml version="1.0" encoding="UTF-8"?>
<ACT><GR.CONSID><CONSID><NP><NO.P>(1)</NO.P><TXT>Recital one.</TXT></NP></CONSID>
<CONSID><NP><NO.P>(2)</NO.P><TXT>Recital two.</TXT></NP></CONSID></GR.CONSID>
<ENACTING.TERMS><ARTICLE IDENTIFIER="001"><TI.ART>Article 1</TI.ART>
<STI.ART>Subject matter</STI.ART>
<PARAG IDENTIFIER="001.001"><NO.PARAG>1.</NO.PARAG>
<ALINEA>This Regulation lays down rules. It applies to everyone.</ALINEA></PARAG>
<PARAG IDENTIFIER="001.002"><NO.PARAG>2.</NO.PARAG><ALINEA><P>The following:</P>
<LIST TYPE="alpha"><ITEM><NP><NO.P>(a)</NO.P><TXT>first thing;</TXT></NP></ITEM>
<ITEM><NP><NO.P>(b)</NO.P><TXT>second thing.</TXT></NP></ITEM></LIST></ALINEA>
</PARAG></ARTICLE>
<ARTICLE IDENTIFIER="002"><TI.ART>Article 2</TI.ART><ALINEA>Entry into force.</ALINEA>
</ARTICLE></ENACTING.TERMS></ACT>
"""


def _tiny_corpus(tmp_path: Path) -> tuple[Path, Path]:
    corpus = tmp_path / "corpus"
    (corpus / "tiny").mkdir(parents=True)
    source = corpus / "tiny" / "act.fmx.xml"
    source.write_text(TINY_FORMEX, encoding="utf-8")
    pins = tmp_path / "pins.json"
    pins.write_text(
        json.dumps(
            {
                "comment": "test",
                "pins": [
                    {
                        "instrument": "gdpr",
                        "language": "en",
                        "valid_from": "2031-01-01",
                        "text_kind": "oj_original",
                        "label": "synthetic test text",
                        "path": "tiny/act.fmx.xml",
                        "format": "formex",
                        "fetch": None,
                        "sha256": hashlib.sha256(source.read_bytes()).hexdigest(),
                        "bytes": source.stat().st_size,
                        "counts": {"articles": 2, "recitals": 2},
                    }
                ],
            }
        ),
        encoding="utf-8",
    )
    return corpus, pins


@pytest.mark.django_db
def test_import_builds_the_unit_tree(tmp_path: Path) -> None:
    corpus, pins = _tiny_corpus(tmp_path)
    (report,) = corpus_import(corpus_dir=corpus, pins_path=pins)
    assert report.action == "created"
    version = InstrumentVersion.objects.get(valid_from="2031-01-01")
    paths = set(version.provisions.values_list("path", flat=True))
    assert paths == {
        "recital/1",
        "recital/2",
        "art/1",
        "art/1/para/1",
        "art/1/para/1/sent/1",
        "art/1/para/1/sent/2",
        "art/1/para/2",
        "art/1/para/2/point/a",
        "art/1/para/2/point/b",
        "art/2",
    }
    point = version.provisions.get(path="art/1/para/2/point/b")
    assert point.text == "second thing."
    assert point.parent is not None and point.parent.path == "art/1/para/2"
    assert version.counts["articles"] == 2


@pytest.mark.django_db
def test_reimport_of_an_unchanged_file_changes_nothing(tmp_path: Path) -> None:
    corpus, pins = _tiny_corpus(tmp_path)
    corpus_import(corpus_dir=corpus, pins_path=pins)
    ids = list(Provision.objects.order_by("pk").values_list("pk", flat=True))
    (report,) = corpus_import(corpus_dir=corpus, pins_path=pins)
    assert report.action == "unchanged"
    assert list(Provision.objects.order_by("pk").values_list("pk", flat=True)) == ids


@pytest.mark.django_db
def test_file_whose_hash_differs_from_its_pin_is_refused(tmp_path: Path) -> None:
    corpus, pins = _tiny_corpus(tmp_path)
    source = corpus / "tiny" / "act.fmx.xml"
    source.write_text(TINY_FORMEX.replace("second thing", "other thing"), "utf-8")
    with pytest.raises(CorpusPinMismatch):
        corpus_import(corpus_dir=corpus, pins_path=pins)
    assert not InstrumentVersion.objects.filter(valid_from="2031-01-01").exists()
    with pytest.raises(CommandError, match="corpus_pin_mismatch"):
        call_command("import_corpus", str(corpus), "--pins", str(pins))


@pytest.mark.django_db
def test_update_pin_accepts_the_new_file_and_rewrites_the_pin(tmp_path: Path) -> None:
    corpus, pins = _tiny_corpus(tmp_path)
    corpus_import(corpus_dir=corpus, pins_path=pins)
    source = corpus / "tiny" / "act.fmx.xml"
    changed = TINY_FORMEX.replace("second thing", "other thing").replace(
        '<ARTICLE IDENTIFIER="002"><TI.ART>Article 2</TI.ART><ALINEA>Entry into '
        "force.</ALINEA>\n</ARTICLE>",
        "",
    )
    source.write_text(changed, "utf-8")
    call_command("import_corpus", str(corpus), "--pins", str(pins), "--update-pin")
    pin = PinsFile.load(pins).pins[0]
    assert pin.sha256 == hashlib.sha256(source.read_bytes()).hexdigest()
    assert pin.counts == {"articles": 1, "recitals": 2}
    version = InstrumentVersion.objects.get(valid_from="2031-01-01")
    assert version.sha256 == pin.sha256
    assert version.provisions.get(path="art/1/para/2/point/b").text == "other thing."
    assert not version.provisions.filter(path="art/2").exists()


@pytest.mark.django_db
def test_counts_that_differ_from_the_pin_fail_the_import(tmp_path: Path) -> None:
    corpus, pins = _tiny_corpus(tmp_path)
    data = json.loads(pins.read_text())
    data["pins"][0]["counts"]["articles"] = 3
    pins.write_text(json.dumps(data))
    with pytest.raises(CorpusCountMismatch):
        corpus_import(corpus_dir=corpus, pins_path=pins)
    assert not InstrumentVersion.objects.filter(valid_from="2031-01-01").exists()


@pytest.mark.django_db
def test_missing_file_fails(tmp_path: Path) -> None:
    corpus, pins = _tiny_corpus(tmp_path)
    (corpus / "tiny" / "act.fmx.xml").unlink()
    with pytest.raises(CommandError, match="corpus_file_missing"):
        call_command("import_corpus", str(corpus), "--pins", str(pins))


@pytest.mark.corpus
@pytest.mark.django_db
def test_a_changed_copy_of_a_real_corpus_file_is_refused(
    tmp_path: Path, corpus_dir: Path
) -> None:
    target = tmp_path / "gdpr" / "en" / "gdpr.fmx.xml"
    target.parent.mkdir(parents=True)
    shutil.copyfile(corpus_dir / "gdpr" / "en" / "gdpr.fmx.xml", target)
    with target.open("ab") as handle:
        handle.write(b"\n")
    pins = tmp_path / "pins.json"
    shutil.copyfile(DEFAULT_PINS_PATH, pins)
    with pytest.raises(CommandError, match="corpus_pin_mismatch"):
        call_command(
            "import_corpus", str(tmp_path), "--pins", str(pins), "--only", "gdpr"
        )
    assert pins.read_bytes() == DEFAULT_PINS_PATH.read_bytes()


@pytest.mark.corpus
def test_pins_agree_with_the_corpus_manifest(corpus_dir: Path) -> None:
    manifest = (corpus_dir / "MANIFEST.md").read_text(encoding="utf-8")
    for pin in PinsFile.load().pins:
        # federal laws are rows of one table: | jurabk | doknr | `path` | `sha` | bytes
        row = re.search(
            rf"\| `{re.escape(pin.path)}` \| `([0-9a-f]{{64}})` \| (\d+) \|", manifest
        )
        if row is not None:
            assert (row.group(1), int(row.group(2))) == (pin.sha256, pin.bytes)
            continue
        section = manifest.split(f"**`{pin.path}`**", 1)
        assert len(section) == 2, pin.path
        match = re.search(r"sha256 `([0-9a-f]{64})`", section[1])
        assert match is not None and match.group(1) == pin.sha256, pin.path


@pytest.mark.corpus
def test_pinned_counts_match_the_manifest(corpus_dir: Path) -> None:
    by_path = {p.path: p.counts for p in PinsFile.load().pins}
    assert by_path["gdpr/en/gdpr.fmx.xml"] == {"articles": 99, "recitals": 173}
    assert by_path["ai-act/en/aia.fmx.xml"] == {
        "articles": 113,
        "recitals": 180,
        "annexes": 13,
    }
    assert by_path["dora/de/L_2022333DE.01000101.html"] == {
        "articles": 64,
        "recitals": 106,
    }
    assert by_path["dora/en/DORA.json"] == {"articles": 64, "recitals": 106}
    assert by_path["bgb/de/source.xml"] == {"sections": 2518}


@pytest.mark.corpus
def test_reimport_of_the_test_corpus_is_idempotent(corpus, corpus_dir: Path) -> None:
    before = Provision.objects.count()
    reports = corpus_import(corpus_dir=corpus_dir, only=FIXTURE_INSTRUMENTS)
    assert {r.action for r in reports} == {"unchanged"}
    assert Provision.objects.count() == before
    assert citations_check("§ 433 BGB")[0].status == "resolved"


def test_the_english_dora_paragraph_text_is_its_first_subparagraph(
    corpus_dir: Path,
) -> None:
    """DORA.json numbers only the subparagraphs after the first ("subpar-1"
    is the second); the paragraph's own text is the first, so "Art. 19(3)
    first subparagraph" has a unit of its own and the second keeps its text."""
    from citations.corpus.unit_json import read_unit_json

    doc = read_unit_json(corpus_dir / "dora" / "en" / "DORA.json")
    text = {u.path: u.text for u in doc.units}
    first = text["art/19/para/3/subpara/1"]
    assert first.startswith("Where a major ICT-related incident occurs")
    assert first == text["art/19/para/3"]
    assert text["art/19/para/3/subpara/2"].startswith(
        "In the case of a significant cyber threat"
    )
    assert "art/19/para/5/subpara/1" not in text  # a paragraph of one subparagraph
