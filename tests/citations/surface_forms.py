"""Hand-written surface forms: text → expected (raw, canonical) per citation.

GDPR = eu/reg/2016/679, AI = eu/reg/2024/1689, DORA = eu/reg/2022/2554.
"""

from __future__ import annotations

from itertools import product

G = "eu/reg/2016/679"
AI = "eu/reg/2024/1689"
DORA = "eu/reg/2022/2554"
BGB = "de/bgb"

Case = tuple[str, list[tuple[str, str | None]]]

# --- written one by one ----------------------------------------------------------
SPECIAL: list[Case] = [
    # the examples
    (
        "Art. 9 Abs. 2 lit. a KI-VO",
        [("Art. 9 Abs. 2 lit. a KI-VO", f"{AI}/art/9/para/2/point/a")],
    ),
    ("Article 6(1)(f) GDPR", [("Article 6(1)(f) GDPR", f"{G}/art/6/para/1/point/f")]),
    ("Erwägungsgrund 60", [("Erwägungsgrund 60", None)]),
    (
        "§ 286 Abs. 2 Nr. 3 BGB",
        [("§ 286 Abs. 2 Nr. 3 BGB", f"{BGB}/sec/286/para/2/point/3")],
    ),
    (
        "§§ 280 Abs. 1, 2, 286 BGB",
        [
            ("§§ 280 Abs. 1", f"{BGB}/sec/280/para/1"),
            ("2", f"{BGB}/sec/280/para/2"),
            ("286 BGB", f"{BGB}/sec/286"),
        ],
    ),
    ("§§ 433 ff. BGB", [("§§ 433 ff. BGB", f"{BGB}/sec/433ff")]),
    ("§ 433 f. BGB", [("§ 433 f. BGB", f"{BGB}/sec/433f")]),
    ("Art. 6 I lit. f DSGVO", [("Art. 6 I lit. f DSGVO", f"{G}/art/6/para/1/point/f")]),
    ("§ 823 I BGB", [("§ 823 I BGB", f"{BGB}/sec/823/para/1")]),
    ("§ 280 I 2 BGB", [("§ 280 I 2 BGB", f"{BGB}/sec/280/para/1/sent/2")]),
    ("§ 3 IV UWG", [("§ 3 IV UWG", "de/uwg/sec/3/para/4")]),
    (
        "Art. 6 Abs. 1 lit. f i.V.m. Art. 21 DSGVO",
        [
            ("Art. 6 Abs. 1 lit. f", f"{G}/art/6/para/1/point/f"),
            ("Art. 21 DSGVO", f"{G}/art/21"),
        ],
    ),
    (
        "§ 280 Abs. 1 iVm § 241 Abs. 2 BGB",
        [
            ("§ 280 Abs. 1", f"{BGB}/sec/280/para/1"),
            ("§ 241 Abs. 2 BGB", f"{BGB}/sec/241/para/2"),
        ],
    ),
    (
        "§ 280 Abs. 1 in Verbindung mit § 286 BGB",
        [
            ("§ 280 Abs. 1", f"{BGB}/sec/280/para/1"),
            ("§ 286 BGB", f"{BGB}/sec/286"),
        ],
    ),
    (
        "Article 6(1)(a) in conjunction with Article 7 GDPR",
        [
            ("Article 6(1)(a)", f"{G}/art/6/para/1/point/a"),
            ("Article 7 GDPR", f"{G}/art/7"),
        ],
    ),
    ("§ 44 DSGVO", [("§ 44 DSGVO", f"{G}/sec/44")]),
    ("Art. 823 BGB", [("Art. 823 BGB", f"{BGB}/art/823")]),
    # context binding
    (
        "Die Verordnung (EU) 2016/679 gilt. Nach Art. 5 dieser Verordnung gilt das.",
        [("Art. 5 dieser Verordnung", f"{G}/art/5")],
    ),
    (
        "Regulation (EU) 2024/1689 applies. Article 5 of this Regulation prohibits.",
        [("Article 5 of this Regulation", f"{AI}/art/5")],
    ),
    ("Art. 5 dieser Verordnung", [("Art. 5 dieser Verordnung", None)]),
    (
        "Nach Art. 6 Abs. 1 DSGVO ist das zulässig. Abs. 2 regelt anderes.",
        [
            ("Art. 6 Abs. 1 DSGVO", f"{G}/art/6/para/1"),
            ("Abs. 2", f"{G}/art/6/para/2"),
        ],
    ),
    (
        "§ 286 Abs. 1 BGB verlangt eine Mahnung; Absatz 2 macht Ausnahmen.",
        [
            ("§ 286 Abs. 1 BGB", f"{BGB}/sec/286/para/1"),
            ("Absatz 2", f"{BGB}/sec/286/para/2"),
        ],
    ),
    (
        "§ 286 Abs. 1 BGB und Abs. 2",
        [
            ("§ 286 Abs. 1 BGB", f"{BGB}/sec/286/para/1"),
            ("Abs. 2", f"{BGB}/sec/286/para/2"),
        ],
    ),
    ("Abs. 2 regelt das.", []),
    ("Gemäß Abs. 2 ist das so.\n\n§ 1 BGB gilt.", [("§ 1 BGB", f"{BGB}/sec/1")]),
    # lists, ranges
    (
        "Art. 15, 16 und 17 DSGVO",
        [
            ("Art. 15", f"{G}/art/15"),
            ("16", f"{G}/art/16"),
            ("17 DSGVO", f"{G}/art/17"),
        ],
    ),
    (
        "Art. 5 Abs. 1 lit. a und b DSGVO",
        [
            ("Art. 5 Abs. 1 lit. a", f"{G}/art/5/para/1/point/a"),
            ("b DSGVO", f"{G}/art/5/para/1/point/b"),
        ],
    ),
    (
        "Art. 6 Abs. 1 lit. a, b, c DSGVO",
        [
            ("Art. 6 Abs. 1 lit. a", f"{G}/art/6/para/1/point/a"),
            ("b", f"{G}/art/6/para/1/point/b"),
            ("c DSGVO", f"{G}/art/6/para/1/point/c"),
        ],
    ),
    (
        "§ 286 Abs. 2 Nr. 1 und 4 BGB",
        [
            ("§ 286 Abs. 2 Nr. 1", f"{BGB}/sec/286/para/2/point/1"),
            ("4 BGB", f"{BGB}/sec/286/para/2/point/4"),
        ],
    ),
    (
        "§§ 280, 281 Abs. 1 S. 1 BGB",
        [
            ("§§ 280", f"{BGB}/sec/280"),
            ("281 Abs. 1 S. 1 BGB", f"{BGB}/sec/281/para/1/sent/1"),
        ],
    ),
    ("§§ 433 bis 435 BGB", [("§§ 433 bis 435 BGB", f"{BGB}/sec/433-435")]),
    ("§§ 433–435 BGB", [("§§ 433–435 BGB", f"{BGB}/sec/433-435")]),
    ("Art. 12 bis 23 DSGVO", [("Art. 12 bis 23 DSGVO", f"{G}/art/12-23")]),
    ("Articles 15 to 22 GDPR", [("Articles 15 to 22 GDPR", f"{G}/art/15-22")]),
    ("Art. 15-22 DSGVO", [("Art. 15-22 DSGVO", f"{G}/art/15-22")]),
    ("§ 286 Abs. 1 bis 3 BGB", [("§ 286 Abs. 1 bis 3 BGB", f"{BGB}/sec/286/para/1-3")]),
    ("Article 5 et seq. GDPR", [("Article 5 et seq. GDPR", f"{G}/art/5ff")]),
    (
        "Article 6(1)(a) and (b) GDPR",
        [
            ("Article 6(1)(a)", f"{G}/art/6/para/1/point/a"),
            ("(b) GDPR", f"{G}/art/6/para/1/point/b"),
        ],
    ),
    (
        "Article 15(1) and (3) GDPR",
        [
            ("Article 15(1)", f"{G}/art/15/para/1"),
            ("(3) GDPR", f"{G}/art/15/para/3"),
        ],
    ),
    (
        "Art. 13 Abs. 2, 14 Abs. 2 DSGVO",
        [
            ("Art. 13 Abs. 2", f"{G}/art/13/para/2"),
            ("14 Abs. 2 DSGVO", f"{G}/art/14/para/2"),
        ],
    ),
    (
        "Art. 6 Abs. 1 und Abs. 4 DSGVO",
        [
            ("Art. 6 Abs. 1", f"{G}/art/6/para/1"),
            ("Abs. 4 DSGVO", f"{G}/art/6/para/4"),
        ],
    ),
    # subdivisions
    (
        "Art. 6 Abs. 1 UAbs. 1 lit. f DSGVO",
        [("Art. 6 Abs. 1 UAbs. 1 lit. f DSGVO", f"{G}/art/6/para/1/subpara/1/point/f")],
    ),
    (
        "Art. 6 Abs. 1 Unterabsatz 2 DSGVO",
        [("Art. 6 Abs. 1 Unterabsatz 2 DSGVO", f"{G}/art/6/para/1/subpara/2")],
    ),
    (
        "§ 280 Abs. 1 S. 2 BGB",
        [("§ 280 Abs. 1 S. 2 BGB", f"{BGB}/sec/280/para/1/sent/2")],
    ),
    (
        "§ 280 Absatz 1 Satz 2 BGB",
        [("§ 280 Absatz 1 Satz 2 BGB", f"{BGB}/sec/280/para/1/sent/2")],
    ),
    (
        "§ 434 Abs. 1 S. 2 Nr. 1 BGB",
        [("§ 434 Abs. 1 S. 2 Nr. 1 BGB", f"{BGB}/sec/434/para/1/sent/2/point/1")],
    ),
    (
        "§ 286 Abs. 3 S. 1 Hs. 2 BGB",
        [("§ 286 Abs. 3 S. 1 Hs. 2 BGB", f"{BGB}/sec/286/para/3/sent/1/half/2")],
    ),
    (
        "§ 280 Abs. 1 S. 1 Alt. 2 BGB",
        [("§ 280 Abs. 1 S. 1 Alt. 2 BGB", f"{BGB}/sec/280/para/1/sent/1/alt/2")],
    ),
    ("Art. 4 Nr. 1 DSGVO", [("Art. 4 Nr. 1 DSGVO", f"{G}/art/4/point/1")]),
    ("Art. 4 Nummer 11 DSGVO", [("Art. 4 Nummer 11 DSGVO", f"{G}/art/4/point/11")]),
    (
        "Art. 9 Abs. 2 Buchstabe a DSGVO",
        [("Art. 9 Abs. 2 Buchstabe a DSGVO", f"{G}/art/9/para/2/point/a")],
    ),
    (
        "Art. 5 Abs. 1 Buchst. c Ziff. i KI-VO",
        [
            (
                "Art. 5 Abs. 1 Buchst. c Ziff. i KI-VO",
                f"{AI}/art/5/para/1/point/c/subpoint/i",
            )
        ],
    ),
    (
        "Article 5(1)(c)(i) AI Act",
        [("Article 5(1)(c)(i) AI Act", f"{AI}/art/5/para/1/point/c/subpoint/i")],
    ),
    (
        "Article 6(1), first subparagraph, point (a) GDPR",
        [
            (
                "Article 6(1), first subparagraph, point (a) GDPR",
                f"{G}/art/6/para/1/subpara/1/point/a",
            )
        ],
    ),
    (
        "Article 6(1), point (f) GDPR",
        [("Article 6(1), point (f) GDPR", f"{G}/art/6/para/1/point/f")],
    ),
    (
        "point (f) of Article 6(1) GDPR",
        [("point (f) of Article 6(1) GDPR", f"{G}/art/6/para/1/point/f")],
    ),
    (
        "points (a) and (b) of Article 9(2) of Regulation (EU) 2016/679",
        [
            ("points (a)", f"{G}/art/9/para/2/point/a"),
            (
                "(b) of Article 9(2) of Regulation (EU) 2016/679",
                f"{G}/art/9/para/2/point/b",
            ),
        ],
    ),
    (
        "the second subparagraph of Article 5 AI Act",
        [("second subparagraph of Article 5 AI Act", f"{AI}/art/5/subpara/2")],
    ),
    (
        "Article 5(2), second sentence GDPR",
        [("Article 5(2), second sentence GDPR", f"{G}/art/5/para/2/sent/2")],
    ),
    # recitals
    ("Erwägungsgrund 47 DSGVO", [("Erwägungsgrund 47 DSGVO", f"{G}/recital/47")]),
    ("ErwG 47 DSGVO", [("ErwG 47 DSGVO", f"{G}/recital/47")]),
    ("EG 47 DSGVO", [("EG 47 DSGVO", f"{G}/recital/47")]),
    ("EG 47 ist eine Zahl", []),
    ("recital 47 GDPR", [("recital 47 GDPR", f"{G}/recital/47")]),
    (
        "Recital (60) of the AI Act",
        [("Recital (60) of the AI Act", f"{AI}/recital/60")],
    ),
    (
        "recitals 47 and 48 GDPR",
        [("recitals 47", f"{G}/recital/47"), ("48 GDPR", f"{G}/recital/48")],
    ),
    (
        "Erwägungsgründe 47 bis 49 DSGVO",
        [("Erwägungsgründe 47 bis 49 DSGVO", f"{G}/recital/47-49")],
    ),
    ("(Erwägungsgrund 60 KI-VO)", [("Erwägungsgrund 60 KI-VO", f"{AI}/recital/60")]),
    # annexes
    ("Anhang III KI-VO", [("Anhang III KI-VO", f"{AI}/annex/III")]),
    (
        "Anhang III Nr. 1 Buchst. a KI-VO",
        [("Anhang III Nr. 1 Buchst. a KI-VO", f"{AI}/annex/III/point/1/subpoint/a")],
    ),
    (
        "Annex III, point 1(a) AI Act",
        [("Annex III, point 1(a) AI Act", f"{AI}/annex/III/point/1/subpoint/a")],
    ),
    (
        "Annex III point 5 AI Act",
        [("Annex III point 5 AI Act", f"{AI}/annex/III/point/5")],
    ),
    (
        "Anhang VIII Abschnitt A Nr. 1 KI-VO",
        [("Anhang VIII Abschnitt A Nr. 1 KI-VO", f"{AI}/annex/VIII/part/A/point/1")],
    ),
    (
        "Annex VIII, Section B, point 2 AI Act",
        [("Annex VIII, Section B, point 2 AI Act", f"{AI}/annex/VIII/part/B/point/2")],
    ),
    ("Anhang I bis III KI-VO", [("Anhang I bis III KI-VO", f"{AI}/annex/I-III")]),
    # instrument forms
    ("Art. 6 DS-GVO", [("Art. 6 DS-GVO", f"{G}/art/6")]),
    ("Art. 6 EU-DSGVO", [("Art. 6 EU-DSGVO", f"{G}/art/6")]),
    ("Art. 6 der DSGVO", [("Art. 6 der DSGVO", f"{G}/art/6")]),
    (
        "Art. 6 Datenschutz-Grundverordnung",
        [("Art. 6 Datenschutz-Grundverordnung", f"{G}/art/6")],
    ),
    (
        "Artikel 6 der Verordnung (EU) 2016/679",
        [("Artikel 6 der Verordnung (EU) 2016/679", f"{G}/art/6")],
    ),
    ("Art. 6 VO (EU) 2016/679", [("Art. 6 VO (EU) 2016/679", f"{G}/art/6")]),
    ("Article 6 of the GDPR", [("Article 6 of the GDPR", f"{G}/art/6")]),
    (
        "Article 6 of Regulation (EU) 2016/679",
        [("Article 6 of Regulation (EU) 2016/679", f"{G}/art/6")],
    ),
    ("Art. 5 KI-Verordnung", [("Art. 5 KI-Verordnung", f"{AI}/art/5")]),
    ("Art. 5 der KI-VO", [("Art. 5 der KI-VO", f"{AI}/art/5")]),
    ("Article 5 of the AI Act", [("Article 5 of the AI Act", f"{AI}/art/5")]),
    (
        "Artikel 5 der Verordnung (EU) 2024/1689",
        [("Artikel 5 der Verordnung (EU) 2024/1689", f"{AI}/art/5")],
    ),
    ("Art. 28 DORA", [("Art. 28 DORA", f"{DORA}/art/28")]),
    (
        "Art. 28 der Verordnung (EU) 2022/2554",
        [("Art. 28 der Verordnung (EU) 2022/2554", f"{DORA}/art/28")],
    ),
    ("§ 433 des BGB", [("§ 433 des BGB", f"{BGB}/sec/433")]),
    (
        "§ 433 Bürgerliches Gesetzbuch",
        [("§ 433 Bürgerliches Gesetzbuch", f"{BGB}/sec/433")],
    ),
    (
        "§ 433 des Bürgerlichen Gesetzbuchs",
        [("§ 433 des Bürgerlichen Gesetzbuchs", f"{BGB}/sec/433")],
    ),
    ("§ 91 ZPO", [("§ 91 ZPO", "de/zpo/sec/91")]),
    ("§ 26 BDSG", [("§ 26 BDSG", "de/bdsg/sec/26")]),
    ("§ 5 TMG", [("§ 5 TMG", "de/tmg/sec/5")]),
    ("§ 5 BImSchG", [("§ 5 BImSchG", "de/bimschg/sec/5")]),
    ("Art. 3 GG", [("Art. 3 GG", "de/gg/art/3")]),
    ("Art. 229 § 5 EGBGB", [("Art. 229 § 5 EGBGB", "de/egbgb/art/229/asec/5")]),
    (
        "Art. 25 der Richtlinie 95/46/EG",
        [("Art. 25 der Richtlinie 95/46/EG", "eu/dir/1995/46/art/25")],
    ),
    (
        "Article 5 of Regulation (EU) No 182/2011",
        [("Article 5 of Regulation (EU) No 182/2011", "eu/reg/2011/182/art/5")],
    ),
    (
        "Article 16 TFEU",
        [("Article 16 TFEU", "eu/treaty/tfeu/art/16")],
    ),
    (
        "Article 8(1) of the Charter of Fundamental Rights",
        [
            (
                "Article 8(1) of the Charter of Fundamental Rights",
                "eu/charter/art/8/para/1",
            )
        ],
    ),
    # spacing and punctuation variants
    (
        "Art.6 Abs.1 lit.f DSGVO",
        [("Art.6 Abs.1 lit.f DSGVO", f"{G}/art/6/para/1/point/f")],
    ),
    ("§286 BGB", [("§286 BGB", f"{BGB}/sec/286")]),
    ("§\u00a0286\u00a0BGB", [("§\u00a0286\u00a0BGB", f"{BGB}/sec/286")]),
    ("Art 5 DSGVO", [("Art 5 DSGVO", f"{G}/art/5")]),
    ("Art. 6 (1) (f) DSGVO", [("Art. 6 (1) (f) DSGVO", f"{G}/art/6/para/1/point/f")]),
    ("(§ 286 BGB)", [("§ 286 BGB", f"{BGB}/sec/286")]),
    ("„§ 286 BGB“", [("§ 286 BGB", f"{BGB}/sec/286")]),
    ("vgl. § 241a BGB.", [("§ 241a BGB", f"{BGB}/sec/241a")]),
    (
        "§ 823 BGB ist nicht § 1823 BGB",
        [("§ 823 BGB", f"{BGB}/sec/823"), ("§ 1823 BGB", f"{BGB}/sec/1823")],
    ),
    (
        "Art. 6 DSGVO und § 26 BDSG",
        [("Art. 6 DSGVO", f"{G}/art/6"), ("§ 26 BDSG", "de/bdsg/sec/26")],
    ),
    (
        "Art. 17 Abs. 1 lit. a), b) DSGVO",
        [
            ("Art. 17 Abs. 1 lit. a)", f"{G}/art/17/para/1/point/a"),
            ("b) DSGVO", f"{G}/art/17/para/1/point/b"),
        ],
    ),
    (
        "recitals (39) and (58) of the GDPR",
        [("recitals (39)", f"{G}/recital/39"), ("(58) of the GDPR", f"{G}/recital/58")],
    ),
    (
        "Annex III, point 4(a), to Regulation (EU) 2024/1689",
        [
            (
                "Annex III, point 4(a), to Regulation (EU) 2024/1689",
                f"{AI}/annex/III/point/4/subpoint/a",
            )
        ],
    ),
    ("Art. 5 (1) a) DSGVO", [("Art. 5 (1) a) DSGVO", f"{G}/art/5/para/1/point/a")]),
    ("Art. 5 Abs. 1 lit. a, so die Klägerin", [("Art. 5 Abs. 1 lit. a", None)]),
    (
        "Siehe Erwägungsgrund 60, § 91 ZPO",
        [("Erwägungsgrund 60", None), ("§ 91 ZPO", "de/zpo/sec/91")],
    ),
    (
        "Art. 6 Abs. 1 lit. f i.V.m. § 26 BDSG",
        [("Art. 6 Abs. 1 lit. f", None), ("§ 26 BDSG", "de/bdsg/sec/26")],
    ),
    (
        "Art. 9 und Erwägungsgrund 60 KI-VO",
        [("Art. 9", f"{AI}/art/9"), ("Erwägungsgrund 60 KI-VO", f"{AI}/recital/60")],
    ),
    (
        "Art. 9 Abs. 2 lit. a KI-VO; Erwägungsgrund 60 KI-VO",
        [
            ("Art. 9 Abs. 2 lit. a KI-VO", f"{AI}/art/9/para/2/point/a"),
            ("Erwägungsgrund 60 KI-VO", f"{AI}/recital/60"),
        ],
    ),
]

