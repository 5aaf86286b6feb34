"""Surface forms of issue 15, one class per block: text → (raw, canonical).

Forms that name a federal law only the gesetze-im-internet registry knows are
in ``REGISTRY_FORMS`` (they need ../shared/corpus/de-federal/registry.json).
"""

from __future__ import annotations

from tests.citations.surface_forms import AI, BGB, DORA, Case, G

RVG = "de/rvg"
EGBGB = "de/egbgb"

ISSUE15: list[Case] = [
    # German EU citations calling the subparagraph "Satz"; Roman short forms
    (
        "Art. 17 Abs. 3 S. 1 lit. b DSGVO",
        [("Art. 17 Abs. 3 S. 1 lit. b DSGVO", f"{G}/art/17/para/3/sent/1/point/b")],
    ),
    (
        "Art. 9 Abs. 2 Satz 1 Buchst. a DS-GVO",
        [("Art. 9 Abs. 2 Satz 1 Buchst. a DS-GVO", f"{G}/art/9/para/2/sent/1/point/a")],
    ),
    (
        "Art. 17 III 1 lit. b DSGVO",
        [("Art. 17 III 1 lit. b DSGVO", f"{G}/art/17/para/3/sent/1/point/b")],
    ),
    # the act named before the unit
    ("DSGVO, Art. 15 Abs. 3", [("Art. 15 Abs. 3", f"{G}/art/15/para/3")]),
    ("DSGVO Art. 15 Abs. 3", [("Art. 15 Abs. 3", f"{G}/art/15/para/3")]),
    ("DORA Article 19(1)", [("Article 19(1)", f"{DORA}/art/19/para/1")]),
    ("AI Act Article 26(5)", [("Article 26(5)", f"{AI}/art/26/para/5")]),
    (
        "§ 280 BGB, Art. 5 Abs. 1 DSGVO",
        [("§ 280 BGB", f"{BGB}/sec/280"), ("Art. 5 Abs. 1 DSGVO", f"{G}/art/5/para/1")],
    ),
    # English long forms
    (
        "Article 17 paragraph 1 letter d GDPR",
        [("Article 17 paragraph 1 letter d GDPR", f"{G}/art/17/para/1/point/d")],
    ),
    (
        "Art. 28 para. 3 lit. a GDPR",
        [("Art. 28 para. 3 lit. a GDPR", f"{G}/art/28/para/3/point/a")],
    ),
    (
        "Art. 28 para. 3 sentence 2 lit. a GDPR",
        [
            (
                "Art. 28 para. 3 sentence 2 lit. a GDPR",
                f"{G}/art/28/para/3/sent/2/point/a",
            )
        ],
    ),
    # an annex point whose act is named later in the sentence
    (
        "The system in Annex III point 5 is high-risk under the AI Act.",
        [("Annex III point 5", f"{AI}/annex/III/point/5")],
    ),
    # spelled-out German and act names
    (
        "Paragraf 280 Absatz 1 Satz 2 BGB",
        [("Paragraf 280 Absatz 1 Satz 2 BGB", f"{BGB}/sec/280/para/1/sent/2")],
    ),
    (
        "Artikel 9 Absatz 2 Buchstabe a DSGVO",
        [("Artikel 9 Absatz 2 Buchstabe a DSGVO", f"{G}/art/9/para/2/point/a")],
    ),
    (
        "Art. 28 Abs. 4 DORA-Verordnung",
        [("Art. 28 Abs. 4 DORA-Verordnung", f"{DORA}/art/28/para/4")],
    ),
    ("Art. 50 KI-Verordnung", [("Art. 50 KI-Verordnung", f"{AI}/art/50")]),
    (
        "Art. 6 der Datenschutz-Grundverordnung",
        [("Art. 6 der Datenschutz-Grundverordnung", f"{G}/art/6")],
    ),
    # a recital after a comma inside a parenthesis
    (
        "(Art. 7 Abs. 4 DSGVO, ErwG 43)",
        [("Art. 7 Abs. 4 DSGVO", f"{G}/art/7/para/4"), ("ErwG 43", f"{G}/recital/43")],
    ),
    # German statute lists
    (
        "§§ 280, 288 BGB",
        [("§§ 280", f"{BGB}/sec/280"), ("288 BGB", f"{BGB}/sec/288")],
    ),
    (
        "Die §§ 10 und 20 BGB gelten entsprechend.",
        [("§§ 10", f"{BGB}/sec/10"), ("20 BGB", f"{BGB}/sec/20")],
    ),
    ("§§ 10 und 20 entsprechend", [("§§ 10", None), ("20", None)]),
    ("§§ 823; 826 BGB", [("§§ 823", f"{BGB}/sec/823"), ("826 BGB", f"{BGB}/sec/826")]),
    ("§ 5 Abs 2 Nr 3 BGB", [("§ 5 Abs 2 Nr 3 BGB", f"{BGB}/sec/5/para/2/point/3")]),
    (
        "§ 5 Abs. 1 Satz 1, 1. Halbsatz BGB",
        [
            (
                "§ 5 Abs. 1 Satz 1, 1. Halbsatz BGB",
                f"{BGB}/sec/5/para/1/sent/1/half/1",
            )
        ],
    ),
    (
        "§§ 1, 2 Abs. 2, 3, 10 BGB",
        [
            ("§§ 1", f"{BGB}/sec/1"),
            ("2 Abs. 2", f"{BGB}/sec/2/para/2"),
            ("3", f"{BGB}/sec/3"),
            ("10 BGB", f"{BGB}/sec/10"),
        ],
    ),
    (
        "§§ 1, 2 Abs. 2, Abs. 3 BGB",
        [
            ("§§ 1", f"{BGB}/sec/1"),
            ("2 Abs. 2", f"{BGB}/sec/2/para/2"),
            ("Abs. 3 BGB", f"{BGB}/sec/2/para/3"),
        ],
    ),
    (
        "§§ 280 Abs. 1, 2, 286 BGB",
        [
            ("§§ 280 Abs. 1", f"{BGB}/sec/280/para/1"),
            ("2", f"{BGB}/sec/280/para/2"),
            ("286 BGB", f"{BGB}/sec/286"),
        ],
    ),
    (
        "§§ 91, 708 Nr. 11, 711 ZPO",
        [
            ("§§ 91", "de/zpo/sec/91"),
            ("708 Nr. 11", "de/zpo/sec/708/point/11"),
            ("711 ZPO", "de/zpo/sec/711"),
        ],
    ),
    # HTML input: entities decoded, script/style ignored, offsets kept
    (
        "<p>&sect;&nbsp;280 Abs.&nbsp;1 BGB</p><script>x='§ 1 BGB';</script>",
        [("&sect;&nbsp;280 Abs.&nbsp;1 BGB", f"{BGB}/sec/280/para/1")],
    ),
    (
        "<style>p:before{content:'§ 3 BGB'}</style>Art.&#160;6 DSGVO",
        [("Art.&#160;6 DSGVO", f"{G}/art/6")],
    ),
    # the pinned federal laws by their common names
    ("§ 1 UWG", [("§ 1 UWG", "de/uwg/sec/1")]),
    ("§ 25a KWG", [("§ 25a KWG", "de/kwg/sec/25a")]),
    ("Art. 229 § 34 EGBGB", [("Art. 229 § 34 EGBGB", f"{EGBGB}/art/229/asec/34")]),
    (
        "Art. 229 § 34 Satz 1 EGBGB",
        [("Art. 229 § 34 Satz 1 EGBGB", f"{EGBGB}/art/229/asec/34/sent/1")],
    ),
    # Anlagen: the RVG's Vergütungsverzeichnis
    ("Nr. 2300 VV RVG", [("Nr. 2300 VV RVG", f"{RVG}/annex/1/point/2300")]),
    ("Nr. 7002 VV RVG", [("Nr. 7002 VV RVG", f"{RVG}/annex/1/point/7002")]),
    (
        "eine 1,3 Geschäftsgebühr nach Nr. 2300 RVG-VV",
        [("Nr. 2300 RVG-VV", f"{RVG}/annex/1/point/2300")],
    ),
    (
        "Nrn. 3100, 3104 VV RVG",
        [
            ("Nrn. 3100", f"{RVG}/annex/1/point/3100"),
            ("3104 VV RVG", f"{RVG}/annex/1/point/3104"),
        ],
    ),
    # the place of the Anlage is a unit of its own: both are cited
    (
        "Anlage 1 zu § 2 Abs. 2 RVG",
        [("Anlage 1", f"{RVG}/annex/1"), ("§ 2 Abs. 2 RVG", f"{RVG}/sec/2/para/2")],
    ),
    (
        "Tabelle der Anlage 2 zu § 13 Abs. 1 RVG.",
        [("Anlage 2", f"{RVG}/annex/2"), ("§ 13 Abs. 1 RVG", f"{RVG}/sec/13/para/1")],
    ),
]

