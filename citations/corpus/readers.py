"""Readers for the formats of the pinned corpus, by format name.

Formats: Formex 4 XML (EU OJ), EUR-Lex OJ HTML (old style), the unit-level JSON
of ``eurlex-unit-parser`` and gesetze-im-internet XML (German statutes); each
lives in its own module and yields a :class:`~citations.corpus.ir.DocumentIR`.
"""

from __future__ import annotations

from pathlib import Path

from citations.corpus.formex import read_formex
from citations.corpus.gii import read_gii
from citations.corpus.ir import DocumentIR, UnitIR, clean, label_of, split_sentences
from citations.corpus.oj_html import read_oj_html
from citations.corpus.unit_json import read_unit_json

__all__ = [
    "READERS",
    "DocumentIR",
    "UnitIR",
    "clean",
    "label_of",
    "read_document",
    "split_sentences",
]

READERS = {
    "formex": read_formex,
    "gii": read_gii,
    "oj_html": read_oj_html,
    "unit_json": read_unit_json,
}


def read_document(fmt: str, path: Path) -> DocumentIR:
    return READERS[fmt](path)
