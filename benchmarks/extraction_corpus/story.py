# ruff: noqa: E501  (document prose: each sentence stays one greppable string)
"""Assemble one case file from a spec: documents in order, e-mails from phrases."""

from __future__ import annotations

import datetime as dt
from typing import Any

from . import documents as docs
from . import letters
from .model import Case, Doc, Fact, amt, d, iso

T = dt.datetime


def statement(w: docs.Writer, kind: str, when: dt.date, a: dict) -> list[tuple]:
    """(text, facts) paragraphs of one e-mail statement, German or English."""
    en, D, M = w.en, w.D, w.M
    day = iso(when)
    if kind == "deferral_request":
        u = a["until"]
        return [
            (
                f"Due to a temporary cash shortage, I would ask you to defer payment of "
                f"the invoice until {D(u)}."
                if en
                else f"Aufgrund eines vorübergehenden Engpasses bitte ich Sie, mir die Zahlung "
                f"der Rechnung bis zum {D(u)} zu stunden.",
                [Fact("deferral_requested", {"date": day, "until": iso(u)})],
            )
        ]
    if kind == "deferral_consent":
        u = a["until"]
        return [
            (
                f"We agree to defer the payment until {D(u)}."
                if en
                else f"Mit einer Stundung der Forderung bis zum {D(u)} sind wir "
                "einverstanden.",
                [Fact("deferral_consented", {"date": day, "until": iso(u)})],
            )
        ]
    if kind == "refusal_temp":
        out = [
            (
                "Unfortunately we are currently unable to pay the invoice, but we will "
                "get back to you as soon as our situation improves."
                if en
                else "Wir können die Rechnung derzeit leider nicht zahlen, melden uns aber, "
                "sobald sich unsere Lage bessert.",
                [Fact("refusal_to_pay", {"date": day, "kind": "voruebergehend"})],
            )
        ]
        if a.get("funds"):
            s = (
                "Since our largest customer became insolvent we simply do not have the "
                "funds."
                if en
                else "Seit der Insolvenz unseres größten Kunden fehlen "
                "uns schlicht die Mittel."
            )
            out.append((s, [Fact("lack_of_funds_pleaded", {"date": day, "text": s})]))
        return out
    if kind == "refusal_final":
        return [
            (
                "We will not pay this invoice, now or at any later time, and any further "
                "letters are pointless."
                if en
                else "Wir werden diese Rechnung nicht bezahlen, weder jetzt noch später; "
                "weitere Schreiben sind zwecklos.",
                [Fact("refusal_to_pay", {"date": day, "kind": "endgueltig"})],
            )
        ]
    if kind == "illness":
        s = (
            f"I was in hospital with severe pneumonia from {D(a['from'])} to "
            f"{D(a['to'])} and could not deal with my post."
            if en
            else f"Ich lag vom {D(a['from'])} bis zum {D(a['to'])} mit einer schweren "
            "Lungenentzündung im Krankenhaus und konnte mich nicht um meine Post "
            "kümmern."
        )
        out = [(s, [Fact("exoneration_pleaded", {"kind": "krankheit", "text": s})])]
        if a.get("cert"):
            ev = "hospital certificate" if en else "Bescheinigung des Klinikums"
            out.append(
                (
                    f"I enclose the {ev} confirming my stay."
                    if en
                    else f"Die {ev} über den stationären Aufenthalt füge ich bei.",
                    [
                        Fact(
                            "exoneration_evidenced",
                            {"kind": "krankheit", "evidence": ev},
                        )
                    ],
                )
            )
        return out
    if kind == "admission":
        return [
            (
                f"Your reminder of {D(a['reminder'])} reached us on {D(a['on'])}."
                if en
                else f"Ihre Mahnung vom {D(a['reminder'])} ist am {D(a['on'])} bei uns "
                "eingegangen.",
                [Fact("debtor_admission", {"date": iso(a["on"])})],
            )
        ]
    if kind == "denial":
        return [
            (
                f"We never received a reminder dated {D(a['reminder'])}."
                if en
                else f"Eine Mahnung vom {D(a['reminder'])} haben wir nie erhalten.",
                [Fact("receipt_denied", {"date": day})],
            )
        ]
    if kind == "defects":
        return [
            (
                f"The installation you supplied has serious defects: {a['text']}."
                if en
                else f"Die gelieferte Anlage weist erhebliche Mängel auf: {a['text']}.",
                [Fact("defects_asserted", {"date": day, "text": a["text"]})],
            )
        ]
    if kind == "accept_request":
        return [
            (
                f"The works were completed on {D(a['done'])}."
                if en
                else f"Die Arbeiten wurden am {D(a['done'])} fertiggestellt.",
                [Fact("performance_delivered", {"date": iso(a["done"])})],
            ),
            (
                "We therefore ask you to declare acceptance of the works."
                if en
                else "Wir bitten Sie daher, die Abnahme der Werkleistung zu erklären.",
                [Fact("acceptance_requested", {"date": day})],
            ),
        ]
    if kind == "accept_refusal":
        return [
            (
                "We refuse to accept the works because of the following defects."
                if en
                else "Die Abnahme verweigern wir wegen der nachstehenden Mängel.",
                [Fact("acceptance_refused", {"date": day, "defects_asserted": True})],
            ),
            (
                f"Defects: {a['text']}." if en else f"Mängel: {a['text']}.",
                [Fact("defects_asserted", {"date": day, "text": a["text"]})],
            ),
        ]
    if kind == "paid":
        return [
            (
                f"Today we transferred a part payment of {M(a['cents'])} to you."
                if en
                else f"Wir haben heute eine Teilzahlung von {M(a['cents'])} an Sie "
                "überwiesen.",
                [Fact("payment_received", {"date": day, "amount": amt(a["cents"])})],
            )
        ]
    if kind == "consumer":
        s = (
            f"I ordered the {a['item']} as a private individual for my own flat and "
            "not for any business."
            if en
            else f"Ich habe die {a['item']} als "
            "Privatperson für meine eigene Wohnung bestellt, nicht für ein Gewerbe."
        )
        return [(s, [Fact("debtor_consumer", True)])]
    if kind == "business":
        s = (
            "The order was placed for our practice, not for private purposes."
            if en
            else "Die Bestellung erfolgte für unseren Betrieb, nicht für private "
            "Zwecke."
        )
        return [(s, [Fact("debtor_consumer", False)])]
    if kind == "returned_debit":
        return [
            (
                f"Your direct debit of {D(a['on'])} was returned by our bank for lack "
                "of funds."
                if en
                else f"Ihre Lastschrift vom {D(a['on'])} ist von "
                "unserer Bank mangels Deckung zurückgegeben worden.",
                [
                    Fact(
                        "payment_attempt_failed",
                        {"date": iso(a["on"]), "reason": "mangels Deckung"},
                    )
                ],
            )
        ]
    if kind == "invoice_receipt":
        return [
            (
                f"Your invoice reached us on {D(a['on'])}."
                if en
                else f"Ihre Rechnung ist am {D(a['on'])} bei uns eingegangen.",
                [Fact("invoice_received", {"date": iso(a["on"])})],
            )
        ]
    if kind == "text":
        return [(a["text"], [])]
    raise ValueError(kind)