# Classes the blind set (tests/citations/data/blind15) showed missing; each
# form is an invented sentence of its class, none is a line of the set.
BLIND15_CLASSES: list[Case] = [
    # a German statute's § cited in English
    (
        "The claim under section 823(1) BGB fails.",
        [("section 823(1) BGB", f"{BGB}/sec/823/para/1")],
    ),
    (
        "It applied sections 93(2) sentence 1, 280 no. 3 and 281 ZPO.",
        [
            ("sections 93(2) sentence 1", "de/zpo/sec/93/para/2/sent/1"),
            ("280 no. 3", "de/zpo/sec/280/point/3"),
            ("281 ZPO", "de/zpo/sec/281"),
        ],
    ),
    (
        "Under Sec. 433(2) of the German Civil Code (BGB) the buyer pays.",
        [("Sec. 433(2) of the German Civil Code (BGB)", f"{BGB}/sec/433/para/2")],
    ),
    (
        "Article 3(1) of the Basic Law (GG) applies.",
        [("Article 3(1) of the Basic Law (GG)", "de/gg/art/3/para/1")],
    ),
    # a sentence of a numbered item keeps the order of the text
    (
        "§ 3 Abs. 2 Nr. 4 S. 2 UWG",
        [("§ 3 Abs. 2 Nr. 4 S. 2 UWG", "de/uwg/sec/3/para/2/point/4/sent/2")],
    ),
    # in a list of §§ a number above the § before an Absatz is the next §
    (
        "§§ 12 Abs. 2, 14 ZPO",
        [("§§ 12 Abs. 2", "de/zpo/sec/12/para/2"), ("14 ZPO", "de/zpo/sec/14")],
    ),
    # an annex point named before its annex
    (
        "Article 6(2) AI Act covers the systems in point 4(a) of Annex III.",
        [
            ("Article 6(2) AI Act", f"{AI}/art/6/para/2"),
            ("point 4(a) of Annex III", f"{AI}/annex/III/point/4/subpoint/a"),
        ],
    ),
    # every number of a fee list, also in English
    (
        "Gebühr Nr. 3100 VV RVG, Auslagen Nr. 7000 VV RVG, Steuer Nr. 7008 VV RVG.",
        [
            ("Nr. 3100 VV RVG", f"{RVG}/annex/1/point/3100"),
            ("Nr. 7000 VV RVG", f"{RVG}/annex/1/point/7000"),
            ("Nr. 7008 VV RVG", f"{RVG}/annex/1/point/7008"),
        ],
    ),
    ("a fee (No. 3100 VV RVG)", [("No. 3100 VV RVG", f"{RVG}/annex/1/point/3100")]),
    # a unit takes the act named in its sentence, before or after it
    (
        "Art. 5 DSGVO ist verletzt; maßgeblich ist Erwägungsgrund 39.",
        [("Art. 5 DSGVO", f"{G}/art/5"), ("Erwägungsgrund 39", f"{G}/recital/39")],
    ),
    (
        "Ein Anspruch aus § 40 AGG scheidet aus; das AGG endet mit § 33.",
        [("§ 40 AGG", "de/agg/sec/40"), ("§ 33", "de/agg/sec/33")],
    ),
    (
        "Article 10(2) and Article 10(3) of the AI Act apply.",
        [
            ("Article 10(2)", f"{AI}/art/10/para/2"),
            ("Article 10(3) of the AI Act", f"{AI}/art/10/para/3"),
        ],
    ),
    (
        "Article 5(1) of Regulation (EU) 2022/2554 and Article 6(1) of that Regulation",
        [
            ("Article 5(1) of Regulation (EU) 2022/2554", f"{DORA}/art/5/para/1"),
            ("Article 6(1) of that Regulation", f"{DORA}/art/6/para/1"),
        ],
    ),
    ("(AI Act Article 13(1))", [("Article 13(1)", f"{AI}/art/13/para/1")]),
    # ... but not across a sentence, nor when the unit names its own thing
    (
        "Art. 5 DSGVO ist verletzt. Die Satzung regelt in Art. 12 die Wahl.",
        [("Art. 5 DSGVO", f"{G}/art/5"), ("Art. 12", None)],
    ),
    (
        "Art. 5 DSGVO und Art. 4 der Geschäftsordnung",
        [("Art. 5 DSGVO", f"{G}/art/5"), ("Art. 4", None)],
    ),
    (
        "§ 280 BGB gilt; Art. 6 bleibt offen.",
        [("§ 280 BGB", f"{BGB}/sec/280"), ("Art. 6", None)],
    ),
    # a recital's sentence number is a pinpoint inside it
    (
        "Art. 82 DSGVO (vgl. ErwG 146 S. 3)",
        [("Art. 82 DSGVO", f"{G}/art/82"), ("ErwG 146 S. 3", f"{G}/recital/146")],
    ),
]