# --- text that contains no citation --------------------------------------------------
NEGATIVE: list[str] = [
    "",
    "Die Klägerin verlangt Zahlung.",
    "The claimant demands payment.",
    "Am 12.03.2024 zahlte er EUR 280,00.",
    "Rechnung Nr. 286 vom 1.2.2026 über 1.823,00 €",
    "Die Art und Weise der Leistung ist streitig.",
    "Eine Art 5-Punkte-Plan.",
    "Artikelnummer 123456",
    "Nummer 5 des Vertrags",
    "Abs. 2 ohne vorherige Norm",
    "paragraph 4 of the contract",
    "Seite 44, Zeile 5",
    "S. 12 der Akte",
    "Aktenzeichen 12 O 345/26",
    "Az. 3 U 12/25",
    "Tel. 0201 286 280",
    "Postfach 1823, 45127 Essen",
    "He paid 280 euros on 6 January 2026.",
    "Paragraph 286 of the letter",
    "EG-Vertrag von 1957",
    "Lit. a) wurde gestrichen",
    "Anhang zur Klageschrift",
    "Annex to the contract",
    "Annex A to the contract",
    "ISO 27001 Annex A",
    "Mahnung vom 26.04.2026, Frist bis 10.05.2026",
    "Version 2016/679 der Software",
    "Artikel im Handelsblatt vom 5. Mai",
    "Article about the GDPR",
    "Articles of association",
    "BGB-Gesellschaft",
    "DSGVO-konform",
    "Die Zahlen 6 1 f sind keine Zitate.",
    "IBAN DE12 3456 7890 1234 5678 90",
    "Preis: 5 ff Stück",
    "Der Kläger (ein Unternehmen) ist beklagt.",
    "Er wohnt in der Art.-Straße",
    "§",
    "§§",
    "Art.",
    "Article",
    "Erwägungsgrund",
]

