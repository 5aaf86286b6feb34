"""The correspondence of the demo case "Müller Metallbau ./. Schmidt Bau".

The story: Müller Metallbau GmbH (Chemnitz) builds and installs a steel
staircase for Schmidt Bau KG (Leipzig) under a Werkvertrag of 07.04.2026. The
work is accepted on 24.04.2026 and invoiced on 28.04.2026, payable by
12.05.2026. Nothing is paid. A Mahnung of 20.05.2026 goes out by
Einwurf-Einschreiben (the post office receipt is a scan) and is delivered on
22.05.2026. On 27.05.2026 Schmidt Bau refuses to pay, firmly and finally.
Müller Metallbau instructs a lawyer, whose fee note of 10.06.2026 is a damage
item. Three documents in the file have nothing to do with the claim.

Every name, address, register number and IBAN here is invented."""

from __future__ import annotations

from demo.case.layout import LEFT, Firm, Letter, scanned

CREDITOR = Firm(
    name="Müller Metallbau GmbH",
    street="Gewerbepark Nord 14",
    city="09116 Chemnitz",
    tagline="Stahl- und Metallbau · Treppen · Geländer · Stahlkonstruktionen",
    phone="Tel. 0371 556640",
    email="info@mueller-metallbau.example",
    web="www.mueller-metallbau.example",
    register="Amtsgericht Chemnitz HRB 28471",
    management="Geschäftsführer: Jens Müller",
    vat_id="USt-IdNr. DE 287 114 652",
    bank="Sparkasse Chemnitz · IBAN DE41 8705 0000 3710 0482 15 · BIC CHEKDE81XXX",
    colour=(0.12, 0.28, 0.48),
)
DEBTOR = Firm(
    name="Schmidt Bau KG",
    street="Am Hafen 7",
    city="04179 Leipzig",
    tagline="Hoch- und Tiefbau · Schlüsselfertiges Bauen",
    phone="Tel. 0341 4927810",
    email="kontakt@schmidt-bau-leipzig.example",
    register="Amtsgericht Leipzig HRA 19342",
    management="Persönlich haftender Gesellschafter: Thomas Schmidt",
    vat_id="USt-IdNr. DE 141 903 377",
    bank="Sparkasse Leipzig · IBAN DE27 8605 5592 1100 7733 40",
    colour=(0.55, 0.18, 0.12),
)
LAW_FIRM = Firm(
    name="Kanzlei Demo",
    street="Brückenstraße 17",
    city="09111 Chemnitz",
    tagline="Rechtsanwälte · Bau- und Architektenrecht · Forderungsmanagement",
    phone="Tel. 0371 3344550",
    email="sekretariat@kanzlei-demo.example",
    register="Partnerschaftsregister AG Chemnitz PR 412",
    management="Rechtsanwältin Dr. Lena Berger",
    vat_id="USt-IdNr. DE 301 558 249",
    bank="Deutsche Bank Chemnitz · IBAN DE62 8707 0000 0455 1200 00",
    colour=(0.2, 0.2, 0.22),
)
SUPPLIER = Firm(
    name="Stahlhandel Vogtland GmbH",
    street="Elsterstraße 40",
    city="08523 Plauen",
    tagline="Träger · Bleche · Rohre · Anarbeitung",
    phone="Tel. 03741 22870",
    email="verkauf@stahlhandel-vogtland.example",
    register="Amtsgericht Chemnitz HRB 30177",
    management="Geschäftsführerin: Anja Kern",
    bank="Volksbank Vogtland · IBAN DE70 8709 5824 0004 4120 11",
    colour=(0.15, 0.4, 0.25),
)
ASSOCIATION = Firm(
    name="Fachverband Metall Sachsen e. V.",
    street="Schweriner Straße 2",
    city="01067 Dresden",
    tagline="Newsletter für Mitgliedsbetriebe",
    email="newsletter@metall-sachsen.example",
    register="Vereinsregister AG Dresden VR 3318",
    bank="Ostsächsische Sparkasse · IBAN DE05 8505 0300 3120 0600 77",
    colour=(0.35, 0.2, 0.45),
)

