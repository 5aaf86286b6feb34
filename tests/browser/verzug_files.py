# ruff: noqa: E501
"""Two realistic German Verzugsschaden case files as generated PDFs, for the
end-to-end browser scenarios (tests/browser/test_verzug_e2e.py).

- ``CASE_LETTERS`` (house style: letters on letterhead): Müller Baustoffe GmbH
  ./. Schmidt Bau KG — invoice with the agreed terms, a Mahnung with a payment
  deadline sent by Einwurf-Einschreiben, the Deutsche Post Auslieferungsbeleg,
  the lawyer's Kostennote (the mandate date only in the fee note).
- ``CASE_EMAILS`` (house style: e-mail printouts): Nordlicht IT-Systemhaus
  GmbH ./. Brandt Logistik GmbH — invoice, the Mahnung as an e-mail, the
  debtor's reply admitting receipt, the lawyer's e-mail and Kostennote.

The fee notes follow the RVG table as in force since 01.06.2025 (Anlage 2 zu
§ 13 Abs. 1 RVG): up to 4.000 € one fee is 295,00 €, up to 6.000 € 414,00 €.
"""

from __future__ import annotations

from typing import Any

from tests.agents.letters import _pdf

# ---------------------------------------------------------------- case 1
MUELLER_HEAD = (
    "Müller Baustoffe GmbH · Industriestraße 12 · 04109 Leipzig\n"
    "Tel. 0341 123456 · buchhaltung@mueller-baustoffe.example · USt-IdNr. DE123456789"
)
SCHMIDT = "Schmidt Bau KG\nz. Hd. Herrn Thomas Schmidt\nHauptstraße 5\n10115 Berlin"
MUELLER = "Müller Baustoffe GmbH\nGeschäftsführung\nIndustriestraße 12\n04109 Leipzig"

# the passage the reviewer marks in scenario 1 (the rules provider reads no
# mandate date in a fee note)
MANDATE_PASSAGE = "Auftrag erteilt am 05.05.2026"


def mueller_invoice() -> bytes:
    return _pdf(
        [
            [
                (MUELLER_HEAD, 7.5),
                (SCHMIDT, 10),
                ("Leipzig, 02.03.2026", 10),
                ("Rechnung Nr. 2026-0311", 13),
                ("Rechnungsdatum: 02.03.2026\nKundennummer: 10-4711", 10),
                (
                    "Sehr geehrter Herr Schmidt,\n"
                    "gemäß unserem Kaufvertrag vom 16.02.2026 berechnen wir Ihnen die "
                    "Lieferung für das Bauvorhaben Am Mühlbach 7 wie folgt:",
                    10,
                ),
                (
                    "60 Paletten Porenbeton PP2-0,35        5.000,00 €\n"
                    "zzgl. 19 % USt.                               950,00 €\n"
                    "Rechnungsbetrag                             5.950,00 €",
                    10,
                ),
                (
                    "Der Rechnungsbetrag ist zahlbar bis zum 16.03.2026 ohne Abzug auf "
                    "unser Konto bei der Sparkasse Leipzig, IBAN DE12 8605 5592 1234 "
                    "5678 90.",
                    10,
                ),
                ("Mit freundlichen Grüßen\nMüller Baustoffe GmbH", 10),
            ]
        ]
    )


def mueller_reminder() -> bytes:
    return _pdf(
        [
            [
                (MUELLER_HEAD, 7.5),
                ("Einwurf-Einschreiben\n" + SCHMIDT, 10),
                ("Leipzig, 06.04.2026", 10),
                ("Mahnung", 13),
                ("Rechnung Nr. 2026-0311 vom 02.03.2026 über 5.950,00 €", 10),
                (
                    "Sehr geehrter Herr Schmidt,\n"
                    "unsere oben genannte Rechnung ist fällig; ein Zahlungseingang ist "
                    "bis heute nicht festzustellen.",
                    10,
                ),
                (
                    "Wir fordern Sie auf, den offenen Betrag von 5.950,00 € bis "
                    "spätestens 20.04.2026 auf unser Konto zu überweisen. Nach "
                    "fruchtlosem Fristablauf werden wir unsere Rechtsanwälte mit der "
                    "Durchsetzung der Forderung beauftragen.",
                    10,
                ),
                (
                    "Hauptforderung                               5.950,00 €\n"
                    "Mahnkosten                                         5,00 €\n"
                    "Pauschale nach § 288 Abs. 5 BGB                  40,00 €",
                    10,
                ),
                (
                    "Mit freundlichen Grüßen\nMüller Baustoffe GmbH\ni. A. Sabine Krüger",
                    10,
                ),
            ]
        ]
    )


