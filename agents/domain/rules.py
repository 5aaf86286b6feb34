"""The rules extractor: a deterministic German/English reader of the letters of
a Verzugsschaden case (invoices, reminders, delivery receipts, replies of the
debtor, lawyers' cost notes). It finds candidate facts with a verbatim quote;
it decides nothing. Its candidates become ``propose_case_fact`` calls that pass
the same gate as any model's.

Letters are read in document order, so that a reminder's date found in the
letterhead of page 1 still dates the refusal on page 2."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from agents.domain.parsing import DATE, find_amounts, parse_date
from agents.domain.segments import segment_around
from evidence.domain.quotes import quote_normalise

_I = re.IGNORECASE
_DATE_G = rf"(?P<date>{DATE})"


@dataclass(frozen=True)
class ChunkText:
    chunk_id: int
    document_id: int
    text: str


@dataclass(frozen=True)
class Candidate:
    fact_type: str
    chunk_id: int
    quote: str
    value: dict[str, Any]
    confidence: float


@dataclass(frozen=True)
class TermCandidateDraft:
    label: str
    kind: str
    chunk_id: int


@dataclass
class _Letter:
    """What we know about the letter being read."""

    date: dt.date | None = None
    kind: str = ""  # invoice | reminder | reply | receipt | ""


# One character for one character, so that offsets found in the scan slice the
# original text: PDF text layers often carry no-break spaces, soft hyphens for
# hyphens and odd bullets where the letter had plain ones.
_SCAN_MAP = str.maketrans(
    {
        "\u00a0": " ", "\u2007": " ", "\u202f": " ", "\u2009": " ",
        "\u00ad": "-", "\u2010": "-", "\u2011": "-", "\u2012": "-",
        "\u2212": "-", "\u2219": "·", "\u2022": "·",
    }
)  # fmt: skip


def scan_text(text: str) -> str:
    """``text`` with look-alike characters replaced; same length."""
    return text.translate(_SCAN_MAP)


@dataclass
class _Out:
    chunk: ChunkText
    scan: str
    items: list[Candidate] = field(default_factory=list)
    seen: set[tuple[str, str]] = field(default_factory=set)

    def add(
        self,
        fact_type: str,
        value: dict[str, Any],
        span: tuple[int, int],
        confidence: float,
        *,
        whole: bool = False,
    ) -> None:
        key = (fact_type, repr(sorted(value.items())))
        if key in self.seen:
            return
        start, end = span if whole else segment_around(self.scan, *span)
        quote = self.chunk.text[start:end]
        if not quote.strip():
            return
        self.seen.add(key)
        self.items.append(
            Candidate(fact_type, self.chunk.chunk_id, quote, value, confidence)
        )


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, _I)


# --- letterhead and headings ---------------------------------------------------------
_LETTER_DATE = _rx(
    rf"^[ \t]*(?:(?:[A-ZÄÖÜ][\wäöüß.\- ]{{1,40}},[ \t]*(?:den[ \t]+)?)"
    rf"|(?:Datum|Date|Berlin|den)[ \t]*:?[ \t]*)?{_DATE_G}[ \t]*$"
)
_REMINDER_HEADING = _rx(
    r"^[ \t]*(?:(?:Betreff|Betr\.|Subject|Re)[ \t]*:[ \t]*"
    r"|[^\n]{0,40}?[–\-·|:][ \t]*)?"
    r"\b(?P<kw>(?:\d\.[ \t]*|letzte[ \t]+|erste[ \t]+|zweite[ \t]+|dritte[ \t]+"
    r"|final[ \t]+|first[ \t]+|second[ \t]+)?(?:Mahnung|Zahlungserinnerung"
    r"|(?:payment[ \t]+)?reminder|final[ \t]+demand))\b[^\n]{0,80}(?<![.!?])$"
)
_INVOICE_HEADING = _rx(
    r"^[ \t]*(?:Rechnung|Invoice|Schlussrechnung|Abschlagsrechnung)\b[^\n]{0,60}$"
)
_REPLY_HINT = _rx(r"\bIhr(?:e)?[ \t]+(?:Schreiben|Mahnung|Rechnung)[ \t]+vom\b")
_RECEIPT_HEADING = _rx(
    r"^[ \t]*(?:Rückschein|Sendungsverfolgung|Sendungsstatus|Einlieferungsbeleg"
    r"|Zustellungsurkunde|Empfangsbestätigung|Auslieferungsbeleg)\b"
)
_UNKNOWN_DOC_TYPES = (
    "Lieferschein", "Mahnbescheid", "Vollstreckungsbescheid", "Gutschrift",
    "Kontoauszug", "Inkassoschreiben", "Auftragsbestätigung", "Stornorechnung",
)  # fmt: skip
_DOC_TYPE_HEADING = _rx(
    r"^[ \t]*(?P<label>" + "|".join(_UNKNOWN_DOC_TYPES) + r")\b[^\n]{0,60}$"
)

# --- facts ---------------------------------------------------------------------------
_INVOICE_DATE = [
    (_rx(rf"Rechnungsdatum[ \t]*:?\s*{_DATE_G}"), 0.9),
    (_rx(rf"Invoice[ \t]+date[ \t]*:?\s*{_DATE_G}"), 0.9),
    (_rx(rf"Rechnung\s+(?:Nr\.?|Nummer)\s*:?\s*[\w\-/]+\s+vom\s+{_DATE_G}"), 0.8),
    (_rx(rf"(?<!Ihre )Rechnung\s+vom\s+{_DATE_G}"), 0.75),
    (_rx(rf"invoice\s+(?:no\.?\s*[\w\-/]+\s+)?(?:dated|of)\s+{_DATE_G}"), 0.75),
]
_DUE = [
    (_rx(rf"Fälligkeit(?:sdatum)?\s*:?\s*(?:am\s+)?{_DATE_G}"), 0.85),
    (_rx(rf"\bfällig\s+(?:am|zum|bis(?:\s+zum)?|ab)\s+{_DATE_G}"), 0.85),
    (
        _rx(
            rf"\bzahlbar\s+(?:bis\s+(?:zum\s+|spätestens\s+)?|spätestens\s+(?:am|bis(?:\s+zum)?)\s+|am\s+){_DATE_G}"
        ),
        0.85,
    ),
    (_rx(rf"\bdue\s+(?:on|by|date\s*:?)\s*{_DATE_G}"), 0.85),
    (_rx(rf"\bpayable\s+(?:on|by|no\s+later\s+than)\s+{_DATE_G}"), 0.85),
]
_DEADLINE = _rx(
    rf"\b(?:bis\s+(?:zum\s+|spätestens\s+(?:zum\s+)?)?|spätestens\s+(?:am|bis(?:\s+zum)?)\s+|no\s+later\s+than\s+|by\s+){_DATE_G}"
)
_PAYMENT_WORDS = _rx(
    r"zahl|überweis|begleich|ausgleich|Zahlungseingang|\bpay|remit|settle"
)
_PERIOD = [
    _rx(
        r"(?:zahlbar|zu\s+zahlen|Zahlung|Zahlungsziel|Zahlungsfrist)[^.\n]{0,40}?"
        r"(?:innerhalb|binnen)\s+(?:von\s+)?(?:\d{1,3}|sieben|zehn|vierzehn|dreißig)"
        r"\s+(?:Kalender|Werk|Bank)?(?:Tagen|Wochen)"
        r"(?:\s+(?:nach|ab|seit)\s+[\wäöüÄÖÜß\-]+(?:\s+(?:der|des|dieser|Ihrer)?\s*"
        r"[\wäöüÄÖÜß\-]+)?)?"
    ),
    _rx(r"Zahlungsziel\s*:?\s*\d{1,3}\s+Tage(?:\s+netto)?"),
    _rx(r"\b\d{1,3}\s+Tage\s+netto(?:\s+(?:ab|nach)\s+[\wäöüÄÖÜß\-]+)?"),
    _rx(
        r"(?:payable|payment\s+is\s+due|pay)\s+within\s+\d{1,3}\s+days"
        r"(?:\s+(?:of|from|after)\s+(?:the\s+)?[\w\-]+(?:\s+[\w\-]+)?)?"
    ),
]
_REMINDER_REF = _rx(
    rf"(?:Mahnung|Zahlungserinnerung|reminder)\s+(?:vom|of|dated)\s+{_DATE_G}"
)
_OWN_REFERENCE = _rx(
    r"\b(?:Ihre?|unsere?|your|our)\s+(?:\d\.\s*|letzte\s+)?(?:Mahnung"
    r"|Zahlungserinnerung|reminder)"
)
_REMINDER_WORD = _rx(r"Mahnung|Zahlungserinnerung|reminder|Mahnschreiben")
_INVOICE_WORD = _rx(r"Rechnung|invoice")
_RECEIVED = [
    _rx(
        rf"(?:zugestellt|zugegangen|ausgeliefert|eingegangen|erhalten|empfangen"
        rf"|Zustellung|Zustelldatum|Zustellt?ag|Auslieferung|Empfangsdatum"
        rf"|delivered|received)[^.\n\d]{{0,30}}?{_DATE_G}"
    ),
    _rx(
        rf"(?:am|on)\s+{_DATE_G}\s+(?:\w+\s+){{0,3}}?(?:zugestellt|zugegangen"
        rf"|ausgeliefert|erhalten|eingegangen|empfangen|delivered|received)"
    ),
]
_DELIVERY = [
    (_rx(r"Einwurf[-\s]?Einschreiben|Einschreiben[\s\-]+Einwurf"),
     "Einwurf-Einschreiben", 0.85),
    (_rx(r"Übergabe[-\s]?Einschreiben|Einschreiben[\s\-]+Übergabe"),
     "Übergabe-Einschreiben", 0.85),
    (_rx(r"Einschreiben\s+mit\s+Rückschein|Rückschein"), "Rückschein", 0.85),
    (_rx(r"Sendungsverfolgung|Sendungsnummer|Sendungsstatus"
         r"|tracking\s+number|track\s*(?:&|and)\s*trace"),
     "Sendungsverfolgung", 0.75),
    (_rx(r"Empfangsbestätigung|Empfang\s+(?:wird\s+)?(?:hiermit\s+)?bestätigt"
         r"|bestätigen?\s+(?:wir\s+|ich\s+)?(?:hiermit\s+)?(?:den\s+)?"
         r"(?:Empfang|Erhalt|Eingang)|acknowledge\s+receipt"),
     "Empfangsbestätigung", 0.8),
    (_rx(r"Zustellungsurkunde|förmliche[rn]?\s+Zustellung|Gerichtsvollzieher"),
     "Zustellung", 0.85),
]  # fmt: skip
_PLAIN_REGISTERED = _rx(
    r"(?<![-\w])Einschreiben(?![\s\-]+(?:Einwurf|Übergabe|mit\s+Rückschein))"
)
_REFUSAL = [
    (_rx(r"\b(?:werden|wird|werde)\s+(?:\w+\s+){0,5}?(?:nicht|keinesfalls|niemals)"
         r"\s+(?:\w+\s+){0,3}?(?:zahlen|bezahlen|begleichen|leisten|ausgleichen)"),
     0.75),
    (_rx(r"\b(?:verweigern|verweigere|verweigert)\s+(?:\w+\s+){0,4}?"
         r"(?:Zahlung|Bezahlung|Begleichung)"), 0.8),
    (_rx(r"\b(?:Zahlung|Forderung|Begleichung)\s+(?:\w+\s+){0,3}?"
         r"(?:endgültig\s+|ernsthaft\s+)?(?:verweigert|abgelehnt)"), 0.8),
    (_rx(r"\blehnen\s+(?:\w+\s+){0,5}?(?:Zahlung|Forderung|Begleichung)"
         r"\s+(?:\w+\s+){0,3}?ab\b"), 0.8),
    (_rx(r"\bweisen\s+(?:\w+\s+){0,4}?(?:Forderung|Rechnung)\s+(?:\w+\s+){0,4}?"
         r"zurück"), 0.7),
    (_rx(r"\b(?:will|shall)\s+not\s+(?:\w+\s+){0,2}?pay\b|refuse\s+to\s+pay"
         r"|decline\s+(?:any\s+)?payment"), 0.75),
]  # fmt: skip
_FIRM_REFUSAL = _rx(r"endgültig|ernsthaft|keinesfalls|unter keinen Umständen|niemals")
_CONTRACT = [
    (_rx(rf"(?:Vertrag|Kaufvertrag|Werkvertrag|Dienstvertrag|Liefervertrag"
         rf"|Rahmenvertrag|Auftrag|Bestellung|Auftragsbestätigung|Vereinbarung)"
         rf"\s+vom\s+{_DATE_G}"), 0.75),
    (_rx(rf"Vertragsschluss\s*:?\s*(?:am\s+)?{_DATE_G}"), 0.85),
    (_rx(rf"am\s+{_DATE_G}\s+(?:\w+\s+){{0,2}}?(?:geschlossenen|abgeschlossenen"
         rf"|unterzeichneten)"), 0.8),
    (_rx(rf"(?:am|on)\s+{_DATE_G}\s+(?:\w+\s+){{0,5}}?(?:geschlossen|abgeschlossen"
         rf"|unterzeichnet|concluded|signed)\b"), 0.75),
    (_rx(rf"(?:contract|agreement)\s+(?:dated|of)\s+{_DATE_G}"), 0.75),
]  # fmt: skip
_CLAIM_AMOUNT = _rx(
    r"(?:Rechnungsbetrag|Gesamtbetrag|Endbetrag|Bruttobetrag|Gesamtsumme"
    r"|Summe\s+brutto|Rechnungssumme|offene[rn]?\s+(?:Rechnungs)?[Bb]etrag"
    r"|offene\s+Forderung|Hauptforderung|zu\s+zahlende[rn]?\s+Betrag"
    r"|Total\s+amount(?:\s+due)?|Amount\s+due|outstanding\s+(?:amount|balance))"
    r"[^\n\d]{0,40}?(?P<amount>(?:EUR|€)\s?\d|\d)"
)
_DAMAGE = _rx(
    r"(?P<label>Mahnkosten|Mahngebühr(?:en)?|Mahnpauschale|Verzugspauschale"
    r"|Pauschale\s+nach\s+§\s*288\s+Abs\.\s*5\s+BGB|Rechtsanwaltskosten"
    r"|Anwaltskosten|Anwaltsgebühren|vorgerichtliche\s+(?:Rechtsanwalts|Anwalts)?kosten"
    r"|Rechtsverfolgungskosten|Kosten\s+der\s+Rechtsverfolgung|Inkassokosten"
    r"|Inkassogebühren|Geschäftsgebühr|Auskunftskosten|Bankgebühren"
    r"|Rücklastschrift(?:gebühr|kosten)?|Post-\s+und\s+Telekommunikationspauschale"
    r"|Auslagenpauschale|legal\s+fees|collection\s+costs|late\s+payment\s+fee"
    r"|reminder\s+fee)[^\n]{0,70}?(?P<amount>(?:EUR|€)\s?\d|\d[\d.,]*(?:,[-–]{1,2})?"
    r"\s?(?:€|EUR|Euro)(?![A-Za-z]))"
)
_INTEREST = [
    _rx(
        r"(?:\d{1,2}(?:,\d{1,2})?|fünf|acht|neun|zehn|zwölf)\s*"
        r"(?:Prozentpunkte[n]?|%-?Punkte[n]?|%|Prozent)"
        r"\s+über\s+dem\s+(?:jeweiligen\s+)?Basiszinssatz(?:\s+(?:nach|gemäß)\s+"
        r"§\s*247\s+BGB)?"
    ),
    _rx(
        r"\d{1,2}(?:\.\d{1,2})?\s*(?:percentage\s+points|%)\s+above\s+the\s+"
        r"(?:ECB\s+)?base\s+rate"
    ),
    _rx(r"Verzugszinsen[^\n\d]{0,40}?\d[\d.,]*\s?(?:€|EUR)"),
]
_INTEREST_CONTEXT = _rx(r"Zins|interest")
_EXCUSE = _rx(
    r"Krankheit|erkrankt|Krankenhaus|stationär|höhere[rn]?\s+Gewalt|unverschuldet"
    r"|nicht\s+zu\s+vertreten|ohne\s+(?:unser|mein)\s+Verschulden|Hochwasser"
    r"|Überschwemmung|Systemausfall|Bankfehler|Fehler\s+(?:unserer|der)\s+Bank"
    r"|Streik|force\s+majeure|through\s+no\s+fault|beyond\s+(?:our|my)\s+control"
)
_DELAY_CONTEXT = _rx(r"zahl|verspät|Verzögerung|Verzug|überweis|pay|delay|late")
_PAYMENT_RECEIVED = [
    _rx(
        r"(?:Teilzahlung|Zahlung|Zahlungseingang|Überweisung|Anzahlung|payment)"
        r"[^\n.]{0,40}?(?P<amount>(?:EUR|€)\s?\d|\d[\d.,]*\s?(?:€|EUR))"
        r"[^\n.]{0,30}?(?:erhalten|eingegangen|verbucht|gutgeschrieben|received)"
    ),
    _rx(r"(?:Teilzahlung|Anzahlung)\s+(?:in\s+Höhe\s+)?von\s+(?P<amount>\S)"),
    _rx(
        r"\b(?:haben|hat)\s+(?:wir|ich)\s+[^\n.]{0,20}?(?P<amount>(?:EUR|€)\s?\d"
        r"|\d[\d.,]*\s?(?:€|EUR))[^\n.]{0,20}?überwiesen"
    ),
]
_CONSUMER_NOTICE = _rx(
    r"(?:spätestens\s+)?in\s+Verzug[^.]{0,200}?30\s+Tage|30\s+Tage[^.]{0,200}?"
    r"in\s+Verzug|Verbraucher[^.]{0,200}?Verzug"
)


def _amount_at(text: str, start: int, limit: int = 40) -> tuple[int, int, int, str]:
    """The first amount that starts at or after ``start``."""
    for found in find_amounts(text[max(0, start - 4) : start + limit]):
        offset = max(0, start - 4)
        return (
            found.start + offset,
            found.end + offset,
            found.cents,
            found.currency,
        )
    return (-1, -1, 0, "")


def _date_value(match: re.Match[str]) -> dict[str, Any] | None:
    parsed = parse_date(match.group("date"))
    return None if parsed is None else {"date": parsed.isoformat()}


def _line_at(text: str, pos: int) -> tuple[int, int]:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return start, len(text) if end < 0 else end


class RulesExtractor:
    """Reads chunks in document order and yields candidates. Deterministic:
    the same chunks give the same candidates in the same order."""

    def __init__(self) -> None:
        self._letters: dict[int, _Letter] = {}
        self._seen: dict[int, set[tuple[str, str, str]]] = {}
        self.terms: list[TermCandidateDraft] = []

    def extract(self, chunks: Iterable[ChunkText]) -> list[Candidate]:
        found: list[Candidate] = []
        for chunk in chunks:
            seen = self._seen.setdefault(chunk.document_id, set())
            for cand in self._chunk(chunk):
                # Chunks overlap by a sentence or two: the same statement read
                # twice in one document is proposed once.
                key = (
                    cand.fact_type,
                    repr(sorted(cand.value.items())),
                    quote_normalise(cand.quote),
                )
                if key not in seen:
                    seen.add(key)
                    found.append(cand)
        return found

    # -- one chunk ----------------------------------------------------------------
    def _chunk(self, chunk: ChunkText) -> list[Candidate]:
        text = scan_text(chunk.text)
        letter = self._letters.setdefault(chunk.document_id, _Letter())
        out = _Out(chunk, text)
        date_lines = [
            (m.start("date"), m.end("date"), m.start(), m.end())
            for m in re.finditer(_LETTER_DATE.pattern, text, _I | re.MULTILINE)
        ]

        def letter_date_near(pos: int) -> tuple[dt.date | None, tuple[int, int]]:
            """The letterhead date governing ``pos``: the nearest date line above
            it in this chunk (or below, within a letterhead), else the last
            letter date of the document."""
            above = [d for d in date_lines if d[2] <= pos]
            below = [d for d in date_lines if d[2] > pos and d[2] - pos < 300]
            for cand in above[-1:] or below[:1]:
                parsed = parse_date(text[cand[0] : cand[1]])
                if parsed is not None:
                    return parsed, (cand[2], cand[3])
            return letter.date, (-1, -1)

        # letter kind from headings, in text order
        events: list[tuple[int, str, re.Match[str]]] = []
        for rx, kind in (
            (_REMINDER_HEADING, "reminder"),
            (_INVOICE_HEADING, "invoice"),
            (_RECEIPT_HEADING, "receipt"),
        ):
            for m in re.finditer(rx.pattern, text, _I | re.MULTILINE):
                events.append((m.start(), kind, m))
        events.sort(key=lambda e: e[0])

        for pos, kind, m in events:
            if kind != "reminder":
                continue
            line = text[slice(*_line_at(text, m.start("kw")))]
            if _REMINDER_REF.search(line) or _OWN_REFERENCE.search(line):
                continue  # "Ihre Mahnung vom ..." names a reminder, is none
            date, (ds, de) = letter_date_near(pos)
            if date is None:
                continue
            hs, he = _line_at(text, m.start("kw"))
            if ds >= 0 and abs(ds - hs) < 300:
                span = (min(ds, hs), max(de, he))
                out.add("reminder_sent", {"date": date.isoformat()}, span, 0.85,
                        whole=True)  # fmt: skip
            else:
                out.add("reminder_sent", {"date": date.isoformat()}, (hs, he), 0.7,
                        whole=True)  # fmt: skip

        has_reminder_word = bool(_REMINDER_WORD.search(text))
        has_invoice_word = bool(_INVOICE_WORD.search(text))
        kinds_here = [e[1] for e in events]
        if _REPLY_HINT.search(text):
            kinds_here.append("reply")
        context_kind = kinds_here[0] if kinds_here else letter.kind

        for rx, conf in _INVOICE_DATE:
            for m in rx.finditer(text):
                if (value := _date_value(m)) is not None:
                    out.add("invoice_issued", value, m.span(), conf)
        for m in _REMINDER_REF.finditer(text):
            if (value := _date_value(m)) is not None:
                out.add("reminder_sent", value, m.span(), 0.7)
        for rx, conf in _DUE:
            for m in rx.finditer(text):
                if (value := _date_value(m)) is not None:
                    c = conf if context_kind != "reminder" else conf - 0.25
                    out.add("due_date", value, m.span(), c)
        for m in _DEADLINE.finditer(text):
            s, e = segment_around(text, *m.span())
            if not _PAYMENT_WORDS.search(text[s:e]):
                continue
            if (value := _date_value(m)) is not None:
                # In an invoice a payment deadline fixes the time for payment;
                # in a reminder or a lawyer's letter it is a new deadline only.
                if context_kind == "invoice":
                    out.add("calendar_payment_date", value, m.span(), 0.8)
                    out.add("due_date", value, m.span(), 0.7)
                else:
                    out.add("calendar_payment_date", value, m.span(), 0.45)
        for rx in _PERIOD:
            for m in rx.finditer(text):
                phrase = quote_normalise(m.group(0))
                out.add("payment_period_from_event", {"text": phrase}, m.span(), 0.75)

        for rx_list in _RECEIVED:
            for m in rx_list.finditer(text):
                value = _date_value(m)
                if value is None:
                    continue
                s, e = segment_around(text, *m.span())
                sentence = text[s:e]
                if _REMINDER_WORD.search(sentence) or (
                    has_reminder_word and not _INVOICE_WORD.search(sentence)
                ):
                    out.add("reminder_received", value, m.span(), 0.7)
                elif _INVOICE_WORD.search(sentence) or (
                    has_invoice_word and not has_reminder_word
                ):
                    out.add("invoice_received", value, m.span(), 0.65)
                elif letter.kind == "reminder":
                    out.add("reminder_received", value, m.span(), 0.5)

        for rx, label, conf in _DELIVERY:
            for m in rx.finditer(text):
                out.add("delivery_evidence", {"text": label}, m.span(), conf)
        for m in _PLAIN_REGISTERED.finditer(text):
            out.add(
                "delivery_evidence", {"text": "Übergabe-Einschreiben"}, m.span(), 0.55
            )

        for rx, conf in _REFUSAL:
            for m in rx.finditer(text):
                date, _ = letter_date_near(m.start())
                if date is None:
                    continue
                s, e = segment_around(text, *m.span())
                firm = _FIRM_REFUSAL.search(text[s:e]) is not None
                c = 0.85 if firm else conf
                kind = "endgueltig" if firm else "voruebergehend"
                value = {"date": date.isoformat(), "kind": kind}
                out.add("refusal_to_pay", value, m.span(), c)

        for rx, conf in _CONTRACT:
            for m in rx.finditer(text):
                if (value := _date_value(m)) is not None:
                    out.add("contract_concluded", value, m.span(), conf)

        for m in _CLAIM_AMOUNT.finditer(text):
            s, e, cents, currency = _amount_at(text, m.start("amount"))
            if cents:
                out.add(
                    "claim_amount",
                    {"cents": cents, "currency": currency},
                    (m.start(), e),
                    0.8,
                )
        for m in _DAMAGE.finditer(text):
            s, e, cents, currency = _amount_at(text, m.start("amount"))
            if cents:
                label = quote_normalise(m.group("label"))
                out.add(
                    "damage_item",
                    {"cents": cents, "currency": currency, "label": label},
                    (m.start(), e),
                    0.75,
                )
        for rx in _INTEREST:
            for m in rx.finditer(text):
                s, e = segment_around(text, *m.span())
                if _INTEREST_CONTEXT.search(text[s:e]):
                    out.add(
                        "interest_claimed",
                        {"text": quote_normalise(m.group(0))},
                        m.span(),
                        0.75,
                    )
        for m in _EXCUSE.finditer(text):
            s, e = segment_around(text, *m.span())
            sentence = text[s:e]
            if _DELAY_CONTEXT.search(sentence):
                out.add(
                    "debtor_not_responsible",
                    {"text": quote_normalise(sentence)[:500]},
                    (s, e),
                    0.55,
                    whole=True,
                )
        for rx in _PAYMENT_RECEIVED:
            for m in rx.finditer(text):
                s, e, cents, currency = _amount_at(text, m.start("amount"))
                if cents:
                    out.add(
                        "payment_received",
                        {"cents": cents, "currency": currency},
                        m.span(),
                        0.7,
                    )
        if has_invoice_word:
            for m in _CONSUMER_NOTICE.finditer(text):
                out.add("consumer_notice_in_invoice", {"boolean": True}, m.span(), 0.7)

        for m in re.finditer(_DOC_TYPE_HEADING.pattern, text, _I | re.MULTILINE):
            self.terms.append(
                TermCandidateDraft(m.group("label"), "document_type", chunk.chunk_id)
            )

        # carry the letter state to the next chunk of this document
        if date_lines:
            parsed = parse_date(text[date_lines[-1][0] : date_lines[-1][1]])
            letter.date = parsed or letter.date
        if kinds_here:
            letter.kind = kinds_here[-1]
        return out.items
