"""manage.py cite: plain lines, --json, --file, --batch, --at."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

pytestmark = [pytest.mark.corpus, pytest.mark.django_db]


def _run(*args: str) -> str:
    out = StringIO()
    call_command("cite", *args, stdout=out)
    return out.getvalue()


def test_json_lists_every_citation_in_the_documented_shape(corpus) -> None:
    text = "Nach §§ 280 Abs. 1, 2, 286 BGB und § 44 DSGVO"
    data = json.loads(_run("--json", text))
    assert [d["raw"] for d in data] == ["§§ 280 Abs. 1", "2", "286 BGB", "§ 44 DSGVO"]
    assert [d["status"] for d in data] == ["resolved"] * 3 + ["bad_unit"]
    for d in data:
        assert list(d) == [
            "span",
            "raw",
            "canonical",
            "status",
            "reason",
            "version",
            "excerpt",
            "parts",
            "group",
            "transitions",
        ]
        assert text[d["span"][0] : d["span"][1]] == d["raw"]
    assert data[1]["parts"] == {"instrument": "BGB", "section": "280", "paragraph": "2"}
    assert data[3]["version"] is None
    # "§§ 280 Abs. 1, 2, 286 BGB" is one group, "§ 44 DSGVO" another
    assert len({d["group"] for d in data[:3]}) == 1
    assert data[3]["group"] != data[0]["group"]


def test_plain_output_has_one_line_per_citation(corpus) -> None:
    lines = _run("§ 433 BGB und § 91 VwGO").strip().splitlines()
    assert len(lines) == 2
    assert lines[0].split("\t")[:4] == [
        "0-9",
        "§ 433 BGB",
        "de/bgb/sec/433",
        "resolved",
    ]
    assert lines[1].split("\t")[3] == "not_checked"


def test_at_chooses_the_version(corpus) -> None:
    early = json.loads(_run("--json", "--at", "2017-01-01", "Art. 4 Nr. 18 DSGVO"))
    late = json.loads(_run("--json", "--at", "2020-01-01", "Art. 4 Nr. 18 DSGVO"))
    assert early[0]["version"]["valid_from"] == "2016-05-04"
    assert late[0]["version"]["valid_from"] == "2018-05-23"


def test_file_input(corpus, tmp_path: Path) -> None:
    source = tmp_path / "brief.txt"
    source.write_text("Gemäß Art. 6 Abs. 1 lit. f DSGVO ...", encoding="utf-8")
    data = json.loads(_run("--json", "--file", str(source)))
    assert data[0]["canonical"] == "eu/reg/2016/679/art/6/para/1/point/f"


def test_batch_writes_one_line_per_input(corpus, tmp_path: Path) -> None:
    batch = tmp_path / "in.jsonl"
    batch.write_text(
        "\n".join(
            json.dumps(x, ensure_ascii=False)
            for x in [
                {"id": "a", "text": "§ 286 Abs. 2 Nr. 3 BGB"},
                {"id": "b", "text": "Keine Norm."},
                {"id": "c", "text": "Art. 4 Nr. 18 DSGVO", "at": "2017-01-01"},
            ]
        ),
        encoding="utf-8",
    )
    lines = [json.loads(x) for x in _run("--batch", str(batch)).splitlines()]
    assert [x["id"] for x in lines] == ["a", "b", "c"]
    assert lines[0]["citations"][0]["status"] == "resolved"
    assert lines[1]["citations"] == []
    assert lines[2]["citations"][0]["version"]["valid_from"] == "2016-05-04"


def test_exactly_one_input_is_required() -> None:
    with pytest.raises(CommandError):
        _run()
    with pytest.raises(CommandError):
        _run("§ 1 BGB", "--file", "x.txt")
