# ruff: noqa: E501  (pattern tables: each alternative stays one greppable regex)
"""The fact rules: one sentence or table row in, the facts it states out, each
of the vocabulary (tests/ontology/scenarios/VOCABULARY.md) with its record
value. A rule sees the kind and date of the document the unit comes from, so a
date carries its role: "Zahlbar bis ..." in an invoice is the invoice's
one-sided deadline, never an agreed calendar date (§ 286 Abs. 2 Nr. 1 BGB);
"bis spätestens ..." in a reminder is the reminder's deadline; only a contract
or an agreement of both parties gives ``calendar_payment_date``. Pure."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from agents.domain.parsing import DATE, find_amounts, find_dates, parse_date
from agents.extraction.documents import DocumentContext
from agents.extraction.units import squash

_I = re.IGNORECASE
# a gap inside one sentence: no full stop, except inside a date or after "Nr."/"no."
_G = r"(?:[^.]|\.(?=\s?\d)|(?<=\bno)\.|(?<=\bNr)\.)"
# (fact type, value: a record, or a bare bool for boolean kinds, confidence)
Found = tuple[str, Any, float]


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, _I)


_D = rf"(?P<date>{DATE})"
_U = r"[äa]"  # OCR reads "ä" as "a" and "ü" as "u" often enough
_UE = r"(?:ü|u|ue)"

_CONTRACT_DOCS = {"contract", "deferral"}
_NUMBER_WORDS = {
    "null": 0, "sieben": 7, "zehn": 10, "vierzehn": 14, "einundzwanzig": 21,
    "dreißig": 30, "sechzig": 60, "seven": 7, "ten": 10, "fourteen": 14,
    "twenty-one": 21, "thirty": 30, "sixty": 60, "fünf": 5, "acht": 8, "neun": 9,
    "five": 5, "eight": 8, "nine": 9,
}  # fmt: skip


def _num(raw: str) -> float | None:
    raw = raw.strip().lower().replace(",", ".")
    if raw in _NUMBER_WORDS:
        return float(_NUMBER_WORDS[raw])
    try:
        return float(raw)
    except ValueError:
        return None


def _date(m: re.Match[str], group: str = "date") -> str | None:
    parsed = parse_date(m.group(group))
    return None if parsed is None else parsed.isoformat()


def _amount(cents: int, currency: str) -> dict[str, Any]:
    return {"cents": cents, "currency": currency}


# --- contracts -----------------------------------------------------------------------
_CONCLUDED = [
    _rx(rf"(?:Vertrag|Kaufvertrag|Werkvertrag|Vereinbarung){_G}{{0,80}}?am\s+{_D}\s+"
        r"(?:\w+\s+){0,2}?(?:zustande\s+gekommen|geschlossen|abgeschlossen)"),
    _rx(rf"wird\s+am\s+{_D}\s+folgender\s+Vertrag"),
    _rx(rf"Vertragsschluss\s*:?\s*(?:am\s+)?{_D}"),
    _rx(rf"(?:agreement|contract)\s+(?:is|was)\s+(?:made|concluded|entered\s+into|signed)"
        rf"\s+on\s+{_D}"),
    _rx(rf"contract\s+(?:was|is)\s+(?:thereby\s+)?concluded\s+on\s+{_D}"),
]  # fmt: skip
_AGREED_DATE = [
    _rx(rf"(?:Parteien\s+vereinbaren|vereinbaren\s+die\s+Parteien|wird\s+vereinbart)"
        rf"{_G}{{0,80}}?(?:spätestens\s+)?(?:am|bis\s+(?:zum\s+)?)\s*{_D}"),
    _rx(rf"(?:Zahlungstermin|Fälligkeitstermin|Zahlung\s+erfolgt\s+am)\s*:?\s*{_D}"),
    _rx(rf"(?:parties\s+agree|it\s+is\s+agreed){_G}{{0,60}}?(?:paid|payment){_G}{{0,40}}?"
        rf"(?:on|by|no\s+later\s+than)\s+{_D}"),
]  # fmt: skip
_AGREED_NOT = _rx(r"gestundet|Stundung|deferred|deferral")
_TERM = [
    _rx(r"(?:innerhalb|binnen)\s+(?:von\s+)?(?P<n>\d{1,3}|\w+)\s+(?:Kalender|Werk)?tag(?:e|en)\s+"
        r"(?:nach|ab)\s+(?P<event>(?:[^.;]|\.(?=\s?\d)|(?<=\bno)\.|(?<=\bNr)\.){3,80})"),
    _rx(r"(?P<zero>sofort|unverzüglich)\s+nach\s+(?P<event>(?:[^.;]|\.(?=\s?\d)|(?<=\bno)\.|(?<=\bNr)\.){3,60})"),
    _rx(r"within\s+(?P<n>\d{1,3}|[\w\-]+)\s+(?:calendar\s+)?days\s+(?:after|of|from|following)\s+"
        r"(?P<event>(?:[^.;]|\.(?=\s?\d)|(?<=\bno)\.|(?<=\bNr)\.){3,80})"),
    _rx(r"(?P<zero>immediately|upon)\s+(?:after\s+|upon\s+)?(?P<event>(?:delivery|acceptance"
        r"|receipt)(?:[^.;]|\.(?=\s?\d)|(?<=\bno)\.|(?<=\bNr)\.){0,60})"),
]  # fmt: skip
_PAYMENT_CONTEXT = _rx(r"zahl|Vergütung|Kaufpreis|Rechnungsbetrag|payment|paid|payable")
_LAW = [
    (_rx(r"gilt\s+(?:ausschließlich\s+)?(?P<law>deutsches|österreichisches|schweizerisches)\s+Recht"),
     "{law} Recht"),
    (_rx(r"(?P<law>deutschem|deutsches)\s+Recht\s+(?:unterliegt|unterworfen)"), "deutsches Recht"),
    (_rx(r"governed\s+by\s+(?:the\s+)?laws?\s+of\s+(?:the\s+)?(?P<law>Federal\s+Republic\s+of\s+Germany"
         r"|Germany|England(?:\s+and\s+Wales)?)"), "{law} law"),
    (_rx(r"(?P<law>German|English)\s+law\s+(?:shall\s+)?(?:applies|apply|governs)"), "{law} law"),
]  # fmt: skip
_ACCEPTANCE_CLAUSE = _rx(
    r"^(?:Die\s+)?Abnahme\s+(?:erfolgt|findet|ist|wird)|^Acceptance\s+(?:shall|will|takes)"
)


_CONTRACT_REFERENCE = _rx(
    rf"\b(?P<word>Kaufvertrag|Werkvertrag|Dienstvertrag|Vertrag|Liefervertrag|Rahmenvertrag)"
    rf"(?:es|s)?\s+vom\s+{_D}"
    rf"|\b(?P<en>sales\s+contract|contract\s+for\s+work|service\s+agreement|contract|agreement)"
    rf"\s+(?:dated|of)\s+(?P<date2>{DATE})"
)


def contract_facts(t: str, ctx: DocumentContext, kind: str) -> Iterator[Found]:
    if ctx.kind not in _CONTRACT_DOCS:
        # another document names the contract: "gemäß unserem Kaufvertrag vom …"
        if ctx.kind != "newsletter" and (m := _CONTRACT_REFERENCE.search(t)):
            parsed = parse_date(m["date"] or m["date2"])
            if parsed is not None:
                value: dict[str, Any] = {"date": parsed.isoformat()}
                word = (m["word"] or m["en"] or "").lower()
                named = contract_kind_of_word(word)
                if named:
                    value["contract_kind"] = named
                yield "contract_concluded", value, 0.6
        return
    for rx in _CONCLUDED:
        if (m := rx.search(t)) and (d := _date(m)):
            yield "contract_concluded", {"date": d, "contract_kind": kind}, 0.85
            break
    if not _AGREED_NOT.search(t):
        for rx in _AGREED_DATE:
            if (m := rx.search(t)) and (d := _date(m)) and _PAYMENT_CONTEXT.search(t):
                yield "calendar_payment_date", {"date": d}, 0.8
                break
    if _PAYMENT_CONTEXT.search(t):
        for rx in _TERM:
            if m := rx.search(t):
                event = _event(m.group("event"))
                groups = m.groupdict()
                days = 0.0 if groups.get("zero") else _num(groups.get("n") or "")
                if event and days is not None:
                    yield (
                        "payment_term",
                        {"event": event, "period_days": int(days)},
                        0.8,
                    )
                    break
    for rx, label in _LAW:
        if m := rx.search(t):
            law = m.group("law")
            text = "German law" if "German" in law else label.format(law=law)
            if "deutsch" in law.lower():
                text = "deutsches Recht"
            yield "governing_law", {"text": text}, 0.85
            break
    if _ACCEPTANCE_CLAUSE.search(t):
        yield "acceptance_clause", {"text": squash(t)}, 0.75


def contract_kind_of_word(word: str) -> str:
    if "kauf" in word or "sales" in word:
        return "kaufvertrag"
    if "werk" in word or "for work" in word:
        return "werkvertrag"
    if "dienst" in word or "service" in word:
        return "dienstvertrag"
    return ""


def _event(raw: str) -> str | None:
    low = raw.lower()
    acceptance = re.search(r"abnahme|acceptance", low)
    receipt = re.search(r"zugang|erhalt|eingang|receipt|rechnungszugang|received", low)
    if acceptance and receipt:
        return "acceptance_and_invoice_receipt"
    if acceptance:
        return "acceptance"
    if receipt:
        return "invoice_receipt"
    if re.search(
        r"lieferung|übergabe|leistung|fertigstellung|delivery|completion", low
    ):
        return "delivery"
    if re.search(r"vertragsschluss|unterzeichnung|contract|signing", low):
        return "contract"
    if re.search(r"rechnung|invoice", low):
        return "invoice_receipt"
    return None


# --- invoices ------------------------------------------------------------------------
_INVOICE_NO = r"(?P<no>[A-Z]{0,4}-?\d[\w\-/]*)"
_INVOICE_ISSUED = [
    _rx(rf"Rechnung\s+(?:Nr\.?|Nummer)\s*:?\s*{_INVOICE_NO}\s+vom\s+{_D}"),
    _rx(rf"invoice\s+(?:no\.?|number)\s*:?\s*{_INVOICE_NO}\s+(?:of|dated)\s+{_D}"),
    _rx(rf"Rechnungsdatum\s*:?\s*{_D}"),
    _rx(rf"Invoice\s+date\s*:?\s*{_D}"),
]
_TOTAL = _rx(
    r"^(?:Gesamtbetrag|Rechnungsbetrag|Endbetrag|Gesamtsumme|Summe\s+brutto|Bruttobetrag"
    r"|Total\s+amount(?:\s+due)?|Amount\s+due|Total\s+due|Invoice\s+total|Total)\b"
)
_DEADLINE_INVOICE = [
    _rx(rf"\b(?:zahlbar|fällig|zu\s+zahlen)\s+(?:bis\s+(?:zum\s+|spätestens\s+)?|spätestens\s+"
        rf"(?:am|bis(?:\s+zum)?)\s+|am\s+){_D}"),
    _rx(rf"\b(?:payable|due)\s+(?:by|on|no\s+later\s+than)\s+{_D}"),
    _rx(rf"Zahlungsziel\s*:?\s*{_D}"),
]  # fmt: skip
_CONSUMER_NOTICE = _rx(
    r"in\s+Verzug(?:[^.]|\.(?=\s?\d)|(?<=\bno)\.|(?<=\bNr)\.){0,200}?30\s+Tage|30\s+Tage(?:[^.]|\.(?=\s?\d)|(?<=\bno)\.|(?<=\bNr)\.){0,200}?in\s+Verzug"
    r"|in\s+default(?:[^.]|\.(?=\s?\d)|(?<=\bno)\.|(?<=\bNr)\.){0,200}?30\s+days|30\s+days(?:[^.]|\.(?=\s?\d)|(?<=\bno)\.|(?<=\bNr)\.){0,200}?in\s+default"
)
_IBAN = _rx(
    r"\bIBAN\s*:?\s*(?P<iban>[A-Z]{2}\d{2}(?:\s?[\dA-Z]{4}){3,7}(?:\s?[\dA-Z]{1,3})?)"
)


def invoice_facts(t: str, ctx: DocumentContext) -> Iterator[Found]:
    if ctx.kind == "invoice":
        for rx in _INVOICE_ISSUED:
            if (m := rx.search(t)) and (d := _date(m)):
                value: dict[str, Any] = {"date": d}
                number = m.groupdict().get("no") or ctx.invoice_number
                if number:
                    value["number"] = number
                if ctx.total:
                    value["amount"] = _amount(*ctx.total)
                yield "invoice_issued", value, 0.85
                break
        if _TOTAL.search(t):
            amounts = find_amounts(t)
            if amounts:
                last = amounts[-1]
                yield "claim_amount", _amount(last.cents, last.currency), 0.8
        for rx in _DEADLINE_INVOICE:
            if (m := rx.search(t)) and (d := _date(m)):
                yield "invoice_payment_deadline", {"date": d}, 0.8
                break
        if _CONSUMER_NOTICE.search(t):
            yield "consumer_notice_in_invoice", True, 0.75
    # the creditor's own documents; a debtor's letterhead names the debtor's bank
    own = ctx.kind in {"invoice", "contract"} or (
        ctx.kind == "reminder" and not ctx.lawyer
    )
    if own and (m := _IBAN.search(t)):
        yield (
            "creditor_payment_details",
            {"text": "IBAN " + m.group("iban").strip()},
            0.7,
        )


# --- performance, acceptance, receipt --------------------------------------------------
_DELIVERED = [
    _rx(rf"Ware\s+vollst{_U}ndig{_G}{{0,60}}?erhalten\s*am\s+{_D}"),
    _rx(rf"(?:Arbeiten|Leistungen|Werk)\s+wurden?\s+am\s+{_D}\s+(?:fertiggestellt|abgeschlossen|erbracht)"),
    _rx(rf"(?:geliefert|übergeben|ausgeliefert)\s+am\s+{_D}"),
    _rx(rf"(?:works|services)\s+were\s+(?:completed|finished|performed)\s+on\s+{_D}"),
    _rx(rf"goods\s+(?:were\s+)?(?:received|delivered){_G}{{0,40}}?on\s+{_D}"),
]  # fmt: skip
_INVOICE_RECEIVED = [
    _rx(rf"Rechnung{_G}{{0,40}}?(?:erhalten|eingegangen|zugegangen)\s+am\s+{_D}"),
    _rx(rf"Rechnung\s+ist\s+am\s+{_D}\s+(?:bei\s+(?:uns|mir)\s+)?(?:eingegangen|zugegangen)"),
    _rx(rf"invoice\s+(?:reached|was\s+received\s+by)\s+(?:us|me)\s+on\s+{_D}"),
    _rx(rf"(?:received|got)\s+(?:your|the)\s+invoice{_G}{{0,30}}?on\s+{_D}"),
]  # fmt: skip
_ACCEPTANCE_REQUESTED = _rx(
    r"bitten\s+(?:Sie\s+)?(?:daher\s+)?(?:Sie\s+)?(?:[^.]|\.(?=\s?\d)|(?<=\bno)\.|(?<=\bNr)\.){0,30}?Abnahme(?:[^.]|\.(?=\s?\d)|(?<=\bno)\.|(?<=\bNr)\.){0,40}?zu\s+erkl[äa]ren"
    r"|zur\s+Abnahme\s+auf|ask\s+you\s+to\s+(?:declare|confirm)\s+acceptance"
    r"|request\s+(?:your\s+)?acceptance"
)
_ACCEPTANCE_DECLARED = [
    _rx(rf"erkl{_U}rt\s+(?:hiermit\s+)?am\s+{_D}\s+die\s+Abnahme"),
    _rx(rf"Abnahme\s+(?:wird\s+)?(?:hiermit\s+)?(?:am\s+{_D}\s+)?erkl{_U}rt"),
    _rx(rf"declares?\s+acceptance\s+of\s+the\s+works?\s+on\s+{_D}"),
    _rx(rf"accepted\s+the\s+works?\s+on\s+{_D}"),
]
_ACCEPTANCE_REFUSED = _rx(
    r"Abnahme\s+(?:verweigern|lehnen)\s+wir|verweigern\s+(?:wir\s+)?die\s+Abnahme"
    r"|refuse\s+(?:to\s+accept|acceptance)|reject\s+(?:the\s+)?acceptance"
)
_DEFECTS = _rx(
    r"^(?:Mängel|Defects)\s*:\s*(?P<text>[\s\S]+)|(?:Mängel|defects)\s+auf\s*:\s*(?P<text2>[\s\S]+)"
    r"|(?:has|have|shows?)\s+(?:serious\s+|considerable\s+)?defects\s*:\s*(?P<text3>[\s\S]+)"
)


def performance_facts(t: str, ctx: DocumentContext) -> Iterator[Found]:
    if ctx.kind in {"newsletter"}:
        return
    for rx in _DELIVERED:
        if (m := rx.search(t)) and (d := _date(m)):
            if ctx.kind == "delivery_note" and not re.search(r"Ware|goods", t, _I):
                break  # "zugestellt am" on a parcel slip proves no performance
            yield "performance_delivered", {"date": d}, 0.8
            break
    for rx in _INVOICE_RECEIVED:
        if (m := rx.search(t)) and (d := _date(m)):
            yield "invoice_received", {"date": d}, 0.8
            break
    date = ctx.date.isoformat() if ctx.date else None
    if date and _ACCEPTANCE_REQUESTED.search(t):
        yield "acceptance_requested", {"date": date}, 0.75
    for rx in _ACCEPTANCE_DECLARED:
        if (m := rx.search(t)) and (
            d := _date(m) if m.groupdict().get("date") else date
        ):
            yield "acceptance_declared", {"date": d}, 0.8
            break
    if date and _ACCEPTANCE_REFUSED.search(t):
        value: dict[str, Any] = {"date": date}
        if re.search(r"Mängel|Mangel|defect", t, _I):
            value["defects_asserted"] = True
        yield "acceptance_refused", value, 0.8
    if date and (m := _DEFECTS.search(t)):
        text = m.group("text") or m.group("text2") or m.group("text3")
        yield "defects_asserted", {"date": date, "text": squash(text).rstrip(".")}, 0.75


# --- deferral ------------------------------------------------------------------------
_DEFERRAL_AGREED = [
    _rx(
        rf"(?:Parteien\s+vereinbaren|vereinbaren\s+wir|wird\s+vereinbart){_G}{{0,120}}?"
        rf"(?:bis\s+(?:zum\s+)?){_D}\s+gestundet"
    ),
    _rx(rf"(?:parties\s+agree|it\s+is\s+agreed){_G}{{0,120}}?deferred\s+until\s+{_D}"),
]
_DEFERRAL_REQUESTED = [
    _rx(
        rf"(?:bitten|bitte|ersuchen|beantragen)(?:{_G}){{0,80}}?(?:Stundung|Zahlungsaufschub"
        rf"|Aufschub|aufzuschieben|zu\s+stunden|zu\s+verschieben|mehr\s+Zeit)(?:{_G}){{0,60}}?"
        rf"(?:bis\s+(?:zum\s+)?{_D})?"
    ),
    _rx(
        rf"(?:können|könnten|würden)\s+Sie(?:{_G}){{0,60}}?(?:stunden|aufschieben|verschieben)"
        rf"(?:{_G}){{0,40}}?(?:bis\s+(?:zum\s+)?{_D})?"
    ),
    _rx(
        rf"(?:ask|request|asking|requesting)(?:{_G}){{0,60}}?(?:deferral|to\s+defer|postpone"
        rf"|extension|more\s+time|deferment)(?:{_G}){{0,60}}?(?:until\s+{_D})?"
    ),
    _rx(
        rf"(?:could|would|can)\s+you(?:{_G}){{0,40}}?(?:defer|postpone)(?:{_G}){{0,60}}?"
        rf"(?:until\s+{_D})?"
    ),
]
_DEFERRAL_CONSENTED = [
    _rx(rf"(?:stimmen|stimme)\s+(?:wir\s+|ich\s+)?(?:der|Ihrer)\s+(?:Bitte\s+um\s+)?Stundung"
        rf"(?:{_G}){{0,60}}?bis\s+(?:zum\s+)?{_D}"),
    _rx(rf"(?:sind|bin)\s+(?:wir\s+|ich\s+)?(?:damit\s+)?einverstanden(?:{_G}){{0,80}}?bis\s+(?:zum\s+)?{_D}"),
    _rx(rf"(?:gewähren|bewilligen)\s+(?:wir\s+|ich\s+)?(?:Ihnen\s+)?(?:eine\s+|die\s+)?Stundung"
        rf"(?:{_G}){{0,40}}?bis\s+(?:zum\s+)?{_D}"),
    _rx(rf"Stundung\s+bis\s+(?:zum\s+)?{_D}(?:{_G}){{0,40}}?(?:gewähren|einverstanden|zu\b)"),
    _rx(rf"(?:agree|consent)\s+to\s+(?:your\s+request\s+(?:for|to)\s+)?(?:a\s+)?(?:deferral|defer"
        rf"|deferment|postpone)(?:{_G}){{0,60}}?until\s+{_D}"),
    _rx(rf"(?:grant|accept)\s+(?:you\s+)?(?:a|the|your)\s+(?:requested\s+)?(?:deferral|deferment"
        rf"|extension)(?:{_G}){{0,40}}?until\s+{_D}"),
]  # fmt: skip


def deferral_facts(t: str, ctx: DocumentContext) -> Iterator[Found]:
    date = ctx.date.isoformat() if ctx.date else None
    if not date:
        return
    for rx in _DEFERRAL_AGREED:
        if (m := rx.search(t)) and (u := _date(m)):
            yield "deferral_agreed", {"date": date, "until": u}, 0.8
            return
    for rx in _DEFERRAL_CONSENTED:
        if (m := rx.search(t)) and (u := _date(m)):
            yield "deferral_consented", {"date": date, "until": u}, 0.75
            return
    for rx in _DEFERRAL_REQUESTED:
        if m := rx.search(t):
            value = {"date": date}
            if m.group("date") and (u := _date(m)):
                value["until"] = u
            yield "deferral_requested", value, 0.7
            return


# --- reminders and their delivery ---------------------------------------------------------
_REMINDER_DEADLINE = [
    _rx(rf"\bbis\s+(?:spätestens\s+)?(?:zum\s+)?{_D}{_G}{{0,60}}?(?:zu\s+)?(?:überweisen|zahlen"
        rf"|begleichen|auszugleichen|auf\s+unser)"),
    _rx(rf"(?:überweisen|zahlen|begleichen|ausgleichen){_G}{{0,30}}?bis\s+(?:spätestens\s+)?(?:zum\s+)?{_D}"),
    _rx(rf"\b(?:pay|payment|settle|remit){_G}{{0,80}}?\bby\s+{_D}"),
]  # fmt: skip
_DISPATCH = [
    ("einschreiben_rueckschein", _rx(r"Einschreiben\s+mit\s+R[üu]ckschein|Einschreiben\s*/\s*R[üu]ckschein"
                                     r"|registered\s+mail\s+with\s+(?:return|advice\s+of)\s+receipt|recorded\s+delivery\s+with")),
    ("einwurf_einschreiben", _rx(r"Einwurf[-\s]?Einschreiben|Einschreiben\s+Einwurf"
                                 r"|registered\s+mail\s*\(?\s*(?:letterbox|drop)")),
    ("uebergabe_einschreiben", _rx(r"Übergabe[-\s]?Einschreiben|Einschreiben\s+Übergabe")),
    ("fax", _rx(r"^\s*(?:per|via|by)\s+(?:Tele)?fax\b")),
    ("bote", _rx(r"^\s*(?:per|durch|by)\s+(?:Bote|Boten|courier|hand)\b")),
]  # fmt: skip


def reminder_dispatch(text: str, ctx: DocumentContext) -> str:
    """How the reminder went out: a marking anywhere in the document ("per
    Einwurf-Einschreiben" may stand on its last page), else e-mail for an
    e-mail printout, else ordinary post."""
    if not ctx.dispatch:
        ctx.dispatch = next((name for name, rx in _DISPATCH if rx.search(text)), "")
    return ctx.dispatch or ("email" if ctx.email else "post")


_EARLIER_REMINDER = _rx(
    rf"\b(?:unsere[rn]?|our)\s+(?:\d\.\s*|letzten?\s+|ersten?\s+|last\s+|first\s+)?"
    rf"(?:Mahnung|Zahlungserinnerung|reminder)\s+(?:vom|of|dated)\s+{_D}"
)
_BY_MESSENGER = _rx(
    rf"\bBote[n]?\s+(?:hat\s+)?am\s+{_D}\s+(?:{_G}){{0,60}}?(?:Einwurf|übergeben|zugestellt)"
    rf"|\bcourier\s+on\s+(?P<date2>{DATE})"
)


def reminder_facts(t: str, ctx: DocumentContext, dispatch: str) -> Iterator[Found]:
    if ctx.kind == "reminder" and not ctx.lawyer:
        # the creditor's own reminder names an earlier one it sent
        if (m := _EARLIER_REMINDER.search(t)) and (d := _date(m)):
            yield "reminder_sent", {"date": d}, 0.65
        if m := _BY_MESSENGER.search(t):
            parsed = parse_date(m["date"] or m["date2"])
            if parsed is not None:
                yield (
                    "reminder_delivered",
                    {"date": parsed.isoformat(), "proof": "bote"},
                    0.7,
                )
    if ctx.kind not in {"reminder", "lawyer"} and not (
        ctx.lawyer and ctx.kind == "letter"
    ):
        return
    if ctx.date is None:
        return
    for rx in _REMINDER_DEADLINE:
        if (m := rx.search(t)) and (d := _date(m)):
            value: dict[str, Any] = {"date": ctx.date.isoformat(), "deadline": d}
            if ctx.kind == "reminder":
                value["dispatch"] = dispatch
            yield "reminder_sent", value, 0.85
            return


_PROOFS = [
    ("auslieferungsbeleg", "auslieferungsbeleg",
     _rx(rf"(?:Sendung|item)\s+(?:wurde|was)\s+am\s+{_D}\s+in\s+den\s+(?:Haus)?briefkasten"
         rf"|(?:placed|put)\s+in\s+the\s+(?:recipient's\s+)?letter\s*box\s+on\s+{_D.replace('date', 'date2')}")),
    ("rueckschein", "rueckschein",
     _rx(rf"(?:Sendung|Item)\s+(?:erhalten|received)\s+(?:am|on)\s+{_D}")),
    ("sendungsverfolgung_zugestellt", "sendungsverfolgung_zugestellt",
     _rx(rf"{_D}[^A-Za-z]{{0,14}}(?:Die\s+Sendung\s+wurde\s+(?:dem\s+Empf{_U}nger\s+)?(?:erfolgreich\s+)?zugestellt"
         r"|The\s+item\s+has\s+been\s+delivered)")),
]  # fmt: skip
_NOT_DELIVERED = _rx(
    r"nicht\s+angetroffen|Benachrichtigungskarte|not\s+found|notification\s+card"
    r"|could\s+not\s+be\s+delivered|nicht\s+zugestellt\s+werden"
)
_POSTED = _rx(
    rf"(?:Sendung|item)\s+(?:wurde|was)\s+am\s+{_D}\s+(?:eingeliefert|posted|handed\s+in)"
)


_DELIVERED_EVENT = _rx(
    r"zugestellt|eingeworfen|eingelegt|ausgeliefert|(?:has\s+been|was)\s+delivered"
    r"|placed\s+in\s+the"
)
# The proof a postal record is, from its heading (OCR may break the umlaut).
_PROOF_OF_HEADING = [
    (
        "einlieferungsbeleg",
        _rx(r"Einlieferungsbeleg|Certificate\s+of\s+posting|Proof\s+of\s+posting"),
    ),
    ("rueckschein", _rx(r"R[üu]cksch|Return\s+receipt|advice\s+of\s+delivery")),
    (
        "auslieferungsbeleg",
        _rx(r"Auslieferungsbeleg|Zustellnachweis|Proof\s+of\s+delivery"),
    ),
    (
        "sendungsverfolgung_zugestellt",
        _rx(r"Sendungsverfolgung|Sendungsstatus|tracking"),
    ),
]


_POSTING = _rx(r"Einlieferung|eingeliefert|posted|handed\s+in|accepted\s+at")


def receipt_proof(head: str) -> str:
    """The proof kind a postal record's heading announces, or ""."""
    return next((k for k, rx in _PROOF_OF_HEADING if rx.search(head)), "")


def proof_facts(t: str, ctx: DocumentContext) -> Iterator[Found]:
    if ctx.kind != "receipt":
        return
    if ctx.proof == "einlieferungsbeleg":
        # proof of posting, never of Zugang
        if _POSTING.search(t) and find_dates(t):
            yield "delivery_evidence", {"kind": "einlieferungsbeleg"}, 0.75
        return
    for proof, evidence, rx in _PROOFS:
        if m := rx.search(t):
            raw = m.groupdict().get("date") or m.groupdict().get("date2")
            parsed = parse_date(raw) if raw else None
            if parsed is None:
                continue
            # the record's own heading says what it is; the sentence only what happened
            proof = evidence = ctx.proof or proof
            yield (
                "reminder_delivered",
                {"date": parsed.isoformat(), "proof": proof},
                0.8,
            )
            yield "delivery_evidence", {"kind": evidence}, 0.8
            return
    dates = find_dates(t)
    if (
        ctx.proof
        and dates
        and _DELIVERED_EVENT.search(t)
        and not _NOT_DELIVERED.search(t)
    ):
        value = {"date": dates[0].date.isoformat(), "proof": ctx.proof}
        yield "reminder_delivered", value, 0.75
        yield "delivery_evidence", {"kind": ctx.proof}, 0.75
        return
    if _NOT_DELIVERED.search(t) and dates:
        yield "delivery_evidence", {"kind": "sendungsverfolgung_ohne_zustellung"}, 0.75
        return
    if _POSTED.search(t):
        yield "delivery_evidence", {"kind": "einlieferungsbeleg"}, 0.75
