"""Plain data of the corpus: documents as blocks, each block carrying its facts.

A fact is written next to the text that evidences it, so the ground truth is
fixed when the document is written (never read back from an extractor).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

MONTHS_DE = [
    "Januar",
    "Februar",
    "März",
    "April",
    "Mai",
    "Juni",
    "Juli",
    "August",
    "September",
    "Oktober",
    "November",
    "Dezember",
]
MONTHS_EN = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


@dataclass
class Fact:
    key: str
    value: dict[str, Any] | bool
    quote: str | None = None  # None: the whole paragraph / table row


@dataclass
class Bad:
    """Text that must never be the source of a proposal."""

    reason: str  # distractor|injection|other_matter|goods_delivery_note|newsletter
    quote: str | None = None
    keys: list[str] | None = None  # None: no key at all may come from it
    cents: int | None = None  # only a proposal carrying this amount is forbidden


@dataclass
class Block:
    kind: str  # para | table | header | space | sig
    text: str = ""
    rows: list[list[str]] = field(default_factory=list)
    cols: list[tuple[float, float, str]] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    bad: list[Bad] = field(default_factory=list)
    row_facts: dict[int, list[Fact]] = field(default_factory=dict)
    row_bad: dict[int, list[Bad]] = field(default_factory=dict)
    bold: bool = False
    size: float | None = None
    break_at: int | None = None  # force a page break before this word


@dataclass
class Doc:
    name: str
    style: str
    title: str = ""
    sender: list[str] = field(default_factory=list)
    recipient: list[str] = field(default_factory=list)
    date_text: str = ""
    subject: str = ""
    refs: list[tuple[str, str]] = field(default_factory=list)
    vermerk: str = ""
    initials: str = ""
    email: list[tuple[str, str]] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    scanned: bool = False
    injection: bool = False
    whole_file_bad: str | None = None
    lang: str = "de"  # reason when nothing in it may be proposed

    def p(self, text: str, *facts: Fact, bad: list[Bad] | None = None, **kw) -> Doc:
        self.blocks.append(
            Block("para", text=text, facts=list(facts), bad=bad or [], **kw)
        )
        return self

    def table(self, cols, rows, row_facts=None, row_bad=None) -> Doc:
        self.blocks.append(
            Block(
                "table",
                cols=cols,
                rows=rows,
                row_facts=row_facts or {},
                row_bad=row_bad or {},
            )
        )
        return self

    def space(self, pts: float = 8) -> Doc:
        self.blocks.append(Block("space", size=pts))
        return self

    def sig(self, *lines: str) -> Doc:
        self.blocks.append(Block("sig", rows=[[ln] for ln in lines]))
        return self


@dataclass
class Case:
    case_id: str
    lang: str
    house_style: str
    blind: bool
    creditor: dict[str, Any]
    debtor: dict[str, Any]
    valid_at: dt.date
    docs: list[Doc] = field(default_factory=list)
    traps: list[dict[str, Any]] = field(default_factory=list)

    def add(self, doc: Doc) -> Doc:
        doc.lang = self.lang
        self.docs.append(doc)
        return doc


def d(s: str) -> dt.date:
    return dt.date.fromisoformat(s)


def de_date(x: dt.date) -> str:
    return x.strftime("%d.%m.%Y")


def de_long(x: dt.date) -> str:
    return f"{x.day}. {MONTHS_DE[x.month - 1]} {x.year}"


def en_date(x: dt.date) -> str:
    return f"{x.day} {MONTHS_EN[x.month - 1]} {x.year}"


def en_us(x: dt.date) -> str:
    return f"{MONTHS_EN[x.month - 1]} {x.day}, {x.year}"


def de_amt(cents: int, cur: str = "€") -> str:
    euros, c = divmod(cents, 100)
    return f"{euros:,}".replace(",", ".") + f",{c:02d} {cur}"


def en_amt(cents: int, cur: str = "EUR") -> str:
    euros, c = divmod(cents, 100)
    return f"{cur} {euros:,}.{c:02d}" if cur == "EUR" else f"€{euros:,}.{c:02d}"


def amt(cents: int) -> dict[str, Any]:
    return {"cents": cents, "currency": "EUR"}


def iso(x: dt.date) -> str:
    return x.isoformat()