DEBTOR_ADDRESS = (
    "Schmidt Bau KG",
    "z. Hd. Herrn Thomas Schmidt",
    "Am Hafen 7",
    "04179 Leipzig",
)
CREDITOR_ADDRESS = (
    "Müller Metallbau GmbH",
    "Frau Katrin Richter – Buchhaltung",
    "Gewerbepark Nord 14",
    "09116 Chemnitz",
)
PROJECT = "Bauvorhaben Wohnanlage Lindenauer Hafen, Haus B"


def werkvertrag() -> bytes:
    """Two pages; the payment clause runs across the page break. No page
    numbers: the ingestion joins a sentence across a page break only when no
    footer line stands between its halves."""
    doc = Letter(
        firm=None,
        title="Werkvertrag Stahltreppe Haus B",
        author="Schmidt Bau KG",
        number_pages=False,
    )
    doc.vspace(30)
    doc.text_at(297.5, doc.y, "Werkvertrag", size=20, style="bold", align="centre")
    doc.vspace(22)
    doc.text_at(297.5, doc.y, "über Stahlbauarbeiten (Treppe und Geländer)", size=11,
                align="centre")  # fmt: skip
    doc.vspace(40)
    doc.lines(["zwischen"])
    doc.lines(
        [
            "Schmidt Bau KG, Am Hafen 7, 04179 Leipzig,",
            "vertreten durch den persönlich haftenden Gesellschafter Thomas Schmidt",
            "– nachfolgend „Auftraggeber“ –",
        ]
    )
    doc.lines(["und"])
    doc.lines(
        [
            "Müller Metallbau GmbH, Gewerbepark Nord 14, 09116 Chemnitz,",
            "vertreten durch den Geschäftsführer Jens Müller",
            "– nachfolgend „Auftragnehmer“ –",
        ]
    )
    doc.vspace(8)
    doc.heading("§ 1 Vertragsgegenstand", size=10.5)
    doc.paragraph(
        "Der Auftragnehmer übernimmt für das "
        f"{PROJECT}, Lindenauer Hafenstraße 12, 04179 Leipzig, die Fertigung, "
        "Lieferung und Montage einer feuerverzinkten Stahlwangentreppe mit 16 "
        "Steigungen vom Erdgeschoss in das 1. Obergeschoss sowie eines "
        "Treppengeländers mit Handlauf aus Edelstahl (Länge 9,40 m) nach den "
        "Werkplänen des Architekturbüros Lange vom 19.03.2026, Index B."
    )
    doc.heading("§ 2 Ausführungsfrist", size=10.5)
    doc.paragraph(
        "Die Montage erfolgt in der 17. Kalenderwoche 2026. Der Auftraggeber "
        "stellt die Baustelle frei zugänglich und mit Baustrom zur Verfügung. "
        "Verzögerungen, die der Auftraggeber zu vertreten hat, verlängern die "
        "Ausführungsfrist entsprechend."
    )
    doc.heading("§ 3 Vergütung", size=10.5)
    doc.paragraph(
        "Die Parteien vereinbaren einen Pauschalfestpreis von 18.450,00 € netto "
        "zuzüglich der gesetzlichen Umsatzsteuer. Mit der Pauschale sind "
        "sämtliche Leistungen nach § 1 einschließlich Transport, Kran- und "
        "Hebezeug sowie Verzinkung abgegolten."
    )
    doc.heading("§ 4 Abnahme", size=10.5)
    doc.paragraph(
        "Nach Fertigstellung wird die Leistung gemeinsam förmlich abgenommen; "
        "über die Abnahme wird ein Protokoll gefertigt, das beide Parteien "
        "unterzeichnen."
    )
    doc.heading("§ 5 Zahlung", size=10.5)
    doc.paragraph(
        "Die Vergütung ist zahlbar innerhalb von 14 Tagen nach Abnahme und "
        "Zugang einer prüffähigen Schlussrechnung auf das in der Rechnung "
        "genannte Konto des Auftragnehmers. Skonto wird nicht gewährt.",
        break_after_lines=1,
    )
    doc.heading("§ 6 Mängelansprüche", size=10.5)
    doc.paragraph(
        "Die Rechte des Auftraggebers bei Mängeln richten sich nach den "
        "§§ 633 ff. BGB. Die Verjährungsfrist beträgt fünf Jahre ab Abnahme "
        "(§ 634a Abs. 1 Nr. 2 BGB). Mängel sind schriftlich und unter "
        "Beschreibung des Mangels anzuzeigen."
    )
    doc.heading("§ 7 Schlussbestimmungen", size=10.5)
    doc.paragraph(
        "Änderungen und Ergänzungen dieses Vertrages bedürfen der Textform. "
        "Sollte eine Bestimmung unwirksam sein, bleibt der Vertrag im Übrigen "
        "wirksam. Gerichtsstand ist Chemnitz, soweit die Parteien Kaufleute sind."
    )
    doc.vspace(26)
    top = doc.y
    doc.text_at(LEFT, top, "Leipzig, 07.04.2026", size=10)
    doc.text_at(330, top, "Chemnitz, 07.04.2026", size=10)
    doc.draw_signature(LEFT + 6, top + 12, seed=11)
    doc.draw_signature(336, top + 12, seed=23)
    doc.page.draw_line((LEFT, top + 50), (250, top + 50), color=(0, 0, 0), width=0.5)
    doc.page.draw_line((330, top + 50), (510, top + 50), color=(0, 0, 0), width=0.5)
    doc.text_at(LEFT, top + 62, "Schmidt Bau KG – Thomas Schmidt", size=8.5)
    doc.text_at(330, top + 62, "Müller Metallbau GmbH – Jens Müller", size=8.5)
    return doc.to_bytes()


