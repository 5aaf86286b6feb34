"""The damage table of a report (Schadensberechnung) in the preview, the
.docx and the .xlsx.

A report keeps the one damage computation it was built on
(``Report.summary["claims"][i]["damage"]``, written by ``report_create``);
this module reads it back and renders ``ontology.damage_table`` from it in
the report's language. Nothing is recomputed: an issued report shows the
figures it was issued with, whatever the facts of the case became since.
``reports/exports.py`` calls in with one line per format."""

from __future__ import annotations

import logging
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ontology.damage_table import DamageTable, Lang, damage_table
from ontology.domain.results import DamageComputation

if TYPE_CHECKING:
    from openpyxl import Workbook

    from reports.models import Report
    from reports.selectors import ClaimSection, ReportDocument

logger = logging.getLogger(__name__)


def damage_tables_stored(*, report: Report) -> dict[int, DamageTable]:
    """The damage table of each claim of the report that has one, by claim
    id, from the computation stored with the report. A stored computation
    that no longer reads is logged and left out (never recomputed)."""
    lang: Lang = "de" if report.language == "de" else "en"
    tables: dict[int, DamageTable] = {}
    for claim in report.summary.get("claims", []):
        stored = claim.get("damage")
        if not stored:
            continue
        try:
            computation = DamageComputation.model_validate(stored)
        except ValidationError:
            logger.exception("report %s: stored damage does not read", report.pk)
            continue
        tables[int(claim["claim_id"])] = damage_table(computation, lang=lang)
    return tables


# ---------------------------------------------------------------- Word
def damage_docx(doc: Any, section: ClaimSection) -> None:
    """The claim's Schadensberechnung after its findings: items, interest per
    period, result (A4 tables whose columns fit their content)."""
    from reports.exports import _table

    table = section.damage
    if table is None:
        return
    h = table.headers
    doc.add_heading(table.title, level=2)
    if table.items:
        doc.add_paragraph(h["section_items"])
        _table(
            doc,
            [h["item"], h["incurred"], h["net"], h["gross"], h["recoverable"],
             h["amount"], h["reason"]],
            [
                (r.label, r.incurred, r.net, r.gross, r.recoverable_word, r.amount,
                 r.reason)
                for r in table.items
            ],
        )  # fmt: skip
    if table.interest:
        doc.add_paragraph(table.interest_title)
        _table(
            doc,
            [h["from"], h["to"], h["days"], h["base_rate"], h["annual_rate"],
             h["interest"]],
            [
                (p.start_text, p.end_text, p.days, p.base_rate_text,
                 p.annual_rate_text, p.amount)
                for p in table.interest
            ],
        )  # fmt: skip
        doc.add_paragraph(" ".join([table.method, *table.sources]).strip())
    doc.add_paragraph(h["section_result"])
    _table(
        doc,
        [h["position"], h["value"], h["note"]],
        [(r.label, r.shown, r.note) for r in table.summary],
    )
    for note in table.notes:
        doc.add_paragraph(note)


# ---------------------------------------------------------------- Excel
def _money(cents: int | None, table: DamageTable, shown: str) -> Any:
    from reports.exports import Typed

    if cents is None:
        return shown
    currency = table.currency.replace('"', "")
    return Typed(Decimal(cents) / 100, f'#,##0.00 "{currency}"', shown)


def _rate(value: Decimal, shown: str) -> Any:
    from reports.exports import Typed

    return Typed(value, '0.00" %"', shown)


def damage_xlsx(wb: Workbook, document: ReportDocument) -> None:
    """A sheet "Schadensberechnung" ("Damage calculation"): one row per item,
    per interest period and per line of the result, with typed date, amount
    and rate cells (no formula: the figures are the computation's, and text
    from the file is written as text by ``_sheet``)."""
    from reports.exports import _sheet, typed_date

    sections = [s for s in document.sections if s.damage is not None]
    if not sections:
        return
    lang = document.report.language
    first = sections[0].damage
    assert first is not None
    h = first.headers
    rows: list[tuple[Any, ...]] = []
    for section in sections:
        table = section.damage
        assert table is not None
        for r in table.items:
            rows.append(
                (
                    section.label,
                    h["section_items"],
                    r.label,
                    typed_date(r.incurred_on, lang),
                    "",
                    "",
                    "",
                    "",
                    _money(r.net_cents, table, r.net),
                    _money(r.gross_cents, table, r.gross),
                    r.recoverable_word,
                    _money(r.amount_cents, table, r.amount),
                    r.reason,
                )
            )
        for p in table.interest:
            rows.append(
                (
                    section.label,
                    h["section_interest"],
                    table.interest_title,
                    typed_date(p.start, lang),
                    typed_date(p.end, lang),
                    p.days,
                    _rate(p.base_rate, p.base_rate_text),
                    _rate(p.annual_rate, p.annual_rate_text),
                    "",
                    "",
                    "",
                    _money(p.amount_cents, table, p.amount),
                    table.method,
                )
            )
        for s in table.summary:
            rows.append(
                (
                    section.label,
                    h["section_result"],
                    s.label,
                    typed_date(s.day, lang) if s.day is not None else "",
                    "",
                    "",
                    "",
                    "",
                    "",
                    "",
                    "",
                    _money(s.cents, table, s.shown) if s.cents is not None else "",
                    s.note,
                )
            )
    _sheet(
        wb.create_sheet(first.title[:31]),
        [document.texts["claim"], h["section"], h["position"], h["date_from"], h["to"],
         h["days"], h["base_rate"], h["annual_rate"], h["net"], h["gross"],
         h["recoverable"], h["amount"], h["reason"]],
        rows,
    )  # fmt: skip