# --- generated combinations --------------------------------------------------------
GDPR_ALIASES_DE = ["DSGVO", "DS-GVO", "Datenschutz-Grundverordnung", "der DSGVO"]
GDPR_ALIASES_EN = ["GDPR", "of the GDPR", "of Regulation (EU) 2016/679"]
ARTICLE_WORDS_DE = ["Art.", "Artikel"]


def generated() -> list[Case]:
    out: list[Case] = []
    for art, alias, word in product(
        (5, 6, 17, 32, 99), GDPR_ALIASES_DE, ARTICLE_WORDS_DE
    ):
        text = f"{word} {art} Abs. 1 {alias}"
        out.append((text, [(text, f"{G}/art/{art}/para/1")]))
    for art, alias in product((5, 6, 9, 28, 83), GDPR_ALIASES_EN):
        text = f"Article {art}(2) {alias}"
        out.append((text, [(text, f"{G}/art/{art}/para/2")]))
    for para, letter, roman in product((1, 2), "abcf", (True, False)):
        if roman:
            r = "I" if para == 1 else "II"
            text = f"Art. 6 {r} lit. {letter} DSGVO"
        else:
            text = f"Art. 6 Abs. {para} Buchst. {letter} DSGVO"
        out.append((text, [(text, f"{G}/art/6/para/{para}/point/{letter}")]))
    for sec, para, sent in product((241, 276, 280, 286, 288, 433, 823), (1, 2), (1, 2)):
        text = f"§ {sec} Abs. {para} S. {sent} BGB"
        out.append((text, [(text, f"{BGB}/sec/{sec}/para/{para}/sent/{sent}")]))
    for sec, nr in product((286, 309, 312), (1, 2, 3)):
        text = f"§ {sec} Abs. 2 Nr. {nr} BGB"
        out.append((text, [(text, f"{BGB}/sec/{sec}/para/2/point/{nr}")]))
    for rec, alias in product((1, 47, 60, 173), ("DSGVO", "GDPR")):
        word = "Erwägungsgrund" if alias == "DSGVO" else "recital"
        text = f"{word} {rec} {alias}"
        out.append((text, [(text, f"{G}/recital/{rec}")]))
    for annex, point, alias in product(
        ("I", "III", "IV", "XIII"), (1, 2), ("KI-VO", "AI Act")
    ):
        word = "Anhang" if alias == "KI-VO" else "Annex"
        point_word = "Nr." if alias == "KI-VO" else "point"
        text = f"{word} {annex} {point_word} {point} {alias}"
        out.append((text, [(text, f"{AI}/annex/{annex}/point/{point}")]))
    for art, prefix in product((1, 14, 50, 113), ("Nach", "Gemäß", "Under", "see")):
        text = f"{prefix} Art. {art} KI-VO gilt."
        raw = f"Art. {art} KI-VO"
        out.append((text, [(raw, f"{AI}/art/{art}")]))
    return out


ALL_POSITIVE: list[Case] = SPECIAL + generated()
