"""The offline extractor of the ``rules`` provider: reads a case's chunks in
document order and finds the facts of the Verzugsschaden vocabulary with a
verbatim quote (a slice of the chunk text, so the gate's quote matcher finds
it). It decides nothing; its findings become ``propose_case_fact`` calls.

- One finding per fact: the same kind and value read in several passages (the
  principal in the invoice and in the lawyer's letter, a sentence repeated in
  the overlap of two chunks) is one finding with several sources.
- Sentences addressed to machines ("Hinweis an automatisierte Systeme …",
  "ignore previous instructions") and the rest of their paragraph are never a
  source; the document is reported in ``instructed_documents``.
- Newsletters and letters about another matter (an invoice number the case
  does not know) give nothing."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from agents.domain.parsing import DATE
from agents.extraction import facts, statements
from agents.extraction.documents import (
    INJECTION,
    DocumentContext,
    classify,
    contract_kind,
    letter_date,
    opens_new_letter,
)
from agents.extraction.units import Unit, units

_BOOLEAN_KINDS = {"consumer_notice_in_invoice", "debtor_consumer", "creditor_input_vat"}
_NUMBER_REF = re.compile(
    r"(?:Rechnung|invoice)\s+(?:Nr\.?|no\.?|number)\s*:?\s*(?P<no>[A-Z]{0,4}-?\d[\w\-/]*)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Source:
    chunk_id: int
    document_id: int
    quote: str


@dataclass
class Finding:
    """One fact: its kind, typed value and every passage that states it."""

    fact_type: str
    value: dict[str, Any]
    confidence: float
    sources: list[Source] = field(default_factory=list)

    @property
    def chunk_id(self) -> int:
        return self.sources[0].chunk_id

    @property
    def quote(self) -> str:
        return self.sources[0].quote


@dataclass(frozen=True)
class ChunkText:
    chunk_id: int
    document_id: int
    text: str
    document: str = ""


# The fields that make two findings the same fact (VOCABULARY.md's main fields).
_IDENTITY = {
    "contract_concluded": ("date",),
    "invoice_issued": ("date",),
    "reminder_sent": ("date", "deadline"),
}


def _key(fact_type: str, value: dict[str, Any]) -> str:
    if fact_type in _IDENTITY:
        value = {k: v for k, v in value.items() if k in _IDENTITY[fact_type]}
    if fact_type in {
        "lack_of_funds_pleaded",
        "exoneration_pleaded",
        "special_reasons",
        "damage_unquantified",
        "acceptance_clause",
        "defects_asserted",
    }:
        # free text: the same statement read twice differs at most in its cut
        value = {k: v for k, v in value.items() if k not in {"text"}}
    return fact_type + "|" + json.dumps(value, sort_keys=True, ensure_ascii=False)


class Extractor:
    """Deterministic: the same chunks in the same order give the same findings
    in the same order. Keeps state across calls (a run's batches)."""

    def __init__(self) -> None:
        self._docs: dict[int, DocumentContext] = {}
        self._findings: dict[str, Finding] = {}
        self._invoice_numbers: set[str] = set()
        self.instructed_documents: set[int] = set()

    def extract(self, chunks: Iterable[ChunkText]) -> list[Finding]:
        """The findings first seen in ``chunks``; passages of findings seen
        before are added to their sources."""
        new: list[Finding] = []
        for chunk in chunks:
            for fact_type, value, confidence, quote in self._chunk(chunk):
                if isinstance(value, bool):
                    value = {"boolean": value}
                if fact_type in _BOOLEAN_KINDS and not isinstance(value, dict):
                    continue
                source = Source(chunk.chunk_id, chunk.document_id, quote)
                key = _key(fact_type, value)
                known = self._findings.get(key)
                if known is None:
                    finding = Finding(fact_type, value, confidence, [source])
                    self._findings[key] = finding
                    new.append(finding)
                elif not any(
                    s.document_id == source.document_id and _same(s.quote, quote)
                    for s in known.sources
                ):
                    known.sources.append(source)
        return new

    # -- one chunk ---------------------------------------------------------------
    def _context(self, chunk: ChunkText) -> DocumentContext:
        ctx = self._docs.get(chunk.document_id)
        if ctx is not None and opens_new_letter(chunk.text):
            ctx = None  # a bundled file: judge the new letter on its own
        if ctx is None:
            kind, email, lawyer = classify(chunk.text, chunk.document)
            ctx = DocumentContext(
                chunk.document_id, chunk.document, kind, email, lawyer,
                letter_date(chunk.text),
            )  # fmt: skip
            if kind == "newsletter":
                ctx.skip = "newsletter"
            if kind == "receipt":
                ctx.proof = facts.receipt_proof(chunk.text[:600] + " " + chunk.document)
            if kind == "invoice" and (m := _NUMBER_REF.search(chunk.text[:1500])):
                ctx.invoice_number = m["no"]
            named = {m["no"] for m in _NUMBER_REF.finditer(chunk.text)}
            if (
                kind in {"reminder", "letter", "email", "lawyer"}
                and named
                and self._invoice_numbers
                and not named & self._invoice_numbers
            ):
                ctx.skip = "other_matter"
            self._docs[chunk.document_id] = ctx
        elif ctx.date is None:
            ctx.date = letter_date(chunk.text)
        return ctx

    def _chunk(self, chunk: ChunkText) -> Iterator[tuple[str, Any, float, str]]:
        ctx = self._context(chunk)
        text = chunk.text
        injected = _injected_paragraphs(text)
        if injected:
            ctx.injected = True
            self.instructed_documents.add(chunk.document_id)
        if ctx.skip:
            return
        if ctx.kind == "invoice":
            ctx.total = ctx.total or _invoice_total(text)
        if ctx.kind in {"contract", "deferral"}:
            # the title on the first page names the kind; later pages only the subject
            ctx.contract_kind = ctx.contract_kind or contract_kind(text)
        kind = ctx.contract_kind
        dispatch = facts.reminder_dispatch(text, ctx)
        read = _rows(text, units(text)) if ctx.kind in _ROW_DOCS else units(text)
        heading: Unit | None = None
        for unit in read:
            if unit.paragraph in injected or INJECTION.search(unit.reading):
                continue
            if heading is None and _REMINDER_HEADING.search(unit.text):
                heading = unit
            for fact_type, value, confidence in self._unit(unit, ctx, kind, dispatch):
                if fact_type == "invoice_issued" and "number" in value:
                    self._invoice_numbers.add(value["number"])
                if fact_type == "reminder_sent":
                    ctx.reminder_found = True
                yield fact_type, value, confidence, unit.text
        if ctx.kind == "reminder" and not ctx.reminder_found and heading and ctx.date:
            # a reminder that sets no new deadline is still a reminder (its date)
            ctx.reminder_found = True
            value = {"date": ctx.date.isoformat(), "dispatch": dispatch}
            yield "reminder_sent", value, 0.7, heading.text

    def _unit(
        self, unit: Unit, ctx: DocumentContext, kind: str, dispatch: str
    ) -> Iterator[facts.Found]:
        t = unit.reading
        yield from facts.contract_facts(t, ctx, kind)
        yield from facts.invoice_facts(t, ctx)
        yield from facts.performance_facts(t, ctx)
        if ctx.kind not in {"contract"} or "gestundet" in t or "deferred" in t:
            yield from facts.deferral_facts(t, ctx)
        yield from facts.reminder_facts(t, ctx, dispatch)
        yield from facts.proof_facts(t, ctx)
        yield from statements.debtor_facts(t, ctx)
        yield from statements.lawyer_facts(t, ctx)
        yield from statements.fee_note_facts(t, ctx)
        yield from statements.bank_facts(t, ctx, self._invoice_numbers)
        yield from statements.interest_facts(t, ctx)


_ROW_DOCS = {"receipt", "bank", "interest"}
_REMINDER_HEADING = re.compile(
    r"^(?:\d\.\s*|erste|zweite|dritte|letzte|first|second|final\s+)?\s*"
    r"(?:Mahnung|Zahlungserinnerung|(?:payment\s+)?reminder|final\s+demand)\b",
    re.IGNORECASE | re.MULTILINE,
)
_DATE_CELL = re.compile(
    rf"^(?:{DATE})(?:[ \t]+\d{{1,2}}:\d{{2}}(?:\s*Uhr)?)?$", re.IGNORECASE
)


def _rows(text: str, found: list[Unit]) -> list[Unit]:
    """A record's row whose date cell is a block of its own ("19.06.2024
    11:20" above "Der Empfänger wurde nicht angetroffen …"): the date cell and
    the next cell are one row, as they stand side by side on the page."""
    merged: list[Unit] = []
    skip = False
    for i, unit in enumerate(found):
        if skip:
            skip = False
            continue
        nxt = found[i + 1] if i + 1 < len(found) else None
        if (
            nxt is not None
            and _DATE_CELL.match(unit.text.strip())
            and len(text[unit.end : nxt.start].strip()) <= 3  # OCR specks
            and not _DATE_CELL.match(nxt.text.strip())
        ):
            merged.append(
                Unit(unit.start, nxt.end, text[unit.start : nxt.end], nxt.paragraph)
            )
            skip = True
            continue
        merged.append(unit)
    return merged


def _same(a: str, b: str) -> bool:
    squash = re.compile(r"\s+")
    x, y = squash.sub("", a), squash.sub("", b)
    return x in y or y in x


def _injected_paragraphs(text: str) -> set[int]:
    """Indexes of the blocks holding a sentence addressed to a machine: the
    whole block is suspect (its next sentence is usually the payload)."""
    found: set[int] = set()
    for unit in units(text):
        if INJECTION.search(unit.text):
            found.add(unit.paragraph)
    return found


def _invoice_total(text: str) -> tuple[int, str] | None:
    from agents.domain.parsing import find_amounts

    for unit in units(text):
        if facts._TOTAL.search(unit.text):
            amounts = find_amounts(unit.text)
            if amounts:
                return amounts[-1].cents, amounts[-1].currency
    return None