NEGATIVE15: list[str] = [
    "section 3 of the Terms applies",
    "Appendix 2, section 3.1, lists them",
    "Invoice no. 2023-0815 of 14 August",
    "Anlage 1 zum Mietvertrag",
    "siehe Anlage K 3",
    "Rechnung Nr. 2300 vom 5. Mai",
    "Paragraph 286 of the letter",
    "Mitglied Nr. 1234 des Vereins",
    "<script>var a = '§ 280 BGB';</script>",
    "<style>.x{content:'Art. 6 DSGVO'}</style>",
]

# need the registry of all federal laws (../shared/corpus/de-federal/registry.json)
REGISTRY_FORMS: list[Case] = [
    ("§ 124 a VwGO", [("§ 124 a VwGO", "de/vwgo/sec/124a")]),
    ("§ 44 SGB X", [("§ 44 SGB X", "de/sgb-10/sec/44")]),
    ("§ 44 SGB 10", [("§ 44 SGB 10", "de/sgb-10/sec/44")]),
    (
        "§§ 167 Abs. 2 VwGO, 708 Nr. 11, 711 ZPO",
        [
            ("§§ 167 Abs. 2 VwGO", "de/vwgo/sec/167/para/2"),
            ("708 Nr. 11", "de/zpo/sec/708/point/11"),
            ("711 ZPO", "de/zpo/sec/711"),
        ],
    ),
    (
        "§ 35 des Verwaltungsverfahrensgesetzes",
        [("§ 35 des Verwaltungsverfahrensgesetzes", "de/vwvfg/sec/35")],
    ),
    ("§ 1 Außensteuergesetz", [("§ 1 Außensteuergesetz", "de/astg/sec/1")]),
    ("§ 34 BauGB", [("§ 34 BauGB", "de/baugb/sec/34")]),
    ("§ 1 AStG", [("§ 1 AStG", "de/astg/sec/1")]),
    ("§ 15 BUrlG", [("§ 15 BUrlG", "de/burlg/sec/15")]),
]