def email(w: docs.Writer, e: dict[str, Any]) -> Doc:
    when: dt.datetime = e["at"]
    frm, to = (
        (w.debt, w.cred) if e.get("by", "debtor") == "debtor" else (w.cred, w.debt)
    )
    addr = {
        id(w.debt): e.get("debt_mail", "info@" + w.debt[0].split()[0].lower() + ".de"),
        id(w.cred): e.get(
            "cred_mail", "buchhaltung@" + w.cred[0].split()[0].lower() + ".de"
        ),
    }

    def person(p: list[str]) -> str:
        return p[3] if p is w.cred else p[1]

    doc = w.email(
        e["name"],
        when,
        f"{person(frm)} <{addr[id(frm)]}>",
        addr[id(to)],
        e.get("subject", "Re: Invoice" if w.en else "AW: Rechnung"),
        printed_by=person(to),
    )
    doc.p("Dear Sir or Madam," if w.en else "Sehr geehrte Damen und Herren,")
    first = True
    for kind, a in e["say"]:
        for text, facts in statement(w, kind, when.date(), a):
            kw: dict[str, Any] = {}
            if e.get("split") and first and facts:
                kw["break_at"] = len(text.split()) // 2
                first = False
            doc.p(text, *facts, **kw)
    if e.get("injection"):
        docs.injection(doc, w.en)
    doc.sig("Kind regards" if w.en else "Mit freundlichen Grüßen", person(frm))
    return doc