def schlussrechnung() -> bytes:
    doc = Letter(firm=CREDITOR, title="Schlussrechnung MM-2026-0311",
                 author=CREDITOR.name)  # fmt: skip
    doc.address_window(DEBTOR_ADDRESS)
    doc.info_block(
        [
            "Rechnungs-Nr.: MM-2026-0311",
            "Kunden-Nr.: 10087",
            "Ihr Auftrag: BV Lindenauer Hafen",
            "Leistungsdatum: 24.04.2026",
            "Rechnungsdatum: 28.04.2026",
        ]
    )
    doc.heading("Schlussrechnung Nr. MM-2026-0311", size=13)
    doc.paragraph("Sehr geehrter Herr Schmidt,", gap=3)
    doc.paragraph(
        "gemäß Werkvertrag vom 07.04.2026 und nach Abnahme unserer Leistungen "
        f"am 24.04.2026 berechnen wir Ihnen für das {PROJECT}:"
    )
    doc.amount_table(
        [
            ("Pos. 1  Stahlwangentreppe, 16 Steigungen, feuerverzinkt", "12.600,00 €"),
            ("Pos. 2  Treppengeländer mit Handlauf, Edelstahl, 9,40 m", "3.850,00 €"),
            ("Pos. 3  Montage vor Ort einschließlich Kran und Hebezeug", "2.000,00 €"),
        ],
        right=520,
        size=9.5,
    )
    doc.amount_table(
        [
            ("Nettobetrag (Pauschalfestpreis)", "18.450,00 €"),
            ("zzgl. 19 % Umsatzsteuer", "3.505,50 €"),
            ("Rechnungsbetrag", "21.955,50 €"),
        ],
        right=520,
        indent=180,
        bold_last=True,
        rule_before_last=True,
    )
    doc.paragraph(
        "Der Rechnungsbetrag ist zahlbar bis zum 12.05.2026 ohne Abzug auf unser "
        "unten genanntes Konto bei der Sparkasse Chemnitz. Bitte geben Sie bei "
        "der Überweisung die Rechnungsnummer an."
    )
    doc.paragraph(
        "Wir bedanken uns für den Auftrag und die gute Zusammenarbeit auf der "
        "Baustelle."
    )
    doc.signature(["Mit freundlichen Grüßen", "Müller Metallbau GmbH"],
                  "i. A. Katrin Richter", seed=31, role="Buchhaltung")  # fmt: skip
    return doc.to_bytes()


