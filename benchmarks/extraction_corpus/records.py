"""Delivery notes, acceptance records, postal proofs, fee notes, interest
calculations and bank statements: the record-like documents of a case file.

A mixin of documents.Writer (uses its case, parties, formats and styles).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from .model import Bad, Case, Doc, Fact, amt, iso

L, R = "l", "r"


class Records:
    if TYPE_CHECKING:  # provided by documents.Writer
        case: Case
        style: str
        cred: list[str]
        debt: list[str]
        lawyer: list[str]
        lawyer_style: str

        @property
        def en(self) -> bool: ...
        def D(self, x: dt.date) -> str: ...
        def M(self, cents: int) -> str: ...
        def letter(
            self,
            name: str,
            date: dt.date,
            subject: str,
            *,
            sender=None,
            to=None,
            style=None,
            vermerk="",
            ref="",
            initials="",
        ) -> Doc: ...

    # --- delivery, acceptance --------------------------------------------------
    def delivery_note(
        self,
        name: str,
        date: dt.date,
        number: str,
        goods: str,
        *,
        invoice=None,
        scanned=True,
    ) -> Doc:
        doc = self.case.add(
            Doc(
                name,
                "formular",
                sender=self.cred,
                scanned=scanned,
                title="Delivery note" if self.en else "Lieferschein",
            )
        )
        doc.p(
            f"{'Delivery note no.' if self.en else 'Lieferschein Nr.'} {number} – "
            f"{self.cred[0]} – {self.debt[0]}, {self.debt[2]}, {self.debt[3]}"
        )
        doc.table(
            [(70, 110, L), (115, 440, L), (445, 530, R)],
            [
                [
                    "Pos.",
                    "Artikel" if not self.en else "Article",
                    "Qty" if self.en else "Menge",
                ],
                ["1", goods, "1"],
            ],
        )
        s = (
            f"Goods received complete and undamaged on {self.D(date)}."
            if self.en
            else f"Ware vollständig und unbeschädigt erhalten am {self.D(date)}."
        )
        doc.p(s, Fact("performance_delivered", {"date": iso(date)}))
        if invoice:
            no, when = invoice
            s = (
                f"Invoice no. {no} handed over and received on {self.D(when)}."
                if self.en
                else f"Rechnung Nr. {no} übergeben und erhalten am {self.D(when)}."
            )
            doc.p(s, Fact("invoice_received", {"date": iso(when)}))
        doc.sig(
            "Signature of recipient:" if self.en else "Unterschrift Empfänger:",
            self.debt[1],
        )
        return doc

    def acceptance_record(self, name: str, date: dt.date, works: str) -> Doc:
        doc = self.case.add(
            Doc(
                name,
                "formular",
                sender=self.cred,
                scanned=True,
                title="Acceptance record" if self.en else "Abnahmeprotokoll",
            )
        )
        doc.p(f"{'Project' if self.en else 'Bauvorhaben'}: {works}")
        s = (
            f"The Customer hereby declares acceptance of the works on {self.D(date)}."
            if self.en
            else f"Der Auftraggeber erklärt hiermit am {self.D(date)} die "
            "Abnahme der Leistungen."
        )
        doc.p(s, Fact("acceptance_declared", {"date": iso(date)}))
        doc.sig(f"{self.debt[1]}            {self.cred[3]}")
        return doc

    def tracking(self, name: str, number: str, events, *, delivered: bool) -> Doc:
        doc = self.case.add(
            Doc(
                name,
                "formular",
                scanned=True,
                sender=["PostLogistik"],
                title="Shipment tracking" if self.en else "Sendungsverfolgung",
            )
        )
        doc.p(f"{'Item number' if self.en else 'Sendungsnummer'}: {number}")
        rows = [["Date" if self.en else "Datum", "Status"]]
        rows += [[self.D(w.date()) + f" {w:%H:%M}", t] for w, t in events]
        last = len(rows) - 1
        if delivered:
            when = events[-1][0].date()
            f = [
                Fact(
                    "reminder_delivered",
                    {"date": iso(when), "proof": "sendungsverfolgung_zugestellt"},
                ),
                Fact("delivery_evidence", {"kind": "sendungsverfolgung_zugestellt"}),
            ]
        else:
            f = [
                Fact(
                    "delivery_evidence", {"kind": "sendungsverfolgung_ohne_zustellung"}
                )
            ]
        doc.table([(70, 180, L), (185, 530, L)], rows, row_facts={last: f})
        return doc

    def postal_proof(self, name: str, kind: str, number: str, when: dt.date) -> Doc:
        titles = {
            "auslieferungsbeleg": ("Auslieferungsbeleg", "Proof of delivery"),
            "rueckschein": ("Rückschein", "Return receipt"),
            "einlieferungsbeleg": ("Einlieferungsbeleg", "Certificate of posting"),
        }
        doc = self.case.add(
            Doc(
                name,
                "formular",
                scanned=True,
                sender=["PostLogistik"],
                title=titles[kind][self.en],
            )
        )
        doc.p(f"Einschreiben {number}")
        if kind == "auslieferungsbeleg":
            s = (
                f"The item was placed in the recipient's letterbox on {self.D(when)}."
                if self.en
                else f"Die Sendung wurde am {self.D(when)} in den "
                "Hausbriefkasten des Empfängers eingelegt."
            )
        elif kind == "rueckschein":
            s = (
                f"Item received on {self.D(when)}."
                if self.en
                else f"Sendung erhalten am {self.D(when)}."
            )
        else:
            s = (
                f"Item posted on {self.D(when)}."
                if self.en
                else f"Die Sendung wurde am {self.D(when)} eingeliefert."
            )
        facts = [Fact("delivery_evidence", {"kind": kind})]
        if kind != "einlieferungsbeleg":
            facts.append(Fact("reminder_delivered", {"date": iso(when), "proof": kind}))
        doc.p(s, *facts)
        if kind == "rueckschein":
            doc.sig(
                "Unterschrift des Empfängers:"
                if not self.en
                else "Recipient's signature:",
                self.debt[1],
            )
        return doc

    # --- lawyer ----------------------------------------------------------------
    def fee_note(
        self, name: str, date: dt.date, value: int, *, rate_tenths=13, input_vat=None
    ) -> tuple[int, int]:
        base = rvg_fee(value)
        fee = base * rate_tenths // 10
        pausch = min(2000, fee * 20 // 100)
        net = fee + pausch
        vat = round(net * 0.19)
        doc = self.letter(
            name,
            date,
            "Fee note" if self.en else "Kostennote",
            sender=self.lawyer,
            style=self.lawyer_style,
            to=[self.cred[0], self.cred[3], self.cred[1], self.cred[2]],
        )
        r = f"{rate_tenths // 10},{rate_tenths % 10}"
        if self.en:
            r = r.replace(",", ".")
            rows = [
                ["No. VV RVG", "Item", "Amount"],
                ["", f"Value in dispute: {self.M(value)}", ""],
                [
                    "2300",
                    f"{r} business fee (Geschäftsgebühr) on {self.M(value)}",
                    self.M(fee),
                ],
                ["7002", "Flat rate for postage and telecoms", self.M(pausch)],
                ["", "Net total", self.M(net)],
                ["7008", "VAT 19 %", self.M(vat)],
                ["", "Total", self.M(net + vat)],
            ]
        else:
            rows = [
                ["Nr. VV RVG", "Gebührentatbestand", "Betrag"],
                ["", f"Gegenstandswert: {self.M(value)}", ""],
                ["2300", f"{r} Geschäftsgebühr aus {self.M(value)}", self.M(fee)],
                ["7002", "Pauschale für Post und Telekommunikation", self.M(pausch)],
                ["", "Zwischensumme netto", self.M(net)],
                ["7008", "19 % Umsatzsteuer", self.M(vat)],
                ["", "Gesamtbetrag", self.M(net + vat)],
            ]
        doc.p(
            "We invoice our fees as follows:"
            if self.en
            else "Für unsere Tätigkeit berechnen wir:"
        )
        doc.table(
            [(70, 140, L), (145, 440, L), (445, 530, R)],
            rows,
            row_facts={
                2: [
                    Fact(
                        "fee_note_item",
                        {"kind": "geschaeftsgebuehr", "net": amt(fee), "vv_no": "2300"},
                    )
                ],
                3: [
                    Fact(
                        "fee_note_item",
                        {
                            "kind": "auslagenpauschale",
                            "net": amt(pausch),
                            "vv_no": "7002",
                        },
                    )
                ],
                5: [
                    Fact(
                        "fee_note_item",
                        {"kind": "umsatzsteuer", "net": amt(vat), "vv_no": "7008"},
                    )
                ],
            },
            row_bad={
                1: [Bad("distractor", None, ["damage_item", "fee_note_item"])],
                2: [
                    Bad(
                        "distractor",
                        self.M(value),
                        ["damage_item", "fee_note_item"],
                        value,
                    )
                ],
            },
        )
        return net, net + vat

    def interest_calc(
        self,
        name: str,
        principal: int,
        start: dt.date,
        end: dt.date,
        base_rate: float,
        points: int,
    ) -> Doc:
        doc = self.case.add(
            Doc(
                name,
                self.lawyer_style,
                sender=self.lawyer,
                subject="Interest calculation" if self.en else "Zinsberechnung",
            )
        )
        s = (
            f"Interest is claimed at {points} percentage points above the base rate "
            "(section 288(2) BGB)."
            if self.en
            else f"Zinssatz: {points} Prozentpunkte über dem jeweiligen Basiszinssatz "
            "(§ 288 Abs. 2 BGB)."
        )
        doc.p(s, Fact("interest_rate_claimed", {"points_over_base": points}))
        days = (end - start).days + 1
        rate = base_rate + points
        interest = round(principal * rate / 100 * days / 365)
        pct = f"{rate:.2f} %" if self.en else f"{rate:.2f} %".replace(".", ",")
        doc.table(
            [(70, 250, L), (255, 300, R), (305, 400, R), (405, 530, R)],
            [
                [
                    "Period" if self.en else "Zeitraum",
                    "Tage" if not self.en else "Days",
                    "Rate" if self.en else "Zinssatz",
                    "Interest" if self.en else "Zinsen",
                ],
                [f"{self.D(start)} – {self.D(end)}", str(days), pct, self.M(interest)],
            ],
        )
        return doc

    def bank_statement(self, name: str, rows_in, *, others=()) -> Doc:
        """rows_in: (date, text, cents, fact-kind 'paid'|'returned')."""
        doc = self.case.add(
            Doc(
                name,
                self.style,
                sender=["Stadtsparkasse", "Kontoauszug", "", ""],
                subject="Account statement" if self.en else "Kontoauszug Nr. 7/2024",
            )
        )
        rows = [
            [
                "Date" if self.en else "Buchungstag",
                "Text" if self.en else "Buchungstext",
                "Amount" if self.en else "Betrag",
            ]
        ]
        rf: dict[int, list[Fact]] = {}
        rb: dict[int, list[Bad]] = {}
        merged = sorted(
            [(w, t, c, k, True) for w, t, c, k in rows_in]
            + [(w, t, c, "x", False) for w, t, c in others]
        )
        for w, t, c, k, ours in merged:
            sign = "-" if c < 0 else "+"
            rows.append([self.D(w), t, sign + self.M(abs(c))])
            i = len(rows) - 1
            if not ours:
                rb[i] = [
                    Bad("other_matter", None, ["payment_received", "claim_amount"])
                ]
            elif k == "paid":
                rf[i] = [Fact("payment_received", {"date": iso(w), "amount": amt(c)})]
            else:
                rf[i] = [Fact("payment_attempt_failed", {"date": iso(w), "reason": t})]
        doc.table([(70, 150, L), (155, 430, L), (435, 530, R)], rows, rf, rb)
        return doc


RVG_2021 = [
    (500, 4900),
    (1000, 8800),
    (1500, 12700),
    (2000, 16600),
    (3000, 22200),
    (4000, 27800),
    (5000, 33400),
    (6000, 39000),
    (7000, 44600),
    (8000, 50200),
    (9000, 55800),
    (10000, 61400),
    (13000, 66600),
    (16000, 71800),
    (19000, 77000),
    (22000, 82200),
    (25000, 87400),
    (30000, 95500),
    (35000, 103600),
    (40000, 111700),
    (45000, 119800),
    (50000, 127900),
]


def rvg_fee(value_cents: int) -> int:
    """Full fee (1,0) of § 13 RVG, table as in force 2021 to 31 May 2025."""
    for limit, fee in RVG_2021:
        if value_cents <= limit * 100:
            return fee
    raise ValueError("value beyond the table of this corpus")