def build(spec: dict[str, Any]) -> Case:
    case = Case(
        spec["id"],
        spec["lang"],
        spec["style"],
        spec["blind"],
        creditor={"name": spec["cred"][0], "consumer": False},
        debtor={"name": spec["debt"][0], "consumer": spec.get("consumer", False)},
        valid_at=d(spec["valid_at"]),
    )
    w = docs.Writer(case, spec["style"], spec["cred"], spec["debt"], spec["lawyer"])
    w.lawyer_style = spec.get("lawyer_style", "kanzlei_zweispaltig")
    inv = spec["invoice"]
    for item in spec["order"]:
        kind, _, arg = item.partition(":")
        if kind == "contract":
            c = spec["contract"]
            doc = w.contract(
                c.get("name", "01_Vertrag.pdf"),
                d(c["date"]),
                c["kind"],
                term=c.get("term"),
                cal=c.get("cal") and d(c["cal"]),
                accept=c.get("accept", False),
                law=c.get("law", True),
                subject_matter=c["matter"],
                confirm=c.get("confirm", False),
            )
            if c.get("split"):
                _split_last_fact(doc)
        elif kind == "invoice":
            spec["principal"] = w.invoice(
                inv.get("name", "02_Rechnung.pdf"),
                d(inv["date"]),
                inv["number"],
                inv["items"],
                deadline=inv.get("deadline") and d(inv["deadline"]),
                notice=inv.get("notice"),
            )
        elif kind == "delivery":
            x = spec["delivery"]
            w.delivery_note(
                x["name"],
                d(x["date"]),
                x.get("number", "LS-4711"),
                x["goods"],
                invoice=x.get("invoice") and (inv["number"], d(x["invoice"])),
                scanned=x.get("scanned", True),
            )
        elif kind == "acceptance":
            x = spec["acceptance"]
            w.acceptance_record(x["name"], d(x["date"]), x["works"])
        elif kind == "reminder":
            x = spec["reminders"][int(arg or 0)]
            doc = w.reminder(
                x["name"],
                d(x["date"]),
                spec["principal"],
                inv["number"],
                deadline=x.get("deadline") and d(x["deadline"]),
                dispatch=x.get("dispatch", "post"),
                level=x.get("level", 1),
            )
            if x.get("injection"):
                docs.injection(doc, w.en)
        elif kind == "proof":
            x = spec["proofs"][int(arg or 0)]
            if x["kind"].startswith("tracking"):
                ev = [(T.fromisoformat(t), s) for t, s in x["events"]]
                w.tracking(
                    x["name"],
                    x["number"],
                    ev,
                    delivered=x["kind"] == "tracking_delivered",
                )
            else:
                w.postal_proof(x["name"], x["kind"], x["number"], d(x["date"]))
        elif kind == "email":
            email(w, spec["emails"][int(arg or 0)])
        elif kind == "lawyer":
            lw = dict(spec["lawyer_letter"])
            for k in ("instructed", "since", "deadline"):
                if k in lw:
                    lw[k] = d(lw[k])
            if spec.get("fee_net"):
                lw["fee"] = (
                    spec["fee_net"] if lw.get("input_vat") else spec["fee_gross"]
                )
            doc = letters.lawyer_letter(
                w,
                lw.get("name", "05_Anwaltsschreiben.pdf"),
                d(lw["date"]),
                lw,
                spec["principal"],
                inv["number"],
                d(inv["date"]),
            )
            if lw.get("injection"):
                docs.injection(doc, w.en)
        elif kind == "fee":
            x = spec["fee"]
            spec["fee_net"], spec["fee_gross"] = w.fee_note(
                x["name"], d(x["date"]), spec["principal"]
            )
        elif kind == "interest":
            x = spec["interest"]
            w.interest_calc(
                x["name"],
                spec["principal"],
                d(x["from"]),
                d(x["to"]),
                x.get("base", 3.62),
                x["points"],
            )
        elif kind == "bank":
            x = spec["bank"]
            w.bank_statement(
                x["name"],
                [(d(a), t, c, k) for a, t, c, k in x["rows"]],
                others=[(d(a), t, c) for a, t, c in x.get("others", [])],
            )
        elif kind == "agreement":
            x = spec["agreement"]
            doc = w.letter(
                x["name"],
                d(x["date"]),
                "Deferral agreement" if w.en else "Stundungsvereinbarung",
                to=[],
            )
            u = d(x["until"])
            doc.p(
                f"The parties agree that payment of invoice no. {inv['number']} is "
                f"deferred until {w.D(u)}."
                if w.en
                else f"Die Parteien vereinbaren, "
                f"dass die Forderung aus der Rechnung Nr. {inv['number']} bis zum "
                f"{w.D(u)} gestundet wird.",
                Fact("deferral_agreed", {"date": x["date"], "until": iso(u)}),
            )
            doc.sig(f"{w.cred[3]}            {w.debt[1]}")
        elif kind in ("newsletter", "other_matter", "goods_delivery_note"):
            x = spec["distractors"][kind]
            letters.distractor(w, kind, x["name"], d(x["date"]))
        else:
            raise ValueError(item)
    return case


def _split_last_fact(doc: Doc) -> None:
    """Run the longest fact-bearing paragraph of a document across a page break."""
    paras = [b for b in doc.blocks if b.kind == "para" and b.facts]
    longest = max(paras, key=lambda b: len(b.text))
    longest.break_at = len(longest.text.split()) // 2
