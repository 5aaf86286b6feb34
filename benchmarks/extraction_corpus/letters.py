# ruff: noqa: E501  (document prose: each sentence stays one greppable string)
"""Letters of the creditor's lawyer and the distractor documents of a case file."""

from __future__ import annotations

import datetime as dt

from .documents import Writer
from .model import Bad, Doc, Fact, amt, de_date, iso

L, R = "l", "r"


def lawyer_letter(
    w: Writer,
    name: str,
    date: dt.date,
    lw: dict,
    principal: int,
    number: str,
    inv_date: dt.date,
) -> Doc:
    """A demand letter of the creditor's lawyer: instruction, principal, items."""
    en, D, M = w.en, w.D, w.M
    doc = w.letter(
        name,
        date,
        "Outstanding invoice " + number
        if en
        else f"Forderung {w.cred[0]} ./. {w.debt[0]}",
        sender=w.lawyer,
        style=w.lawyer_style,
        ref=lw.get("ref", "112/24"),
        initials=lw.get("initials", "Dr. S./mk"),
    )
    split = lw.get("split")

    def p(text: str, *facts: Fact, key: str = "", **kw) -> None:
        if split == key and key:
            kw["break_at"] = len(text.split()) // 2
        doc.p(text, *facts, **kw)

    p("Dear Sirs," if en else "Sehr geehrte Damen und Herren,")
    ins = lw["instructed"]
    p(
        f"We act for {w.cred[0]}, who instructed us on {D(ins)} to recover the sum you "
        "owe under the contract between you, and we are authorised to receive payment on "
        "our client's behalf."
        if en
        else f"wir zeigen an, dass uns die {w.cred[0]} mit der Wahrnehmung ihrer rechtlichen "
        f"Interessen beauftragt hat; die Beauftragung erfolgte am {D(ins)}, eine auf uns "
        "lautende Vollmacht ist beigefügt.",
        Fact("lawyer_instructed", {"date": iso(ins)}),
        key="instructed",
    )
    for _ in range(lw.get("filler", 1)):
        p(
            "Our client has fully performed its obligations under the contract, and no "
            "objections were raised by you at the time the services were rendered or the "
            "goods delivered."
            if en
            else "Unsere Mandantin hat ihre vertraglichen Leistungen vollständig erbracht; "
            "Einwendungen haben Sie weder bei der Leistung noch danach erhoben."
        )
    p(
        f"By invoice no. {number} of {D(inv_date)} our client charged you for its services; "
        f"the principal amount outstanding is {M(principal)}."
        if en
        else f"Mit Rechnung Nr. {number} vom {D(inv_date)} hat unsere Mandantin ihre Leistungen "
        f"abgerechnet; die Hauptforderung beläuft sich auf {M(principal)}.",
        Fact("claim_amount", amt(principal)),
        key="principal",
    )
    if "points" in lw:
        pts, since = lw["points"], lw["since"]
        word = {5: "fünf", 9: "neun"}[pts]
        p(
            f"Interest accrues on the principal from {D(since)} at {pts} percentage points "
            "above the base rate."
            if en
            else f"Die Hauptforderung ist ab dem {D(since)} mit {word} Prozentpunkten über dem "
            "Basiszinssatz zu verzinsen.",
            Fact("interest_rate_claimed", {"points_over_base": pts}),
        )
    for text, cents in lw.get("items", []):
        p(
            f"In addition, you owe the {text} of {M(cents)}."
            if en
            else f"Ferner schulden Sie die {text} in Höhe von {M(cents)}.",
            Fact("damage_item", {"amount": amt(cents), "text": text}),
        )
    if "fee" in lw:
        text = "pre-trial legal fees" if en else "vorgerichtlichen Rechtsanwaltskosten"
        p(
            f"The {text} amount to {M(lw['fee'])} as per the enclosed fee note."
            if en
            else f"Die {text} betragen ausweislich der beigefügten Kostennote {M(lw['fee'])}.",
            Fact("damage_item", {"amount": amt(lw["fee"]), "text": text}),
            key="fee",
        )
    if "input_vat" in lw:
        if lw["input_vat"]:
            s = (
                "Our client is entitled to deduct input VAT, so VAT on our fees is not "
                "claimed."
                if en
                else "Unsere Mandantin ist zum Vorsteuerabzug "
                "berechtigt, weshalb die Umsatzsteuer auf unsere Gebühren nicht "
                "geltend gemacht wird."
            )
        else:
            s = (
                "Our client is not entitled to deduct input VAT."
                if en
                else "Unsere Mandantin ist nicht zum Vorsteuerabzug berechtigt."
            )
        p(s, Fact("creditor_input_vat", lw["input_vat"]))
    if lw.get("unquantified"):
        s = (
            "Our client reserves the right to claim further losses, in particular the "
            "cost of its overdraft facility, which cannot yet be quantified."
            if en
            else "Die Geltendmachung weiterer Verzugsschäden, insbesondere eines "
            "Zinsschadens aus dem Kontokorrentkredit unserer Mandantin, bleibt "
            "vorbehalten; dieser lässt sich derzeit noch nicht beziffern."
        )
        p(s, Fact("damage_unquantified", {"text": s}), key="unquantified")
    if lw.get("special"):
        s = (
            "No reminder was required, because you evaded any reminder by moving "
            "without leaving a forwarding address."
            if en
            else "Einer Mahnung bedurfte es nicht, weil Sie sich ihr durch einen Umzug ohne "
            "Angabe Ihrer neuen Anschrift bewusst entzogen haben."
        )
        p(s, Fact("special_reasons", {"text": s}))
    if "other" in lw:
        who, cents = lw["other"]
        s = (
            f"For the avoidance of doubt, the sum of {M(cents)} owed to our client by "
            f"{who} is a separate matter and not the subject of this letter."
            if en
            else f"Lediglich zur Klarstellung: Die Forderung unserer Mandantin gegen die "
            f"{who} über {M(cents)} ist nicht Gegenstand dieses Schreibens."
        )
        doc.p(s, bad=[Bad("distractor", s)])
    dl = lw["deadline"]
    s = (
        f"We require payment of the total sum by {D(dl)} at the latest."
        if en
        else f"Wir fordern Sie auf, den Gesamtbetrag bis spätestens {de_date(dl)} auf unser "
        "Kanzleikonto zu zahlen."
    )
    p(s, Fact("reminder_sent", {"date": iso(date), "deadline": iso(dl)}))
    w.case.traps.append(
        {
            "file": name,
            "quote": s,
            "wrong_keys": ["calendar_payment_date", "invoice_payment_deadline"],
        }
    )
    doc.sig("Yours faithfully," if en else "Mit freundlichen Grüßen", w.lawyer[-1])
    return doc


