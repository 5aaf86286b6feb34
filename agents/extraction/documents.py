# ruff: noqa: E501  (pattern tables: each alternative stays one greppable regex)
"""What a document is, read from its text: its kind (from the heading and the
layout, tolerant of OCR noise), its date (letterhead, DIN 5008 information
block, closing line, e-mail header) and whether it addresses machines. Pure."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from agents.domain.parsing import DATE, parse_date
from evidence.domain.instructions import MACHINE_ADDRESSED

_I = re.IGNORECASE | re.MULTILINE


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, _I)


# Sentences addressed to a machine: the one rule lives with the evidence.
INJECTION = MACHINE_ADDRESSED

# Kinds, first match over the first lines of the document wins. OCR breaks
# umlauts and case, so the patterns allow both.
_KIND_HEADINGS: list[tuple[str, re.Pattern[str]]] = [
    ("newsletter", _rx(r"^\W{0,3}Newsletter\b")),
    ("fee_note", _rx(r"^\W{0,3}(?:Kostennote|Kostenrechnung|Fee\s+note|Vergütungsrechnung)\b")),
    ("interest", _rx(r"^\W{0,3}(?:Zinsberechnung|Zinsaufstellung|Interest\s+calculation)\b")),
    ("bank", _rx(r"^\W{0,3}(?:Kontoauszug|Umsatzübersicht|Bank\s+statement|Account\s+statement)\b")),
    ("receipt", _rx(r"^\W{0,3}(?:R[üu]cksch|Return\s+receipt|Auslieferungsbeleg|Einlieferungsbeleg"
                    r"|Sendungsverfolgung|Sendungsstatus|(?:Shipment\s+)?Tracking|Proof\s+of\s+(?:delivery|posting)"
                    r"|Delivery\s+record|Certificate\s+of\s+posting)")),
    ("acceptance", _rx(r"^\W{0,3}(?:Abnahmeprotokoll|Abnahmeerkl|Acceptance\s+record"
                       r"|Acceptance\s+certificate)")),
    ("delivery_note", _rx(r"^\W{0,3}(?:Lieferschein|[ÜU]bergabeprotokoll|Delivery\s+note"
                          r"|Handover\s+record)")),
    ("deferral", _rx(r"^\W{0,3}(?:Stundungsvereinbarung|Deferral\s+agreement"
                     r"|Ratenzahlungsvereinbarung)")),
    ("invoice", _rx(r"^\W{0,3}(?:Schlussrechnung|Abschlagsrechnung|Rechnung|Invoice|Final\s+invoice)\b")),
    ("reminder", _rx(r"^\W{0,3}(?:\d\.\s*|Erste\s+|Zweite\s+|Dritte\s+|Letzte\s+|First\s+|Second\s+"
                     r"|Final\s+)?(?:Mahnung|Zahlungserinnerung|(?:Payment\s+)?reminder"
                     r"|Final\s+demand)\b")),
    ("contract", _rx(r"^\W{0,3}(?:[\wäöü]*vertrag|Auftragsbestätigung|Vereinbarung|Order\s+confirmation"
                     r"|[\w ]{0,20}(?:agreement|contract)(?:\s+for\s+work)?)\s*$")),
]  # fmt: skip
_EMAIL = _rx(
    r"^(?:Von|From)\s*:\s*\S.*$\s*(?:^.*$\s*){0,3}?^(?:Gesendet|Sent|Datum|Date)\s*:"
)
_LAWYER = _rx(
    r"Rechtsanw[äa]lt|(?<![\w@.])Kanzlei\b|Solicitors|Law\s+firm|Attorneys|Rechtsanwälte|\bLLP\b"
)
_LAWYER_SAYS = _rx(
    r"\bwir\s+zeigen\s+an\b|\bWe\s+act\s+for\b|unsere[rn]?\s+Mandant|our\s+client"
)


def _by_name(name: str) -> str:
    """The kind a file name announces ("05_Rueckschein.pdf"): a fallback for
    scans whose heading OCR could not read."""
    low = name.lower().replace("ue", "ü").replace("ae", "ä").replace("oe", "ö")
    low = re.sub(r"[_\-.]+", " ", low)
    for kind, words in _NAME_WORDS:
        if re.search(words, low):
            return kind
    return ""


_NAME_WORDS = [
    ("newsletter", r"newsletter"),
    ("fee_note", r"kostennote|fee note"),
    ("receipt", r"rückschein|return receipt|tracking|sendungsverfolgung|auslieferungsbeleg"
                r"|einlieferungsbeleg"),
    ("acceptance", r"abnahmeprotokoll|acceptance record"),
    ("delivery_note", r"lieferschein|übergabeprotokoll|delivery note"),
    ("bank", r"kontoauszug|bank statement"),
    ("interest", r"zinsberechnung|interest calculation"),
]  # fmt: skip

_DATE_G = rf"(?P<date>{DATE})"
_SENT = _rx(rf"^(?:Gesendet|Sent|Datum|Date)\s*:\s*(?:[A-Za-zäöü]+,?\s+)?{_DATE_G}")
_LABELLED = _rx(rf"^(?:Datum|Date|Dated)\s*:?\s*\n?\s*{_DATE_G}\s*$")
_PLACE_DATE = _rx(
    rf"^[ \t]*(?:[A-ZÄÖÜ][\wäöüß.\- ]{{1,40}}|\d{{5}}\s+[\wäöüß.\- ]+),[ \t]*(?:den[ \t]+)?{_DATE_G}[ \t]*$"
)
_LONE_DATE = _rx(rf"^[ \t]*{_DATE_G}[ \t]*$")


@dataclass
class DocumentContext:
    """What is known about one document while its chunks are read."""

    document_id: int
    name: str = ""
    kind: str = ""  # see _KIND_HEADINGS, "email", "lawyer", "letter"
    email: bool = False
    lawyer: bool = False
    date: dt.date | None = None
    injected: bool = False
    skip: str = ""  # why nothing is proposed from it ("newsletter", "other_matter")
    total: tuple[int, str] | None = None  # an invoice's total (cents, currency)
    contract_kind: str = ""
    proof: str = ""  # a postal record's proof kind, from its heading
    dispatch: str = ""  # a reminder's dispatch marking, once seen
    reminder_found: bool = False  # a reminder_sent was read in it
    invoice_number: str = ""  # an invoice's number, from its heading


def classify(text: str, name: str = "") -> tuple[str, bool, bool]:
    """(kind, is an e-mail printout, is from a lawyer) of a document from the
    text of its first chunk."""
    email = bool(_EMAIL.search(text[:1500]))
    # An e-mail is the lawyer's only when it says so; a letterhead names the firm.
    lawyer = bool(
        _LAWYER_SAYS.search(text) or (not email and _LAWYER.search(text[:700]))
    )
    # A heading is a short line of its own near the top, not a word that a
    # sentence happens to begin a line with ("Kostennote 1.054,10 €.").
    headings = [
        line for line in text[:1800].splitlines()
        if 2 < len(line.strip()) <= 60 and not line.rstrip().endswith((".", ",", ";"))
    ]  # fmt: skip
    for line in headings:
        for kind, rx in _KIND_HEADINGS:
            if rx.search(line):
                return kind, email, lawyer
    by_name = _by_name(name)
    if by_name:
        return by_name, email, lawyer
    if email:
        return "email", email, lawyer
    if lawyer:
        return "lawyer", email, lawyer
    return "letter", email, lawyer


def letter_date(text: str) -> dt.date | None:
    """The date of a letter or e-mail: the e-mail's sent line, the labelled
    date of a DIN 5008 information block, a "Place, date" line, or a line that
    holds only a date, in that order."""
    for rx in (_SENT, _LABELLED, _PLACE_DATE, _LONE_DATE):
        for m in rx.finditer(text):
            parsed = parse_date(m.group("date"))
            if parsed is not None:
                return parsed
    return None


def opens_new_letter(text: str) -> bool:
    """Whether a chunk of a document already begun starts a letter of its own:
    a bundled file (a whole Akte scanned as one PDF) holds many. Only a
    "Place, date" line and a kind heading both among the chunk's first lines
    count, so the second page of one letter never does."""
    top = "\n".join([line for line in text.splitlines() if line.strip()][:8])
    if _PLACE_DATE.search(top) is None:
        return False
    return any(
        rx.search(line) for line in top.splitlines() for _kind, rx in _KIND_HEADINGS
    )


def contract_kind(text: str) -> str:
    """kaufvertrag | werkvertrag | dienstvertrag | sonstiger, from the title
    and the subject of a contract or order confirmation."""
    low = text.lower()
    if re.search(r"werkvertrag|contract\s+for\s+work", low):
        return "werkvertrag"
    if re.search(r"kaufvertrag|sales\s+contract|purchase\s+agreement|kaufpreis", low):
        return "kaufvertrag"
    if re.search(
        r"dienstvertrag|pflegevertrag|wartungsvertrag|beratungsvertrag|service\s+agreement"
        r"|\bdie\s+(?:pflege|wartung|reinigung|betreuung|beratung)\b|maintenance\s+of"
        r"|services?\s+contract|consultancy",
        low,
    ):
        return "dienstvertrag"
    if re.search(
        r"install|montage|errichtung|reparatur|sanierung|herstellung|neueindeckung"
        r"|umbau|design|gestaltung|fit-out|werkleistung|\bworks?\b",
        low,
    ):
        return "werkvertrag"
    return "kaufvertrag"
