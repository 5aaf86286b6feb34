# ruff: noqa: E501  (pattern tables: each alternative stays one greppable regex)
"""What a passage of a policy, notice, contract, register, report or minutes
must say to be proposed as evidence of one compliance element (the keys of
tests/ontology/scenarios/compliance/ELEMENTS.md), in German and English.

The patterns are written from the wording of the pinned provisions (GDPR,
AI Act, DORA), which dossiers paraphrase: Art. 13(2)(d) GDPR's "right to lodge
a complaint with a supervisory authority" is "Beschwerde bei einer
Aufsichtsbehörde" in a German notice. A sentence may evidence several elements
(one proposal each); a heading cue lets the first sentence of a section count
for the element the heading names when no sentence of the section names it.
Pure data plus compiled regexes."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


@dataclass(frozen=True)
class ElementPattern:
    """``within``: the kind of document the element is read in (searched in
    the document's opening lines and the passage: a FRIA, a letter to the
    market surveillance authority); ``not_within``: a document title the
    element is never read in (a contract is no privacy notice); ``title_only``:
    ``within`` is searched in the title alone (a sub-processing agreement is
    named so; a main contract merely mentions sub-processors)."""

    key: str
    sentence: tuple[re.Pattern[str], ...]
    heading: re.Pattern[str] | None = None
    within: re.Pattern[str] | None = None
    not_within: re.Pattern[str] | None = None
    title_only: bool = False
    in_kind: tuple[tuple[re.Pattern[str], tuple[re.Pattern[str], ...]], ...] = ()

    def says(self, text: str, kind: str) -> bool:
        """Whether the passage says the element: a ``sentence`` in any
        document, or an ``in_kind`` paraphrase in a document of that kind
        (``kind``: its title and opening lines). "stammen aus" is the data's
        origin in a data governance report, and nothing in a contract."""
        return any(rx.search(text) for rx in self.sentence) or any(
            where.search(kind) and any(rx.search(text) for rx in said)
            for where, said in self.in_kind
        )


def _p(
    key: str,
    *sentence: str,
    heading: str | None = None,
    within: str | None = None,
    not_within: str | None = None,
    title_only: bool = False,
    in_kind: tuple[tuple[re.Pattern[str], tuple[re.Pattern[str], ...]], ...] = (),
) -> ElementPattern:
    return ElementPattern(
        key,
        tuple(_rx(s) for s in sentence),
        _rx(heading) if heading else None,
        _rx(within) if within else None,
        _rx(not_within) if not_within else None,
        title_only,
        in_kind,
    )


def _in_kind(
    kind: str, *sentence: str
) -> tuple[tuple[re.Pattern[str], tuple[re.Pattern[str], ...]], ...]:
    """Paraphrases that say the element only in a document of this kind."""
    return ((_rx(kind), tuple(_rx(s) for s in sentence)),)


# A heading's number or label in front of its words ("4.", "Kapitel 4 –",
# "Section 2.1:", "Teil B —"), which heading cues skip.
_NUMBERED = r"^\W*(?:(?:Kapitel|Abschnitt|Chapter|Section|Teil|Part|Ziffer|Clause)\s+)?(?:[A-Z](?=[.\s])|\d{1,2})?(?:\.\d{1,2})*\.?\s*[–—:-]?\s*"


# Kinds of documents, by their title or opening lines. A privacy notice's
# title wins over a contract word in it ("Datenschutzhinweise zum Vertrag").
_NOTICE = r"Datenschutzhinweis|Datenschutzerklärung|Datenschutzinformation|Privacy (?:notice|policy|statement|information)|Information(?:en)? (?:nach|gemäß|zur|über)|Hinweise für"
_CONTRACT = rf"^(?!.*(?:{_NOTICE})).*(?:vertrag|vereinbarung|Agreement|Contract|Terms and conditions|\bDPA\b|Auftragsverarbeitung)"
# Records that are not addressed to data subjects: a contract, a DPIA, a
# balancing record (Art. 13 information is read in notices, not there).
_NOT_A_NOTICE = rf"{_CONTRACT}|Folgenabschätzung|impact assessment|\bDPIA\b|\bDSFA\b|Interessenabwägung|legitimate interests? assessment|balancing test"
# The legitimate interest and its necessity are read in a balancing record
# and in a DPIA, which names "the legitimate interest pursued by the
# controller" (Art. 35(7)(a) GDPR) and assesses necessity (Art. 35(7)(b));
# never in a notice telling data subjects about them.
_NOT_AN_INTEREST_RECORD = _NOTICE
# The means weighed: a milder one did not work or does not exist ("reminder
# letters alone did not bring the rate down", "mildere Mittel reichen nicht").
_NECESSITY_ARGUMENT = (
    r"\b(?:alone|allein|by themselves|für sich)\b.{0,80}\b(?:did not|do not|does not|would not|could not|failed|nicht|keine?)\b"
    r"|\b(?:am wenigsten eingreifend\w*|mildeste\w*|least intrusive|least invasive)\b"
    r"|\b(?:is|are)\s+(?:therefore\s+)?(?:required|needed)\s+for\s+(?:that|this|the)\s+purpose\b"
)
_NOT_A_BALANCING_RECORD = (
    rf"{_NOTICE}|Folgenabschätzung|impact assessment|\bDPIA\b|\bDSFA\b"
)
_DPIA_DOCUMENT = (
    r"Datenschutz-Folgenabschätzung|\bDSFA\b|data protection impact assessment|\bDPIA\b"
)
_SUBPROCESSING = (
    r"Unterauftrag|Sub-?process|Sub-?contract|Subunternehmer|Unterbeauftragung"
)
_FRIA = r"Grundrechte-?Folgenabschätzung|Folgenabschätzung (?:für|der|zu den|im Hinblick auf die) Grundrechte|fundamental rights impact assessment|impact assessment (?:on|for|of) fundamental rights|\bFRIA\b|Art(?:ikel|icle|\.)? ?27 (?:KI-VO|AI Act|der KI-Verordnung)"
_TO_AUTHORITY = r"Marktüberwachungsbehörde|market surveillance authority"
_INSTRUCTIONS_FOR_USE = r"Instructions for use|Betriebsanleitung|Gebrauchsanweisung|Bedienungsanleitung|Gebrauchsanleitung|User (?:manual|guide)|Benutzerhandbuch|Bedienungshandbuch|Betreiberhandbuch|Deployer (?:guide|manual)"
# A provider's own documents: a deployer's duties (Art. 26) are not read there.
_PROVIDER_DOCUMENT = rf"^\W*(?:{_INSTRUCTIONS_FOR_USE}|Risk management|Risikomanagement|Quality management|Qualitätsmanagement|Technical documentation|Technische Dokumentation)"


# A measured performance figure: a metric named with a number ("precision
# 0.91", "Sensitivität von 96,1 %", "98,9 % der Aussagen waren richtig",
# "an AUC of 0.86"), the "levels of accuracy and the relevant accuracy
# metrics" of Art. 15(3) and the "degrees of accuracy" of Annex IV point 3.
_METRIC = (
    r"(?:accuracy|precision|recall|sensitivity|specificity|\bAUC\b|\bF1\b|error rate"
    r"|false[- ]\w+ rate|detection rate|hit rate|agreement|correct(?:ly)?|detected"
    r"|Genauigkeit|Präzision|Trefferquote|Sensitivität|Spezifität|Fehlerrate|Falsch\w*rate"
    r"|Erkennungsrate|Übereinstimmung|überein|richtig|erkannt)"
)
_FIGURE = r"(?:\d+(?:[.,]\d+)?\s?%|\b0[.,]\d{2,3}\b)"
MEASURED = rf"{_METRIC}\b.{{0,80}}{_FIGURE}|{_FIGURE}.{{0,80}}\b{_METRIC}"
# What the system is for: Annex IV point 1(a) and Art. 13(3)(b)(i)
# ("Intended purpose: …", "ist dazu bestimmt, …", "is intended to be used by").
_INTENDED_PURPOSE = (
    r"(?:is|are) intended (?:to|for)\b|intended purpose\s*:|\bis designed to (?:support|assist)"
    r"|(?:ist|sind) dazu bestimmt|Zweckbestimmung\s*:|bestimmungsgemäß\w* (?:Verwendung|Einsatz)\s*:"
)
_TECHNICAL_DOCUMENTATION = (
    r"Technische Dokumentation|Technical documentation|Systemdokumentation"
    r"|System documentation|Annex IV|Anhang IV"
)
# A data governance report or data sheet (Art. 10): the paraphrases of its
# items ("stammen aus", "reicht … aus", "Lücke") are read only there.
_DATA_GOVERNANCE = (
    r"Daten-?[Gg]overnance|Data governance|Datenmanagement|Data management|Trainingsdaten|Training data"
    r"|Datenblatt|Datasheet|Data sheet|Data card|Datenkarte|Art(?:ikel|icle|\.)? ?10 (?:KI-VO|AI Act)"
)
# The risk management file or procedure (Art. 9), where the measures are set.
_RISK_FILE = (
    r"Risikomanagement|Risk management|Risikoakte|Risk file|Hazard log|Gefährdungs"
)


# An output the person overseeing may not set aside (Art. 14(4)(d) the
# other way round): "are locked … cannot be dismissed, edited or reversed",
# "kann … weder aufgehoben noch übersteuert werden".
# A run the person overseeing cannot halt (Art. 14(4)(e) the other way
# round): "kann weder angehalten noch abgebrochen werden", "cannot be stopped".
STOP_EXCLUDED = (
    r"\bweder\b.{0,30}\b(?:angehalten|gestoppt|abgebrochen|unterbrochen)\b.{0,20}\bnoch\b"
    # "lässt sich während einer Schicht nicht vom Leitstand aus anhalten"
    r"|\b(?:kann|können|lässt sich|lassen sich)\b.{0,40}\bnicht\s+(?:mehr\s+)?(?:(?!nur\b)\w+\s+){0,3}?(?:angehalten|gestoppt|abgebrochen|unterbrochen|anhalten|stoppen|abbrechen)\b"
    r"|\b(?:cannot|can not|can't)\s+be\s+(?:\w+\s+)?(?:stopped|halted|interrupted|aborted|paused)\b|\bno (?:way|means) to (?:stop|halt|interrupt|abort)\b"
)
OVERRIDE_EXCLUDED = (
    r"\b(?:cannot|can not|may not|must not)\s+be\s+(?:\w+,?\s+){0,3}?(?:dismissed|overridden|reversed|changed|amended|rejected|cancell?ed)\b"
    r"|\bweder\b.{0,40}\bnoch\b.{0,40}\b(?:übersteuert|aufgehoben|verworfen|geändert|rückgängig)"
    r"|\b(?:kann|können|darf|dürfen)\b.{0,60}\bnicht\s+(?:\w+\s+){0,2}?(?:übersteuert|aufgehoben|verworfen|rückgängig gemacht)\b"
    # the same in the active voice: "kann sie weder ändern noch verwerfen",
    # "has no way to override", "cannot change or reject the score"
    r"|\bweder\b.{0,40}\bnoch\b.{0,20}\b(?:ändern|verwerfen|übersteuern|aufheben|überschreiben|zurückweisen|rückgängig machen)\b"
    r"|\b(?:kann|können|darf|dürfen)\s+(?:sie|es|ihn|diese[n]?|das Ergebnis|die Ausgabe|die Bewertung|den Vorschlag)\s+nicht\s+(?:ändern|verwerfen|übersteuern|aufheben|überschreiben)\b"
    r"|\b(?:cannot|can not|may not|is unable to|are unable to|has no (?:way|means) to|have no (?:way|means) to)\s+(?:override|overrule|reverse|discard|reject|amend)\b"
)


PATTERNS: tuple[ElementPattern, ...] = (
    # ---------------------------------------------------------- GDPR Art. 6(1)(f)
    _p(
        "gdpr_6_1_f_legitimate_interest",
        r"(hat|haben) ein berechtigtes Interesse",
        r"\b(has|have) a legitimate interest",
        r"legitimate interest (?:pursued )?(?:is|lies|consists)",
        # the interest named in other words: "the interest we pursue is",
        # "Wir verfolgen das wirtschaftliche Interesse", "Our purpose is to"
        r"\b(?:the|our)\s+(?:\w+\s+)?interests?\s+(?:we\s+pursue|pursued)\b|\bour\s+(?:\w+\s+)?(?:interest|purpose|aim)\s+(?:is|lies)\b"
        r"|\b(?:verfolgen|verfolgt)\s+(?:das|ein|unser)\w*\s+(?:\w+\s+)?Interesse|\bunser\w*\s+(?:\w+\s+)?(?:Interesse|Ziel|Zweck)\s+(?:ist|besteht|liegt)\b"
        r"|\bpursu(?:es|e|ing)\s+(?:the|an|its|our)\s+(?:\w+\s+)?interests?\s+(?:of|in)\b",
        heading=rf"{_NUMBERED}(berechtigtes Interesse|legitimate interest)s?\s*$",
        not_within=_NOT_AN_INTEREST_RECORD,
    ),
    _p(
        "gdpr_6_1_f_necessity",
        r"mildere[sn]?,? (?:gleich )?(?:wirksame[sn]? )?Mittel",
        r"less intrusive|no (?:equally effective )?(?:less|milder) (?:intrusive )?means",
        r"(?:Verarbeitung|processing) (?:ist )?(?:is )?(?:zur|for).{0,60}(?:erforderlich|necessary)",
        # the means compared: "the least intrusive way", "neither achieves
        # the purpose as effectively", "is necessary because", "erforderlich, weil"
        r"\b(?:least|less)\s+intrusive\b|\bas effectively\b|\bequally effective\b|\bno (?:milder|less intrusive|alternative)\b"
        r"|\b(?:is|are)\s+necessary\s+(?:because|as|since|to)\b|\b(?:erforderlich|notwendig),?\s+(?:weil|da|um)\b"
        r"|\bmilder\w*\s+Mittel|\bgleich\s+(?:wirksam|geeignet)|\bkein\w*\s+(?:milderes|gleich wirksames)",
        _NECESSITY_ARGUMENT,
        heading=rf"{_NUMBERED}(Erforderlichkeit|Necessity)\s*$",
        not_within=_NOT_AN_INTEREST_RECORD,
    ),
    _p(
        "gdpr_6_1_f_balancing",
        r"(?:Interessen|Grundrechte).{0,60}überwiegen.{0,20}nicht",
        r"(?:interests|rights).{0,60}(?:do not|don't) override",
        r"(?:not|nicht) (?:overridden|überwogen)",
        heading=rf"{_NUMBERED}(Abwägung|Interessenabwägung|Balancing(?: test)?)\s*$",
        not_within=_NOT_A_BALANCING_RECORD,
    ),
    # ---------------------------------------------------------- GDPR Art. 13
    _p(
        "gdpr_13_1_a_controller_identity",
        r"Verantwortlich(?:e|er)? (?:für die Verarbeitung|im Sinne)",
        r"\bcontroller (?:for|of|responsible|is)\b",
        r"responsible for (?:the )?processing (?:of your (?:personal )?data )?is",
        r"(?:is|are|acts as) the (?:data )?controller\b|^\W*Verantwortliche[rs]?\s*(?:\(|:)|^\W*(?:Data )?Controller\s*:",
        # the contact details (Art. 13(1)(a)): "our office is at …, telephone …"
        r"\b(?:our|unser\w*)\s+(?:registered\s+)?(?:office|address|head office|Sitz|Anschrift|Büro|Geschäftssitz)\s+(?:is|ist|befindet sich)\b",
        heading=r"(Wer ist verantwortlich|Verantwortliche|Who is responsible|Controller|Who we are|Wer wir sind)\b",
        not_within=_NOT_A_NOTICE,
    ),
    _p(
        "gdpr_13_1_b_dpo_contact",
        r"Datenschutzbeauftragte\w*\b.{0,80}(erreichen|Kontakt|@|unter)",
        r"data protection officer\b.{0,80}(contact|reach|@|at)",
        r"(erreichen|contact).{0,40}(Datenschutzbeauftragte|data protection officer)",
        r"\b(?:DPO|Datenschutzbeauftragte\w*|data protection officer)\b(?!@).{0,80}(?:@|e-?mail|phone|Telefon|erreichbar|erreichen|reach|contact)",
        r"(?:reach|contact)\w* (?:our |the )?DPO\b",
        # the officer named, the address in the next sentence: "Our DPO is
        # Niamh Byrne. Write to dpo@…", "Unser Datenschutzbeauftragter ist …"
        r"\b(?:our|the)\s+(?:DPO|data protection officer)\s+is\b|\bunser\w*\s+Datenschutzbeauftragte\w*\s+ist\b",
        not_within=_NOT_A_NOTICE,
    ),
    _p(
        "gdpr_13_1_c_purposes_legal_basis",
        r"(zur|zum|für) .{0,160}(auf Grundlage|Rechtsgrundlage|gemäß|nach) .{0,40}Art\.? ?6",
        r"(?:verarbeiten|process)\b.{0,200}\(Art(?:icle|\.)? ?6 ?(?:\(1\)|Abs\.? ?1)",
        r"\bto\b.{0,160}\(Article 6\(1\)\([a-f]\) GDPR\)",
        # a purpose clause and its basis in brackets: "um den Vertrag zu
        # erfüllen (Art. 6 Abs. 1 UAbs. 1 lit. b DSGVO)"
        r"\bum\b.{0,160}\bzu\s+\w+\s*\(Art\.?\s*6\s*Abs\.?\s*1\b",
        # the legal basis first, then the purpose: "Art. 6(1)(b) GDPR –
        # processing is necessary to sell you the ticket", "Art. 6 Abs. 1
        # lit. a DSGVO: Ihre Einwilligung für den Newsletter"
        r"^\W*Art(?:icle|ikel|\.)?\s*6\s*(?:\(1\)\s*\(?[a-f]\)?|Abs(?:atz|\.)?\s*1\s*(?:(?:S(?:atz|\.)|UAbs\.)\s*1\s*)?(?:lit\.|Buchst(?:abe|\.))\s*[a-f])\s*(?:GDPR|DSGVO)?\s*[–:\-]\s*\w",
        not_within=_NOT_A_NOTICE,
    ),
    _p(
        "gdpr_13_1_d_legitimate_interests",
        r"verfolgen wir (?:das|unser) berechtigte\w* Interesse",
        r"(?:our|the) legitimate interests? (?:is|are|pursued|lies)",
        r"berechtigte\w* Interesse\w* (?:besteht|liegt|ist)",
        r"\b(?:we|wir)\s+(?:have|haben)\s+(?:a|an|ein)\s+(?:legitimate|berechtigtes)\s+Interesse?\w*"
        r"|\bour\s+(?:\w+\s+)?interests?\s+(?:is|are|in|lies)\b|^\W*(?:Legitimate interests?|Berechtigte\w* Interesse\w*)\b[^:]{0,40}:"
        r"|\bunser\w*\s+(?:\w+\s+)?Interesse\s+(?:ist|besteht|liegt|an)\b"
        r"|\bberechtigte\w* Interesse\w*\b.{0,60}\b(?:besteht|liegt) darin\b|\blegitimate interests?\b.{0,60}\b(?:is|are|lies|consists?) (?:to|in)\b",
        not_within=_NOT_A_NOTICE,
    ),
    _p(
        "gdpr_13_1_e_recipients",
        r"^\W*Empfänger\b",
        r"\bEmpfänger (?:Ihrer|der) (?:personenbezogenen )?Daten",
        r"\brecipients? (?:of your (?:personal )?data )?(?:are|is|include)",
        r"(?:geben|übermitteln) (?:Ihre )?Daten .{0,40}(?:nicht )?an .{0,60}weiter",
        r"(?:are|is|will be|may be) (?:shared with|disclosed to|passed on to|made available to)",
        r"Daten\b.{0,60}\b(?:werden|wird) .{0,60}(?:weitergegeben|offengelegt|übermittelt)\b",
        heading=r"Empfänger|Recipients|Who receives|Wer erhält|Weitergabe",
        not_within=_NOT_A_NOTICE,
    ),
    _p(
        "gdpr_13_1_f_third_country_transfer",
        r"Angemessenheitsbeschluss|Standardvertragsklauseln|Standarddatenschutzklauseln",
        r"adequacy decision|standard contractual clauses|standard data protection clauses",
        # that there is no transfer is the information Art. 13(1)(f) asks for
        r"\b(?:do|does|will)\s+not\s+(?:transfer|send|share)\b.{0,80}\b(?:outside\s+(?:the\s+)?(?:EEA|European|EU)|third\s+countr)"
        r"|\bno\s+(?:data\s+)?transfers?\b.{0,60}\b(?:outside\s+(?:the\s+)?(?:EEA|EU)|third\s+countr)"
        r"|\b(?:nicht|keine)\b.{0,60}\b(?:in\s+(?:ein\s+)?Drittl\w*|außerhalb\s+(?:der|des)\s+(?:EU|EWR|Europäischen))\b.{0,40}\b(?:übermittel|übertragen|weitergegeben)"
        r"|\bkeine\s+Übermittlung\w*\b.{0,40}\bDrittl",
        not_within=_NOT_A_NOTICE,
    ),
    _p(
        "gdpr_13_2_a_storage_period",
        r"(?:löschen|speichern|aufbewahr\w*)\b.{0,80}\b(?:Jahre?n?|Monate?n?|Tage?n?|Wochen?)\b",
        r"\b(?:delete|store|retain|keep|deleted|stored|retained|kept|erased|archived)\b.{0,80}\b(?:years?|months?|days?|weeks?)\b",
        r"\b(?:gelöscht|gespeichert|aufbewahrt|archiviert)\b.{0,80}\b(?:Jahre?n?|Monate?n?|Tage?n?|Wochen?)\b|\b(?:Jahre?n?|Monate?n?|Tage?n?|Wochen?)\b.{0,80}\b(?:gelöscht|gespeichert|aufbewahrt|archiviert)\b",
        r"Speicherdauer|storage period|retention period",
        not_within=_NOT_A_NOTICE,
    ),
    _p(
        "gdpr_13_2_b_data_subject_rights",
        r"Recht auf Auskunft|Auskunft, Berichtigung",
        r"right (?:of|to) access|access, rectification",
        r"(?:request|ask for|obtain) access (?:to|of)|right to (?:rectification|erasure|object|data portability)|Recht auf (?:Berichtigung|Löschung|Datenübertragbarkeit)",
        not_within=_NOT_A_NOTICE,
    ),
    _p(
        "gdpr_13_2_c_withdraw_consent",
        r"Einwilligung .{0,60}widerrufen|Widerruf .{0,30}Einwilligung",
        r"withdraw (?:your )?consent",
        not_within=_NOT_A_NOTICE,
    ),
    _p(
        "gdpr_13_2_d_complaint_right",
        r"Beschwerde\w* .{0,60}Aufsichtsbehörde|Aufsichtsbehörde.{0,60}beschweren",
        r"complaint with (?:a|the|any|your) (?:competent )?(?:data protection )?supervisory authority",
        r"complain to (?:the|a|your|any)\b|lodge a complaint|(?:Aufsichtsbehörde|Datenschutzbehörde|Landesbeauftragte\w*)\b.{0,60}beschwer|beschwer\w* .{0,60}(?:Aufsichtsbehörde|Datenschutzbehörde|Landesbeauftragte)",
        not_within=_NOT_A_NOTICE,
    ),
    _p(
        "gdpr_13_2_e_requirement_consequences",
        r"(?:ist|sind) .{0,60}(?:erforderlich|verpflichtend|notwendig|vorgeschrieben); ohne",
        r"ohne (?:sie|diese Angaben?|diese Daten) (?:können|kann) wir",
        r"(?:necessary|required|mandatory) .{0,60}; without",
        r"without (?:it|them|these data|this information),? we (?:cannot|can't|are unable)",
        r"if you do not (?:provide|give)\b.{0,60}\b(?:cannot|can't|are unable|will not be able)",
        r"(?:wenn|falls) Sie\b.{0,60}\bnicht (?:angeben|bereitstellen|mitteilen|machen)\b.{0,60}(?:können|kann) wir",
        # the data named first: "Ohne Name, Anschrift und Geburtsdatum
        # können wir keinen Ausweis ausstellen", "without your ID we cannot"
        r"^\W*Ohne\b.{0,120}\b(?:können|kann) wir\b.{0,60}\b(?:kein\w*|nicht)\b|^\W*Without\b.{0,120}\bwe (?:cannot|can't|are unable|will not be able)\b",
        heading=r"(Pflicht zur Bereitstellung|Bereitstellung|Obligation to provide|Requirement to provide)",
        not_within=_NOT_A_NOTICE,
    ),
    _p(
        "gdpr_13_2_f_automated_decision",
        r"(?:score|Bewertung|Entscheidung)\b.{0,80}(?:beruht auf|basiert auf|is based on|based on)",
        r"involvierte\w* Logik|logic involved|Tragweite|significance and (?:the )?(?:envisaged )?consequences",
        r"(?:a|eine) (?:rejection|Ablehnung) (?:means|bedeutet)",
        not_within=_NOT_A_NOTICE,
    ),
    # ---------------------------------------------------------- GDPR Art. 28(3)
    _p(
        "gdpr_28_3_subject_matter",
        r"^\W*Gegenstand (?:ist|des Auftrags|der Verarbeitung)",
        r"^\W*(?:The )?subject[- ]matter (?:of|is)",
        r"(?:Art und Zweck|nature and purpose) der Verarbeitung|nature and purpose of (?:the )?processing",
        r"\b(?:The )?processing (?:concerns|covers|relates to|comprises|includes|consists of)\b",
        r"\bVerarbeitung (?:betrifft|umfasst|erstreckt sich auf|bezieht sich auf)\b",
        r"categories of data subjects|the data subjects are|Kategorien (?:der )?betroffenen Personen|betroffenen Personen sind",
        heading=rf"{_NUMBERED}(?:Gegenstand|Subject[- ]matter)\b",
        not_within=_NOTICE,
    ),
    _p(
        "gdpr_28_3_a_documented_instructions",
        r"dokumentierte\w* Weisung",
        r"documented instructions?",
        r"(?:nur|ausschließlich|allein) (?:auf|nach|gemäß|im Rahmen der) (?:\w+ ){0,2}Weisung|weisungsgebunden",
        r"only (?:on|upon|in accordance with|as instructed by|pursuant to) (?:the )?(?:\w+['’]s )?(?:\w+ )?instructions",
        not_within=_NOTICE,
    ),
    _p(
        "gdpr_28_3_b_confidentiality",
        r"zur Vertraulichkeit verpflichtet",
        r"(?:auf das Datengeheimnis|zur Verschwiegenheit|auf Vertraulichkeit) verpflichtet|Verschwiegenheitspflicht|Vertraulichkeitsverpflichtung",
        r"bound by (?:\w+ )?confidentiality|confidentiality (?:obligations|undertakings|agreements)",
        r"committed themselves to confidentiality|(?:under|bound by) (?:a |an appropriate )?(?:statutory )?(?:obligation|duty) of confidentiality",
        not_within=_NOTICE,
    ),
    _p(
        "gdpr_28_3_c_security_measures",
        r"Art\.? ?32 DSGVO erforderlich|nach Art\.? ?32 .{0,40}Maßnahmen",
        r"(?:required|measures) (?:pursuant to|under) Article 32",
        r"(?:technische\w* und organisatorische\w* Maßnahmen|\bTOMs?\b)\b.{0,100}Art(?:ikel|\.)? ?32|Art(?:ikel|\.)? ?32\b.{0,60}Maßnahmen",
        r"(?:technical and organi[sz]ational measures|\bTOMs?\b)\b.{0,120}Article 32|Article 32\b.{0,60}measures",
        not_within=_NOTICE,
    ),
    _p(
        "gdpr_28_3_d_subprocessor_conditions",
        r"(?:weitere\w*|Unter)[- ]?(?:auftrags)?verarbeiter\w*.{0,80}Genehmigung",
        r"(?:Unterauftragnehmer|Subunternehmer|Unterauftragsverarbeiter)\w*\b.{0,80}(?:Genehmigung|Zustimmung)|(?:Genehmigung|Zustimmung)\b.{0,80}(?:Unterauftragnehmer|Subunternehmer|Unterauftragsverarbeiter)",
        r"(?:another|sub-?)processors?\b.{0,80}(?:authori[sz]ation|consent)",
        # the law's own wording: "hält ... die Bedingungen des Art. 28 Abs. 2
        # und 4 ein", "the conditions referred to in paragraphs 2 and 4"
        r"\bBedingungen\b.{0,40}\b(?:Abs(?:atz|\.)?\s*2\s+und\s+(?:Abs(?:atz|\.)?\s*)?4|Absätze\s+2\s+und\s+4)"
        r"|\b(?:Abs(?:atz|\.)?\s*2\s+und\s+(?:Abs(?:atz|\.)?\s*)?4|Absätze\s+2\s+und\s+4)\b.{0,40}\bBedingungen\b"
        r"|\bconditions\b.{0,60}\b(?:paragraphs?\s+2\s+and\s+4|Art(?:icle|\.)?\s*28\s*\(2\)\s+and\s+\(4\))",
        r"(?:sub-?processors?|subcontractors?|other processors?)\b.{0,120}\b(?:same|equivalent|identical|corresponding) data protection obligations",
        r"(?:Unterauftragsverarbeiter|Subunternehmer|weitere\w* Auftragsverarbeiter|Unterauftragnehmer)\w*\b.{0,120}(?:dieselben|gleichen|gleichwertige\w*|identische\w*|entsprechende\w*) Datenschutzpflichten",
        not_within=_NOTICE,
    ),
    _p(
        "gdpr_28_3_e_assist_data_subject_rights",
        r"Rechte der betroffenen Person",
        r"(?:rights|requests) of (?:the )?data subjects?|data subjects?['’]?s?['’]? (?:rights|requests)",
        r"Betroffenenrechte|(?:Anträge|Anfragen|Ersuchen)\w* (?:der )?betroffene\w* Person",
        r"data subject (?:\w+ ){0,2}requests",
        not_within=_NOTICE,
    ),
    _p(
        "gdpr_28_3_f_assist_32_36",
        r"Art(?:ikel|\.)n? 32 bis 36",
        r"Articles? 32 to 36",
        not_within=_NOTICE,
    ),
    _p(
        "gdpr_28_3_g_delete_or_return",
        r"(?:löscht|Löschung).{0,160}(?:zurück|Rückgabe)|nach Wahl .{0,40}(?:löscht|zurück)",
        r"(?:delete|deletes|deletion|destroy|erase)\w*.{0,80}return|return.{0,80}(?:delete|deletes|deletion|destroy|erase)",
        r"(?:zurück|Rückgabe|herausgeben|Herausgabe)\w*.{0,80}(?:löscht|Löschung|gelöscht|löschen|vernichtet)",
        not_within=_NOTICE,
    ),
    _p(
        "gdpr_28_3_h_audit_information",
        r"(?:Überprüfungen|Inspektionen|Audits?|Kontrollen)\b.{0,80}(?:ermöglicht|Beitr|zulässt|duldet|durch)",
        r"(?:audits?|inspections?)\b.{0,80}(?:allow|contribute|permit|conducted)",
        r"(?:allow|permit|submit to|contribute to|cooperate (?:with|in))\w*\b.{0,40}(?:audits?|inspections?)",
        r"(?:Inspektionen|Kontrollen|Audits?|Prüfungen)\b.{0,80}(?:überprüf|mitwirk|wirkt)\w*",
        r"alle erforderlichen Informationen zum Nachweis|all information necessary to demonstrate",
        not_within=_NOTICE,
    ),
    # ---------------------------------------------------------- GDPR Art. 28(2), (4)
    _p(
        "gdpr_28_2_prior_authorisation",
        r"(?:allgemeine|gesonderte) (?:vorherige )?schriftliche Genehmigung",
        r"(?:general|specific) (?:prior )?written authori[sz]ation",
        r"(?:erteilt|gibt) (?:\w+ ){0,3}(?:allgemeine|gesonderte)\w* (?:\w+ )?Genehmigung",
        r"(?:grants?|gives?|given) (?:\w+ ){0,3}(?:general|specific) (?:\w+ ){0,2}authori[sz]ation",
        not_within=_NOTICE,
    ),
    _p(
        "gdpr_28_2_change_notice_objection",
        r"(?:beabsichtigte|geplante) Änderung.{0,200}(?:Einspruch|Widerspruch|widersprechen)",
        r"(?:intended|planned|proposed|any)\s+(?:\w+\s+){0,2}?(?:changes?|additions?|replacements?)\b.{0,200}object",
        r"(?:notice|inform|notif)\w*\b.{0,200}(?:object|objection)",
        r"(?:Hinzuziehung|Ersetzung|Austausch|Änderung)\w*\b.{0,200}(?:Einspruch|Einsprüche|Widerspruch|widersprechen|Einwände)",
        # a change notice's own words, or the opposite ("without prior
        # information; an objection is not provided for")
        r"\b(?:you|Sie)\s+(?:may|can|können|dürfen)\s+(?:\w+\s+){0,4}?(?:object|widersprechen|Einspruch|Einwände)"
        r"|(?:vorherige\w*\s+Information|prior\s+(?:notice|information))\b.{0,40}\b(?:nicht\s+möglich|not\s+(?:possible|given|provided))"
        r"|\bohne\s+vorherige\w*\s+(?:Information|Mitteilung|Unterrichtung)|\bwithout\s+(?:prior|advance)\s+(?:notice|information)",
        not_within=_NOTICE,
    ),
    _p(
        "gdpr_28_4_flow_down",
        r"(?:dieselben|gleichen|gleichwertige\w*|identische\w*|entsprechende\w*) Datenschutzpflichten",
        r"(?:same|equivalent|identical|corresponding) data protection obligations|data protection obligations (?:identical|equivalent|corresponding) to",
        within=_SUBPROCESSING,
        title_only=True,
    ),
    # ---------------------------------------------------------- GDPR Art. 35
    _p(
        "gdpr_35_2_dpo_advice",
        r"Datenschutzbeauftragte\w* .{0,60}(?:konsultiert|beteiligt|Rat|Stellungnahme|eingebunden)",
        r"data protection officer was consulted|advice of the data protection officer|DPO (?:was )?consulted",
        r"(?:Datenschutzbeauftragte\w*|\bDSB\b)\b.{0,60}(?:Stellung genommen|angehört|beraten|Empfehlung)",
        r"(?:data protection officer|\bDPO\b)\b.{0,60}(?:advised|gave (?:her|his|their|its) (?:advice|opinion)|opinion|was heard)",
        heading=r"Stellungnahme|Rat de[rs] Datenschutzbeauftragten|Beteiligung de[rs] (?:Datenschutzbeauftragten|DSB)|(?:DPO|data protection officer)['’]?s? (?:advice|opinion)|Advice of the (?:DPO|data protection officer)",
        within=_DPIA_DOCUMENT,
    ),
    _p(
        "gdpr_35_7_a_description",
        r"^\W*Systematische Beschreibung|^\W*Beschreibung der Verarbeitung",
        r"^\W*Systematic description",
        heading=rf"{_NUMBERED}(?:(?:Systematic |Systematische )?(Beschreibung|Description)\b|(?:The |Die )?(?:processing|Verarbeitung)(?: operations?|svorgänge|stätigkeit)?\s*$)",
        within=_DPIA_DOCUMENT,
    ),
    _p(
        "gdpr_35_7_b_necessity_proportionality",
        r"Notwendigkeit und Verhältnismäßigkeit|Erforderlichkeit und Verhältnismäßigkeit",
        r"Necessity and proportionality",
        _NECESSITY_ARGUMENT,
        heading=rf"{_NUMBERED}(?:Bewertung der |Prüfung der |Assessment of (?:the )?)?(?:Notwendigkeit|Erforderlichkeit|Verhältnismäßigkeit|Necessity|Proportionality)\b",
        within=_DPIA_DOCUMENT,
    ),
    _p(
        "gdpr_35_7_c_risk_assessment",
        r"^\W*Risiken für (?:die )?(?:Rechte|betroffene)",
        r"^\W*Risks (?:to|for) (?:the )?(?:rights|data subjects)",
        heading=rf"{_NUMBERED}(?:Bewertung der |Assessment of (?:the )?)?(Risiken|Risks|Risikobewertung|Risk assessment)\b",
        within=_DPIA_DOCUMENT,
    ),
    _p(
        "gdpr_35_7_d_measures",
        r"^\W*(?:Abhilfe)?Maßnahmen\s*:",
        r"^\W*(?:Measures|Safeguards)(?: envisaged)?\s*:",
        heading=rf"{_NUMBERED}(?:Geplante |Envisaged |Planned )?(Maßnahmen|Abhilfemaßnahmen|Measures|Safeguards)\b",
        within=_DPIA_DOCUMENT,
    ),
    # ---------------------------------------------------------- AI Act Art. 9
    _p(
        "aia_9_1_rms_established",
        r"Risikomanagementsystem .{0,80}(?:eingerichtet|angewandt|dokumentiert)",
        r"(?:established|implemented|documented).{0,40}risk management system",
    ),
    _p(
        "aia_9_2_a_risk_identification",
        r"(?:bekannte|vorhersehbare) .{0,60}Risiken .{0,80}(?:ermittelt|analysiert)",
        r"(?:known|foreseeable) .{0,60}risks .{0,80}(?:identified|analysed|analyzed)",
        r"(?:bekannt|vorhersehbar)\w*\b.{0,60}\bRisiken\b.{0,80}(?:ermittelt|analysiert|identifiziert)",
        # risks or hazards identified (and analysed), however introduced
        r"\b(?:risks?|hazards?)\b.{0,60}\b(?:were|are|was|is)\s+identified\b|\bidentif(?:y|ied|ies)\s+(?:and\s+analy[sz]e[sd]?\s+)?(?:the\s+)?(?:known\s+)?(?:\w+\s+)?(?:risks|hazards)\b",
        r"\b(?:Risiken|Gefährdungen|Gefahren)\b.{0,60}\b(?:wurden|werden)\s+(?:\w+\s+){0,8}?(?:ermittelt|identifiziert)\b",
        within=rf"{_RISK_FILE}|{_TECHNICAL_DOCUMENTATION}",
    ),
    _p(
        "aia_9_2_b_risk_estimation_misuse",
        r"Fehlanwendung|missbräuchlich",
        r"foreseeable misuse",
        r"außerhalb (?:des|der|seiner|ihrer) (?:\w+ )?(?:Zwecks?|Zweckbestimmung)|outside (?:the|its) intended purpose",
        heading=r"Fehlanwendung|Missbrauch|misuse",
    ),
    _p(
        "aia_9_2_c_post_market_risk_evaluation",
        r"Beobachtung nach dem Inverkehrbringen|Marktbeobachtung",
        r"post-market monitoring",
    ),
    _p(
        "aia_9_2_d_risk_measures",
        r"Risikomanagementmaßnahmen",
        r"risk management measures",
        # the measures set per risk ("for every hazard … a specific control
        # is defined", "für jede Gefährdung … sind Gegenmaßnahmen festgelegt")
        r"(?:for (?:every|each) (?:hazard|risk)|für jede (?:Gefährdung|Risiko|Gefahr))\b.{0,160}\b(?:measures?|controls?|Maßnahmen|Gegenmaßnahmen)",
        r"(?:targeted|specific|gezielte|spezifische)\s+(?:risk |Risiko)?(?:measures|controls|(?:Gegen)?maßnahmen)\b.{0,60}\b(?:adopted|defined|set|festgelegt|ergriffen|beschlossen)",
        # a risk file's section of measures ("3.3 Maßnahmen. Antworten …")
        heading=rf"{_NUMBERED}(?:Risiko|Risk )?(?:(?:Gegen)?[Mm]aßnahmen|[Mm]easures|[Mm]itigations?|[Cc]ontrols)\s*$",
        within=rf"{_RISK_FILE}|{_TECHNICAL_DOCUMENTATION}",
    ),
    _p(
        "aia_9_8_testing",
        r"(?:getestet|Tests?) .{0,80}(?:vorab festgelegt|Metriken|Schwellenwert)",
        r"tested .{0,80}(?:prior defined|metrics|thresholds)",
        r"(?:vorab festgelegt\w*|Metriken|Schwellenwert\w*)\b.{0,80}\bgetestet|(?:prior defined|predefined|pre-defined) (?:metrics|thresholds)\b.{0,80}\btest",
        in_kind=_in_kind(
            rf"{_RISK_FILE}|{_TECHNICAL_DOCUMENTATION}|Test|Prüfbericht|Protokoll|[Mm]inutes|Validierung|Validation",
            # a release or acceptance test against fixed criteria, or its
            # date (Art. 9(8): "prior to the placing on the market")
            r"\b(?:tests?|testing|test run|validation run|Test\w*|Prüfung|Validierung\w*)\b.{0,120}\b(?:acceptance (?:thresholds|criteria)|Abnahmekriterien|Akzeptanzkriterien|Freigabekriterien)\b"
            r"|\b(?:Abnahmetest\w*|Freigabetest\w*|Validierungslauf\w*|acceptance tests?|release tests?|validation runs?)\b",
        ),
    ),
    # ---------------------------------------------------------- AI Act Art. 10
    _p(
        "aia_10_2_a_design_choices",
        r"konzeptionelle\w* Entscheidung",
        r"design choices",
        in_kind=_in_kind(
            _DATA_GOVERNANCE,
            # in a data governance report: what the model is, how it is built
            r"(?:modell|model)\b.{0,40}\b(?:ist|is)\s+(?:ein|eine|a|an)\b.{0,60}(?:modell|model|netz|network|Klassifikator|classifier|Transformer|Regression|Entscheidungsb\w+|decision tree|ensemble)\b"
            r"|\b(?:Modellarchitektur|Architektur des Modells|model architecture|architecture of the model)\b"
            r"|\b(?:haben uns|hat sich|wurde sich)\b.{0,100}\bentschieden\b|\bwe (?:chose|opted|decided)\b|\b(?:was|were) chosen (?:over|instead of|rather than)\b",
        ),
    ),
    _p(
        "aia_10_2_b_data_origin",
        r"Herkunft der Daten|Datenherkunft|Datenerhebung",
        r"(?:origin|provenance) of (?:the )?data|data (?:collection|origin)",
        in_kind=_in_kind(
            _DATA_GOVERNANCE,
            # Art. 10(2)(b): where the data come from and what they were
            # collected for ("bereitgestellt von drei Kammern", "sourced from")
            r"\b(?:stamm(?:en|t)|entstamm(?:en|t)) aus\b|\bbereitgestellt (?:von|durch)\b|\b(?:Datenquellen?|Quellen? der Daten)\b|^\W*Quelle\b"
            r"|\b(?:sourced|obtained|licensed|collected|provided|supplied|drawn) (?:from|by)\b|\bsources? of the (?:training )?data\b|^\W*Source\b"
            r"|\bursprünglich\w* (?:Zweck|erhoben)|\boriginal(?:ly)? (?:purpose|collected)",
        ),
    ),
    _p(
        "aia_10_2_c_data_preparation",
        r"Annotation|Kennzeichnung|Bereinigung",
        r"annotation|labelling|labeling|cleaning",
        in_kind=_in_kind(
            _DATA_GOVERNANCE,
            r"\b(?:annotiert|gelabelt|bereinigt|dedupliziert|Dubletten\w*|annotated|labell?ed|cleaned|de-?duplicated|duplicates)\b",
        ),
    ),
    _p(
        "aia_10_2_d_assumptions",
        r"Annahmen",
        r"assumptions",
        in_kind=_in_kind(
            _DATA_GOVERNANCE,
            r"\b(?:wird|werden|wurde|wurden) (?:\w+ )?(?:angenommen|vorausgesetzt|unterstellt)\b|\bwir gehen davon aus\b|\bAnnahme\b"
            r"|\b(?:is|are|was|were) (?:\w+ )?(?:assumed|presumed)\b|\bwe assume\b|\bassumption\b",
        ),
    ),
    _p(
        "aia_10_2_e_availability_suitability",
        r"Verfügbarkeit, Menge und Eignung|Menge und Eignung",
        r"availability, quantity and suitability|quantity and suitability",
        in_kind=_in_kind(
            _DATA_GOVERNANCE,
            # whether there are enough data, and suitable ones, for the purpose
            r"\b(?:reicht|reichen|genügt|genügen)\b.{0,100}\b(?:aus|für)\b|\b(?:ausreichend\w*|nicht geeignet|geeignet für)\b"
            r"|\b(?:sufficient|insufficient|adequate|enough)\b.{0,60}\b(?:data|records|examples|samples|images|size|volume|for)\b|\b(?:not )?suitable for\b",
        ),
    ),
    _p(
        "aia_10_2_f_bias_examination",
        r"(?:untersucht|Untersuchung|geprüft).{0,60}(?:Verzerrung|Bias)",
        r"(?:examined|examination|tested).{0,60}(?:bias|biases)",
    ),
    _p(
        "aia_10_2_g_bias_measures",
        r"(?:Verzerrung|Bias)\w*.{0,60}(?:erkennen|verhindern|abschwächen|Maßnahmen)",
        r"(?:detect|prevent|mitigate).{0,40}bias",
        in_kind=_in_kind(
            _DATA_GOVERNANCE,
            r"\b(?:Gegenmaßnahmen|Neugewichtung\w*|Umgewichtung\w*|Stellvertretermerkmal\w*|reweight\w*|re-weight\w*|proxy (?:features?|variables?)|fairness (?:constraint|gate|threshold)s?)\b",
        ),
    ),
    _p(
        "aia_10_2_h_data_gaps",
        r"Datenlücken|Mängel .{0,30}Daten",
        r"data gaps|shortcomings",
        in_kind=_in_kind(
            _DATA_GOVERNANCE,
            r"\bLücken?\b|\b(?:unterrepräsentiert|zu wenige)\b|\bgaps?\b|\bunder-?represented\b|\btoo few\b",
        ),
    ),
    _p(
        "aia_10_3_data_quality",
        r"repräsentativ|fehlerfrei",
        r"representative|free of errors",
        in_kind=_in_kind(
            _DATA_GOVERNANCE,
            # checked for errors and completeness (Art. 10(3))
            r"\b(?:Fehlerquote|Fehlerrate|Fehlannotation\w*|Annotationsfehler\w*)\b|\b(?:error rate|mislabel\w*|label(?:l?ing)? errors?|annotation errors?|label noise)\b"
            r"|\b(?:auf|for) (?:Fehler|Vollständigkeit|errors|completeness)\b.{0,40}\b(?:geprüft|untersucht|checked|examined|reviewed|verified)\b"
            r"|\b(?:geprüft|untersucht|checked|examined|reviewed|verified) (?:auf|for) (?:Fehler|Vollständigkeit|errors|completeness)\b",
        ),
    ),
    _p(
        "aia_10_4_context_characteristics",
        r"geografisch\w*|kontextuell\w*|verhaltensbezogen\w*",
        r"geographical|contextual|behavioural setting",
        in_kind=_in_kind(
            _DATA_GOVERNANCE,
            # the setting the system is used in: regions, countries, environments
            r"\bregional\w*|\bBundesl(?:and|änder\w*)\b|\b(?:anderer|aller|mehrerer) Länder\b|\b(?:ländlich|städtisch)\w*|\bEinsatz(?:umgebung|kontext|gebiet)\w*"
            r"|\b(?:countries|regions?|rural|urban)\b|\b(?:deployment|operating|usage) (?:setting|context|environment)s?\b",
        ),
    ),
    _p(
        "aia_10_5_special_categories_conditions",
        r"besondere\w* Kategorien .{0,80}(?:Verzerrung|Bias)",
        r"special categories .{0,80}bias",
    ),
    # ---------------------------------------------------------- AI Act Art. 11, 12, 15
    _p(
        "aia_11_annex_iv_1_general_description",
        r"allgemeine Beschreibung",
        r"general description",
        _INTENDED_PURPOSE,
        # what the system is and the form it is placed on the market in
        # (Annex IV point 1(a), (d)): "LeckWacht 1.0 ist ein
        # Sicherheitsbauteil zur …", "X is supplied as a hosted service"
        r"^\W*(?:\d+(?:\.\d+)*\.?\s+)?[A-ZÄÖÜ][\w-]*(?:\s+[\w.-]+){0,3}\s+(?:ist|is)\s+(?:ein|eine|a|an)\s+(?:[\w-]+\s+){0,4}?(?:\w*system|\w*bauteil|safety component|service|\w*software|tool|application|Anwendung|Dienst|platform|Plattform|model|Modell)\b"
        r"|\b(?:is|are) (?:supplied|delivered|provided|offered|distributed|placed on the market) as\b|\b(?:runs|is run|is operated|is hosted|läuft|wird betrieben) (?:as|als) (?:a |an |ein\w* )?(?:hosted|cloud|SaaS|on-?premises?|gehostet\w*)|\bwird als\b.{0,60}\b(?:bereitgestellt|geliefert|angeboten|vertrieben|in Verkehr gebracht)\b",
        within=_TECHNICAL_DOCUMENTATION,
        title_only=True,
    ),
    _p(
        "aia_11_annex_iv_2_development_process",
        r"Entwicklungsprozess",
        r"development process",
    ),
    _p(
        "aia_11_annex_iv_3_monitoring_functioning",
        r"Überwachung, Funktionsweise|Funktionsweise und Kontrolle",
        r"monitoring, functioning and control",
        # the degrees of accuracy and the limits of performance (point 3)
        MEASURED,
        r"Leistungsgrenzen|limitations? (?:of|in) performance|performance is (?:lower|reduced|poorer)|\bless (?:reliable|accurate)\b|\bweniger (?:zuverlässig|genau|treffsicher)\b"
        r"|(?:Leistung|Genauigkeit|Erkennungsleistung) (?:ist |sinkt |fällt )?\w* ?(?:geringer|niedriger|schlechter)",
        within=_TECHNICAL_DOCUMENTATION,
        title_only=True,
    ),
    _p(
        "aia_11_annex_iv_4_performance_metrics",
        r"Leistungskennzahlen|Leistungsmetriken",
        r"performance metrics",
    ),
    _p(
        "aia_11_annex_iv_5_risk_management",
        r"Beschreibung des Risikomanagementsystems",
        r"description of the risk management system",
    ),
    _p(
        "aia_11_annex_iv_6_lifecycle_changes",
        r"Änderungen .{0,40}Lebenszyklus",
        r"changes .{0,40}lifecycle",
        in_kind=_in_kind(
            _TECHNICAL_DOCUMENTATION,
            # a change log entry (Annex IV point 6): "Version 3.0.2 vom
            # 27.10.2026: Korrektur …", "v2.1 (3 May 2026) – corrected …"
            r"^\W*(?:Version|Release|Fassung|v)\s*\d+\.\d+(?:\.\d+)?\b[^:–—]{0,40}[:–—]\s*\w",
        ),
    ),
    _p(
        "aia_11_annex_iv_7_standards",
        r"harmonisierte\w* Normen",
        r"harmoni[sz]ed standards",
        # a standard named by its number (Annex IV point 7)
        r"\bISO/IEC\s*\d{4,5}|\b(?:DIN\s+)?EN\s+(?:ISO\s+)?\d{4,5}\b|\bIEEE\s+\d{3,5}\b|\bCEN-?CENELEC\b",
    ),
    _p(
        "aia_11_annex_iv_8_declaration_of_conformity",
        r"Konformitätserklärung",
        r"declaration of conformity",
    ),
    _p(
        "aia_11_annex_iv_9_post_market_plan",
        r"Plan zur Beobachtung nach dem Inverkehrbringen",
        r"post-market monitoring plan",
    ),
    _p(
        "aia_12_1_automatic_logging",
        r"automatisch\w* (?:Aufzeichnung|Protokollierung)",
        r"automatic(?:ally)? (?:recording|logging|records?|logs?)",
    ),
    _p(
        "aia_12_2_traceability_events",
        r"Rückverfolgbarkeit",
        r"traceability",
    ),
    _p(
        "aia_15_3_accuracy_declared",
        r"Genauigkeitsgrad|angegebene\w* Genauigkeit|Genauigkeitsmaße",
        r"declared (?:level of )?accuracy|level of accuracy",
        # the measured levels as the instructions for use declare them
        MEASURED,
        within=_INSTRUCTIONS_FOR_USE,
        title_only=True,
    ),
    _p(
        "aia_15_4_robustness",
        r"Robustheit|robust gegen",
        r"robustness|resilient (?:to|against) errors",
        # Art. 15(4): redundancy, backup or fail-safe plans, feedback loops
        r"fail-?safe|fall(?:s)? back to|fallback|redundan\w*|takes over within|backup (?:plan|service|system)"
        r"|Rückfallebene|schaltet \w* ?(?:\w+ )?(?:selbsttätig |automatisch )?(?:in|auf) \w+ (?:zurück|um)|Redundanz|redundant\w*"
        r"|feedback loop|Rückkopplung\w*|(?:does not|never) learn\w* (?:from|during|in) (?:live|operation|use)"
        r"|(?:lernt|lernen) (?:nicht )?(?:im|aus dem) (?:laufenden )?Betrieb",
    ),
    _p(
        "aia_15_5_cybersecurity",
        r"Datenvergiftung|feindliche\w* Beispiele|Cybersicherheit",
        r"data poisoning|adversarial|cybersecurity",
    ),
    # ---------------------------------------------------------- AI Act Art. 13(3)
    _p(
        "aia_13_3_a_provider_identity",
        heading=rf"{_NUMBERED}(Anbieter(?:in)?|Provider|Hersteller(?:in)?)\s*$",
        within=_INSTRUCTIONS_FOR_USE,
        title_only=True,
    ),
    _p(
        "aia_13_3_b_characteristics_performance",
        r"(?:Tested|Geprüfte|Getestete) (?:accuracy|Genauigkeit)",
        # (b)(i) intended purpose, (ii) accuracy, (iv) known limits,
        # (vi) the input data
        _INTENDED_PURPOSE,
        MEASURED,
        r"not (?:been )?validated for|not suitable for|only (?:of )?limited (?:use|suitability)"
        r"|nur eingeschränkt geeignet|nicht (?:validiert|geeignet) für"
        r"|^\W*(?:Grenzen|Leistungsgrenzen|Limitations|Performance limits|Known limitations)\s*:"
        r"|\bnot (?:intended|designed|meant) (?:for|to)\b|\b(?:must|should|may) not be used (?:for|with|on|to|in)\b"
        r"|\bnicht (?:dafür )?bestimmt\b|\b(?:ist|sind) (?:es |er |sie )?(?:nicht|weder) (?:\w+ )?bestimmt\b|\b(?:darf|dürfen|soll|sollen) nicht\b.{0,60}\b(?:eingesetzt|verwendet|genutzt) werden\b",
        r"^\W*(?:Inputs?|Eingaben|Eingabedaten) (?:are|is|sind)\b",
        heading=r"(Merkmale, Fähigkeiten|Characteristics, capabilities)",
        within=_INSTRUCTIONS_FOR_USE,
        title_only=True,
    ),
    _p(
        "aia_13_3_c_predetermined_changes",
        r"(?:pre-?determined|vorab festgelegte\w*) (?:changes|Änderungen)",
        # changes fixed beforehand, or none: Art. 13(3)(c)
        r"(?:determined|defined|fixed|specified|festgelegt|bestimmt)\w*\s+(?:in advance|beforehand|vorab|im Voraus|vor der (?:ersten )?Konformitätsbewertung)"
        r"|(?:permitted|zulässige\w*|vorgesehene\w*) (?:changes|Änderungen)"
        r"|(?:retrain\w*|re-trained|neu trainiert|nachtrainiert)\b.{0,100}\b(?:same|unchanged|gleich|unverändert)"
        r"|(?:does not|do not) (?:learn|change)\w* (?:in|during) (?:operation|use)|lernt (?:im Betrieb )?nicht",
        within=_INSTRUCTIONS_FOR_USE,
        title_only=True,
    ),
    _p(
        "aia_13_3_d_human_oversight_measures",
        r"(?:provides|bietet) .{0,40}(?:explanation|Erklärung)",
        # the oversight tools the provider builds in or prescribes
        r"(?:für die|zur) (?:menschliche\w* )?Aufsicht\b.{0,80}\b(?:bereit|Hilfen|Funktionen|Werkzeuge|vorgesehen)"
        r"|\b(?:oversight|Aufsicht)\s+(?:measures|tools|functions|features|Maßnahmen|Funktionen)\b"
        r"|\bassign\w*\s+(?:human\s+)?oversight\b|(?:ausschließlich|nur|only|immer|stets|always)\s+(?:durch\s+)?(?:einen?\s+|a\s+)?(?:Mensch\w*|human)",
        heading=rf"{_NUMBERED}(Human oversight|Menschliche Aufsicht)\s*$",
        within=_INSTRUCTIONS_FOR_USE,
        title_only=True,
    ),
    _p(
        "aia_13_3_e_resources_lifetime_maintenance",
        r"(?:Expected )?lifetime|Lebensdauer",
        within=_INSTRUCTIONS_FOR_USE,
        title_only=True,
    ),
    _p(
        "aia_13_3_f_log_mechanisms",
        r"(?:export|collect|store|read).{0,40}(?:event )?logs|Protokolle .{0,40}(?:exportieren|abrufen|auslesen)",
        r"\blogs?\b.{0,60}\b(?:exported|collected|read out|retrieved)|protokoll\w*\b.{0,60}(?:exportiert|abgerufen|ausgelesen|exportieren|abrufen|auslesen)",
        within=_INSTRUCTIONS_FOR_USE,
        title_only=True,
    ),
    # ---------------------------------------------------------- AI Act Art. 14(4)
    _p(
        "aia_14_4_a_understand_monitor",
        r"(?:understand|verstehen).{0,80}(?:capacities|Fähigkeiten).{0,80}(?:monitor|überwachen)",
        # a section of the instructions named for the item: "Verstehen und
        # überwachen:", "Understanding and monitoring"
        heading=r"\bverstehen\w* und überwach|\bunderstand\w* and monitor",
    ),
    _p(
        "aia_14_4_b_automation_bias",
        r"automation bias|Automatisierungsbias|Automatisierungsverzerrung",
        # the tendency to rely on the output, however named (Art. 14(4)(b))
        r"\bover-?(?:reli\w*|rely\w*|trust\w*)|tend(?:s|ency)? to (?:accept|follow|rely|trust)|rubber-?stamp|\bunchecked\b"
        r"|(?:ungeprüft|blind|gewohnheitsmäßig)\w*\s+(?:\w+\s+)?(?:zu\s+)?(?:folgen|übernehmen|verlassen|durch)"
        r"|sich\b.{0,60}\b(?:zu\s+)?verlassen\b|übermäßig\w*\s+(?:zu\s+)?vertrauen"
        r"|\bneig\w*\b.{0,60}\bdazu\b.{0,80}\b(?:folgen|übernehmen|vertrauen|verlassen)|\bohne (?:ihn|sie|es|diese\w*) zu (?:hinterfragen|prüfen)\b|\bwithout questioning\b"
        r"|\bverlassen Sie sich nicht\b|\bdo not (?:simply )?(?:rely|assume)\b.{0,40}\b(?:system|output|result|score|proposal|draft|correct|right)",
        within=_INSTRUCTIONS_FOR_USE,
        title_only=True,
    ),
    _p(
        "aia_14_4_c_interpret_output",
        r"(?:correctly )?interpret(?:ed)?\b.{0,30}output|output can be correctly interpreted|Ausgabe\w* .{0,30}(?:richtig )?interpretier",
        # so that the person can follow how an output came about
        r"\b(?:nachvollziehen|nachvollziehbar|verstehen|erkennen)\b.{0,40}\b(?:wie|warum|weshalb|worauf)\b.{0,60}\b(?:zustande|entsteht|ergibt|beruht|Vorschlag|Ergebnis|Bewertung|Empfehlung)"
        r"|\b(?:understand|see|follow|trace)\b.{0,20}\b(?:how|why)\b.{0,60}\b(?:score|result|output|proposal|suggestion|recommendation|rating|decision)\b"
        r"|\b(?:zeigt|nennt|listet|shows|lists|displays)\b.{0,80}\b(?:Merkmale|Faktoren|Einflussfaktoren|Gründe|features|factors|reasons)\b.{0,60}\b(?:beeinflusst|ausschlaggebend|maßgeblich|influenced|contributed|drove|weighed)",
        # what an output means (Art. 14(4)(c)): "a score of 0.80 means", "ein
        # Konfidenzwert unter 0,80 bedeutet", "the source view shows on which …"
        r"\b(?:score|confidence|index|flag|indicator|output|border|colou?r|icon|symbol|badge|label|warning|Konfidenz\w*|\w*wert|Ampel\w*|Anzeige|Ausgabe|Markierung|Kennzeichnung|\w*anzeige|Rahmen|Farbe|Symbol|Warnhinweis)\b.{0,80}\b(?:means|indicates|expresses|bedeutet|besagt|heißt|zeigt,)\b",
        within=_INSTRUCTIONS_FOR_USE,
        title_only=True,
    ),
    _p(
        "aia_14_4_d_disregard_override",
        r"disregard, override or reverse|override|außer Acht lassen|außer Kraft setzen|rückgängig",
        # or the opposite: an output that cannot be overridden or reversed
        OVERRIDE_EXCLUDED,
        heading=r"\b(?:übersteuern|Übersteuerung|verwerfen|außer Acht lassen|override|overriding"
        r"|disregard\w*)\b",
    ),
    _p(
        "aia_14_4_e_intervene_stop",
        r"(?:Stop|Stopp|Halt)\W.{0,60}(?:halts?|stops?|anhält|sicheren Zustand|safe state)|safe state|sicheren Zustand",
        # a control that halts the system (Art. 14(4)(e)): "über den Schalter
        # „X anhalten“", "Not-Aus", "the Abort button stops …"
        r"\b(?:Schalter|Schaltfläche|Knopf|Taste|button|switch|control)\b.{0,80}\b(?:anhalten|an(?:zu)?halten|hält|stoppt|stops?|halts?|abort\w*|pausiert|unterbricht|suspend\w*)\b"
        r"|\bNot-?Aus\b|\b(?:anhalten|stoppen)\b.{0,20}[“”\"]|\bhält\b.{0,60}\bsofort an\b",
        STOP_EXCLUDED,
        heading=rf"{_NUMBERED}(?:Anhalten|Stoppen|Abbrechen|Unterbrechen|Eingreifen und anhalten"
        r"|Stop(?:ping)?|Halt(?:ing)?|Interrupt(?:ing)?|Intervene and stop)\s*$",
        within=_INSTRUCTIONS_FOR_USE,
        title_only=True,
    ),
    # ---------------------------------------------------------- AI Act Art. 17(1)
    _p(
        "aia_17_1_a_regulatory_compliance_strategy",
        r"strategy for regulatory compliance|Strategie zur Einhaltung der Regulierungsvorschriften|Konformitätsbewertungsverfahren",
    ),
    _p(
        "aia_17_1_b_design_control", r"design control|Entwurfskontrolle|Entwurfsprüfung"
    ),
    _p(
        "aia_17_1_c_development_quality_assurance",
        r"quality (?:control|assurance)|Qualitätskontrolle|Qualitätssicherung",
    ),
    _p(
        "aia_17_1_d_test_validation_procedures",
        r"(?:test|validation) procedures|Test- und Validierungsverfahren|Validierungsverfahren",
    ),
    _p(
        "aia_17_1_e_technical_specifications",
        r"technical specifications|technische\w* Spezifikationen",
    ),
    _p(
        "aia_17_1_f_data_management",
        r"data (?:management|acquisition)|Datenmanagement|Datenerfassung",
    ),
    _p(
        "aia_17_1_g_risk_management_system",
        r"risk management system under Article 9|Risikomanagementsystem nach Art",
    ),
    _p(
        "aia_17_1_h_post_market_monitoring",
        r"post-market monitoring system|System zur Beobachtung nach dem Inverkehrbringen",
    ),
    _p(
        "aia_17_1_i_serious_incident_reporting",
        r"serious incidents?|schwerwiegende\w* Vorfäll",
    ),
    _p(
        "aia_17_1_j_authority_communication",
        r"communication with (?:national )?competent authorities|Kommunikation mit (?:den )?zuständigen",
    ),
    _p(
        "aia_17_1_k_record_keeping", r"record[- ]keeping|Dokumentation und Aufzeichnung"
    ),
    _p("aia_17_1_l_resource_management", r"resource management|Ressourcenmanagement"),
    _p(
        "aia_17_1_m_accountability_framework",
        r"accountability framework|Rechenschaftsrahmen",
    ),
    # ---------------------------------------------------------- AI Act Art. 26, 27
    _p(
        "aia_26_1_use_per_instructions",
        r"\b(?:setzt|setzen|einsetz\w*|eingesetzt|verwendet|verwenden|nutzt|nutzen|genutzt|betreibt|betreiben|betrieben)\b.{0,80}(?:gemäß|entsprechend|nach|laut|im Einklang mit) (?:der |den |dem )?(?:\w+ )?(?:Betriebsanleitung|Gebrauchsanweisung|Bedienungsanleitung)",
        r"(?:gemäß|entsprechend|laut) (?:der |den |dem )?(?:Betriebsanleitung|Gebrauchsanweisung|Bedienungsanleitung)\w*\b.{0,60}\b(?:eingesetzt|verwendet|genutzt|betrieben)\b",
        r"\b(?:operat|use|uses|used|deploy|run|runs)\w*\b.{0,80}(?:in accordance with|as set out in|according to|as described in|in line with|as specified in) (?:the |its )?(?:\w+'s )?instructions for use",
        not_within=_PROVIDER_DOCUMENT,
    ),
    _p(
        "aia_26_2_oversight_assigned",
        r"(?:menschliche Aufsicht|Aufsicht) .{0,160}(?:übertragen|zugewiesen|obliegt|wahrgenommen|betraut|beauftragt)",
        r"human oversight .{0,160}(?:assigned|entrusted|in charge|carried out by)",
        not_within=_PROVIDER_DOCUMENT,
    ),
    _p(
        "aia_26_4_input_data",
        r"Eingabedaten\b.{0,80}(?:relevant|repräsentativ|vollständig|aktuell)|(?:prüft|geprüft|sicher|gewährleistet|kontrolliert)\w*\b.{0,80}Eingabedaten",
        r"input data .{0,60}(?:relevant|representative|complete)|(?:check|ensure|verif)\w*\b.{0,60}input data",
        not_within=_PROVIDER_DOCUMENT,
    ),
    _p(
        "aia_26_5_monitoring",
        r"(?:überwach|Überwachung|kontrollier)\w*\b.{0,60}\b(?:Betrieb|Funktionsweise|Leistung)\b",
        r"\b(?:Betrieb|Funktionsweise)\w*\b.{0,80}\b(?:überwacht|überwachen|kontrolliert|geprüft)\b",
        r"monitor\w*\b.{0,60}\b(?:operation|functioning|performance)\b",
        r"\b(?:operation|functioning|performance) of\b.{0,80}\b(?:monitored|checked|reviewed|supervised)\b",
        heading=rf"{_NUMBERED}(?:Überwachung|Monitoring)(?: des Betriebs| of (?:the )?operation)?\s*$|überwach\w*.{{0,30}}Betrieb|monitor\w*.{{0,30}}(?:operation|system)",
        not_within=_PROVIDER_DOCUMENT,
    ),
    _p(
        "aia_26_6_log_retention",
        r"Protokolle .{0,80}(?:aufbewahrt|gespeichert|gelöscht)",
        r"logs? .{0,80}(?:kept|stored|retained|deleted)",
        # a retention table's row or cell: "Protokolle … | 6 Monate ab Erzeugung"
        r"Protokoll\w*\b.{0,160}\b\d{1,3}\s*(?:Monate|Jahre)\b|\b\d{1,3}\s*(?:Monate|Jahre)\b.{0,60}Protokoll",
        r"\blogs?\b.{0,160}\b\d{1,3}\s*(?:months|years)\b|\b\d{1,3}\s*(?:months|years)\b.{0,60}\blogs?\b",
        not_within=_PROVIDER_DOCUMENT,
    ),
    _p(
        "aia_26_7_worker_information",
        r"(?:Betriebsrat|Arbeitnehmervertret\w*|Beschäftigte\w*) .{0,80}(?:informiert|unterrichtet)",
        r"(?:works council|workers'? representatives|employees) .{0,80}informed",
        r"(?:informieren|unterrichten) .{0,160}(?:Beschäftigte\w*|Betriebsrat|Mitarbeiter\w*)",
        r"(?:inform|notify) .{0,160}(?:employees|staff|workers|works council)",
        not_within=_PROVIDER_DOCUMENT,
    ),
    _p(
        "aia_26_11_persons_informed",
        r"(?:informiert|hingewiesen|unterrichtet) .{0,80}(?:KI-System|KI)",
        r"informed .{0,80}(?:AI system|use of AI)",
        r"(?:KI-System|AI system) .{0,80}(?:informiert|informed)",
        # A notice telling the person that an AI system is used on them.
        r"^(?=.*\b(?:KI-System|AI system|künstliche\w* Intelligenz|artificial intelligence))(?=.*\b(?:Ihr\w*|Sie|you|your)\b)(?=.*\b(?:setzen|verwenden|nutzen|eingesetzt|verwendet|genutzt|Unterstützung|unterstützt|vorsortiert|bewertet|ausgewertet|use|used|assessed|evaluated|with the help|supported|screened|ranked)\b)",
        not_within=_PROVIDER_DOCUMENT,
    ),
    _p(
        "aia_27_1_a_processes",
        r"Beschreibung der Verfahren|Prozesse des Betreibers",
        r"description of the (?:deployer's )?processes",
        heading=r"Verfahren|Prozess|process|procedure|Einsatzkontext|Einsatzzweck|context of use",
        within=_FRIA,
    ),
    _p(
        "aia_27_1_b_period_frequency",
        r"Zeitraum.{0,40}Häufigkeit|Häufigkeit der Verwendung",
        r"period .{0,40}frequency",
        heading=r"Zeitraum|Häufigkeit|Dauer|period|frequency|duration",
        within=_FRIA,
    ),
    _p(
        "aia_27_1_c_affected_categories",
        r"Kategorien .{0,40}(?:betroffen|Personen)",
        r"categories of (?:natural )?persons",
        r"^\W*Betroffen (?:sind|ist)\b|^\W*(?:Affected|Concerned) (?:are|persons|groups)\b",
        heading=r"Betroffene|Personenkreis|Personengruppen|affected|persons concerned|categories of",
        within=_FRIA,
    ),
    _p(
        "aia_27_1_d_specific_risks",
        r"spezifische\w* (?:Schadens)?[Rr]isiken",
        r"specific risks",
        heading=rf"{_NUMBERED}(?:Spezifische )?(?:Schadens)?Risiken\b|^\W*(?:Specific )?risks",
        within=_FRIA,
    ),
    _p(
        "aia_27_1_e_oversight_measures",
        r"Maßnahmen der menschlichen Aufsicht|menschliche Aufsicht",
        r"human oversight measures",
        heading=r"Aufsicht|oversight",
        within=_FRIA,
    ),
    _p(
        "aia_27_1_f_materialisation_measures",
        r"Beschwerdemechanism|Beschwerdeverfahren|interne Governance",
        r"complaint mechanisms?|internal governance",
        r"Beschwerden? (?:können|kann)\b|complaints? (?:can|may) be|(?:may|can) (?:lodge|submit|raise) (?:a )?complaints?",
        heading=r"Risikoeintritt|Abhilfe|Eintritt|materiali|mitigation|Beschwerde|complaint|governance",
        within=_FRIA,
    ),
    _p(
        "aia_27_3_authority_notified",
        r"Marktüberwachungsbehörde .{0,80}(?:mitgeteilt|übermittelt|informiert|unterrichtet)",
        r"market surveillance authority .{0,80}(?:notified|informed)",
        r"(?:notified|submitted|sent|communicated|reported) to the market surveillance authority",
        # A letter to the authority sending the FRIA's results.
        r"(?:übermitteln|übermittelt|übersenden|senden|schicken|mitteilen|enclosed|attached|submit|send|transmit|forward)\w*\b.{0,100}\b(?:Ergebnisse|results)\b",
        r"\b(?:Ergebnisse|results)\b.{0,100}\b(?:übermittelt|mitgeteilt|zugesandt|enclosed|attached|submitted|sent)\b",
        # the separable verb: "teilen wir Ihnen die Ergebnisse … mit"
        r"\bteilen (?:wir|ich) Ihnen\b.{0,120}\bErgebnisse\b",
        within=_TO_AUTHORITY,
    ),
    _p(
        "aia_50_1_interaction_disclosure",
        r"mit einem KI-System interagieren",
        r"interacting with an AI system",
    ),
    _p(
        "aia_50_2_output_marking",
        r"maschinenlesbar\w* .{0,40}(?:gekennzeichnet|Kennzeichnung)",
        r"machine-readable .{0,40}mark",
    ),
    _p(
        "aia_50_3_emotion_biometric_information",
        r"Emotionserkennung",
        r"emotion recognition",
    ),
    _p(
        "aia_50_4_deepfake_disclosure",
        r"Deepfake|künstlich erzeugt",
        r"deep ?fake|artificially generated",
    ),
    # ---------------------------------------------------------- DORA Art. 5, 6
    _p(
        "dora_6_1_framework_documented",
        r"Rahmen umfasst .{0,40}(?:Strategien|Leitlinien|Verfahren)",
        r"framework (?:includes|comprises|covers|sets out|contains|consists of|documents) .{0,40}(?:strategies|policies|procedures)",
        r"Rahmen\w* (?:enthält|legt|beschreibt|dokumentiert|besteht aus) .{0,60}(?:Strategien|Leitlinien|Verfahren)",
    ),
    _p(
        "dora_5_2_management_body_approval",
        r"(?:Vorstand|Leitungsorgan|Geschäftsleitung) (?:genehmigt|billigt|verabschiedet)",
        r"(?:board|management body) (?:approves|approved|adopts|adopted)",
        r"(?:approved|adopted|endorsed) by the (?:\w+ )?(?:board|management body)",
        r"(?:genehmigt|gebilligt|verabschiedet|beschlossen|freigegeben) (?:durch|vom|von) (?:dem |der |den )?(?:Vorstand|Leitungsorgan|Geschäftsleitung|Geschäftsführung)",
        r"(?:Vorstand|Leitungsorgan|Geschäftsleitung|Geschäftsführung) hat\b.{0,80}(?:genehmigt|gebilligt|verabschiedet|beschlossen|freigegeben)",
    ),
    _p(
        "dora_6_4_control_function",
        r"(?:unabhängige\w*|Kontroll)[- ]?[Ff]unktion",
        r"independent .{0,20}(?:control )?function",
        r"control function\b.{0,120}\bindependen",
        r"Kontrollfunktion\b.{0,120}\bunabhängig",
    ),
    _p(
        "dora_6_5_annual_review",
        r"überprüft (?:und aktualisiert )?am",
        r"reviewed (?:and updated )?on",
        # a review line of the framework ("Letzte Überprüfung: 16.09.2025",
        # "Last reviewed: 12 August 2025", "Review following major incident …")
        r"^\W*(?:Letzte|Zuletzt|Last|Latest|Next)\s+(?:\w+\s+)?(?:Überprüfung|überprüft|review(?:ed)?)\b"
        r"|\b(?:review|Überprüfung)\s+(?:following|after|nach)\s+(?:the\s+|dem\s+)?(?:major|schwerwiegend)",
    ),
    _p(
        "dora_6_8_resilience_strategy",
        r"Resilienzstrategie",
        r"resilience strategy",
    ),
    # ---------------------------------------------------------- DORA Art. 17-19
    _p(
        "dora_17_1_incident_process",
        r"(?:Verfahren|Prozess) .{0,40}(?:Behandlung|Management) .{0,40}Vorf",
        r"incident management process",
        r"(?:process|procedure)\w*\b.{0,80}\b(?:detect|manage|handle|report|notify)\w*\b.{0,60}\bincidents\b|\b(?:detect|manage|handle)\w*\b.{0,60}\bincidents\b.{0,80}\b(?:process|procedure)",
        r"(?:Verfahren|Prozess)\w*\b.{0,80}(?:erkenn|behandl|meld)\w*\b.{0,60}Vorf|\b(?:erkennen|behandeln|melden)\b.{0,60}Vorf\w*\b.{0,80}(?:Verfahren|Prozess)",
        heading=rf"{_NUMBERED}(?:(?:ICT[- ])?Incident (?:management|handling)(?: process)?|(?:IKT-)?Vorfallmanagement(?:prozess)?|Behandlung von (?:IKT-)?Vorfällen)\s*$",
    ),
    _p(
        "dora_17_2_incident_records",
        r"(?:alle|sämtliche) .{0,40}Vorfälle .{0,60}(?:erfasst|aufgezeichnet|dokumentiert)",
        r"all .{0,40}incidents .{0,60}(?:recorded|logged)",
        r"\b(?:every|each|all)\b.{0,40}\bincidents?\b.{0,60}\b(?:recorded|logged|registered|documented)\b",
        r"\b(?:jeder|jede|alle|sämtliche)\b.{0,40}Vorf\w*\b.{0,60}(?:erfasst|aufgezeichnet|dokumentiert|protokolliert)",
    ),
    _p(
        "dora_18_1_classification",
        r"(?:als schwerwiegend eingestuft|klassifiziert|Klassifizierung)",
        r"classified as (?:a )?major|classification",
        # the classification against the criteria of Art. 18(1)
        r"\b(?:Einstufung|Klassifizierung|eingestuft|klassifiziert)\b.{0,140}\b(?:Art(?:ikel|\.)?\s*18|Kriterien)"
        r"|\b(?:classif\w+|categori[sz]\w+)\b.{0,140}\b(?:Art(?:icle|\.)?\s*18|criteria)",
    ),
    _p(
        "dora_19_4_a_initial_notification",
        r"Erstmeldung|erste Meldung",
        r"initial (?:notification|report)",
    ),
    _p(
        "dora_19_4_b_intermediate_report",
        r"Zwischenmeldung|Zwischenbericht",
        r"intermediate report",
    ),
    _p(
        "dora_19_4_c_final_report",
        r"Abschlussmeldung|Abschlussbericht",
        r"final report",
    ),
    _p(
        "dora_19_3_client_information",
        r"Kund(?:en|innen)\w* .{0,60}(?:informiert|unterrichtet)",
        r"(?:clients?|customers?) .{0,60}(?:informed|notified)",
    ),
    # ---------------------------------------------------------- DORA Art. 28
    _p(
        "dora_28_3_register_maintained",
        r"^\W*Informationsregister",
        r"^\W*Register of information",
        # in the register itself: what it covers and when it was brought up
        # to date ("enthält alle vier laufenden Vereinbarungen", "as of
        # 31.10.2026 · last update …")
        r"\b(?:enthält|umfasst|listet|erfasst|verzeichnet)\b.{0,60}\b(?:alle|sämtliche|jede)\w*\b",
        r"\b(?:contains|lists|covers|includes|records)\b.{0,60}\b(?:all|every|each)\b",
        r"\b(?:Stand|as (?:of|at)|last updated?|zuletzt aktualisiert|aktualisiert (?:am|zum))(?:\s+(?:des|der|of the)\s+\w+)?\b\W{0,3}\d",
        # kept up to date with every contract ("wird bei jedem
        # Vertragsabschluss fortgeschrieben", "updated on each new contract")
        r"\b(?:bei|mit|nach|on|at|with|after|upon)\s+(?:jedem|jeder|each|every|any)\b.{0,80}\b(?:fortgeschrieben|aktualisiert|nachgeführt|ergänzt|updated|amended)\b"
        r"|\b(?:fortgeschrieben|aktualisiert|nachgeführt|updated|amended)\b.{0,20}\b(?:bei|mit|nach|on|at|with|after|upon)\s+(?:jedem|jeder|each|every|any)\b",
        within=r"Informationsregister|Register of information|Informationsregisters",
    ),
    _p(
        "dora_28_3_cif_distinguished",
        r"kritische oder wichtige Funktion\s*$|unterstützt kritische oder wichtige Funktion",
        r"supports? (?:a )?critical or important function\s*$",
    ),
    _p(
        "dora_28_8_exit_strategy",
        r"Ausstiegsstrategie",
        r"exit strateg(?:y|ies)",
    ),
    _p(
        "dora_28_8_exit_plan_tested",
        r"Ausstiegsplan .{0,160}getestet|(?:getestet|Test) .{0,60}Ausstiegsplan",
        r"exit plan .{0,160}tested|tested .{0,60}exit plan",
    ),
    _p(
        "dora_28_8_transition_plans",
        r"Übergangsplan",
        r"transition plan",
    ),
    # ---------------------------------------------------------- DORA Art. 30(2)
    _p(
        "dora_30_2_a_service_description",
        # what the provider does, in the contract's own words: "erbringt
        # für die Kundin den Betrieb der …", "provides the operation of …"
        r"\b(?:erbringt|übernimmt)\s+für\s+(?:\S+\s+){1,2}?(?:den|die|das)\s+(?:Betrieb|Bereitstellung|Wartung|Entwicklung|Hosting)\b"
        r"|\b(?:provides?|shall\s+provide|will\s+provide)\s+(?:to\s+(?:\S+\s+){1,2}?)?(?:the\s+)?(?:operation|hosting|provision|maintenance)\s+of\b",
        r"Unterauftragsvergabe\w* .{0,80}(?:zulässig|Zustimmung)",
        r"subcontract\w* .{0,80}(?:permitted|consent|allowed)",
        heading=r"(Leistungsbeschreibung|Description of (?:the )?services?|Services)\s*$",
    ),
    _p(
        "dora_30_2_b_locations",
        r"(?:Standort|Rechenzentr|erbracht .{0,40} in)\w*.{0,80}(?:gespeichert|erbracht)",
        r"(?:locations?|data cent(?:re|er)s?) .{0,80}(?:provided|stored|processed)",
        r"(?:stored|processed|performed|provided|hosted)\b.{0,60}\bdata cent(?:re|er)s?\b|(?:gespeichert|verarbeitet|erbracht)\b.{0,60}\bRechenzentr",
        # the second half of Art. 30(2)(b): notice before the locations
        # change (or the right to move them without notice, which lacks it)
        r"\b(?:Speicherort|Standort|Ort der (?:Leistungserbringung|Datenverarbeitung|Verarbeitung|Speicherung)|(?:Leistungs|Verarbeitungs|Erbringungs|Speicher)(?:-\s+und\s+\w+?)?orte)\w*\b.{0,120}\b(?:wechseln|verlegen|verlagern|ändern|Änderung|Verlegung|Mitteilung|mitteilen|anzeigen)"
        r"|\b(?:change|changes|changing|relocat\w*|move|moving)\b.{0,40}\b(?:locations?|data cent(?:re|er)s?)\b|\blocations?\b.{0,80}\b(?:change|changed|relocated|moved)\b",
    ),
    _p(
        "dora_30_2_c_data_protection",
        r"Verfügbarkeit, Authentizität, Integrität und Vertraulichkeit",
        r"availability, authenticity, integrity and confidentiality",
    ),
    _p(
        "dora_30_2_d_data_access_return",
        r"Zugang zu .{0,40}Daten .{0,80}(?:zurück|Rückgabe)",
        r"access to .{0,40}data .{0,80}return",
    ),
    _p(
        "dora_30_2_e_service_levels",
        r"Dienstleistungsgüte|Service[- ]Level",
        r"service levels?(?: agreement)?",
    ),
    _p(
        "dora_30_2_f_incident_assistance",
        r"IKT-Vorfall .{0,80}unterstützt|unterstützt .{0,80}IKT-Vorfall",
        r"ICT(?:-related)? incident .{0,80}assist|assist\w* .{0,80}ICT(?:-related)? incident",
    ),
    _p(
        "dora_30_2_g_authority_cooperation",
        r"(?:arbeitet|zusammen).{0,60}(?:zuständigen Behörden|Abwicklungsbehörden)",
        r"cooperat\w* .{0,60}competent authorities",
    ),
    _p(
        "dora_30_2_h_termination_rights",
        # "kündigen", not "ankündigen" / "anzukündigen" (to announce)
        r"(?<!an)(?<!anzu)kündigen|Kündigungsrecht",
        r"terminat\w* (?:the |this |these )?(?:agreement|contract|services)",
    ),
    _p(
        "dora_30_2_i_awareness_training",
        r"Sensibilisierungsprogramm|Schulung\w* .{0,60}(?:IKT-Sicherheit|digitale operationale Resilienz)",
        r"awareness programmes?|(?:security|resilience) training",
    ),
    # ---------------------------------------------------------- DORA Art. 30(3)
    _p(
        "dora_30_3_a_full_service_levels",
        r"quantitative\w* .{0,40}Ziele|quantitative und qualitative",
        r"quantitative .{0,40}(?:targets|performance)",
        # a measurable target or the correction when one is missed
        # (Art. 30(3)(a): "precise quantitative and qualitative performance
        # targets … corrective actions … when agreed service levels are not met")
        r"\b(?:availability|Verfügbarkeit)\b\s*(?:of\s+|von\s+)?(?:at least\s+|mindestens\s+)?\d+(?:[.,]\d+)?\s?%|\brecovery time objective\b|\b(?:RTO|RPO)\b|\btarget score\b|\bZielwert\w*"
        r"|\bcorrective action|\bKorrekturmaßnahme|\bAbhilfe\w*\b.{0,40}\b(?:verfehlt|nicht erreicht)|service levels?\b.{0,20}\b(?:is|are)\s+not\s+met|Service-?Level\w*\b.{0,30}\bnicht\s+(?:erreicht|eingehalten)",
    ),
    _p(
        "dora_30_3_b_notice_reporting",
        r"(?:Entwicklung|Entwicklungen) .{0,80}(?:beeinträchtigen|Fähigkeit)",
        r"development .{0,80}(?:impact|ability)",
    ),
    _p(
        "dora_30_3_c_contingency_security",
        r"Notfallpläne",
        r"contingency plans|business continuity plans",
    ),
    _p(
        "dora_30_3_d_tlpt_participation",
        r"Penetrationstest|TLPT",
        r"penetration test|TLPT",
    ),
    _p(
        "dora_30_3_e_monitoring_audit_rights",
        r"(?:Zugangs-, Inspektions- und Prüfrechte|Prüfrechte|Inspektionsrechte)",
        r"(?:access, inspection and audit rights|audit rights|inspection rights)",
        # the law's own order of words (Art. 30(3)(e)(i))
        r"rights of access, inspection and audit|right to (?:audit|inspect)|Recht\w* (?:auf|zur) (?:Prüfung|Inspektion|Zugang)",
    ),
    _p(
        "dora_30_3_f_exit_transition_period",
        r"Übergangszeitraum|Übergangsfrist|Übergang\w* .{0,40}(?:Zeitraum|Frist|Dauer) von",
        r"transition period|transition\w* .{0,40}\bperiod of\b",
    ),
)

# A letter or e-mail, by its first line ("From: …", "Betreff: …").
_CORRESPONDENCE = r"^\W*(?:From|Von|To|An|Betreff|Subject|Re|AW|WG|Fwd?)\s*:"


def _contract_term(pattern: ElementPattern) -> ElementPattern:
    """The mandatory terms of a processor contract (Art. 28(3) GDPR: "a
    contract or other legal act") and of an ICT contract (Art. 30 DORA: "set
    out in writing ... in one written document") are read in the contract,
    never in a letter about it ("has signed our standard addendum, so it is
    bound by the same obligations" reports a contract, it is none)."""
    old = pattern.not_within.pattern if pattern.not_within is not None else None
    combined = f"{old}|{_CORRESPONDENCE}" if old else _CORRESPONDENCE
    return replace(pattern, not_within=_rx(combined))


PATTERNS = tuple(
    _contract_term(p) if p.key.startswith(("gdpr_28_3", "dora_30_")) else p
    for p in PATTERNS
)
_REGIME_PREFIX = {"gdpr": "gdpr_", "aia": "aia_", "dora": "dora_"}


def patterns_for(regimes: frozenset[str] | set[str]) -> tuple[ElementPattern, ...]:
    """The element patterns of the regimes a case examines, for elements that
    have a fact of their own (a derived element, such as a register's
    completeness, follows from other facts and is never proposed)."""
    from ontology.domain.compliance_catalogue import element_index

    index = element_index()
    prefixes = tuple(_REGIME_PREFIX[r] for r in regimes if r in _REGIME_PREFIX)
    return tuple(
        p
        for p in PATTERNS
        if p.key.startswith(prefixes)
        and p.key in index
        and index[p.key][1].fact_type is not None
    )


# -------------------------------------------------------------- never evidence
# An Erwägungsgrund quoted as if it were the obligation or its fulfilment.
RECITAL = _rx(r"Erwägungsgr(?:und|ünde)\w*\s+\d|\bErwG\.?\s*\d|\brecitals?\s+\d")
# A sentence that asserts compliance instead of showing it (a summary in
# minutes, a cover note, a report of a report).
COMPLIANCE_ASSERTION = _rx(
    r"(?:erfüllt|erfüllen|erfülle)\w*\s+(?:\S+\s+){0,4}?(?:alle|sämtliche)\s+(?:\S+\s+){0,2}?(?:Anforderungen|Pflichten|Vorgaben)"
    r"|\b(?:meets|fulfil+s|satisfies|complies\s+with)\s+(?:\S+\s+){0,4}?(?:all|every)\s+(?:\S+\s+){0,2}?(?:requirements?|obligations?)"
    r"|(?:alle|sämtliche)\s+\w*\s*(?:Pflichten|Anforderungen)\s+(?:sind|werden)\s+erfüllt"
    # the same with the duties' owner or source in between ("Sämtliche
    # Pflichten der Kammer aus der KI-Verordnung sind erfüllt", "all our
    # obligations under DORA have been met")
    r"|(?:alle|sämtliche)\s+(?:\S+\s+){0,2}?(?:Pflichten|Anforderungen|Vorgaben)\b(?:\s+\S+){0,6}?\s+(?:sind|werden|wurden)\s+(?:\S+\s+)?(?:erfüllt|eingehalten|umgesetzt)\b"
    r"|\ball\s+(?:\S+\s+){0,2}?(?:obligations|requirements|duties)\b(?:\s+\S+){0,6}?\s+(?:are|have\s+been|were)\s+(?:\S+\s+)?(?:met|fulfilled|complied\s+with|satisfied)\b"
    # a finding that all is met, in a clause ("stellt fest, dass … alle
    # Anforderungen der KI-Verordnung erfüllt"; a term obliging a party to
    # meet them, "muss alle Anforderungen erfüllen", stays a term)
    r"|\b(?:stellt|stellen|bestätigt|bestätigen|versichert|versichern|erklärt|erklären)\b(?:\s+\S+){0,3}?\s+(?:fest,?\s+)?dass\b.{0,120}\b(?:alle|sämtliche)\s+(?:\S+\s+){0,2}?(?:Anforderungen|Pflichten|Vorgaben)\b.{0,60}\b(?:erfüllt|erfüllen|einhält|einhalten)\b"
    r"|(?:vollständig|voll|uneingeschränkt)\s+[„\"]?\w*-?konform"
    r"|\b(?:DSGVO|GDPR|DORA|KI-VO|AI[- ]Act)(?:-|\s)?(?:konform|compliant)"
    r"|(?:fully|completely)\s+compliant|compliant\s+with\s+(?:all|the\s+(?:GDPR|AI\s+Act|DORA))"
    r"|compl(?:y|ies)\s+with\s+all|meets\s+all\s+(?:the\s+)?requirements"
    # a document said to meet an article in full ("erfüllt Art. 28 DSGVO
    # vollständig", "satisfies Article 13 in full"), or all to be in order
    r"|(?:erfüllt|erfüllen|entspricht|entsprechen)\s+(?:Art\.?|Artikel|§)\s*\d+[\w\s().]{0,25}?\s(?:vollständig|vollumfänglich|komplett|in vollem Umfang)"
    r"|(?:meets|satisfies|fulfil+s|complies\s+with)\s+(?:Art\.?|Article)\s*\d+[\w\s().]{0,25}?\s(?:in\s+full|fully)"
    r"|\balles\s+(?:sauber|in\s+Ordnung)|\ball\s+in\s+order\b"
    # a ruling on the obligation instead of its terms: "Art. 28 Abs. 3 DSGVO
    # ist ... als erfüllt zu werten", "is to be treated as fulfilled", "gilt
    # als erfüllt", "deemed compliant"
    r"|\bals\s+(?:erfüllt|eingehalten|umgesetzt|konform|vollständig)\s+(?:zu\s+)?(?:werten|wertet|anzusehen|ansehen|betrachten|betrachtet|bewerten|bewertet|markieren|markiert|behandeln|gelten|gilt)"
    r"|\b(?:gilt|gelten)\s+(?:\S+\s+){0,3}?als\s+(?:erfüllt|eingehalten|konform)"
    r"|\b(?:treated|regarded|deemed|considered|marked|scored|rated)\s+(?:as\s+)?(?:fully\s+)?(?:fulfilled|satisfied|compliant)\b"
    r"|\b(?:treated|regarded|deemed|considered|marked|scored|rated)\s+as\s+(?:fully\s+)?(?:met|complete)\b"
)
# A sentence that advertises (certification, safety, guarantees).
MARKETING_CLAIM = _rx(
    r"\b(?:DSGVO|GDPR|DORA|KI-VO|AI[- ]Act)-?(?:zertifiziert|certified)"
    r"|\b(?:sind|ist|are|is)\s+(?:\S+\s+){0,4}?(?:\w+-)?(?:zertifiziert|certified)\b|^\W*certified\b"
    r"|bei uns sicher|safe with us|in (?:guten|sicheren) Händen"
    # a promise, not the law's "sufficient guarantees" / "hinreichende Garantien"
    r"|\bbias-free\b|\bgarantiert\b|\bguaranteed\b|\b(?:we|wir)\s+(?:guarantee|garantieren)\b"
    r"|\bguarantee[sd]?\s+(?:that|you|your|100)\b"
    # a seal or a comparison instead of a statement ("TÜV-geprüft und rundum
    # sicher", "as safe as our vehicles", "100 % secure")
    r"|\b(?:TÜV|DEKRA)[- ]?(?:geprüft|zertifiziert|certified|approved)|\brundum\s+sicher\b"
    r"|\bso\s+(?:zuverlässig|sicher|gut)\s+wie\s+(?:unser|unsere|ihr)\w*\b|\bas\s+(?:safe|secure|reliable)\s+as\s+(?:our|a)\b"
    r"|\b100\s?%\s+(?:sicher|safe|secure|DSGVO|GDPR)"
    # an absolute promise ("werden nie an Dritte weitergegeben", "never
    # shared"): a notice names its recipients, a flyer promises there are none
    r"|\bnie(?:mals)?\s+an\s+Dritte\b|\bnever\s+(?:be\s+)?(?:shared|sold|passed\s+on|disclosed)\b"
)
# Titles of documents that advertise rather than record (flyers, brochures,
# product sheets, press releases, whitepapers): nothing in them is evidence.
# A record named after one of these words is no advertisement: a dataset's
# datasheet, the privacy notice of a newsletter, a policy on marketing.
_MARKETING_WORD = _rx(
    r"\b\w*(?:flyer|broschüre|produktblatt|produktinformation|pressemitteilung"
    r"|presseinformation)\b|\b(?:\w+-)?Werbung\b|\b(?:Newsletter|Whitepaper|White paper"
    r"|Product sheet|Product brochure|Brochure|Press release|Marketing)\b"
)
_RECORD_TITLE = _rx(
    rf"{_NOTICE}|{_NOT_A_NOTICE}|{_FRIA}|{_INSTRUCTIONS_FOR_USE}|Datenschutz|privacy"
    r"|Dokumentation|documentation|Richtlinie|Policy|Leitlinie|Verfahren|procedure"
    r"|Bericht|Report|Protokoll|Minutes|Niederschrift|Register|Verzeichnis|Datasheet"
    r"|Datenblatt|Einwilligung|consent|Handbuch|manual|Konzept|Vermerk|Memo"
)


# What kind of record a document is, by its title (ELEMENTS.md §2's source
# kinds, as the obligations' ``evidence_sources`` name them): a data
# governance datasheet is technical documentation, an "Abnahmebericht" a test
# report. The kinds open the obligations a document is read for by meaning
# even where no pattern fired in it yet.
DOCUMENT_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("instructions_for_use", _rx(_INSTRUCTIONS_FOR_USE)),
    (
        "technical_documentation",
        _rx(
            r"Technische Dokumentation|Technical documentation|Risikomanagement|Risk management"
            r"|Risikoakte|Risk file|Hazard log|Daten-?Governance|Data governance|Datasheet"
            r"|Datenblatt|Model card|Modellkarte|System(?:dokumentation| documentation)"
            r"|Entwicklungsbericht|Development report|Annex IV|Anhang IV"
        ),
    ),
    (
        "test_report",
        _rx(
            r"Testbericht|Prüfbericht|Abnahmebericht|Validierungsbericht|Test report"
            r"|Validation report|Test results|Testergebnisse|Exit test"
        ),
    ),
    (
        "qms_manual",
        _rx(
            r"Qualitätsmanagement|Qualitätshandbuch|QM-Handbuch|Quality (?:management|manual)|\bQMS\b"
        ),
    ),
    ("dpia", _rx(_DPIA_DOCUMENT)),
    ("notice", _rx(_NOTICE)),
    ("contract", _rx(_CONTRACT)),
    ("register", _rx(r"Informationsregister|Register of information")),
    ("incident_report", _rx(r"Vorfall|Incident|Störungsbericht")),
    (
        "board_minutes",
        _rx(
            r"Protokoll|Niederschrift|Minutes|Beschlussvorlage|Board resolution|Decision log"
        ),
    ),
    (
        "policy",
        _rx(
            r"Richtlinie|Policy|Leitlinie|Rahmenwerk|Framework|Verfahrensanweisung|Procedure"
            r"|Strateg|Konzept|Exit[- ]?(?:plan|strateg)|Ausstieg"
        ),
    ),
)


def document_kinds(title: str) -> frozenset[str]:
    """The source kinds a document's title names (possibly none)."""
    return frozenset(kind for kind, rx in DOCUMENT_KINDS if rx.search(title))


class _MarketingTitle:
    """``search(title)``: the title names an advertisement and no record."""

    def search(self, title: str) -> re.Match[str] | None:
        found = _MARKETING_WORD.search(title)
        if found is None or _RECORD_TITLE.search(title):
            return None
        return found


MARKETING_TITLE = _MarketingTitle()

# Where a passage says an element is not there or is the opposite.
ABSENT = _rx(
    r"(?:has|have|was|were)\s+not\s+(?:yet\s+)?(?:been\s+)?(?:defined|established|documented"
    r"|carried out|performed|adopted|set up|implemented|agreed)"
    r"|not\s+yet\s+(?:defined|established|documented|in place)"
    r"|(?:noch\s+)?nicht\s+(?:festgelegt|definiert|durchgeführt|erstellt|dokumentiert"
    r"|vorgesehen|geregelt|eingerichtet|vereinbart)"
)
NOT_REQUIRED = _rx(
    r"nicht\s+(?:erforderlich|notwendig|nötig)|not\s+(?:required|necessary|needed)|entbehrlich"
    r"|\bno\s+(?:DPIA|DSFA|data protection impact assessment)\s+(?:is\s+)?(?:needed|required|necessary)"
    r"|\bkeine\s+(?:DSFA|Datenschutz-Folgenabschätzung)\s+(?:erforderlich|notwendig|nötig)"
)
DPIA = _rx(
    r"Datenschutz-Folgenabschätzung|\bDSFA\b|data protection impact assessment|\bDPIA\b"
)
OWN_PURPOSES = _rx(
    r"(?:for|to)\s+(?:\w+\s+){0,3}?(?:its|their)\s+own\s+(?:\w+\s+){0,2}?"
    r"(?:purposes|models|products?|services|business|development|analytics)"
    r"|(?:für|zu)\s+(?:seine\w*\s+|ihre\w*\s+)?eigene\w*\s+(?:\w+\s+)?"
    r"(?:Zwecke\w*|Modelle\w*|Produkte\w*|Dienste\w*|Produktentwicklung|Geschäftszwecke\w*)"
)
# The party an own-purpose clause speaks of: the processor (Art. 28(3)(a)).
PROCESSOR = _rx(
    r"\b(?:Processor|Auftragsverarbeiter\w*|Auftragnehmer\w*|Supplier|Service provider"
    r"|Dienstleister\w*|Anbieter\w*|Vendor)\b"
)
# The criteria of Art. 18(1) DORA: a passage weighing three of them classifies
# the incident, whatever the heading.
CLASSIFICATION_CRITERIA: tuple[re.Pattern[str], ...] = tuple(
    _rx(c)
    for c in (
        r"clients? affected|affected clients|number of clients|betroffene\w* Kund|Anzahl (?:der )?(?:betroffenen )?Kund",
        r"\bduration\b|\bDauer\b|downtime|Ausfallzeit",
        r"geograph\w*|geografisch\w*",
        r"data loss\w*|Datenverlust\w*",
        r"critical(?:ity of)? services?|kritische\w* Dienst\w*|Kritikalität",
        r"economic impact|wirtschaftliche\w* Auswirkung\w*",
        r"reputational|Reputation\w*",
    )
)


def never_evidence(passage: str, *, before: str = "") -> str | None:
    """Why ``passage`` can never evidence a compliance element (ELEMENTS.md
    §2), or None: ``machine_instruction`` (it, or the part of its paragraph
    ``before`` it, addresses machines), ``recital``, ``marketing_claim``,
    ``summary`` (asserts compliance instead of showing it). The one rule: the
    rules extractor skips such passages and the gate refuses a model's
    proposal quoting one."""
    from evidence.domain.instructions import addresses_machines

    if addresses_machines(passage) or (before and addresses_machines(before)):
        return "machine_instruction"
    if RECITAL.search(passage):
        return "recital"
    if MARKETING_CLAIM.search(passage):
        return "marketing_claim"
    if COMPLIANCE_ASSERTION.search(passage):
        return "summary"
    return None


# Elements that are an act done (the authority notified, the exit plan or the
# system tested, the clients informed), and the value shapes of a step taken
# at a time: a plan to do it, or a pointer to a record the file does not
# quote, is not the act.
DATED_SHAPES = frozenset({"dated_presence", "submission", "review_date"})
ACT_ELEMENTS = frozenset(
    {
        "aia_27_3_authority_notified",
        "dora_28_8_exit_plan_tested",
        "dora_19_3_client_information",
        "aia_9_8_testing",
    }
)
# What is still to be done: an action item ("Legal Services to notify …",
# also inside a decision log's row after its date and number), the
# future or an obligation to act ("will be sent", "is to be approved", "ist
# bis … zu melden"), a plan or something pending.
PLANNED = _rx(
    r"\b(?:[A-Z][\w&.\-]*\s+){1,4}to\s+(?:notify|inform|submit|send|test|complete"
    r"|carry out|perform|prepare|update|review|approve|report|adopt)\b"
    r"|\b(?:to|will|shall|is\s+to|are\s+to)\s+be\s+\w+"
    r"|\bwill\s+(?!be\b)\w+|\b(?:is|are)\s+(?:scheduled|planned|due)\s+(?:to|for)\b"
    r"|\b(?:intends?|plans?)\s+to\b|\bin\s+preparation\b|\bpending\b|\boutstanding\b"
    r"|\b(?:soll|sollen|wird|werden)\b[^.;]{0,80}\b(?:werden|erfolgen)\b"
    r"|\b(?:ist|sind)\b[^.;]{0,60}\bzu\s+\w+(?:en|ern|eln)\b"
    r"|\bgeplant|\bvorgesehen|\bbeabsichtig|\bin\s+Vorbereitung|\bausstehend"
    r"|\bsteht\b[^.;]{0,30}\baus\b"
)
# An act recorded as done; searched in the passage without its planned parts
# ("informed … that repayments will be delayed" is done).
DONE = _rx(
    r"\b(?:was|were|has\s+been|have\s+been|wurden?)\b|\b(?:ist|sind)\b[^.;]{0,40}\bworden\b"
    r"|\b(?:informed|notified|tested|sent|went\s+out|received|submitted|conducted"
    r"|carried\s+out|performed|completed|approved|adopted|übermittelt|informiert"
    r"|getestet|erhalten|versandt|versendet|mitgeteilt|gemeldet|durchgeführt"
    r"|genehmigt|beschlossen|verabschiedet|freigegeben)\b"
    r"|\b(?:teilen|übermitteln|übersenden|melden|informieren)\s+wir\b"
    # a resolution in the present tense: "The Management Board approves …"
    r"|\b(?:approves|adopts|resolves|beschließt|genehmigt|stimmt\b[^.;]{0,60}\bzu)\b"
)
# A pointer to where the act is recorded ("the results are recorded in test
# report TR-7"), without saying it happened.
POINTER = _rx(
    r"\b(?:recorded|documented|set\s+out|described|reported)\s+in\s+(?:the\s+|a\s+)?"
    r"(?:separate\s+)?(?:test\s+)?(?:report|protocol|minutes|log)\b"
    r"|\bsee\s+(?:the\s+)?(?:test\s+)?report\b"
    r"|\b(?:dokumentiert|festgehalten|niedergelegt)\s+(?:im|in\s+dem|in\s+einem)\s+\w*"
    r"(?:bericht|protokoll)\b|\bsiehe\s+\w*(?:bericht|protokoll)\b"
    # the verb at the end: "sind im Testbericht TB-7 dokumentiert"
    r"|\b(?:im|in\s+dem|in\s+einem)\s+\w*(?:bericht|protokoll)\b[^.;]{0,40}"
    r"\b(?:dokumentiert|festgehalten|niedergelegt|beschrieben)\b"
)
# A plan to take the step only after the event it must precede ("to be
# completed after general availability"): that shows the step late, which is
# evidence (of a violation), not a plan still open.
LATE_PLAN = _rx(
    r"\b(?:after|following|nach)\s+(?:the\s+|der\s+|dem\s+)?(?:general\s+availability"
    r"|go-?live|launch|market\s+launch|placing\s+on\s+the\s+market|first\s+use"
    r"|Inbetriebnahme|Markteinführung|Inverkehrbringen|Einführung|Go-?Live|erste\w*\s+Einsatz)"
)
# A past act with its time: what a pointer may accompany.
HAPPENED = _rx(r"\b(?:was|were|has\s+been|have\s+been|wurden?)\b|\b(?:on|am)\s+\d")


def only_planned(text: str) -> bool:
    """The passage speaks of the act as still to be done, or only points to
    a record of it: not evidence that it was done."""
    if POINTER.search(text) and not HAPPENED.search(text):
        return True
    if not PLANNED.search(text) or LATE_PLAN.search(text):
        return False
    return DONE.search(PLANNED.sub(" ", text)) is None