def distractor(w: Writer, kind: str, name: str, when: dt.date) -> Doc:
    en, D, M = w.en, w.D, w.M
    if kind == "newsletter":
        doc = w.letter(name, when, "Newsletter", to=[])
        doc.p(
            "Our new payment terms: from next quarter, customers paying within 7 days "
            "receive a 2 % discount."
            if en
            else "Unsere neuen Zahlungsbedingungen: Ab dem nächsten Quartal gewähren wir "
            "bei Zahlung innerhalb von 7 Tagen 2 % Skonto."
        )
        doc.p(
            f"Spring offer: all service contracts signed by {D(when)} are invoiced at "
            f"last year's rates, and the first {M(50000)} of materials are free."
            if en
            else f"Frühjahrsaktion: Alle bis zum {D(when)} unterzeichneten Verträge "
            f"rechnen wir zu den Vorjahrespreisen ab; Material bis {M(50000)} ist "
            "gratis."
        )
        doc.whole_file_bad = "newsletter"
    elif kind == "other_matter":
        other = [
            "Lindner Haustechnik KG",
            "Herrn Paul Lindner",
            "Gartenweg 3",
            "04109 Leipzig",
        ]
        doc = w.letter(
            name,
            when,
            "Payment reminder – 2024-090" if en else "Zahlungserinnerung – 2024-090",
            to=other,
        )
        doc.p(
            f"Our invoice no. 2024-090 for {M(348000)} remains unpaid; please pay it by"
            f" {D(when)}."
            if en
            else f"Unsere Rechnung Nr. 2024-090 über {M(348000)} "
            f"ist noch offen; bitte zahlen Sie bis zum {de_date(when)}."
        )
        doc.p(
            "We received your order of spare parts and thank you for it."
            if en
            else "Für Ihre Bestellung von Ersatzteilen danken wir Ihnen."
        )
        doc.whole_file_bad = "other_matter"
    else:
        doc = w.case.add(
            Doc(
                name,
                "formular",
                sender=["Spedition Koch"],
                title="Delivery note" if en else "Lieferschein",
            )
        )
        doc.p(
            f"{'Delivery note no.' if en else 'Lieferschein Nr.'} LS-88120 – "
            f"{w.debt[0]}, {w.debt[2]}, {w.debt[3]}"
        )
        doc.table(
            [(70, 110, L), (115, 440, L), (445, 530, R)],
            [
                ["Pos.", "Article" if en else "Artikel", "Qty" if en else "Menge"],
                [
                    "1",
                    "Sample case, catalogue 2024"
                    if en
                    else "Musterkoffer, Katalog 2024",
                    "1",
                ],
            ],
        )
        doc.p(
            f"Delivered on {D(when)} and signed for by the recipient."
            if en
            else f"Zugestellt am {D(when)}, Empfang quittiert."
        )
        doc.whole_file_bad = "goods_delivery_note"
    return doc