def mueller_delivery_record() -> bytes:
    return _pdf(
        [
            [
                ("Deutsche Post AG · Auslieferungsbeleg", 13),
                (
                    "Sendungsnummer: RT 4455 6677 8DE\n"
                    "Produkt: Einschreiben Einwurf\n"
                    "Absender: Müller Baustoffe GmbH, 04109 Leipzig\n"
                    "Empfänger: Schmidt Bau KG, Hauptstraße 5, 10115 Berlin",
                    10,
                ),
                (
                    "Die Sendung wurde am 08.04.2026 in den Briefkasten des Empfängers "
                    "eingeworfen. Zusteller: Bezirk 10115-07, Unterschrift des "
                    "Zustellers liegt vor.",
                    10,
                ),
                (
                    "Dieser Beleg wurde maschinell erstellt und ist ohne Unterschrift gültig.",
                    8,
                ),
            ]
        ]
    )


def mueller_fee_note() -> bytes:
    return _pdf(
        [
            [
                ("Kanzlei Adler Rechtsanwälte · Ring 1 · 04109 Leipzig", 7.5),
                (MUELLER, 10),
                ("Leipzig, 20.05.2026", 10),
                ("Kostennote Nr. 2026-118", 13),
                (
                    "Müller Baustoffe GmbH ./. Schmidt Bau KG – außergerichtliche "
                    f"Vertretung; {MANDATE_PASSAGE}.\nGegenstandswert: 5.950,00 €",
                    10,
                ),
                (
                    "1,3 Geschäftsgebühr Nr. 2300 VV RVG                 538,20 €\n"
                    "Post- und Telekommunikationspauschale Nr. 7002 VV RVG  20,00 €\n"
                    "Zwischensumme netto                                  558,20 €\n"
                    "19 % Umsatzsteuer Nr. 7008 VV RVG                    106,06 €\n"
                    "Gesamtbetrag                                         664,26 €",
                    10,
                ),
                ("Mit freundlichen Grüßen\nDr. Eva Adler, Rechtsanwältin", 10),
            ]
        ]
    )


CASE_LETTERS: list[tuple[str, Any]] = [
    ("Rechnung_2026-0311.pdf", mueller_invoice),
    ("Mahnung_2026-04-06.pdf", mueller_reminder),
    ("Auslieferungsbeleg_RT445566778DE.pdf", mueller_delivery_record),
    ("Kostennote_2026-118.pdf", mueller_fee_note),
]

# ---------------------------------------------------------------- case 2
NORDLICHT_HEAD = (
    "NORDLICHT IT-Systemhaus GmbH | Am Sandtorkai 40 | 20457 Hamburg\n"
    "HRB 123456 Amtsgericht Hamburg | USt-IdNr. DE987654321"
)
BRANDT = "Brandt Logistik GmbH\nBuchhaltung\nÜberseetor 14\n28217 Bremen"

# the passage the reviewer marks in scenario 2: the reminder itself (an
# e-mail without a "Mahnung" heading is not read as a reminder)
REMINDER_PASSAGE = (
    "Wir mahnen hiermit die Zahlung an und fordern Sie auf, den Betrag bis zum "
    "28.04.2026 zu überweisen."
)


def nordlicht_invoice() -> bytes:
    return _pdf(
        [
            [
                (NORDLICHT_HEAD, 7.5),
                (BRANDT, 10),
                ("Hamburg, 09.03.2026", 10),
                ("RECHNUNG RE-2026-0118", 14),
                (
                    "Rechnungsdatum: 09.03.2026 | Kunden-Nr. K-2231 | "
                    "Ihre Bestellung vom 02.03.2026",
                    9,
                ),
                (
                    "Gemäß Kaufvertrag vom 02.03.2026 liefern wir Ihnen 6 Notebooks "
                    "ThinkBook 14 G6 inkl. Einrichtung für Ihre Disposition.",
                    10,
                ),
                (
                    "Pos. 1  6 x Notebook ThinkBook 14 G6 à 500,00 €     3.000,00 €\n"
                    "Umsatzsteuer 19 %                                      570,00 €\n"
                    "Rechnungsbetrag                                      3.570,00 €",
                    10,
                ),
                (
                    "Zahlbar bis zum 23.03.2026 ohne Abzug. Bankverbindung: Hamburger "
                    "Sparkasse, IBAN DE44 2005 0550 1234 5678 00.",
                    10,
                ),
            ]
        ]
    )