def mahnung() -> bytes:
    """Two pages; the cost table is on page 2."""
    doc = Letter(firm=CREDITOR, title="Mahnung MM-2026-0311", author=CREDITOR.name)
    doc.running_head = "Schreiben vom 20.05.2026 an die Schmidt Bau KG"
    doc.address_window(DEBTOR_ADDRESS, note="Einwurf-Einschreiben")
    doc.info_block(
        [
            "Ihr Zeichen: BV Lindenauer Hafen",
            "Unser Zeichen: MM-2026-0311 / ri",
            "Ansprechpartnerin: Katrin Richter",
            "Telefon: 0371 556640-23",
            "",
            "Chemnitz, 20.05.2026",
        ]
    )
    doc.heading("Mahnung – Schlussrechnung Nr. MM-2026-0311 vom 28.04.2026", size=12)
    doc.paragraph("Sehr geehrter Herr Schmidt,", gap=3)
    doc.paragraph(
        "mit unserer Schlussrechnung Nr. MM-2026-0311 vom 28.04.2026 haben wir "
        "Ihnen die Fertigung und Montage der Stahltreppe mit Geländer für das "
        f"{PROJECT} über 21.955,50 € berechnet. Die Leistung wurde am 24.04.2026 "
        "ohne Vorbehalt abgenommen. Die Rechnung war zahlbar bis zum 12.05.2026. "
        "Ein Zahlungseingang ist bei uns bis heute nicht zu verzeichnen."
    )
    doc.paragraph(
        "Wir fordern Sie hiermit auf, den offenen Betrag von 21.955,50 € "
        "zuzüglich der auf Seite 2 aufgeführten Kosten bis spätestens "
        "29.05.2026 auf unser Konto bei der Sparkasse Chemnitz zu überweisen."
    )
    doc.paragraph(
        "Sollten Sie die Zahlung zwischenzeitlich veranlasst haben, betrachten "
        "Sie dieses Schreiben bitte als gegenstandslos. Für Rückfragen steht "
        "Ihnen Frau Richter gern zur Verfügung."
    )
    doc.new_page()
    doc.heading("Aufstellung der offenen Beträge", size=11)
    doc.amount_table(
        [
            ("Hauptforderung aus Rechnung MM-2026-0311", "21.955,50 €"),
            ("Mahnkosten", "5,00 €"),
            ("Verzugspauschale nach § 288 Abs. 5 BGB", "40,00 €"),
            ("Summe", "22.000,50 €"),
        ],
        right=370,
        bold_last=True,
        rule_before_last=True,
    )
    doc.paragraph(
        "Auf die Hauptforderung berechnen wir ab dem 13.05.2026 Verzugszinsen in "
        "Höhe von neun Prozentpunkten über dem Basiszinssatz (§ 288 Abs. 2 BGB); "
        "die Zinsen werden gesondert abgerechnet."
    )
    doc.paragraph(
        "Nach fruchtlosem Ablauf der Frist werden wir die Forderung ohne weitere "
        "Ankündigung unserer Rechtsanwältin zur Durchsetzung übergeben. Die "
        "dadurch entstehenden Kosten gehen zu Ihren Lasten."
    )
    doc.signature(["Mit freundlichen Grüßen", "Müller Metallbau GmbH"],
                  "Jens Müller", seed=41, role="Geschäftsführer")  # fmt: skip
    return doc.to_bytes()


