# ruff: noqa: E501  (pattern tables: each alternative stays one greppable regex)
"""Fact rules for what the debtor writes (receipt, refusals, excuses, consumer
status), what the creditor's lawyer claims (instruction, interest, fees,
damage) and the records (RVG fee notes, bank statements). A temporary "derzeit
leider nicht zahlen können" is a ``voruebergehend`` refusal, never an
``endgueltig`` one (§ 286 Abs. 2 Nr. 3 BGB needs a final refusal); an RVG fee
note's item is the fee (the row's last amount), never the Gegenstandswert it
is computed from. Pure."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from agents.domain.parsing import DATE, find_amounts, find_dates, parse_date
from agents.extraction.documents import DocumentContext
from agents.extraction.facts import Found, _amount, _num
from agents.extraction.units import squash

_I = re.IGNORECASE
# a gap inside one sentence: no full stop, except inside a date or after "Nr."/"no."
_G = r"(?:[^.]|\.(?=\s?\d)|(?<=\bno)\.|(?<=\bNr)\.)"


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, _I)


_D = rf"(?P<date>{DATE})"

_ADMISSION = _rx(rf"(?:Mahnung|Schreiben|reminder|letter){_G}{{0,40}}?(?:ist|wurde|was)?\s*"
                 rf"(?:am|on)\s+{_D}\s+(?:bei\s+(?:uns|mir)\s+)?(?:eingegangen|zugegangen|erhalten"
                 rf"|received|reached\s+us)")  # fmt: skip
_ADMISSION_EN = _rx(rf"(?:reminder|letter){_G}{{0,40}}?reached\s+(?:us|me)\s+on\s+{_D}")
_DENIED = _rx(
    r"(?:Mahnung|Schreiben|Zahlungserinnerung)(?:[^.]|\.(?=\s?\d)|(?<=\bno)\.|(?<=\bNr)\.){0,40}?(?:nie|niemals|nicht)\s+(?:\w+\s+)?"
    r"(?:erhalten|bekommen|zugegangen)|never\s+received\s+(?:a|any|your)\s+(?:reminder|letter)"
    r"|(?:did|have)\s+not\s+received?\s+(?:a|any|your)\s+(?:reminder|letter)"
)
_REFUSAL_FINAL = _rx(
    r"(?:werden|wird|werde)\s+(?:\w+\s+){0,4}?(?:nicht|keinesfalls|niemals)\s+(?:\w+\s+){0,2}?"
    r"(?:zahlen|bezahlen|begleichen)|verweigern\s+(?:\w+\s+){0,3}?(?:Zahlung|Bezahlung)"
    r"|(?:will|shall)\s+not\s+pay|refuse\s+to\s+pay|will\s+never\s+pay"
)
_REFUSAL_TEMPORARY = _rx(
    r"(?:derzeit|zurzeit|momentan|aktuell|vorerst|im\s+Moment)\s+(?:\w+\s+){0,4}?"
    r"(?:nicht|kein\w*)\s+(?:\w+\s+){0,3}?(?:zahlen|bezahlen|begleichen|leisten)"
    r"|(?:nicht|kein\w*)\s+(?:\w+\s+){0,3}?(?:derzeit|zurzeit|momentan)\s+(?:\w+\s+){0,3}?zahlen"
    r"|currently\s+unable\s+to\s+pay|(?:cannot|can't|unable\s+to)\s+pay(?:[^.]|\.(?=\s?\d)|(?<=\bno)\.|(?<=\bNr)\.){0,40}?"
    r"(?:at\s+the\s+moment|right\s+now|for\s+now|currently)"
)
_FIRM = _rx(r"weder\s+jetzt\s+noch\s+später|endgültig|keinesfalls|niemals|now\s+or\s+at\s+any"
            r"|under\s+no\s+circumstances|never|zwecklos|pointless")  # fmt: skip
_LACK_OF_FUNDS = _rx(
    r"fehlen\s+uns\s+(?:\w+\s+)?(?:die\s+)?(?:Mittel|Geld|Liquidität)|keine\s+(?:finanziellen\s+)?Mittel"
    r"|Zahlungsschwierigkeiten|Liquiditätsengp|(?:do\s+not|don't)\s+have\s+the\s+(?:funds|money)"
    r"|lack\s+(?:of\s+)?(?:the\s+)?funds|cash[\s\-]flow\s+(?:problems|difficulties)"
)
_CONSUMER_TRUE = _rx(
    r"als\s+Privatperson|für\s+(?:meine|unsere)\s+(?:eigene\s+)?(?:private|Wohnung|privaten)"
    r"|as\s+a\s+private\s+(?:individual|person)|for\s+my\s+own\s+(?:flat|home|use)"
)
_CONSUMER_FALSE = _rx(
    r"für\s+unseren\s+(?:Betrieb|Gewerbebetrieb|Geschäftsbetrieb|Praxis|Unternehmen)"
    r"|für\s+unsere\s+(?:Praxis|Firma|Kanzlei)|nicht\s+für\s+private\s+Zwecke"
    r"|for\s+our\s+(?:practice|business|company|firm)|not\s+for\s+private\s+purposes"
)
_ILLNESS = _rx(
    r"Krankheit|erkrankt|Krankenhaus|stationär|Lungenentzündung|Operation|Klinik"
    r"|\bill\b|illness|hospital|sick"
)
_EXCUSE_KINDS = [
    ("krankheit", _ILLNESS),
    ("hoehere_gewalt", _rx(r"höhere[rn]?\s+Gewalt|Hochwasser|Überschwemmung|Brand|force\s+majeure"
                           r"|flood|fire")),
    ("glaeubigerverhalten", _rx(r"Ihr(?:e)?\s+(?:falsche|fehlerhafte)\s+(?:Bankverbindung|Angabe)"
                                r"|your\s+(?:wrong|incorrect)\s+(?:bank|account)")),
]  # fmt: skip
_EXCUSE_CONTEXT = _rx(
    r"konnte\s+(?:mich\s+)?nicht|nicht\s+(?:um|in\s+der\s+Lage)|could\s+not|unable|kümmern"
    r"|verspät|Verzögerung|delay|late"
)
_EVIDENCE = _rx(
    r"(?P<ev>(?:ärztliche\s+)?(?:Bescheinigung|Attest|Bestätigung)\s+(?:des|der)\s+[\wäöüÄÖÜß]+)"
    + _G
    + r"{0,80}?(?:füge|fügen|beigefügt|anbei|liegt\s+bei)"
    r"|(?P<ev2>(?:medical\s+)?certificate\s+(?:from|of)\s+the\s+\w+)(?:[^.]|\.(?=\s?\d)|(?<=\bno)\.|(?<=\bNr)\.){0,60}?(?:enclosed|attached)"
    r"|(?:enclose|attach)\s+(?:the\s+)?(?P<ev3>(?:medical\s+)?certificate[^.,]{0,40})"
)
_SPECIAL = _rx(
    r"Einer\s+Mahnung\s+bedurfte\s+es\s+nicht|Mahnung\s+war\s+entbehrlich"
    r"|No\s+reminder\s+was\s+(?:required|necessary)|reminder\s+was\s+unnecessary"
)


def debtor_facts(t: str, ctx: DocumentContext) -> Iterator[Found]:
    if ctx.lawyer or ctx.kind not in {"email", "letter"}:
        return
    date = ctx.date.isoformat() if ctx.date else None
    if (m := _ADMISSION.search(t) or _ADMISSION_EN.search(t)) and (
        p := parse_date(m["date"])
    ):
        yield "debtor_admission", {"date": p.isoformat()}, 0.8
    if not date:
        return
    if _DENIED.search(t):
        yield "receipt_denied", {"date": date}, 0.8
    if _REFUSAL_TEMPORARY.search(t):
        yield "refusal_to_pay", {"date": date, "kind": "voruebergehend"}, 0.75
    elif _REFUSAL_FINAL.search(t):
        # explicit final wording ("endgültig", "weder jetzt noch später") is the
        # stronger reading; a refusal without it is taken as temporary, less sure
        firm = bool(_FIRM.search(t))
        kind = "endgueltig" if firm else "voruebergehend"
        yield "refusal_to_pay", {"date": date, "kind": kind}, 0.85 if firm else 0.7
    if _LACK_OF_FUNDS.search(t):
        yield "lack_of_funds_pleaded", {"date": date, "text": squash(t)}, 0.7
    if _CONSUMER_TRUE.search(t):
        yield "debtor_consumer", True, 0.75
    elif _CONSUMER_FALSE.search(t):
        yield "debtor_consumer", False, 0.75
    if m := _EVIDENCE.search(t):
        ev = m.group("ev") or m.group("ev2") or m.group("ev3")
        kind = next((k for k, rx in _EXCUSE_KINDS if rx.search(t)), "krankheit")
        yield "exoneration_evidenced", {"kind": kind, "evidence": squash(ev)}, 0.7
    elif _EXCUSE_CONTEXT.search(t):
        for kind, rx in _EXCUSE_KINDS:
            if rx.search(t):
                yield "exoneration_pleaded", {"kind": kind, "text": squash(t)}, 0.7
                break
    if _ATTEMPT_FAILED.search(t):
        dates = find_dates(t)
        when = dates[0].date.isoformat() if dates else date
        yield "payment_attempt_failed", {"date": when, "reason": squash(t)}, 0.65
    elif _PAYMENT_SENT.search(t):
        found = find_amounts(t)
        if found:
            value: dict[str, Any] = {
                "amount": _amount(found[0].cents, found[0].currency)
            }
            value["date"] = date
            yield "payment_received", value, 0.7


_PAYMENT_SENT = _rx(
    r"(?:haben|hat)\s+(?:wir|ich)\s+(?:[^.]|\.(?=\s?\d)|(?<=\bno)\.|(?<=\bNr)\.){0,60}?überwiesen|transferred\s+(?:a\s+)?(?:part\s+)?payment"
    r"|(?:we|I)\s+(?:have\s+)?(?:paid|transferred)\s+"
)

# --- the lawyer's letter ----------------------------------------------------------------
_INSTRUCTED = [
    _rx(rf"Beauftragung\s+erfolgte\s+am\s+{_D}"),
    _rx(
        rf"(?:hat\s+uns|beauftragte\s+uns)\s+am\s+{_D}\s+(?:beauftragt|mandatiert|mit)"
    ),
    _rx(rf"instructed\s+us\s+on\s+{_D}"),
    _rx(rf"(?:Mandat|mandate)\s+(?:vom|of|dated)\s+{_D}"),
]
_RATE = [
    _rx(
        r"(?P<n>\d{1,2}(?:,\d{1,2})?|fünf|acht|neun)\s*(?:Prozentpunkte[n]?|%-?Punkte[n]?)\s+"
        r"über\s+dem\s+(?:jeweiligen\s+)?Basiszinssatz"
    ),
    _rx(
        r"(?P<n>\d{1,2}(?:\.\d{1,2})?|five|eight|nine)\s*(?:percentage\s+points|%\s*points?)\s+"
        r"(?:above|over)\s+the\s+(?:ECB\s+|applicable\s+)?base\s+rate"
    ),
    _rx(
        r"Basiszinssatz\s*\+\s*(?P<n>\d{1,2}(?:,\d{1,2})?)\s*(?:Prozentpunkte|%-?Punkte|%)"
    ),
    _rx(r"base\s+rate\s*\+\s*(?P<n>\d{1,2}(?:\.\d{1,2})?)\s*(?:percentage\s+points|%)"),
]
_PERCENT = _rx(r"(?:Zinssatz|Zinsen\s+(?:in\s+Höhe\s+)?von|interest\s+(?:rate\s+)?of)\s*:?\s*"
               r"(?P<p>\d{1,2}(?:[,.]\d{1,2})?)\s*%(?!\s*(?:-?Punkte|points))")  # fmt: skip
_PRINCIPAL = _rx(
    r"(?:Hauptforderung|offene\s+Forderung|Rechnungsbetrag)\s+(?:beläuft\s+sich|beträgt)"
    r"|principal\s+(?:amounts\s+to|is|of)|(?:outstanding|unpaid)\s+(?:principal|sum)\s+of"
)
_DAMAGE = _rx(
    r"(?P<label>(?:vorgerichtlichen\s+)?(?:Rechtsanwaltskosten|Anwaltskosten|Inkassokosten|Mahnkosten)"
    r"|Kosten\s+(?:der|des|für\s+die)\s+[\wäöüÄÖÜß\-]+(?:\s+[\wäöüÄÖÜß\-]+)?"
    r"|(?:pre-trial\s+)?legal\s+fees|(?:the\s+)?costs?\s+of\s+the\s+[\w\-]+(?:\s+[\w\-]+){0,2}"
    r"|collection\s+costs|Pauschale\s+nach\s+§\s*288\s+Abs\.\s*5\s+BGB|Verzugspauschale)"
)
_NOT_OURS = _rx(
    r"nicht\s+Gegenstand|separate\s+matter|not\s+(?:the\s+)?subject|Gegenstandswert"
    r"|value\s+in\s+dispute"
)
_UNQUANTIFIED = _rx(
    r"(?:bleibt|bleiben)\s+vorbehalten(?:[^.]|\.(?=\s?\d)|(?<=\bno)\.|(?<=\bNr)\.){0,200}?(?:beziffer|bezifferbar)|noch\s+nicht\s+beziffer"
    r"|cannot\s+(?:yet\s+)?be\s+quantified|not\s+yet\s+(?:be\s+)?quantif"
)
_INPUT_VAT_NO = _rx(
    r"nicht\s+zum\s+Vorsteuerabzug\s+berechtigt|not\s+entitled\s+to\s+deduct\s+input\s+VAT"
)
_INPUT_VAT_YES = _rx(
    r"zum\s+Vorsteuerabzug\s+berechtigt|entitled\s+to\s+deduct\s+input\s+VAT"
)


def lawyer_facts(t: str, ctx: DocumentContext) -> Iterator[Found]:
    if not ctx.lawyer or ctx.kind == "newsletter":
        return
    if _INPUT_VAT_NO.search(t):
        yield "creditor_input_vat", False, 0.8
    elif _INPUT_VAT_YES.search(t):
        yield "creditor_input_vat", True, 0.8
    if ctx.kind == "fee_note":
        return  # its rows are fee_note_items, not claims of the letter
    for rx in _INSTRUCTED:
        if (m := rx.search(t)) and (p := parse_date(m["date"])):
            yield "lawyer_instructed", {"date": p.isoformat()}, 0.85
            break
    yield from rate_facts(t)
    if _SPECIAL.search(t):
        yield "special_reasons", {"text": squash(t)}, 0.75
    if _UNQUANTIFIED.search(t):
        yield "damage_unquantified", {"text": squash(t)}, 0.7
    if _NOT_OURS.search(t):
        return
    amounts = find_amounts(t)
    if not amounts:
        return
    if _PRINCIPAL.search(t) or _PRINCIPAL_ROW.search(t):
        yield "claim_amount", _amount(amounts[-1].cents, amounts[-1].currency), 0.75
    elif m := _DAMAGE.search(t):
        label = squash(m.group("label"))
        label = re.sub(r"^(?:the|die|der)\s+", "", label, flags=_I)
        value = {
            "amount": _amount(amounts[-1].cents, amounts[-1].currency),
            "text": label,
        }
        yield "damage_item", value, 0.75


def rate_facts(t: str) -> Iterator[Found]:
    for rx in _RATE:
        if (m := rx.search(t)) and (n := _num(m["n"])) is not None:
            points: float | int = int(n) if n == int(n) else n
            yield "interest_rate_claimed", {"points_over_base": points}, 0.8
            return
    if (m := _PERCENT.search(t)) and (n := _num(m["p"])) is not None:
        yield "interest_rate_claimed", {"percent": int(n) if n == int(n) else n}, 0.7


# --- records ----------------------------------------------------------------------------
# The VV RVG number opens the row ("2300  1,3 Geschäftsgebühr …") or is named in
# it ("1,3 Geschäftsgebühr Nr. 2300 VV RVG").
_VV = _rx(
    r"^(?P<vv>2300|2400|1000|1008|3100|3104|7000|7002|7008)\b"
    r"|\bNr\.?\s*(?P<vv2>2300|2400|1000|1008|3100|3104|7000|7002|7008)\s+VV"
)
_FEE_KINDS = [
    ("umsatzsteuer", _rx(r"Umsatzsteuer|Mehrwertsteuer|\bVAT\b|USt")),
    (
        "auslagenpauschale",
        _rx(r"Pauschale|Post\s+und\s+Telekommunikation|postage|flat\s+rate"),
    ),
    ("geschaeftsgebuehr", _rx(r"Geschäftsgebühr|business\s+fee")),
]


def fee_note_facts(t: str, ctx: DocumentContext) -> Iterator[Found]:
    if ctx.kind != "fee_note" or _NOT_OURS.search(t):
        return
    m = _VV.search(t)
    amounts = find_amounts(t)
    if not m or not amounts:
        return
    kind = next((k for k, rx in _FEE_KINDS if rx.search(t)), "sonstige")
    net = amounts[-1]  # the fee; an earlier amount is the value it is computed from
    vv_no = m["vv"] or m["vv2"]
    value = {"kind": kind, "net": _amount(net.cents, net.currency), "vv_no": vv_no}
    yield "fee_note_item", value, 0.8


_RETURNED = _rx(
    r"Rücklastschrift|mangels\s+Deckung|zurückgegeben|Rückbuchung|zurückgebucht|returned"
    r"|reversed|bounced|insufficient\s+funds|chargeback|unpaid\s+direct\s+debit"
)
_ATTEMPT_FAILED = _rx(
    r"(?:Überweisung|Lastschrift|Zahlung|Scheck|transfer|direct\s+debit|payment|cheque)"
    + _G
    + r"{0,80}?(?:zurückgebucht|zurückgegeben|gescheitert|fehlgeschlagen|nicht\s+ausgeführt"
    r"|returned|failed|bounced|was\s+rejected|could\s+not\s+be\s+(?:executed|processed))"
)
_CREDIT = _rx(
    r"Gutschrift|Eingang|Zahlungseingang|\bCredit\b|payment\s+received|part\s+payment"
)


def bank_facts(t: str, ctx: DocumentContext, known: set[str]) -> Iterator[Found]:
    """A statement row: date first, then the text, then the amount. Only rows
    that name one of the case's invoice numbers are this matter's."""
    if ctx.kind != "bank":
        return
    dates = find_dates(t)
    amounts = find_amounts(t)
    if not dates or not amounts or dates[0].start > 3:
        return
    if known and not any(n in t for n in known):
        return
    date = dates[0].date.isoformat()
    amount = amounts[-1]
    if _RETURNED.search(t):
        reason = squash(t[dates[0].end : amount.start]).strip(" -+")
        yield "payment_attempt_failed", {"date": date, "reason": reason}, 0.75
    elif _CREDIT.search(t):
        value = {"date": date, "amount": _amount(amount.cents, amount.currency)}
        yield "payment_received", value, 0.75


_REMINDER_COSTS = _rx(
    r"^(?P<label>Mahnkosten|Mahngebühr(?:en)?|Mahnpauschale|Verzugspauschale"
    r"|Pauschale\s+nach\s+§\s*288\s+Abs\.\s*5\s+BGB|Auskunftskosten|Bankgebühren"
    r"|Rücklastschriftgebühr|reminder\s+fee|late\s+payment\s+(?:fee|compensation)"
    r"|(?:flat[\s\-]rate\s+)?compensation\s+under\s+section\s+288\(5\))"
)


def interest_facts(t: str, ctx: DocumentContext) -> Iterator[Found]:
    """Interest calculations, and the rate and costs a creditor's reminder
    claims (its cost table: "Mahnkosten 5,00 €")."""
    if ctx.kind == "interest" or (ctx.kind == "reminder" and not ctx.lawyer):
        yield from rate_facts(t)
    if ctx.kind == "reminder" and not ctx.lawyer and (m := _REMINDER_COSTS.search(t)):
        amounts = find_amounts(t)
        if amounts:
            amount = _amount(amounts[-1].cents, amounts[-1].currency)
            yield "damage_item", {"amount": amount, "text": squash(m["label"])}, 0.7
    if ctx.kind == "reminder" and _PRINCIPAL_ROW.search(t) and (a := find_amounts(t)):
        yield "claim_amount", _amount(a[-1].cents, a[-1].currency), 0.7


_PRINCIPAL_ROW = _rx(
    r"^(?:Hauptforderung|Principal|offener\s+Rechnungsbetrag)\b[^\n]*\d"
)