def nordlicht_reminder_email() -> bytes:
    return _pdf(
        [
            [
                ("Ausdruck aus Outlook – Posteingang Forderungsmanagement", 7.5),
                (
                    "Von: Forderungsmanagement <forderungen@nordlicht-it.example>\n"
                    "An: buchhaltung@brandt-logistik.example\n"
                    "Gesendet: Dienstag, 14.04.2026 09:12\n"
                    "Betreff: Offene Rechnung RE-2026-0118 vom 09.03.2026",
                    9,
                ),
                (
                    "Sehr geehrte Damen und Herren,\n"
                    "unsere Rechnung RE-2026-0118 vom 09.03.2026 über 3.570,00 € ist "
                    "seit dem 23.03.2026 offen. " + REMINDER_PASSAGE,
                    10,
                ),
                (
                    "Mit freundlichen Grüßen\nJana Petersen\nForderungsmanagement\n"
                    "NORDLICHT IT-Systemhaus GmbH",
                    10,
                ),
            ]
        ]
    )


def brandt_reply_email() -> bytes:
    return _pdf(
        [
            [
                ("Ausdruck aus Outlook – Posteingang Forderungsmanagement", 7.5),
                (
                    "Von: Buchhaltung Brandt Logistik <buchhaltung@brandt-logistik.example>\n"
                    "An: forderungen@nordlicht-it.example\n"
                    "Gesendet: Montag, 20.04.2026 16:47\n"
                    "Betreff: AW: Offene Rechnung RE-2026-0118 vom 09.03.2026",
                    9,
                ),
                (
                    "Sehr geehrte Frau Petersen,\n"
                    "Ihre Mahnung vom 14.04.2026 ist am 14.04.2026 bei uns eingegangen.",
                    10,
                ),
                (
                    "Wegen eines Liquiditätsengpasses können wir die Rechnung derzeit "
                    "leider nicht bezahlen.",
                    10,
                ),
                ("Mit freundlichen Grüßen\nKarsten Brandt\nGeschäftsführer", 10),
            ]
        ]
    )


def nordlicht_lawyer_email() -> bytes:
    return _pdf(
        [
            [
                ("Ausdruck aus Outlook – Posteingang Forderungsmanagement", 7.5),
                (
                    "Von: RAin Dr. Eva Adler <adler@kanzlei-adler.example>\n"
                    "An: buchhaltung@brandt-logistik.example\n"
                    "Gesendet: Mittwoch, 13.05.2026 11:05\n"
                    "Betreff: Nordlicht IT-Systemhaus GmbH ./. Brandt Logistik GmbH",
                    9,
                ),
                (
                    "Sehr geehrter Herr Brandt,\n"
                    "wir zeigen an, dass wir die NORDLICHT IT-Systemhaus GmbH vertreten. "
                    "Unsere Mandantin hat uns am 11.05.2026 mit der Durchsetzung ihrer "
                    "Forderung aus der Rechnung RE-2026-0118 beauftragt.",
                    10,
                ),
                (
                    "Wir fordern Sie auf, die Hauptforderung nebst Zinsen und unseren "
                    "Kosten bis zum 27.05.2026 zu zahlen.",
                    10,
                ),
                ("Mit freundlichen Grüßen\nDr. Eva Adler\nRechtsanwältin", 10),
            ]
        ]
    )


def nordlicht_fee_note() -> bytes:
    return _pdf(
        [
            [
                ("Kanzlei Adler Rechtsanwälte · Ring 1 · 04109 Leipzig", 7.5),
                (
                    "NORDLICHT IT-Systemhaus GmbH\nAm Sandtorkai 40\n20457 Hamburg",
                    10,
                ),
                ("Leipzig, 29.05.2026", 10),
                ("Kostennote Nr. 2026-131", 13),
                (
                    "Nordlicht IT-Systemhaus GmbH ./. Brandt Logistik GmbH – "
                    "außergerichtliche Vertretung\nGegenstandswert: 3.570,00 €",
                    10,
                ),
                (
                    "1,3 Geschäftsgebühr Nr. 2300 VV RVG                 383,50 €\n"
                    "Post- und Telekommunikationspauschale Nr. 7002 VV RVG  20,00 €\n"
                    "Zwischensumme netto                                  403,50 €\n"
                    "19 % Umsatzsteuer Nr. 7008 VV RVG                     76,67 €\n"
                    "Gesamtbetrag                                         480,17 €",
                    10,
                ),
                ("Mit freundlichen Grüßen\nDr. Eva Adler, Rechtsanwältin", 10),
            ]
        ]
    )


CASE_EMAILS: list[tuple[str, Any]] = [
    ("RE-2026-0118.pdf", nordlicht_invoice),
    ("Mail_2026-04-14_Offene_Rechnung.pdf", nordlicht_reminder_email),
    ("Mail_2026-04-20_AW_Brandt.pdf", brandt_reply_email),
    ("Mail_2026-05-13_Kanzlei_Adler.pdf", nordlicht_lawyer_email),
    ("Kostennote_2026-131.pdf", nordlicht_fee_note),
]
