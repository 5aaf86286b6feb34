"""The demo case of ``make run``: a Verzugsschaden case file of realistic
German correspondence, generated as PDFs (see ``letters``), and the case's
master data. ``python manage.py seed_demo_case`` loads it.

``EXPECTED`` lists what a careful reader finds in the letters (fact type,
value, file, 1-based pages, words of the quote) — written from the letters,
not from any extractor's output."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from demo.case import letters

FIRM_SLUG = "kanzlei-demo"
REFERENCE = "2026/0142"
TITLE = "Müller Metallbau ./. Schmidt Bau"
CLIENT = "Müller Metallbau GmbH"
DESCRIPTION = (
    "Werklohn aus der Schlussrechnung Nr. MM-2026-0311 (21.955,50 €) für Treppe "
    "und Geländer, Bauvorhaben Lindenauer Hafen. Schmidt Bau KG zahlt nicht und "
    "verweigert die Zahlung; geltend gemacht wird der Verzugsschaden."
)
VALID_AT = dt.date(2026, 6, 15)
PARTIES: list[dict[str, Any]] = [
    {
        "role": "creditor",
        "kind": "business",
        "name": "Müller Metallbau GmbH",
        "address": "Gewerbepark Nord 14\n09116 Chemnitz",
    },
    {
        "role": "debtor",
        "kind": "business",
        "name": "Schmidt Bau KG",
        "address": "Am Hafen 7\n04179 Leipzig",
    },
]
CLAIMS: list[dict[str, Any]] = [
    {"claim_type": "verzugsschaden", "jurisdiction": "DE", "valid_at": VALID_AT}
]


@dataclass(frozen=True)
class DemoDocument:
    filename: str
    build: Callable[[], bytes]
    summary: str
    relevant: bool = True
    needs_ocr: bool = False


DOCUMENTS: tuple[DemoDocument, ...] = (
    DemoDocument("01_Werkvertrag_2026-04-07.pdf", letters.werkvertrag,
                 "Werkvertrag Treppe und Geländer (2 Seiten)"),
    DemoDocument("02_Schlussrechnung_MM-2026-0311.pdf", letters.schlussrechnung,
                 "Schlussrechnung, zahlbar bis 12.05.2026"),
    DemoDocument("03_Mahnung_2026-05-20.pdf", letters.mahnung,
                 "Mahnung per Einwurf-Einschreiben (2 Seiten)"),
    DemoDocument("04_Einlieferungsbeleg_Scan.pdf", letters.einlieferungsbeleg_scan,
                 "Einlieferungsbeleg des Einschreibens (Scan, OCR)", needs_ocr=True),
    DemoDocument("05_Sendungsverfolgung_RR471108153DE.pdf", letters.sendungsverfolgung,
                 "Sendungsverfolgung: zugestellt am 22.05.2026"),
    DemoDocument("06_Schreiben_Schmidt_Bau_2026-05-27.pdf", letters.verweigerung,
                 "Erfüllungsverweigerung der Schuldnerin"),
    DemoDocument("07_Kostennote_2026-0388.pdf", letters.kostennote,
                 "Kostennote der Anwältin (RVG)"),
    DemoDocument("08_Newsletter_Metall-Info_05-2026.pdf", letters.newsletter,
                 "Verbands-Newsletter", relevant=False),
    DemoDocument("09_Lieferschein_LS-2026-1042.pdf",
                 letters.lieferschein_anderes_projekt,
                 "Lieferschein eines anderen Bauvorhabens", relevant=False),
    DemoDocument("10_Betriebsurlaub_Stahlhandel.pdf", letters.betriebsurlaub,
                 "Mitteilung Betriebsurlaub eines Lieferanten", relevant=False),
)  # fmt: skip

WERKVERTRAG, RECHNUNG, MAHNUNG, BELEG, SENDUNG, VERWEIGERUNG, KOSTEN = (
    d.filename for d in DOCUMENTS[:7]
)

# (fact type, value, file, pages, words the quote contains)
EXPECTED: list[tuple[str, dict[str, Any], str, list[int], str]] = [
    ("contract_concluded", {"date": "2026-04-07"}, RECHNUNG, [1],
     "Werkvertrag vom 07.04.2026"),
    ("invoice_issued", {"date": "2026-04-28"}, RECHNUNG, [1],
     "Rechnungsdatum: 28.04.2026"),
    ("claim_amount", {"cents": 2195550, "currency": "EUR"}, RECHNUNG, [1],
     "21.955,50 €"),
    ("due_date", {"date": "2026-05-12"}, RECHNUNG, [1], "zahlbar bis zum 12.05.2026"),
    ("reminder_sent", {"date": "2026-05-20"}, MAHNUNG, [1], "Chemnitz, 20.05.2026"),
    ("delivery_evidence", {"text": "Einwurf-Einschreiben"}, MAHNUNG, [1],
     "Einwurf-Einschreiben"),
    ("damage_item", {"cents": 500, "currency": "EUR", "label": "Mahnkosten"},
     MAHNUNG, [2], "5,00 €"),
    ("damage_item", {"cents": 4000, "currency": "EUR", "label": "Verzugspauschale"},
     MAHNUNG, [2], "40,00 €"),
    ("interest_claimed",
     {"text": "neun Prozentpunkten über dem Basiszinssatz"}, MAHNUNG, [2],
     "Basiszinssatz"),
    ("delivery_evidence", {"text": "Einwurf-Einschreiben"}, SENDUNG, [1],
     "Einwurf-Einschreiben"),
    ("reminder_received", {"date": "2026-05-22"}, SENDUNG, [1], "22.05.2026"),
    ("reminder_received", {"date": "2026-05-22"}, VERWEIGERUNG, [1],
     "am 22.05.2026 erhalten"),
    ("refusal_to_pay", {"date": "2026-05-27", "kind": "endgueltig"}, VERWEIGERUNG, [1],
     "nicht bezahlen"),
    ("damage_item",
     {"cents": 113360, "currency": "EUR", "label": "Geschäftsgebühr"}, KOSTEN, [1],
     "1.133,60 €"),
    ("damage_item",
     {"cents": 2000, "currency": "EUR",
      "label": "Post- und Telekommunikationspauschale"}, KOSTEN, [1], "20,00 €"),
]  # fmt: skip


# The payment clause of the contract runs from page 1 to page 2.
ACROSS_PAGE_BREAK: tuple[str, dict[str, Any], str, list[int], str] = (
    "payment_period_from_event",
    {"text": "zahlbar innerhalb von 14 Tagen nach Abnahme und"},
    WERKVERTRAG,
    [1, 2],
    "Zugang einer prüffähigen Schlussrechnung",
)


def build_all() -> list[tuple[DemoDocument, bytes]]:
    """Every document with its PDF bytes (deterministic: the same bytes on
    every call, so a second upload is recognised as a duplicate)."""
    return [(doc, doc.build()) for doc in DOCUMENTS]