def einlieferungsbeleg_scan() -> bytes:
    """The post office receipt of the Einschreiben, scanned: no text layer."""
    doc = Letter(firm=None, title="Scan Einlieferungsbeleg", author="Scanner")
    page = doc.page
    box_top = 70.0
    page.draw_rect((LEFT, box_top, 400, 430), color=(0, 0, 0), width=1.0)
    doc.text_at(LEFT + 14, box_top + 30, "Deutsche Post", size=16, style="bold")
    doc.text_at(LEFT + 14, box_top + 56, "Einlieferungsbeleg", size=14, style="bold")
    rows = [
        "Einschreiben Einwurf",
        "Sendungsnummer: RR 4711 0815 3DE",
        "Empfänger: Schmidt Bau KG",
        "Am Hafen 7, 04179 Leipzig",
        "Einlieferung: 20.05.2026, 11:32 Uhr",
        "Filiale: Chemnitz Zentrum",
        "Porto mit Zusatzleistung: 3,65 EUR",
    ]
    y = box_top + 92
    for row in rows:
        doc.text_at(LEFT + 14, y, row, size=12)
        y += 22
    doc.text_at(LEFT + 14, y + 20, "Bitte bewahren Sie diesen Beleg auf.", size=10)
    # a handwritten note of the office
    doc.text_at(LEFT + 20, 520, "Mahnung Schmidt Bau – MM-2026-0311", size=13,
                style="italic", colour=(0.1, 0.18, 0.55))  # fmt: skip
    return scanned(doc, seed=7)


def sendungsverfolgung() -> bytes:
    doc = Letter(firm=None, title="Sendungsverfolgung RR 4711 0815 3DE",
                 author="Deutsche Post")  # fmt: skip
    doc.text_at(LEFT, 42, "Ausdruck vom 26.05.2026, 08:51 Uhr", size=7.5)
    doc.y = 80
    doc.heading("Sendungsverfolgung", size=16)
    doc.lines(
        [
            "Sendungsnummer: RR 4711 0815 3DE",
            "Produkt: Einwurf-Einschreiben",
            "Empfänger-PLZ: 04179 Leipzig",
        ]
    )
    doc.paragraph(
        "Referenz des Absenders: Mahnung MM-2026-0311 an die Schmidt Bau KG.",
        size=9,
    )
    doc.heading("Aktueller Status", size=11)
    doc.paragraph(
        "Zugestellt am 22.05.2026 um 10:14 Uhr durch Einwurf in den Briefkasten "
        "des Empfängers."
    )
    doc.heading("Sendungsverlauf", size=11)
    doc.lines(
        [
            "22.05.2026, 10:14 Uhr – Zustellung durch Einwurf, Zustellbezirk 04179",
            "22.05.2026, 06:02 Uhr – Die Sendung wurde in das Zustellfahrzeug geladen",
            "21.05.2026, 03:47 Uhr – Bearbeitung im Briefzentrum Leipzig",
            "20.05.2026, 11:32 Uhr – Einlieferung in der Filiale Chemnitz Zentrum",
        ],
        size=9,
    )
    doc.paragraph(
        "Hinweis: Der Auslieferungsbeleg mit Datum und Unterschrift des "
        "Zustellers kann bis zu 15 Monate nach Einlieferung angefordert werden.",
        size=8,
    )
    return doc.to_bytes()


