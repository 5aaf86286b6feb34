"""The Requirements tab's damage table speaks one language: rendered in
English it holds no German word of the catalogue's damage-table entries, in
German no English one (legal terms such as Basiszinssatz, Stichtag and
Pauschale are German in both, as their msgids say)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.reports.test_damage_surfaces import _case

pytestmark = pytest.mark.django_db

PO = Path(__file__).resolve().parents[2] / "locale" / "de" / "LC_MESSAGES" / "django.po"
MARKER = "#: ontology/damage_table.py"


def _entries() -> list[tuple[str, str]]:
    """(msgid, msgstr) of the damage-table section of the German catalogue."""
    text = PO.read_text(encoding="utf-8")
    section = text[text.index(MARKER) :]
    pairs = []
    for block in section.split("\n\n"):
        parts = re.findall(r'^(msgid|msgstr) ((?:".*"\n?)+)', block + "\n", re.M)
        found = {
            key: "".join(re.findall(r'"(.*)"', raw)).replace('\\"', '"')
            for key, raw in parts
        }
        if found.get("msgid") and found.get("msgstr"):
            pairs.append((found["msgid"], found["msgstr"]))
    return pairs


def _fragments(text: str) -> list[str]:
    """The words of a catalogue string, without its placeholders, that are long
    enough to say which language they are in."""
    return [
        f.strip(" ;:,()")
        for f in re.split(r"%\(\w+\)s|\(§[^)]*\)|§ [^;:)]*", text)
        if len(f.strip(" ;:,()")) >= 9
    ]


def _damage_block(client: Client, case: Any, lang: str) -> str:
    client.cookies["django_language"] = lang
    html = client.get(
        reverse("ontology:case_requirements", kwargs={"case_id": case.pk})
    ).content.decode()
    start = html.index('class="damage" data-damage-table')
    block = html[start : html.index("</section>", start)]
    block = re.sub(r"<[^>]+>", " ", block)
    return block.replace("=Rücklastschrift", "")  # the file's own words


@pytest.mark.parametrize("consumer", [False, True], ids=["b2b", "consumer"])
def test_damage_table_is_all_english_under_en_and_all_german_under_de(
    case: Any, reviewer: Any, lawyer_client: Client, consumer: bool
) -> None:
    _case(case, reviewer, consumer=consumer)
    english = _damage_block(lawyer_client, case, "en")
    german = _damage_block(lawyer_client, case, "de")
    assert "Damage calculation" in english and "Total recoverable" in english
    assert "Schadensberechnung" in german and "Ersatzfähig insgesamt" in german
    entries = [(i, s) for i, s in _entries() if i != s]
    assert len(entries) > 30
    leaks = []
    for msgid, msgstr in entries:
        # a fragment the other language uses too (a legal term) is no leak
        for fragment in _fragments(msgstr):
            if fragment not in msgid and fragment in english:
                leaks.append(f"German {fragment!r} on the English page")
        for fragment in _fragments(msgid):
            if fragment not in msgstr and fragment in german:
                leaks.append(f"English {fragment!r} on the German page")
    assert not leaks, leaks
