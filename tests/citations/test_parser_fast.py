"""The parser's fast path (parser_fast) gives exactly what the step-by-step
parser gives: over every labelled set and over corpus text (pure; no database)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citations.domain.parser import _Parser
from citations.domain.parser_fast import fast_head
from tests.citations.fixtures import CORPUS_DIR, CORPUS_PRESENT, SKIP_REASON

DATA = Path(__file__).parent / "data"


def _labelled_texts() -> list[str]:
    texts = []
    for path in sorted(DATA.rglob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                texts.append(json.loads(line)["text"])
    return texts


def _both(text: str) -> tuple[list, list, int]:
    fast = _Parser(text, None, fast=True)
    got = fast.run()
    want = _Parser(text, None, fast=False).run()
    return got, want, len(got)


def test_fast_path_finds_the_same_citations_as_step_by_step_on_every_labelled_set() -> (
    None
):
    texts = _labelled_texts()
    assert len(texts) > 400
    differing = [t for t in texts if _both(t)[0] != _both(t)[1]]
    assert differing == []


@pytest.mark.skipif(not CORPUS_PRESENT, reason=SKIP_REASON)
def test_fast_path_finds_the_same_citations_as_step_by_step_on_corpus_text() -> None:
    from citations.corpus.pins import PinsFile
    from citations.corpus.readers import read_document

    pieces: list[str] = []
    for pin in PinsFile.load().pins:
        doc = read_document(pin.format, CORPUS_DIR / pin.path)
        texts = [u.text for u in doc.units if u.text][:400]
        pieces.append("\n\n".join(texts))
    total = 0
    for text in pieces:
        got, want, n = _both(text)
        assert got == want
        total += n
    assert total > 5000


@pytest.mark.parametrize(
    "text",
    [
        "nach Artikel 6 Absatz 1 Buchstabe a genannten Zwecke",
        "Article 6(1)(a) shall apply",
        "Art. 15 Abs. 3 S. 1 gilt",
        "nach § 286 genannten",
    ],
)
def test_fast_path_reads_a_single_unit_followed_by_an_ordinary_word_whole(
    text: str,
) -> None:
    start = min(i for i in (text.find("Art"), text.find("§")) if i >= 0)
    head = fast_head(text, start)
    assert head is not None and head[-1] is True
    (c,) = _Parser(text, None).run()
    assert text[c.start : head[0]] == c.raw


@pytest.mark.parametrize(
    "text",
    [
        "§ 823 I BGB",  # a Roman paragraph
        "Art. 6 Abs. 1 und 2 gilt",  # a list
        "Art. 6 Abs. 1 S. 1 Nr. 1 S. 2 gilt",  # a sentence of a numbered item
        "§§ 280, 286 BGB",  # plural
        "Art. 6 ff. gilt",  # ff.
    ],
)
def test_fast_path_leaves_lists_ranges_and_unusual_orders_to_the_step_by_step_parser(
    text: str,
) -> None:
    head = fast_head(text, 0)
    assert head is None or head[-1] is False
    assert _Parser(text, None, fast=True).run() == _Parser(text, None, fast=False).run()