def verweigerung() -> bytes:
    doc = Letter(firm=DEBTOR, title="Schreiben Schmidt Bau KG", author=DEBTOR.name)
    doc.address_window(CREDITOR_ADDRESS)
    doc.info_block(
        [
            "Unser Zeichen: TS/bl",
            "Bauvorhaben: Lindenauer Hafen, Haus B",
            "",
            "Leipzig, 27.05.2026",
        ]
    )
    doc.heading("Ihre Mahnung vom 20.05.2026 – Schlussrechnung Nr. MM-2026-0311")
    doc.paragraph("Sehr geehrte Frau Richter,", gap=3)
    doc.paragraph(
        "Ihre Mahnung vom 20.05.2026 haben wir am 22.05.2026 erhalten. Die von "
        "Ihnen montierte Treppe entspricht nach Auffassung unseres Bauleiters "
        "nicht unseren Vorstellungen; die Steigungshöhen weichen aus unserer "
        "Sicht um einige Millimeter voneinander ab."
    )
    doc.paragraph(
        "Wir werden die Rechnung daher nicht bezahlen und verweigern die "
        "Zahlung ernsthaft und endgültig. Von weiteren Mahnungen bitten wir "
        "abzusehen."
    )
    doc.signature(["Mit freundlichen Grüßen", "Schmidt Bau KG"], "Thomas Schmidt",
                  seed=53, role="Persönlich haftender Gesellschafter")  # fmt: skip
    return doc.to_bytes()


def kostennote() -> bytes:
    doc = Letter(firm=LAW_FIRM, title="Kostennote 2026-0388", author=LAW_FIRM.name)
    doc.address_window(CREDITOR_ADDRESS[:1] + ("Herrn Jens Müller",) +
                       CREDITOR_ADDRESS[2:])  # fmt: skip
    doc.info_block(
        [
            "Az. 2026/0142",
            "Müller Metallbau ./. Schmidt Bau",
            "Bearbeiterin: RAin Dr. Berger",
            "",
            "Chemnitz, 10.06.2026",
        ]
    )
    doc.heading("Kostennote Nr. 2026-0388", size=12.5)
    doc.paragraph("Vergütungsberechnung nach § 10 RVG", style="bold", gap=4)
    doc.paragraph("Sehr geehrter Herr Müller,", gap=3)
    doc.paragraph(
        "für unsere außergerichtliche Tätigkeit in Ihrer Angelegenheit gegen "
        "die Schmidt Bau KG wegen der Forderung aus der Schlussrechnung Nr. "
        "MM-2026-0311 berechnen wir nach einem Gegenstandswert von 21.955,50 €:"
    )
    doc.amount_table(
        [
            ("1,3 Geschäftsgebühr Nr. 2300 VV RVG", "1.133,60 €"),
            ("Post- und Telekommunikationspauschale Nr. 7002 VV RVG", "20,00 €"),
            ("Zwischensumme netto", "1.153,60 €"),
            ("19 % Umsatzsteuer Nr. 7008 VV RVG", "219,18 €"),
            ("Summe", "1.372,78 €"),
        ],
        right=470,
        bold_last=True,
        rule_before_last=True,
    )
    doc.paragraph(
        "Da Sie zum Vorsteuerabzug berechtigt sind, machen wir gegenüber der "
        "Schmidt Bau KG die Nettogebühren als Verzugsschaden geltend. Wir bitten "
        "um Ausgleich der Kostennote auf unser unten genanntes Konto."
    )
    doc.signature(["Mit freundlichen Grüßen"], "Dr. Lena Berger", seed=61,
                  role="Rechtsanwältin")  # fmt: skip
    return doc.to_bytes()


def newsletter() -> bytes:
    doc = Letter(firm=ASSOCIATION, title="Metall-Info Sachsen 05/2026",
                 author=ASSOCIATION.name)  # fmt: skip
    doc.y = 130
    doc.heading("Metall-Info Sachsen – Ausgabe Mai 2026", size=15)
    doc.heading("Stahlpreise: Seitwärtsbewegung erwartet", size=11)
    doc.paragraph(
        "Nach dem Anstieg im ersten Quartal haben sich die Preise für "
        "Baustahl und Flachprodukte im April stabilisiert. Die Händler im "
        "Verbandsgebiet rechnen für das zweite Halbjahr mit einer "
        "Seitwärtsbewegung; Zuschläge für Verzinkung bleiben hoch."
    )
    doc.heading("Fachkräfte: Ausbildungsbörse in Chemnitz", size=11)
    doc.paragraph(
        "Am 12.06.2026 stellen sich Mitgliedsbetriebe in der Stadthalle "
        "Chemnitz Schülerinnen und Schülern vor. Betriebe, die mit einem Stand "
        "vertreten sein möchten, melden sich bei der Geschäftsstelle."
    )
    doc.heading("Seminar: Schweißaufsicht nach DIN EN ISO 14731", size=11)
    doc.paragraph(
        "Das zweitägige Seminar findet am 18.06.2026 und 19.06.2026 in Dresden "
        "statt. Die Teilnehmerzahl ist auf 16 begrenzt; Mitglieder werden bei "
        "der Platzvergabe bevorzugt."
    )
    doc.heading("Termine", size=11)
    doc.lines(
        [
            "04.06.2026 – Arbeitskreis Treppenbau, Leipzig",
            "12.06.2026 – Ausbildungsbörse, Chemnitz",
            "18.06.2026 – Seminar Schweißaufsicht, Dresden",
        ]
    )
    return doc.to_bytes()


def lieferschein_anderes_projekt() -> bytes:
    doc = Letter(firm=CREDITOR, title="Lieferschein LS-2026-1042", author=CREDITOR.name)
    doc.address_window(
        ("Hoffmann Hochbau GmbH", "Baustelle Grundschule Markkleeberg-West",
         "Schulstraße 3", "04416 Markkleeberg")
    )  # fmt: skip
    doc.info_block(
        [
            "Lieferschein-Nr.: LS-2026-1042",
            "Auftrag: 2026-131",
            "Lieferdatum: 03.06.2026",
        ]
    )
    doc.heading("Lieferschein Nr. LS-2026-1042", size=13)
    doc.paragraph("Bauvorhaben Grundschule Markkleeberg-West, Fluchttreppe Nord")
    doc.lines(
        [
            "Pos. 1   24 Stück   Gitterroste 1000 × 300 mm, feuerverzinkt",
            "Pos. 2    2 Stück   Podestträger HEA 160, L = 2.400 mm",
            "Pos. 3    1 Satz    Befestigungsmaterial M16, verzinkt",
        ],
        size=9.5,
    )
    doc.paragraph(
        "Die Ware wurde vollständig und ohne erkennbare Schäden übergeben. "
        "Verpackungsmaterial nehmen wir auf Wunsch zurück."
    )
    doc.vspace(30)
    doc.text_at(LEFT, doc.y, "Übernommen: ____________________", size=10)
    doc.draw_signature(LEFT + 80, doc.y - 26, seed=71)
    doc.text_at(330, doc.y, "Fahrer: M. Seidel", size=10)
    return doc.to_bytes()


def betriebsurlaub() -> bytes:
    doc = Letter(firm=SUPPLIER, title="Betriebsurlaub 2026", author=SUPPLIER.name)
    doc.address_window(
        ("Müller Metallbau GmbH", "Einkauf", "Gewerbepark Nord 14", "09116 Chemnitz")
    )
    doc.info_block(["Plauen, 02.06.2026"])
    doc.heading("Betriebsurlaub 2026", size=12)
    doc.paragraph("Sehr geehrte Damen und Herren,", gap=3)
    doc.paragraph(
        "unser Lager und unsere Anarbeitung bleiben wegen Betriebsurlaubs vom "
        "15.06.2026 bis einschließlich 26.06.2026 geschlossen. Der Verkauf ist "
        "in dieser Zeit eingeschränkt telefonisch erreichbar."
    )
    doc.paragraph(
        "Bestellungen, die vor dem Betriebsurlaub ausgeliefert werden sollen, "
        "erbitten wir bis zum 09.06.2026. Wir danken für Ihr Verständnis."
    )
    doc.signature(["Mit freundlichen Grüßen", "Stahlhandel Vogtland GmbH"],
                  "Anja Kern", seed=83, role="Geschäftsführerin")  # fmt: skip
    return doc.to_bytes()
