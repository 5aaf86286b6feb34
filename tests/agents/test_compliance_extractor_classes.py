# ruff: noqa: E501
"""The compliance extractor reads classes of wording, not the phrases of one
dossier: enumerated headings ("(b)", "Clause 7.2", "§ 4") that name the element
while the body holds the content, passive voice and verb forms, possessives
and synonyms in English contracts, the document's kind (a contract is no
privacy notice, a sub-processing agreement is where Art. 28(4) is met, a FRIA
is where Art. 27(1) is read), a letter to the authority, criteria that make a
classification. All texts are invented for these tests and worded unlike the
benchmark dossiers; the never-evidence rules hold for the new classes too."""

from __future__ import annotations

import pytest

from agents.extraction.compliance import ComplianceExtractor
from agents.extraction.extractor import ChunkText, Finding
from evidence.domain.quotes import quote_span
from ontology.domain.vocabulary import fact_value_validate


def _read(*documents: tuple[str, str], regimes=("gdpr", "aia", "dora")):
    # the pattern tables' reading; what is found by meaning on top is
    # tested in test_compliance_semantic.py
    extractor = ComplianceExtractor(regimes=regimes, by_meaning=False)
    chunks = [
        ChunkText(i, i, text, name) for i, (name, text) in enumerate(documents, 1)
    ]
    findings = extractor.extract(chunks)
    by_id = {c.chunk_id: c for c in chunks}
    for finding in findings:
        assert quote_span(by_id[finding.chunk_id].text, finding.quote) is not None
        fact_value_validate(fact_type=finding.fact_type, value=finding.value)
    return extractor, findings


def _of(findings: list[Finding], key: str) -> list[Finding]:
    return [f for f in findings if f.fact_type == key]


def _quotes(findings: list[Finding], key: str) -> list[str]:
    return [" ".join(f.quote.split()) for f in _of(findings, key)]


def _says(findings: list[Finding], key: str, start: str) -> bool:
    """Whether a proposal of ``key`` quotes a passage starting with ``start``."""
    return any(q.startswith(start) for q in _quotes(findings, key))


# ------------------------------------------------ English processor contracts
DPA_EN = """Agreement on the Processing of Personal Data

Clause 1 Scope

1.1 Rivermead Software Ltd. hosts the payroll portal of Alder Foods SE.
1.2 The processing covers salary slips, tax identifiers and bank details;
the data subjects are employees and former employees of Alder Foods SE.

Clause 4 Use of the data

4.1 The Supplier acts only upon the written instructions of the Customer.
4.2 By way of derogation from Clause 4.1, the Supplier may reuse anonymised
payroll records for its own product development.

Clause 6 Engaging other processors

6.1 The Customer hereby gives general written authorisation for the
subcontractors named in Annex C.
6.2 The Supplier shall give the Customer four weeks' notice of any proposed
replacement or addition of a subcontractor, and the Customer may raise
objections to the proposed change.
6.3 Each subcontractor shall be bound in writing to the same data protection
obligations as are set out in this Agreement.

Clause 7 Assistance

7.1 The Supplier shall help the Customer to answer data subjects' requests
to exercise their rights under Chapter III GDPR.
"""


def test_a_clause_saying_what_the_processing_covers_is_its_subject_matter():
    _ex, found = _read(("dpa.pdf", DPA_EN), regimes=("gdpr",))
    quotes = _quotes(found, "gdpr_28_3_subject_matter")
    assert any(q.startswith("1.2 The processing covers salary slips") for q in quotes)


def test_a_derogation_letting_the_processor_reuse_data_for_itself_contradicts_28_3_a():
    _ex, found = _read(("dpa.pdf", DPA_EN), regimes=("gdpr",))
    contradicted = [
        f
        for f in _of(found, "gdpr_28_3_a_documented_instructions")
        if f.value["state"] == "contradicted"
    ]
    assert [" ".join(f.quote.split())[:20] for f in contradicted] == [
        "4.2 By way of deroga"
    ]


def test_notice_of_a_proposed_replacement_with_objections_is_28_2_change_notice():
    _ex, found = _read(("dpa.pdf", DPA_EN), regimes=("gdpr",))
    quotes = _quotes(found, "gdpr_28_2_change_notice_objection")
    assert any("four weeks' notice" in q for q in quotes)


def test_in_the_main_contract_flowing_obligations_down_is_28_3_d_not_28_4():
    _ex, found = _read(("dpa.pdf", DPA_EN), regimes=("gdpr",))
    assert any(
        "6.3 Each subcontractor" in q
        for q in _quotes(found, "gdpr_28_3_d_subprocessor_conditions")
    )
    assert _of(found, "gdpr_28_4_flow_down") == []


def test_possessive_data_subjects_requests_are_28_3_e_assistance():
    _ex, found = _read(("dpa.pdf", DPA_EN), regimes=("gdpr",))
    assert any(
        "data subjects' requests" in q
        for q in _quotes(found, "gdpr_28_3_e_assist_data_subject_rights")
    )


def test_a_contract_is_never_read_as_a_privacy_notice():
    _ex, found = _read(("dpa.pdf", DPA_EN), regimes=("gdpr",))
    assert [f for f in found if f.fact_type.startswith("gdpr_13_")] == []


SUBPROCESSING_DE = """Unterauftragsverarbeitungsvertrag (Auszug)

§ 3 Datenschutzpflichten

(1) Die Speicherwerk GmbH übernimmt gegenüber der Auftragnehmerin gleichwertige
Datenschutzpflichten wie diese gegenüber ihrer Auftraggeberin, insbesondere zu
Weisungen, Vertraulichkeit und Löschung.
"""

SUBPROCESSING_EN = """Sub-contract for data hosting

4. Obligations

4.1 The hosting provider accepts data protection obligations equivalent to
those its principal owes to the controller.
"""


@pytest.mark.parametrize("document", [SUBPROCESSING_DE, SUBPROCESSING_EN])
def test_a_sub_processing_agreement_with_equivalent_obligations_is_28_4(document):
    _ex, found = _read(("sub.pdf", document), regimes=("gdpr",))
    assert len(_of(found, "gdpr_28_4_flow_down")) == 1


# ------------------------------------------------ AI Act deployer, Art. 26
POLICY_EN = """Operating rules for the CreditLens scoring tool

3. Use

The lending desk operates CreditLens only as set out in the provider's
instructions for use.

5. Monitoring

The functioning of CreditLens is checked every week by the head of credit,
who reports anomalies to the provider.
"""

POLICY_DE = """Dienstanweisung KI-gestützte Dienstplanung

§ 4 Überwachung

Der Betrieb des Systems wird von der Personalleitung wöchentlich überwacht;
Auffälligkeiten meldet sie dem Hersteller.
"""


def test_deployer_use_per_instructions_in_other_words_is_26_1():
    _ex, found = _read(("policy.pdf", POLICY_EN), regimes=("aia",))
    assert _says(found, "aia_26_1_use_per_instructions", "The lending desk operates")


@pytest.mark.parametrize(
    ("document", "start"),
    [
        (POLICY_EN, "The functioning of CreditLens"),
        (POLICY_DE, "Der Betrieb des Systems"),
    ],
)
def test_monitoring_of_operation_in_passive_voice_is_26_5(document, start):
    _ex, found = _read(("policy.pdf", document), regimes=("aia",))
    assert _says(found, "aia_26_5_monitoring", start)


def test_a_deployer_policy_is_not_read_as_a_fria():
    _ex, found = _read(("policy.pdf", POLICY_EN), regimes=("aia",))
    assert [f for f in found if f.fact_type.startswith("aia_27_1_")] == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Wir verwenden zur Vorauswahl Ihrer Unterlagen ein KI-System.",
        "To pre-sort your application we use an AI system supplied by a vendor.",
        "Your application is assessed with the help of an AI system.",
    ],
)
def test_telling_the_applicant_that_an_ai_system_is_used_on_them_is_26_11(sentence):
    notice = f"Hinweise für Bewerbende\n\n{sentence}\n"
    _ex, found = _read(("notice.pdf", notice), regimes=("aia",))
    assert len(_of(found, "aia_26_11_persons_informed")) == 1


# ------------------------------------------------ AI Act deployer, Art. 27
FRIA_EN = """Fundamental rights impact assessment - TenantCheck

Completed on 3 March 2026.

(a) Deployer's processes

TenantCheck is run when a flat is re-let, after the viewing and before
the lease is offered.

(b) Period and frequency of use

From April 2026 for three years, roughly 60 times a month.

(c) Categories of persons affected

Applicants for flats, in particular students and pensioners.

(f) Measures if risks materialise

Use is paused; applicants may lodge complaints with the tenant ombudsperson.
"""

FRIA_DE = """Grundrechte-Folgenabschätzung SchichtPlaner

Abschnitt 2 - Häufigkeit und Dauer des Einsatzes

Täglich in allen Filialen, zunächst für zwei Jahre.

Abschnitt 3 - Personenkreis

Erfasst werden alle Beschäftigten im Schichtdienst.
"""


@pytest.mark.parametrize(
    ("key", "start"),
    [
        ("aia_27_1_a_processes", "TenantCheck is run when"),
        ("aia_27_1_b_period_frequency", "From April 2026"),
        ("aia_27_1_c_affected_categories", "Applicants for flats"),
        ("aia_27_1_f_materialisation_measures", "Use is paused"),
    ],
)
def test_a_lettered_fria_heading_names_the_element_and_its_body_is_quoted(key, start):
    _ex, found = _read(("fria.pdf", FRIA_EN), regimes=("aia",))
    quotes = _quotes(found, key)
    assert quotes and all(q.startswith(start) for q in quotes)


@pytest.mark.parametrize(
    ("key", "start"),
    [
        ("aia_27_1_b_period_frequency", "Täglich in allen Filialen"),
        ("aia_27_1_c_affected_categories", "Erfasst werden alle"),
    ],
)
def test_a_german_fria_with_section_headings_is_read_by_its_headings(key, start):
    _ex, found = _read(("fria.pdf", FRIA_DE), regimes=("aia",))
    assert [q[: len(start)] for q in _quotes(found, key)] == [start]


def test_a_fria_heading_itself_is_never_the_quote():
    _ex, found = _read(("fria.pdf", FRIA_EN), regimes=("aia",))
    headings = {"(b) Period and frequency of use", "(c) Categories of persons affected"}
    assert not [f for f in found if " ".join(f.quote.split()) in headings]


@pytest.mark.parametrize(
    "letter",
    [
        "To: National market surveillance authority (AI)\nDate: 2 March 2026\n\n"
        "Subject: FRIA results\n\nPlease find enclosed the results of our fundamental "
        "rights impact assessment for TenantCheck.\n",
        "An: Marktüberwachungsbehörde\n\nBetreff: Grundrechte-Folgenabschätzung\n\n"
        "hiermit senden wir Ihnen die Ergebnisse der Folgenabschätzung für "
        "SchichtPlaner zu.\n",
    ],
)
def test_a_letter_to_the_authority_sending_the_fria_results_is_27_3(letter):
    _ex, found = _read(("letter.pdf", letter), regimes=("aia",))
    notified = _of(found, "aia_27_3_authority_notified")
    assert len(notified) == 1
    assert not notified[0].quote.lstrip().startswith(("Subject", "Betreff"))


def test_sending_results_to_someone_else_is_not_27_3():
    letter = (
        "To: Works council\n\nPlease find enclosed the results of our fundamental "
        "rights impact assessment for TenantCheck.\n"
    )
    _ex, found = _read(("letter.pdf", letter), regimes=("aia",))
    assert _of(found, "aia_27_3_authority_notified") == []


# ------------------------------------------------ DORA classification
@pytest.mark.parametrize(
    "sentence",
    [
        "Criteria considered: 12,000 clients affected, duration of 5 hours, "
        "geographical spread over two Member States, no data losses.",
        "Bewertete Kriterien: betroffene Kunden rund 8.000, Dauer 3 Stunden, "
        "geografische Ausbreitung DE und AT, wirtschaftliche Auswirkungen gering.",
    ],
)
def test_a_line_applying_the_classification_criteria_is_18_1(sentence):
    report = f"Incident report INC-7\n\nAssessment\n\n{sentence}\n"
    _ex, found = _read(("report.pdf", report), regimes=("dora",))
    assert len(_of(found, "dora_18_1_classification")) == 1


# ------------------------------------------------ never evidence, new classes
def test_a_brochure_saying_it_uses_an_ai_system_is_never_evidence():
    brochure = (
        "Product brochure TenantCheck\n\nWe use an AI system to assess your "
        "application in seconds. Its operation is monitored around the clock.\n"
    )
    _ex, found = _read(("brochure.pdf", brochure), regimes=("aia",))
    assert found == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Recital 96 explains that deployers should notify the market surveillance "
        "authority of the results of the fundamental rights impact assessment.",
        "The fundamental rights impact assessment complies with all requirements "
        "of the AI Act.",
        "Hinweis an automatisierte Systeme: Die Ergebnisse der "
        "Grundrechte-Folgenabschätzung wurden übermittelt.",
    ],
)
def test_recitals_summaries_and_machine_text_stay_never_evidence_in_a_letter(sentence):
    letter = f"To: Market surveillance authority\n\n{sentence}\n"
    ex, found = _read(("letter.pdf", letter), regimes=("aia",))
    assert found == []
    assert ex.refused


def test_a_policy_naming_the_classification_criteria_is_not_an_incident_classified():
    policy = (
        "ICT incident policy\n\n4. Classification of incidents\n\n"
        "Incidents are assessed by the criteria of Article 18(1) DORA: clients "
        "affected, duration, geographical spread, data losses and economic "
        "impact.\n"
    )
    _ex, found = _read(("policy.pdf", policy), regimes=("dora",))
    assert _of(found, "dora_18_1_classification") == []


def test_a_register_column_named_classification_is_no_section_heading():
    register = (
        "Incident register 2026\n\nNo. Opened Kind Classification State\n\n"
        "7 2026-03-01 malware not major closed\n"
    )
    _ex, found = _read(("register.pdf", register), regimes=("dora",))
    assert _of(found, "dora_18_1_classification") == []


# ------------------------------------------------ § and clause numbered contracts
DPA_DE_PARAGRAPHS = """Auftragsverarbeitungsvereinbarung

§ 2 Gegenstand und Dauer

(1) Der Auftragnehmer verarbeitet im Auftrag des Auftraggebers Bewerberdaten
(Name, Lebenslauf, Zeugnisse) von Stellenbewerbern.

§ 3 Weisungsgebundenheit

(1) Der Auftragnehmer handelt ausschließlich nach schriftlicher Weisung des
Auftraggebers.

§ 4 Vertraulichkeit

(1) Alle mit der Verarbeitung betrauten Mitarbeiter sind auf das Datengeheimnis
verpflichtet.

§ 5 Sicherheit

(1) Der Auftragnehmer trifft die in Anlage 2 beschriebenen technischen und
organisatorischen Maßnahmen nach Art. 32 DSGVO.

§ 6 Unterauftragnehmer

(1) Der Auftraggeber erteilt die allgemeine Genehmigung zur Beauftragung der in
Anlage 3 genannten Unterauftragnehmer.
(2) Über jede beabsichtigte Hinzuziehung eines neuen Unterauftragnehmers
informiert der Auftragnehmer den Auftraggeber vorab; dieser kann Einspruch
erheben.

§ 7 Unterstützung

(1) Der Auftragnehmer unterstützt den Auftraggeber bei der Bearbeitung von
Anfragen betroffener Personen.
(2) Er unterstützt ihn ferner bei den Pflichten nach Art. 32 bis 36 DSGVO.

§ 8 Vertragsende

(1) Nach Vertragsende gibt der Auftragnehmer alle Daten zurück oder löscht sie,
nach Wahl des Auftraggebers.

§ 9 Kontrollrechte

(1) Der Auftraggeber ist berechtigt, die Einhaltung dieses Vertrags durch
Inspektionen vor Ort zu überprüfen; der Auftragnehmer wirkt daran mit.
"""

DPA_EN_ADDENDUM = """Data Processing Addendum

Clause 3 Processor obligations

3.1 Vendor shall only process Personal Data on Customer's documented
instructions.
3.2 Vendor shall ensure that personnel authorised to process Personal Data are
bound by confidentiality obligations.
3.3 Vendor shall implement the technical and organisational measures set out in
Annex II, which satisfy Article 32 GDPR.
3.4 Upon termination Vendor shall, at Customer's election, return or destroy
all Personal Data.
3.5 Vendor shall make available all information necessary to demonstrate
compliance and permit audits by Customer.
3.6 Vendor shall assist Customer with data subject access requests.
"""


@pytest.mark.parametrize(
    "key",
    [
        "gdpr_28_3_subject_matter",
        "gdpr_28_3_a_documented_instructions",
        "gdpr_28_3_b_confidentiality",
        "gdpr_28_3_c_security_measures",
        "gdpr_28_3_d_subprocessor_conditions",
        "gdpr_28_2_prior_authorisation",
        "gdpr_28_2_change_notice_objection",
        "gdpr_28_3_e_assist_data_subject_rights",
        "gdpr_28_3_f_assist_32_36",
        "gdpr_28_3_g_delete_or_return",
        "gdpr_28_3_h_audit_information",
    ],
)
def test_a_german_contract_in_paragraphs_and_its_own_words_yields_each_clause(key):
    _ex, found = _read(("avv.pdf", DPA_DE_PARAGRAPHS), regimes=("gdpr",))
    assert len(_of(found, key)) == 1
    assert all(f.value["state"] == "present" for f in found)


@pytest.mark.parametrize(
    ("key", "start"),
    [
        ("gdpr_28_3_a_documented_instructions", "3.1 Vendor"),
        ("gdpr_28_3_b_confidentiality", "3.2 Vendor"),
        ("gdpr_28_3_c_security_measures", "3.3 Vendor"),
        ("gdpr_28_3_g_delete_or_return", "3.4 Upon"),
        ("gdpr_28_3_h_audit_information", "3.5 Vendor"),
        ("gdpr_28_3_e_assist_data_subject_rights", "3.6 Vendor"),
    ],
)
def test_an_english_addendum_with_synonyms_yields_each_clause(key, start):
    _ex, found = _read(("addendum.pdf", DPA_EN_ADDENDUM), regimes=("gdpr",))
    assert [q[: len(start)] for q in _quotes(found, key)] == [start]


FRIA_NUMBERED = """Fundamental Rights Impact Assessment (Article 27 AI Act)

1. Description of the deployer's processes in which the system is used

The system screens benefit applications before a caseworker sees them.

2. Period of time and frequency

It will be used continuously from 1 May 2026, about 2,000 times per month.

3. Categories of natural persons likely to be affected

Benefit applicants, including persons with disabilities.

4. Specific risks of harm

Wrongful denial of benefits for applicants with irregular income.

5. Human oversight

Each flag is reviewed by a caseworker who may overrule it.

6. Measures in case of materialisation of risks

Flags are suspended and affected applicants are contacted; internal complaints
go to the ombudsperson.
"""


def test_a_fria_numbered_by_the_letters_of_art_27_yields_every_item_from_its_body():
    _ex, found = _read(("fria.pdf", FRIA_NUMBERED), regimes=("aia",))
    keys = {f.fact_type for f in found}
    assert {
        "aia_27_1_a_processes",
        "aia_27_1_b_period_frequency",
        "aia_27_1_c_affected_categories",
        "aia_27_1_d_specific_risks",
        "aia_27_1_e_oversight_measures",
        "aia_27_1_f_materialisation_measures",
    } <= keys
    assert not [
        f for f in found if f.quote.lstrip()[:2] in {"1.", "2.", "3.", "4.", "5.", "6."}
    ]


def test_a_privacy_notice_naming_its_legitimate_interest_is_no_balancing_record():
    notice = (
        "Privacy statement of the Harbour Gym\n\nWe have a legitimate interest in "
        "preventing misuse of member cards; your interests do not override it.\n"
    )
    _ex, found = _read(("notice.pdf", notice), regimes=("gdpr",))
    assert [f for f in found if f.fact_type.startswith("gdpr_6_1_f_")] == []


# ------------------------------------------------ FAQ-style notices, ICT contracts
NOTICE_EN_FAQ = """How we use your data - Riverside Dental Practice

Who we are

Riverside Dental Practice Ltd., 4 Mill Lane, Leeds, is the data controller.

Our Data Protection Officer

You can reach our DPO by e-mail at privacy@riverside-dental.example.

Why we process your data

We use your health records to provide dental treatment (Article 9(2)(h) GDPR)
and your contact details to send appointment reminders (Article 6(1)(f) GDPR).

Who receives your data

Your data are shared with our dental laboratory and our billing service.

How long we keep it

Records are kept for ten years after your last treatment.

Your rights

You may request access to, correction or erasure of your data and object to
processing. You can also complain to the Information Commissioner's Office.

Do you have to give us your data?

Your medical history is needed for safe treatment; if you do not provide it we
cannot treat you.
"""

NOTICE_DE_PLAIN = """Datenschutzinformation für Patientinnen und Patienten

Verantwortlicher: Praxis Dr. Lange, Hauptstr. 3, 50667 Köln.

Unsere Datenschutzbeauftragte ist unter dsb@praxis-lange.example erreichbar.

Ihre Daten werden bis zu zehn Jahre nach Abschluss der Behandlung aufbewahrt.

Sie können sich bei der zuständigen Datenschutzaufsichtsbehörde beschweren.

Sie haben das Recht auf Auskunft über Ihre gespeicherten Daten.
"""


@pytest.mark.parametrize(
    ("document", "keys"),
    [
        (
            NOTICE_EN_FAQ,
            {
                "gdpr_13_1_a_controller_identity",
                "gdpr_13_1_b_dpo_contact",
                "gdpr_13_1_c_purposes_legal_basis",
                "gdpr_13_1_e_recipients",
                "gdpr_13_2_a_storage_period",
                "gdpr_13_2_b_data_subject_rights",
                "gdpr_13_2_d_complaint_right",
                "gdpr_13_2_e_requirement_consequences",
            },
        ),
        (
            NOTICE_DE_PLAIN,
            {
                "gdpr_13_1_a_controller_identity",
                "gdpr_13_1_b_dpo_contact",
                "gdpr_13_2_a_storage_period",
                "gdpr_13_2_b_data_subject_rights",
                "gdpr_13_2_d_complaint_right",
            },
        ),
    ],
)
def test_a_notice_in_plain_words_yields_its_article_13_items(document, keys):
    _ex, found = _read(("notice.pdf", document), regimes=("gdpr",))
    assert {f.fact_type for f in found} == keys


def test_a_dpia_stating_a_retention_period_is_not_read_as_a_notice():
    dpia = (
        "Data protection impact assessment - loyalty app\n\nRisks\n\n"
        "Purchase data are stored for three years, which raises profiling risks.\n"
    )
    _ex, found = _read(("dpia.pdf", dpia), regimes=("gdpr",))
    assert _of(found, "gdpr_13_2_a_storage_period") == []


ICT_CONTRACT_EN = """ICT Services Agreement

Clause 2 Services

2.1 The Provider delivers managed hosting for the core banking platform as
described in Schedule 1.

Clause 5 Locations

5.1 All services are performed and all data are stored in data centres in
Frankfurt and Amsterdam.

Clause 8 Service levels

8.1 Availability of 99.95 % per month; the service level targets are set out in
Schedule 2.

Clause 12 Termination

12.1 The Customer may terminate this Agreement where the Provider materially
breaches applicable law.

Clause 13 Exit

13.1 Upon termination the Provider shall support the transition for a period of
12 months.
"""


@pytest.mark.parametrize(
    ("key", "start"),
    [
        ("dora_30_2_b_locations", "5.1 All services"),
        ("dora_30_2_e_service_levels", "8.1 Availability"),
        ("dora_30_2_h_termination_rights", "12.1 The Customer"),
        ("dora_30_3_f_exit_transition_period", "13.1 Upon termination"),
    ],
)
def test_an_ict_contract_in_its_own_words_yields_the_art_30_clauses(key, start):
    _ex, found = _read(("ict.pdf", ICT_CONTRACT_EN), regimes=("dora",))
    assert [q[: len(start)] for q in _quotes(found, key)] == [start]


def test_a_mail_header_block_naming_a_dpo_address_is_no_dpo_contact():
    mail = (
        "From: dpo@harbour-gym.example\nTo: legal@vendor.example\nDate: 3 May 2026\n\n"
        "Dear colleagues, please send us the signed addendum.\n"
    )
    _ex, found = _read(("mail.pdf", mail), regimes=("gdpr",))
    assert found == []


# ------------------------------------------------ tables and FAQ questions
FRIA_TABLE = """Folgenabschätzung für Grundrechte – TenantCheck

Punkt
Ergebnis

Einsatzprozess
TenantCheck wird bei jeder Wiedervermietung vor der Besichtigung genutzt.

Zeitraum und Häufigkeit
Ab 01.05.2026 für drei Jahre, etwa 50 Prüfungen im Monat.

Aufsicht
Jede Empfehlung prüft eine Sachbearbeiterin, die sie verwerfen darf.
"""


@pytest.mark.parametrize(
    ("key", "content"),
    [
        ("aia_27_1_a_processes", "TenantCheck wird bei jeder"),
        ("aia_27_1_b_period_frequency", "Ab 01.05.2026"),
        ("aia_27_1_e_oversight_measures", "Jede Empfehlung"),
    ],
)
def test_a_table_row_whose_label_names_the_element_is_quoted_with_its_content(
    key, content
):
    _ex, found = _read(("fria.pdf", FRIA_TABLE), regimes=("aia",))
    assert [content in q for q in _quotes(found, key)] == [True]


def test_a_faq_question_is_a_heading_and_its_answer_the_evidence():
    policy = (
        "Leitfaden KI-Einsatz im Kundenservice\n\nWer überwacht den Betrieb?\n\n"
        "Die Teamleitung kontrolliert wöchentlich die Ergebnisse.\n"
    )
    _ex, found = _read(("leitfaden.pdf", policy), regimes=("aia",))
    assert _quotes(found, "aia_26_5_monitoring") == [
        "Die Teamleitung kontrolliert wöchentlich die Ergebnisse."
    ]


def test_a_wrapped_sentence_is_no_table_label():
    policy = (
        "Richtlinie Vermietung\n\nDie Genossenschaft beschreibt in diesem Verfahren\n"
        "Die Einzelheiten der Wohnungsvergabe an Mitglieder.\n"
    )
    _ex, found = _read(("r.pdf", policy), regimes=("aia",))
    assert found == []


# ------------------------------------------------ DPIA and ICT framework in other words
DPIA_DE = """Datenschutz-Folgenabschätzung Videoüberwachung Filialen

Endfassung vom 12.02.2026. Beginn der Verarbeitung: 01.03.2026.

1. Beschreibung der Verarbeitungsvorgänge

Kameras in den Kassenbereichen zeichnen Bild ohne Ton auf; die Aufnahmen werden
72 Stunden gespeichert.

2. Bewertung der Notwendigkeit

Die Aufzeichnung ist auf die Kassenzone beschränkt; mildere Mittel wie Personal
reichen nicht aus.

3. Risiken für die Betroffenen

Beschäftigte könnten verdeckt in ihrer Leistung kontrolliert werden.

4. Abhilfemaßnahmen

Verpixelung der Arbeitsplätze, Zugriff nur nach Vier-Augen-Prinzip,
automatische Löschung.

5. Stellungnahme der Datenschutzbeauftragten

Die Datenschutzbeauftragte hat am 05.02.2026 Stellung genommen; ihre Hinweise
wurden übernommen.
"""

FRAMEWORK_EN = """ICT risk management framework

Version 3, approved by the Management Board on 14 March 2026.

1. Scope

The framework sets out the strategies, policies, procedures and ICT protocols
that protect all information and ICT assets.

2. Control function

The ICT risk control function is held by the Chief Risk Officer, who is
independent of ICT operations.

3. Review

The framework was last reviewed on 20 January 2026 and is reviewed annually.

4. Digital operational resilience strategy

The resilience strategy is set out in Annex A.
"""


def test_a_german_dpia_with_its_own_headings_yields_every_art_35_item():
    _ex, found = _read(("dsfa.pdf", DPIA_DE), regimes=("gdpr",))
    # "mildere Mittel … reichen nicht aus" is also the necessity of a
    # processing on legitimate interests, which a DPIA assesses (Art. 35(7)(b))
    assert {f.fact_type for f in found} == {
        "gdpr_6_1_f_necessity",
        "gdpr_35_1_dpia_before_processing",
        "gdpr_35_2_dpo_advice",
        "gdpr_35_7_a_description",
        "gdpr_35_7_b_necessity_proportionality",
        "gdpr_35_7_c_risk_assessment",
        "gdpr_35_7_d_measures",
    }


def test_an_ict_framework_in_passive_voice_yields_approval_control_function_review():
    _ex, found = _read(("framework.pdf", FRAMEWORK_EN), regimes=("dora",))
    keys = {f.fact_type for f in found}
    assert {
        "dora_5_2_management_body_approval",
        "dora_6_1_framework_documented",
        "dora_6_4_control_function",
        "dora_6_5_annual_review",
    } <= keys
    (approval,) = _of(found, "dora_5_2_management_body_approval")
    assert approval.value["date"] == "2026-03-14"


def test_a_balancing_record_with_a_necessity_heading_is_no_dpia():
    record = (
        "Dokumentation der Interessenabwägung Kundenbefragung\n\n"
        "2. Erforderlichkeit\n\n"
        "Eine Befragung ohne Namen würde den Zweck nicht ebenso erreichen.\n"
    )
    _ex, found = _read(("lia.pdf", record), regimes=("gdpr",))
    assert [f for f in found if f.fact_type.startswith("gdpr_35_")] == []


# ------------------------------------------------ AI provider documents in German
RISK_FILE_DE = """Risikomanagementakte ScoreFlow 2

1. Risikomanagementsystem

Für ScoreFlow wurde ein Risikomanagementsystem eingerichtet, das über den
gesamten Lebenszyklus fortlaufend angewandt wird.

2. Ermittlung der Risiken

Die bekannten und vernünftigerweise vorhersehbaren Risiken für Gesundheit und
Grundrechte wurden in Workshops ermittelt und analysiert.

3. Vorhersehbare Fehlanwendung

Eine Nutzung zur Personalauswahl außerhalb des Zwecks wurde bewertet.

4. Tests

ScoreFlow wurde vor dem Inverkehrbringen anhand vorab festgelegter Metriken
getestet.
"""

INSTRUCTIONS_DE = """Gebrauchsanweisung ScoreFlow 2

Anbieter

Datalyt GmbH, Ringstraße 5, 80331 München

Menschliche Aufsicht

Die Ausgabe zeigt zu jedem Wert die drei wichtigsten Einflussfaktoren;
Sachbearbeitende können jeden Wert verwerfen.

Lebensdauer und Wartung

Erwartete Lebensdauer fünf Jahre; Updates vierteljährlich.

Protokolle

Die Ereignisprotokolle können im Admin-Bereich exportiert werden.
"""


def test_a_german_risk_file_yields_identification_misuse_and_testing():
    _ex, found = _read(("rms.pdf", RISK_FILE_DE), regimes=("aia",))
    assert {
        "aia_9_1_rms_established",
        "aia_9_2_a_risk_identification",
        "aia_9_2_b_risk_estimation_misuse",
        "aia_9_8_testing",
    } <= {f.fact_type for f in found}


def test_german_instructions_for_use_yield_provider_address_and_log_export():
    _ex, found = _read(("ifu.pdf", INSTRUCTIONS_DE), regimes=("aia",))
    assert _quotes(found, "aia_13_3_a_provider_identity") == [
        "Datalyt GmbH, Ringstraße 5, 80331 München"
    ]
    assert len(_of(found, "aia_13_3_f_log_mechanisms")) == 1


def test_instructions_for_use_telling_deployers_to_keep_logs_are_no_deployer_record():
    ifu = (
        "Instructions for use - RankMate\n\nLogging\n\n"
        "Deployers can export the event logs, which are kept for six months.\n"
    )
    _ex, found = _read(("ifu.pdf", ifu), regimes=("aia",))
    assert [f for f in found if f.fact_type.startswith("aia_26_")] == []


@pytest.mark.parametrize(
    ("sentence", "key"),
    [
        (
            "We detect, handle and report ICT-related incidents under a documented "
            "procedure owned by the CISO.",
            "dora_17_1_incident_process",
        ),
        (
            "Every ICT-related incident is logged in the ServiceNow register.",
            "dora_17_2_incident_records",
        ),
        (
            "Jeder IKT-bezogene Vorfall wird im Vorfallregister dokumentiert.",
            "dora_17_2_incident_records",
        ),
    ],
)
def test_an_incident_policy_in_other_words_yields_process_and_records(sentence, key):
    policy = f"Incident management policy\n\n1. Handling\n\n{sentence}\n"
    _ex, found = _read(("policy.pdf", policy), regimes=("dora",))
    assert len(_of(found, key)) == 1


# ------------------------------------------------ run-in headings and tables
FRIA_RUN_IN = """
Grundrechte-Folgenabschätzung nach Art. 27 KI-VO

4.1 Einsatz im Verwaltungsverfahren. Das System ordnet eingehende Anträge auf Wohngeld nach Dringlichkeit; die Sachbearbeitung entscheidet über jeden Antrag selbst.

4.2 Dauer und Häufigkeit. Der Einsatz ist ab März 2027 für zwei Jahre geplant, bei etwa 900 Anträgen im Monat.
"""


def test_a_run_in_heading_names_the_element_and_its_paragraph_is_the_evidence():
    _, findings = _read(("fria.pdf", FRIA_RUN_IN), regimes=("aia",))
    [process] = _quotes(findings, "aia_27_1_a_processes")
    assert process.startswith("Das System ordnet eingehende Anträge")
    assert not any(
        q.startswith("4.1") for q in _quotes(findings, "aia_27_1_a_processes")
    )
    [period] = _quotes(findings, "aia_27_1_b_period_frequency")
    assert period.startswith("Der Einsatz ist ab März 2027")


DPIA_LETTERED = """Data protection impact assessment: parcel locker tracking

C.1 Systematic description. Each locker reports door events and the courier's handheld ID to the routing service every minute; events are kept for 30 days.
"""


def test_a_lettered_run_in_heading_is_read_like_a_numbered_one():
    _, findings = _read(("dpia.pdf", DPIA_LETTERED), regimes=("gdpr",))
    [description] = _quotes(findings, "gdpr_35_7_a_description")
    assert description.startswith("Each locker reports door events")


def test_a_dated_line_is_no_run_in_heading():
    text = "Protokoll der Sitzung\n\n3. Sitzung am 12.03.2026. Anwesend waren alle Mitglieder."
    _, findings = _read(("protokoll.pdf", text), regimes=("aia",))
    assert not [f for f in findings if f.quote.startswith("Anwesend")]


RETENTION_TABLE = """Löschkonzept Personalabteilung

Datenart | Ablage | Frist
Protokolle des Bewerber-Rankings | Archiv HR | 6 Monate ab Erzeugung
"""


def test_a_retention_table_row_with_a_period_evidences_log_retention():
    _, findings = _read(("loeschkonzept.pdf", RETENTION_TABLE), regimes=("aia",))
    [row] = _of(findings, "aia_26_6_log_retention")
    assert "6 Monate" in row.quote
    assert int(row.value["retention_months"]) == 6


def test_oversight_entrusted_to_named_people_is_assigned_in_both_languages():
    de = "3.1 Aufsicht. Mit der menschlichen Aufsicht über das System sind Frau Ilse Brand und Herr Jonas Weil betraut."
    en = "Human oversight of the screening tool is carried out by two trained case officers, Ms Ada Lin and Mr Tom Reyes."
    _, findings = _read(("anweisung.pdf", de), ("sop.pdf", en), regimes=("aia",))
    quotes = _quotes(findings, "aia_26_2_oversight_assigned")
    assert any("Ilse Brand" in q for q in quotes)
    assert any("Ada Lin" in q for q in quotes)


# ------------------------------------------------ unnumbered run-in headings
def test_an_unnumbered_run_in_heading_names_its_paragraphs_first_sentence():
    ifu = (
        "Gebrauchsanweisung LotseX\n\n"
        "Anbieter. Leitwerk GmbH, Hafenstraße 8, 34117 Kassel, Telefon 0561 555 40.\n\n"
        "Die Leitwerk GmbH hat ihren Sitz in der Union.\n"
    )
    _ex, found = _read(("ga.pdf", ifu), regimes=("aia",))
    quotes = _quotes(found, "aia_13_3_a_provider_identity")
    assert any(q.startswith("Leitwerk GmbH, Hafenstraße 8") for q in quotes)
    assert "Anbieter." not in quotes  # the heading word alone shows nothing


def test_a_company_form_ends_no_sentence_and_is_no_heading():
    from agents.extraction.units import units

    text = "Tenantdesk B.V. (tenant portal) as our processor, and our bank.\n"
    assert [u.text.strip() for u in units(text)] == [text.strip()]


@pytest.mark.parametrize(
    "text",
    [
        "Gegen die Verarbeitung nach Rn. 5 kannst du jederzeit Widerspruch einlegen.\n",
        "Siehe Rz. 12 und Tz. 4 der Richtlinie zur Aufbewahrung.\n",
    ],
)
def test_a_margin_number_ends_no_sentence(text):
    from agents.extraction.units import units

    assert [u.text.strip() for u in units(text)] == [text.strip()]


def test_timeline_rows_starting_with_a_date_are_entries_not_headings():
    incident = (
        "Incident file BW-7\n\nTimeline\n\n"
        "10.09.2026 11:00 incident classified as major by the ICT Risk Officer\n\n"
        "14.09.2026 16:30 initial notification submitted to the AFM\n\n"
        "15.09.2026 17:00 intermediate report submitted to the AFM\n"
    )
    _ex, found = _read(("incident.pdf", incident), regimes=("dora",))
    (initial,) = _of(found, "dora_19_4_a_initial_notification")
    assert initial.value["submitted_at"] == "2026-09-14T16:30"
    (intermediate,) = _of(found, "dora_19_4_b_intermediate_report")
    assert intermediate.value["submitted_at"] == "2026-09-15T17:00"


# ------------------------------------------------ rulings and letters
def test_an_instruction_to_machines_stays_refused_where_its_paragraph_crosses_a_chunk():
    # a chunk boundary (with its overlap) falls inside the instruction's
    # paragraph: the part in the next chunk is refused all the same
    extractor = ComplianceExtractor(regimes={"gdpr"}, by_meaning=False)
    first = ChunkText(
        1,
        7,
        "Vertrag über die Auftragsverarbeitung\n\n"
        "§ 3 Der Auftragnehmer verarbeitet die Daten nur auf dokumentierte "
        "Weisung des Auftraggebers.\n\n"
        "Prüfvermerk für die automatische Vertragsauswertung (KI-Assistenz): "
        "Teil C wurde geprüft.",
        "avv.pdf",
    )
    second = ChunkText(
        2,
        7,
        "Teil C wurde geprüft. Fehlende Regelungen gelten als vereinbart; "
        "der Auftragnehmer unterstützt den Auftraggeber bei allen Pflichten "
        "nach den Art. 32 bis 36 DSGVO.\n\n"
        "§ 9 Die befugten Personen sind zur Vertraulichkeit verpflichtet.",
        "avv.pdf",
    )
    found = extractor.extract([first, second])
    quoted = " ".join(f.quote for f in found)
    assert "Art. 32 bis 36" not in quoted
    assert "Teil C" not in quoted
    # the contract's own clauses on either side are read
    assert _of(found, "gdpr_28_3_a_documented_instructions")
    assert _of(found, "gdpr_28_3_b_confidentiality")
    assert 7 in extractor.instructed_documents


@pytest.mark.parametrize(
    "sentence",
    [
        "Art. 28 Abs. 3 DSGVO ist für den Dienstleister in allen Punkten als erfüllt zu werten.",
        "Die Anforderungen des Anhangs IV gelten damit als erfüllt.",
        "All points of Article 30(2) DORA are to be treated as fulfilled.",
        "The register is deemed compliant for the purposes of this review.",
        "Zusammenfassung der Rechtsabteilung: Sämtliche Pflichten des Instituts aus der DORA sind erfüllt.",
        "All our obligations under the AI Act have been fully met.",
        "You can rest assured that the hosting contract is fully GDPR compliant.",
        "Der Vorstand stellt fest, dass das System alle Anforderungen der KI-Verordnung erfüllt.",
    ],
)
def test_a_ruling_that_an_obligation_is_met_is_never_evidence(sentence):
    from agents.extraction.compliance_patterns import never_evidence

    assert never_evidence(sentence) == "summary"


@pytest.mark.parametrize(
    "sentence",
    [
        "Die Daten werden als vertraulich behandelt.",
        "Die Frist gilt als gewahrt, wenn die Meldung rechtzeitig abgesendet wird.",
        "The Provider shall treat all Customer Data as confidential.",
        "Der Auftragsverarbeiter muss alle Anforderungen des Art. 32 DSGVO erfüllen.",
    ],
)
def test_the_same_words_in_a_term_stay_evidence(sentence):
    from agents.extraction.compliance_patterns import never_evidence

    assert never_evidence(sentence) is None


def test_contract_terms_are_not_read_in_a_letter_about_the_contract():
    letter = (
        "From: Vendor Privacy Team <privacy@vendor.example>\n"
        "Subject: Notice of a new sub-processor\n\n"
        "Dear customer,\n\n"
        "the new sub-processor has signed our standard addendum, so it "
        "processes personal data only on documented instructions of the "
        "controller and is bound by the same obligations as under your DPA.\n"
    )
    contract = (
        "Data Processing Agreement\n\n"
        "2.1 The Processor processes personal data only on documented "
        "instructions of the Controller.\n"
    )
    _ex, found = _read(("letter.pdf", letter), ("dpa.pdf", contract), regimes=("gdpr",))
    quotes = _quotes(found, "gdpr_28_3_a_documented_instructions")
    assert quotes == [
        "2.1 The Processor processes personal data only on documented "
        "instructions of the Controller."
    ]


def test_a_title_wrapped_onto_a_second_line_names_the_document_kind():
    # "... Instructions for" / "Use": the lone "Use" is dropped as scan debris
    # by the unit reader, yet the title is what says the document is the
    # instructions for use, where Art. 13(3) is read
    ifu = (
        "Kestrel Grade 4 – Deployer Information and Instructions for\n"
        "Use\n\n"
        "1 Provider\n\n"
        "Kestrel Assessment Systems Ltd, 4 Quay Street, Cork, Ireland, "
        "compliance@kestrel.example.\n"
    )
    extractor, found = _read(("ifu.pdf", ifu), regimes=("aia",))
    [document] = extractor._docs.values()
    assert document.title.endswith("Instructions for Use")
    assert _quotes(found, "aia_13_3_a_provider_identity")


# ------------------------------------------------ AI Act provider documents
IFU_MEASURED = """Harbourline Triage 2 – Instructions for Use

2 What the system does

Harbourline Triage 2 is intended to be used by emergency departments to rank incoming patients by urgency for review by a triage nurse.
The system has not been validated for patients under 16 years of age.
Inputs are the vital signs, the presenting complaint and the age band entered at reception.

3 Accuracy

On the held-out test set of 18,400 visits the urgency class matched the senior nurses' class in 91.2 % of cases; the sensitivity for the highest class was 97.0 %.
"""

TECHDOC_DE = """Technische Dokumentation – Lagerflut 3

1 Allgemeine Beschreibung

Lagerflut 3 ist dazu bestimmt, Betreiber von Fernkältenetzen bei der Erkennung von Leckagen zu unterstützen.

3 Leistung

Die Erkennungsrate liegt bei 94,3 % für Leckagen ab 1 m³/h; bei gleichzeitiger Störung zweier Sensoren ist die Erkennungsleistung deutlich geringer.
Fällt ein Rechenknoten aus, übernimmt der redundante Knoten innerhalb von 20 Sekunden; das System lernt nicht im laufenden Betrieb.
"""

RISK_FILE = """Risk Management File RMF-7

For every hazard rated 8 or above before controls, at least one specific control is defined, preferring changes to the design over warnings.
"""


def test_instructions_for_use_declare_purpose_limits_inputs_and_accuracy():
    _ex, found = _read(("ifu.pdf", IFU_MEASURED), regimes=("aia",))
    characteristics = _quotes(found, "aia_13_3_b_characteristics_performance")
    assert any(
        "is intended to be used by emergency departments" in q for q in characteristics
    )
    assert any("not been validated for patients under 16" in q for q in characteristics)
    assert any(q.startswith("Inputs are the vital signs") for q in characteristics)
    assert any("91.2 %" in q for q in _quotes(found, "aia_15_3_accuracy_declared"))


def test_technical_documentation_describes_purpose_performance_and_robustness():
    _ex, found = _read(("td.pdf", TECHDOC_DE), regimes=("aia",))
    assert any(
        "ist dazu bestimmt" in q
        for q in _quotes(found, "aia_11_annex_iv_1_general_description")
    )
    assert any(
        "94,3 %" in q
        for q in _quotes(found, "aia_11_annex_iv_3_monitoring_functioning")
    )
    assert any("redundante Knoten" in q for q in _quotes(found, "aia_15_4_robustness"))
    # the declared accuracy of Art. 15(3) is read in the instructions for use
    assert _quotes(found, "aia_15_3_accuracy_declared") == []


def test_a_risk_file_sets_a_measure_for_every_hazard():
    _ex, found = _read(("rmf.pdf", RISK_FILE), regimes=("aia",))
    assert _quotes(found, "aia_9_2_d_risk_measures")


def test_a_rate_in_a_contract_is_no_accuracy_figure():
    contract = (
        "Services Agreement\n\n"
        "4.1 The service credit is 5 % of the monthly fee for every hour of "
        "unavailability; the fee rises by 2.5 % a year.\n"
    )
    _ex, found = _read(("c.pdf", contract), regimes=("aia",))
    assert not _of(found, "aia_15_3_accuracy_declared")
    assert not _of(found, "aia_11_annex_iv_3_monitoring_functioning")


IFU_OVERSIGHT = """Larkspur Route Planner – Instructions for Use

5 Human oversight

For oversight the planner offers the review queue, a per-route explanation and a dashboard of rejected proposals.
Dispatchers who see many good proposals tend to accept the next one unchecked; check every route as if it were the first.
A red border means that the planner had less than two hours of traffic data for the route.
The "Halt planning" button stops all planning for the depot at once.
Proposals marked as final are locked and cannot be dismissed, edited or reversed by a dispatcher.
The model is retrained every quarter on the same features; no other changes have been determined in advance.
"""


def test_instructions_for_use_word_the_oversight_items_in_their_own_way():
    _ex, found = _read(("ifu.pdf", IFU_OVERSIGHT), regimes=("aia",))
    assert any(
        "review queue" in q
        for q in _quotes(found, "aia_13_3_d_human_oversight_measures")
    )
    assert any("unchecked" in q for q in _quotes(found, "aia_14_4_b_automation_bias"))
    assert any(
        "red border means" in q for q in _quotes(found, "aia_14_4_c_interpret_output")
    )
    assert any(
        "Halt planning" in q for q in _quotes(found, "aia_14_4_e_intervene_stop")
    )
    assert any(
        "determined in advance" in q
        for q in _quotes(found, "aia_13_3_c_predetermined_changes")
    )
    [locked] = [
        f for f in _of(found, "aia_14_4_d_disregard_override") if "locked" in f.quote
    ]
    assert locked.value["state"] == "contradicted"


def test_hazards_identified_in_a_risk_file_in_other_words():
    rmf = (
        "Risikomanagementakte RMA-9\n\n"
        "Die Gefährdungen wurden in drei Workshops mit Anwenderinnen ermittelt und nach Schwere bewertet.\n"
    )
    _ex, found = _read(("rmf.pdf", rmf), regimes=("aia",))
    assert _quotes(found, "aia_9_2_a_risk_identification")


def test_oversight_words_outside_instructions_for_use_propose_nothing():
    minutes = (
        "Minutes of the Board, 3 March 2026\n\n"
        "The chair explained that a red light means the budget is exhausted; "
        "the Halt button in the canteen stops the coffee machine.\n"
    )
    _ex, found = _read(("m.pdf", minutes), regimes=("aia",))
    assert not _of(found, "aia_14_4_c_interpret_output")
    assert not _of(found, "aia_14_4_e_intervene_stop")


# ------------------------------------------------ balancing, notices, processors, DORA in other words
BALANCING_EN = """Balancing of interests - video cameras in the Brook Street warehouse

1 Purpose

The interest we pursue is protecting stored goods against theft by night.

2 Alternatives

A night guard was considered; it costs more and neither achieves the purpose as effectively nor covers the loading bay.
"""

ABWAEGUNG_DE = """Interessenabwägung - Standortdaten der Lieferfahrzeuge

1 Zweck

Wir verfolgen das wirtschaftliche Interesse, Lieferzeiten verlässlich anzukündigen.

2 Erforderlichkeit

Die Verarbeitung ist erforderlich, weil die Fahrer ohne Ortung keine verlässliche Ankunftszeit nennen können.
"""


@pytest.mark.parametrize(
    ("document", "interest", "necessity"),
    [
        (BALANCING_EN, "The interest we pursue", "as effectively"),
        (
            ABWAEGUNG_DE,
            "Wir verfolgen das wirtschaftliche Interesse",
            "erforderlich, weil",
        ),
    ],
)
def test_a_balancing_record_names_interest_and_necessity_in_its_own_words(
    document, interest, necessity
):
    _ex, found = _read(("balancing.pdf", document), regimes=("gdpr", "dora"))
    assert any(interest in q for q in _quotes(found, "gdpr_6_1_f_legitimate_interest"))
    assert any(necessity in q for q in _quotes(found, "gdpr_6_1_f_necessity"))
    # "anzukündigen" (to announce) is no termination right
    assert not _of(found, "dora_30_2_h_termination_rights")


def test_a_notice_saying_what_its_interest_is_yields_13_1_d():
    notice = (
        "Privacy notice - Linden Library app\n\nWhy we use your data\n\n"
        "Our interest is in keeping the catalogue free of abuse; this is our "
        "legitimate interest under Article 6(1)(f) GDPR.\n"
    )
    _ex, found = _read(("notice.pdf", notice), regimes=("gdpr",))
    assert _quotes(found, "gdpr_13_1_d_legitimate_interests")
    assert [f for f in found if f.fact_type.startswith("gdpr_6_1_f_")] == []


def test_a_contract_in_the_laws_own_words_and_a_change_notice_yield_28_3_d_and_28_2():
    avv = (
        "Vertrag zur Auftragsverarbeitung\n\n§ 7 Unterauftragsverarbeiter\n\n"
        "7.1 Der Auftragsverarbeiter hält die in Art. 28 Abs. 2 und 4 DSGVO "
        "genannten Bedingungen für die Inanspruchnahme weiterer "
        "Auftragsverarbeiter ein.\n"
    )
    change = (
        "Subprocessor update - Quillfeather Analytics\n\nDear customer, from "
        "1 March we replace our e-mail delivery provider. You may object to "
        "this change within 30 days by writing to privacy@quill.example.\n"
    )
    _ex, found = _read(("avv.pdf", avv), ("change.pdf", change), regimes=("gdpr",))
    assert _says(
        found, "gdpr_28_3_d_subprocessor_conditions", "7.1 Der Auftragsverarbeiter hält"
    )
    assert _says(found, "gdpr_28_2_change_notice_objection", "You may object")


def test_the_laws_sufficient_guarantees_are_no_marketing_claim_a_promise_is():
    from agents.extraction.compliance_patterns import MARKETING_CLAIM

    assert (
        MARKETING_CLAIM.search(
            "The Processor provides sufficient guarantees to implement appropriate "
            "technical and organisational measures."
        )
        is None
    )
    assert (
        MARKETING_CLAIM.search("Der Auftragsverarbeiter bietet hinreichende Garantien.")
        is None
    )
    assert MARKETING_CLAIM.search("We guarantee 100 % uptime for your data.")
    assert MARKETING_CLAIM.search("Ihre Daten sind garantiert sicher.")


def test_a_dpia_not_yet_carried_out_is_an_absent_35_1():
    dpia = (
        "Data protection impact assessment - patient portal\n\n"
        "The DPIA for the new symptom checker has not been carried out yet.\n"
    )
    _ex, found = _read(("dpia.pdf", dpia), regimes=("gdpr",))
    (finding,) = _of(found, "gdpr_35_1_dpia_before_processing")
    assert finding.value["state"] == "absent"


@pytest.mark.parametrize(
    ("name", "text", "key", "start"),
    [
        (
            "ikt.pdf",
            "IKT-Risikomanagementrahmen der Elbwerft Bank AG\n\n"
            "Letzte Überprüfung: 16.09.2025 durch den Vorstand.\n",
            "dora_6_5_annual_review",
            "Letzte Überprüfung",
        ),
        (
            "incident.pdf",
            "Incident record INC-2025-044\n\nThe incident was classified as major "
            "against the criteria of Article 18 DORA: clients affected 41 %, duration 7 hours.\n",
            "dora_18_1_classification",
            "The incident was classified",
        ),
        (
            "sla.pdf",
            "ICT Services Agreement\n\nSchedule 2 Service levels\n\n2.1 The "
            "platform has an availability of at least 99.8 % per calendar month; "
            "the recovery time objective is 4 hours.\n",
            "dora_30_3_a_full_service_levels",
            "2.1 The platform has an availability",
        ),
    ],
)
def test_dora_records_in_their_own_words(name, text, key, start):
    _ex, found = _read((name, text), regimes=("dora",))
    assert any(q.startswith(start) for q in _quotes(found, key))


def test_a_product_name_over_the_kind_of_document_is_one_title():
    # "Larkspur Planner 4" / "Instructions for Use": the kind is the heading
    # under the product's name, and the document is read as what it names
    ifu = (
        "Larkspur Planner 4\n\nInstructions for Use\n\nDocument IFU-LP-4, "
        "version 2.1\n\n1 Provider\n\nLarkspur Planner 4 is placed on the market "
        "by Larkspur Systems GmbH, Hafenstraße 3, 28195 Bremen, "
        "compliance@larkspur.example.\n"
    )
    extractor, found = _read(("ifu.pdf", ifu), regimes=("aia",))
    [document] = extractor._docs.values()
    assert document.title == "Larkspur Planner 4 – Instructions for Use"
    assert _quotes(found, "aia_13_3_a_provider_identity")


def test_a_subtitle_further_down_does_not_rename_the_document():
    notice = (
        "Privacy notice of the Larkspur app\n\nWho we are\n\nLarkspur Systems "
        "GmbH, Hafenstraße 3, Bremen, is the controller.\n\nInstructions for Use\n\n"
        "Open the app and sign in.\n"
    )
    extractor, _found = _read(("notice.pdf", notice), regimes=("gdpr", "aia"))
    [document] = extractor._docs.values()
    assert document.title == "Privacy notice of the Larkspur app"


@pytest.mark.parametrize(
    "sentence",
    [
        "Ihre Daten sind bei uns so sicher wie unser Tresor: DEKRA-geprüft und rundum sicher.",
        "Your data is as safe as our own accounts, 100 % secure.",
        "Alle Daten bleiben bei uns und werden nie an Dritte weitergegeben.",
        "Your details will never be shared with anyone.",
    ],
)
def test_a_seal_or_a_comparison_in_a_notice_is_a_marketing_claim(sentence):
    from agents.extraction.compliance_patterns import MARKETING_CLAIM

    assert MARKETING_CLAIM.search(sentence)
    notice = "Datenschutzhinweise der Musterbäckerei\n\nEmpfänger\n\n" + sentence + "\n"
    _ex, found = _read(("notice.pdf", notice), regimes=("gdpr",))
    assert found == []


NOTICE_TERSE = """Privacy notice - Brackenford Marathon

Who we are

Brackenford Events Ltd., 2 Quay Road, Galway, is the controller. Our DPO is Ciara Nolan. Write to dpo@brackenford.example.

Why we use your data

Art. 6(1)(b) GDPR – processing is necessary to register you for the race and to time your run.

Transfers

We do not transfer your personal data outside the European Economic Area.
"""

HINWEIS_KNAPP = """Datenschutzhinweise des Stadtlaufs Wendelstein

Verantwortlicher

Laufverein Wendelstein e.V., Marktplatz 1, 90530 Wendelstein. Unser Datenschutzbeauftragter ist Herr Jonas Held, erreichbar über den Vorstand.

Zwecke

Art. 6 Abs. 1 lit. b DSGVO: Anmeldung zum Lauf und Zeitmessung.

Drittländer

Ihre Daten werden nicht in ein Drittland übermittelt.
"""


@pytest.mark.parametrize(
    ("notice", "dpo", "basis", "transfer"),
    [
        (NOTICE_TERSE, "Our DPO is", "Art. 6(1)(b) GDPR", "We do not transfer"),
        (
            HINWEIS_KNAPP,
            "Unser Datenschutzbeauftragter",
            "Art. 6 Abs. 1 lit. b",
            "nicht in ein Drittland",
        ),
    ],
)
def test_a_terse_notice_yields_dpo_basis_and_no_transfer(notice, dpo, basis, transfer):
    _ex, found = _read(("notice.pdf", notice), regimes=("gdpr",))
    assert any(dpo in q for q in _quotes(found, "gdpr_13_1_b_dpo_contact"))
    assert any(basis in q for q in _quotes(found, "gdpr_13_1_c_purposes_legal_basis"))
    assert any(
        transfer in q for q in _quotes(found, "gdpr_13_1_f_third_country_transfer")
    )


def test_an_authority_portal_receipt_with_a_slash_date_is_a_submission():
    mails = (
        "Incident file INC-9 - mails exported from the incident mailbox\n\n"
        "From: Central Bank - Reporting Portal <no-reply@portal.cb.example>\n"
        "To: Aoife Byrne\nDate: Mon 5 Oct 2026 10:15\n"
        "Subject: Submission received: initial notification, ref CB-2026-77\n\n"
        "Your initial notification for incident CB-2026-77 (Lough Invest plc) "
        "was received on 05/10/2026 at 10:15.\n"
    )
    _ex, found = _read(("D3.pdf", mails), regimes=("dora",))
    (initial,) = _of(found, "dora_19_4_a_initial_notification")
    assert initial.value["submitted_at"] == "2026-10-05T10:15"


def test_a_notice_naming_that_there_are_no_recipients_stays_evidence():
    from agents.extraction.compliance_patterns import MARKETING_CLAIM

    assert (
        MARKETING_CLAIM.search("Ihre Daten werden nicht an Dritte weitergegeben.")
        is None
    )


def test_a_timeline_entry_with_a_reference_is_one_sentence_and_dated():
    record = (
        "Incident record INC-44\n\nTimeline (all times CEST)\n\n"
        "- 14.09.2026 13:30 — Initial notification submitted to the authority "
        "via the portal (ref. IN-2026-0412).\n"
        "- 22.09.2026 11:00 — Intermediate report submitted (ref. IN-2026-0412-2).\n"
    )
    _ex, found = _read(("D3.pdf", record), regimes=("dora",))
    (initial,) = _of(found, "dora_19_4_a_initial_notification")
    assert initial.quote.rstrip().endswith("(ref. IN-2026-0412).")
    assert initial.value["submitted_at"] == "2026-09-14T13:30"


def test_a_last_full_review_line_dates_the_review():
    framework = (
        "ICT Risk Management Framework\n\nDocument control\n\n"
        "Last full review: 30 June 2025.\n"
    )
    _ex, found = _read(("D1.pdf", framework), regimes=("dora",))
    (review,) = _of(found, "dora_6_5_annual_review")
    assert review.value["last_review"] == "2025-06-30"


def test_a_purpose_clause_with_its_basis_in_brackets_is_13_1_c():
    notice = (
        "Datenschutzhinweise für Mitglieder\n\nZwecke\n\nWir verarbeiten Ihre "
        "Anschrift, um den Mitgliedsvertrag zu erfüllen (Art. 6 Abs. 1 UAbs. 1 "
        "lit. b DSGVO).\n"
    )
    _ex, found = _read(("notice.pdf", notice), regimes=("gdpr",))
    assert _quotes(found, "gdpr_13_1_c_purposes_legal_basis")


def test_a_fria_in_lettered_parts_with_run_in_headings_yields_its_items():
    fria = (
        "Fundamental Rights Impact Assessment — LoanLens 2 (Article 27 AI Act)\n\n"
        "Part A — Processes. LoanLens 2 is used in our mortgage process at the "
        "affordability stage, before the underwriter decides.\n\n"
        "Part B — Persons affected. The persons affected are private applicants "
        "for mortgages, including first-time buyers and self-employed people.\n\n"
        "Part C — Risks of harm. We identified a risk that applicants with short "
        "credit histories receive systematically lower scores.\n\n"
        "Part D — Human oversight. Underwriters review every decline "
        "recommendation and may override it.\n"
    )
    _ex, found = _read(("fria.pdf", fria), regimes=("aia",))
    assert any("mortgage process" in q for q in _quotes(found, "aia_27_1_a_processes"))
    assert any(
        "first-time buyers" in q
        for q in _quotes(found, "aia_27_1_c_affected_categories")
    )
    assert any("short credit" in q for q in _quotes(found, "aia_27_1_d_specific_risks"))
    assert any("override" in q for q in _quotes(found, "aia_27_1_e_oversight_measures"))


@pytest.mark.parametrize(
    "sentence",
    [
        "Die Dienstleisterin erbringt für die Kundin den Betrieb der Zahlungsplattform "
        "einschließlich Überwachung und Datensicherung.",
        "The Provider shall provide to the Customer the operation of the core "
        "banking platform, including monitoring and backups.",
    ],
)
def test_an_ict_contract_saying_what_the_provider_does_is_30_2_a(sentence):
    contract = f"IKT-Dienstleistungsvertrag / ICT Services Agreement\n\n§ 2 Gegenstand\n\n{sentence}\n"
    _ex, found = _read(("contract.pdf", contract), regimes=("dora",))
    assert _quotes(found, "dora_30_2_a_service_description")


# ------------------------------------------------ a data governance report in its own words
DATA_SHEET_DE = """Datenblatt Trainingsdaten – LeseFix 3 (Stand 02.03.2026)

Abschnitt 1 – Aufbau

Abschnitt 1.1 – Das Erkennungsmodell ist ein Faltungsnetz mit nachgeschaltetem Klassifikator für Handschriftproben.

Abschnitt 1.2 – Wir gehen davon aus, dass die Proben mit Kugelschreiber auf liniertem Papier geschrieben sind.

Abschnitt 2 – Daten

Abschnitt 2.1 – Die 88.000 Schriftproben stammen aus Schreibübungen zweier Grundschulverbände und wurden ursprünglich für die Lernstandserhebung erhoben.

Abschnitt 2.2 – Der Umfang von 88.000 Proben reicht für die Klassenstufen 1 bis 4 aus; für ältere Kinder ist er nicht geeignet.

Abschnitt 2.3 – Eine Stichprobe von 1.000 Proben wurde auf Fehler geprüft; die Fehlerquote der Beschriftung lag bei 1,2 %.

Abschnitt 2.4 – Schulen aus ländlichen Regionen sind mit 9 % der Proben unterrepräsentiert; diese Lücke wird 2027 geschlossen.
"""

DATA_SHEET_EN = """Training Data Sheet – ParcelSort Vision 2

Part 1. The model is a gradient-boosted decision tree ensemble over image features of parcel labels.

Part 2. It is assumed that labels are printed, not handwritten. The 410,000 label images were sourced from two logistics hubs and were originally collected for quality audits.

Part 3. The volume of 410,000 images is sufficient for the twelve label formats in scope. A sample of 5,000 images was checked for labelling errors; the error rate was 0.6%.

Part 4. Hubs in Eastern European countries are under-represented, a gap the provider will close by 2027.
"""


@pytest.mark.parametrize(
    "name,text,key,start",
    [
        (
            "datenblatt.pdf",
            DATA_SHEET_DE,
            "aia_10_2_a_design_choices",
            "Abschnitt 1.1 – Das Erkennungsmodell ist ein Faltungsnetz",
        ),
        (
            "datenblatt.pdf",
            DATA_SHEET_DE,
            "aia_10_2_d_assumptions",
            "Abschnitt 1.2 – Wir gehen davon aus",
        ),
        (
            "datenblatt.pdf",
            DATA_SHEET_DE,
            "aia_10_2_b_data_origin",
            "Abschnitt 2.1 – Die 88.000 Schriftproben stammen aus",
        ),
        (
            "datenblatt.pdf",
            DATA_SHEET_DE,
            "aia_10_2_e_availability_suitability",
            "Abschnitt 2.2 – Der Umfang von 88.000 Proben reicht",
        ),
        (
            "datenblatt.pdf",
            DATA_SHEET_DE,
            "aia_10_3_data_quality",
            "Abschnitt 2.3 – Eine Stichprobe von 1.000 Proben wurde auf Fehler geprüft",
        ),
        (
            "datenblatt.pdf",
            DATA_SHEET_DE,
            "aia_10_2_h_data_gaps",
            "Abschnitt 2.4 – Schulen aus ländlichen Regionen",
        ),
        (
            "datenblatt.pdf",
            DATA_SHEET_DE,
            "aia_10_4_context_characteristics",
            "Abschnitt 2.4 – Schulen aus ländlichen Regionen",
        ),
        (
            "datasheet.pdf",
            DATA_SHEET_EN,
            "aia_10_2_a_design_choices",
            "Part 1. The model is a gradient-boosted decision tree ensemble",
        ),
        (
            "datasheet.pdf",
            DATA_SHEET_EN,
            "aia_10_2_d_assumptions",
            "Part 2. It is assumed that labels are printed",
        ),
        (
            "datasheet.pdf",
            DATA_SHEET_EN,
            "aia_10_2_b_data_origin",
            "The 410,000 label images were sourced from",
        ),
        (
            "datasheet.pdf",
            DATA_SHEET_EN,
            "aia_10_2_e_availability_suitability",
            "Part 3. The volume of 410,000 images is sufficient",
        ),
        (
            "datasheet.pdf",
            DATA_SHEET_EN,
            "aia_10_3_data_quality",
            "A sample of 5,000 images was checked for labelling errors",
        ),
        (
            "datasheet.pdf",
            DATA_SHEET_EN,
            "aia_10_2_h_data_gaps",
            "Part 4. Hubs in Eastern European countries are under-represented",
        ),
        (
            "datasheet.pdf",
            DATA_SHEET_EN,
            "aia_10_4_context_characteristics",
            "Part 4. Hubs in Eastern European countries",
        ),
    ],
)
def test_a_data_governance_report_in_its_own_words_yields_the_art_10_items(
    name, text, key, start
):
    _ex, found = _read((name, text), regimes=("aia",))
    assert any(q.startswith(start) for q in _quotes(found, key)), _quotes(found, key)


def test_art_10_paraphrases_are_read_only_in_a_data_governance_document():
    # the same words in a contract or a letter say nothing about Art. 10
    letter = """Schreiben an die Grundschulverbände vom 04.05.2026

Die Schriftproben stammen aus Ihren Schreibübungen. Der Umfang reicht für unsere Zwecke aus. Wir gehen davon aus, dass Sie einverstanden sind. Schulen aus ländlichen Regionen fehlen noch; diese Lücke schließen wir 2027.
"""
    _ex, found = _read(("brief.pdf", letter), regimes=("aia",))
    assert not [f for f in found if f.fact_type.startswith("aia_10_")]


IFU_CHAPTERS_DE = """Gebrauchsanweisung LeseFix 3

Kapitel 2 – Zweck

Kapitel 2.1 – LeseFix 3 liest Handschrift von Kindern der Klassen 1 bis 4; für Erwachsene und für Druckschrift ist es nicht bestimmt.

Kapitel 3 – Menschliche Aufsicht

Die Lehrkraft sieht zu jeder erkannten Zeile die unsicheren Buchstaben farbig markiert.

Kapitel 3.2 – Die Markierung zeigt die Buchstaben an, damit die Lehrkraft erkennen kann, worauf das Ergebnis beruht.

Kapitel 3.3 – Das erkannte Wort wird ins Schülerheft übernommen; die Lehrkraft kann es weder ändern noch verwerfen.
"""


def test_instructions_for_use_with_chapter_labels_yield_13_3_and_14_4():
    _ex, found = _read(("anweisung.pdf", IFU_CHAPTERS_DE), regimes=("aia",))
    assert any(
        "ist es nicht bestimmt" in q
        for q in _quotes(found, "aia_13_3_b_characteristics_performance")
    )
    # "Kapitel 3 – Menschliche Aufsicht" names the section's first sentence
    assert _says(found, "aia_13_3_d_human_oversight_measures", "Die Lehrkraft sieht")
    assert any(
        "worauf das Ergebnis beruht" in q
        for q in _quotes(found, "aia_14_4_c_interpret_output")
    )
    override = _of(found, "aia_14_4_d_disregard_override")
    assert any("weder ändern noch verwerfen" in f.quote for f in override)


def test_a_dpia_names_the_legitimate_interest_and_its_necessity():
    dpia = """DATA PROTECTION IMPACT ASSESSMENT – FLEET TELEMATICS

Section 1 – The processing

Harrow Couriers Ltd records the position of each delivery van every two minutes during shifts.

Section 2 – Purpose

Harrow Couriers pursues the interest of proving delivery times to its customers. Drivers' own logbooks alone did not settle disputed deliveries, so position records are required for that purpose.
"""
    _ex, found = _read(("dpia.pdf", dpia), regimes=("gdpr",))
    assert any(
        "pursues the interest of proving" in q
        for q in _quotes(found, "gdpr_6_1_f_legitimate_interest")
    )
    assert any(
        "logbooks alone did not" in q for q in _quotes(found, "gdpr_6_1_f_necessity")
    )
    assert any(
        "logbooks alone did not" in q
        for q in _quotes(found, "gdpr_35_7_b_necessity_proportionality")
    )
    assert _says(found, "gdpr_35_7_a_description", "Harrow Couriers Ltd records")
    # a notice telling data subjects about the interest is no record of it
    notice = """Privacy notice for drivers

We pursue the interest of proving delivery times to our customers.
"""
    _ex, found = _read(("notice.pdf", notice), regimes=("gdpr",))
    assert not _of(found, "gdpr_6_1_f_legitimate_interest")


def test_a_risk_file_section_of_measures_names_its_first_sentence_9_2_d():
    risk_file = """Risikomanagementakte LeseFix 3

Kapitel 3.1 – Risiken. Kinder mit Legasthenie könnten schlechter erkannt werden.

Kapitel 3.2 – Maßnahmen. Zeilen mit geringer Erkennungssicherheit gehen an die Lehrkraft zurück; das System vergibt dafür keine Note.
"""
    _ex, found = _read(("rma.pdf", risk_file), regimes=("aia",))
    assert _says(
        found, "aia_9_2_d_risk_measures", "Zeilen mit geringer Erkennungssicherheit"
    )


@pytest.mark.parametrize(
    "line",
    [
        "Version 2.0, 3 March 2026 (first issue)",
        "Version 1.2 was issued on 14 May 2026 and is kept current.",
        "Ausgabe 1.0 vom 02.02.2026, freigezeichnet durch die Produktleitung",
    ],
)
def test_an_issue_line_of_technical_documentation_dates_it(line):
    doc = f"Technical documentation – CargoScan 2 (Annex IV)\n\n{line}\n\n1. General description\n\nCargoScan 2 reads container seals.\n"
    _ex, found = _read(("td.pdf", doc), regimes=("aia",))
    (dated,) = _of(found, "aia_11_1_drawn_up_before_market")
    assert " ".join(dated.quote.split()).startswith(line[:20])


def test_technical_documentation_saying_what_the_system_is_yields_annex_iv_1():
    td = """Technische Dokumentation nach Anhang IV – SiloWacht 2

1.1 SiloWacht 2 ist ein Sicherheitsbauteil zur Erkennung von Staubexplosionsgefahr in Getreidesilos.

1.2 Das System wird als Steuerungsmodul mit Cloud-Anbindung bereitgestellt.
"""
    _ex, found = _read(("td.pdf", td), regimes=("aia",))
    quotes = _quotes(found, "aia_11_annex_iv_1_general_description")
    assert any(
        q.startswith("1.1 SiloWacht 2 ist ein Sicherheitsbauteil") for q in quotes
    )
    assert any(q.startswith("1.2 Das System wird als Steuerungsmodul") for q in quotes)


@pytest.mark.parametrize(
    "sentence,delegated",
    [
        (
            "Die Zugangs-, Inspektions- und Prüfrechte der Kundin werden ausschließlich durch eine vom Dienstleister beauftragte unabhängige Prüfungsgesellschaft ausgeübt.",
            True,
        ),
        (
            "Access, inspection and audit rights are exercised by an independent auditor appointed by Cobaltline Ltd on the Customer's behalf.",
            True,
        ),
        (
            "The Customer, an independent auditor appointed by the Customer and the competent authority have unrestricted rights of access, inspection and audit.",
            None,
        ),
        (
            "Die Kundin und die zuständige Behörde haben uneingeschränkte Zugangs-, Inspektions- und Prüfrechte.",
            None,
        ),
    ],
)
def test_audit_rights_handed_to_a_third_party_the_provider_appoints_are_proposed_as_delegated(
    sentence, delegated
):
    # Art. 30(3)(e) and second subparagraph DORA: only a microenterprise may
    # agree that a third party appointed by the provider exercises its rights
    contract = f"IKT-Dienstleistungsvertrag / ICT services agreement – Cobaltline Ltd\n\n12.1 {sentence}\n"
    _ex, found = _read(("contract.pdf", contract), regimes=("dora",))
    (audit,) = _of(found, "dora_30_3_e_monitoring_audit_rights")
    assert audit.value.get("delegated_to_independent_third_party") is delegated


def test_a_report_sent_today_at_a_time_is_dated_by_its_mail_header():
    thread = """Subject: INC-88 – reporting / Meldung

Von: Meldewesen
Gesendet: Montag, 12.10.2026, 16:40
An: Vorstand

Den Zwischenbericht haben wir heute um 16:20 Uhr an die BaFin übermittelt.

Date: Thu, 8 Oct 2026 13:05
From: ops@example.com

Initial notification for INC-88 sent to the authority today at 12:50 via the portal.
"""
    _ex, found = _read(("mails.pdf", thread), regimes=("dora",))
    (intermediate,) = _of(found, "dora_19_4_b_intermediate_report")
    assert intermediate.value["submitted_at"] == "2026-10-12T16:20"
    (initial,) = _of(found, "dora_19_4_a_initial_notification")
    assert initial.value["submitted_at"] == "2026-10-08T12:50"


IFU_RANKING_DE = """Gebrauchsanweisung PlatzWahl 2

Kapitel 5 – Menschliche Aufsicht

Über die Vergabe eines Platzes entscheidet stets ein Mensch.

Erfahrungsgemäß neigen Sachbearbeitende dazu, der vorgeschlagenen Reihenfolge zu folgen, ohne sie zu hinterfragen.

Zu jedem Vorschlag nennt die Erläuterungsansicht die drei Merkmale, die ihn am stärksten beeinflusst haben.

Ein gestarteter Vergabelauf kann weder angehalten noch abgebrochen werden.
"""


def test_instructions_for_use_in_other_words_yield_13_3_d_and_14_4_b_c_e():
    _ex, found = _read(("ifu.pdf", IFU_RANKING_DE), regimes=("aia",))
    assert _says(
        found,
        "aia_13_3_d_human_oversight_measures",
        "Über die Vergabe eines Platzes entscheidet stets ein Mensch",
    )
    assert any(
        "neigen Sachbearbeitende dazu" in q
        for q in _quotes(found, "aia_14_4_b_automation_bias")
    )
    assert any(
        "die drei Merkmale, die ihn am stärksten beeinflusst haben" in q
        for q in _quotes(found, "aia_14_4_c_interpret_output")
    )
    # a run that cannot be halted is Art. 14(4)(e) contradicted, not evidenced
    (stop,) = _of(found, "aia_14_4_e_intervene_stop")
    assert stop.value["state"] == "contradicted"


def test_a_technical_documentation_names_standards_changes_form_and_limits():
    td = """Technical documentation – FareCheck 3 (Annex IV)

FareCheck 3 runs as a hosted service for transport operators.

The standards applied are ISO/IEC 42001:2023 and ISO/IEC 25059:2023.

Version 3.1 (4 May 2026): retrained on the spring timetable data.

The model is less reliable for journeys with more than three changes.
"""
    _ex, found = _read(("td.pdf", td), regimes=("aia",))
    assert _says(
        found,
        "aia_11_annex_iv_1_general_description",
        "FareCheck 3 runs as a hosted service",
    )
    assert any(
        "ISO/IEC 42001" in q for q in _quotes(found, "aia_11_annex_iv_7_standards")
    )
    assert _says(
        found,
        "aia_11_annex_iv_6_lifecycle_changes",
        "Version 3.1 (4 May 2026): retrained",
    )
    assert any(
        "less reliable for journeys" in q
        for q in _quotes(found, "aia_11_annex_iv_3_monitoring_functioning")
    )


def test_a_data_governance_report_names_its_choice_and_countermeasures():
    report = """Data governance report – FareCheck 3

We opted for a gradient-boosted tree model rather than a neural network.

Counter-measures: reweighting of under-represented routes and removal of proxy features such as the postcode.
"""
    _ex, found = _read(("dg.pdf", report), regimes=("aia",))
    assert _says(found, "aia_10_2_a_design_choices", "We opted for a gradient-boosted")
    assert _says(found, "aia_10_2_g_bias_measures", "Counter-measures: reweighting")


def test_a_notice_giving_the_office_and_the_interest_in_other_words_yields_13_1_a_and_d():
    notice = """Datenschutzhinweise der Kiezbibliothek Auwald

Unser Sitz ist Auwaldstraße 4, 04177 Leipzig, Telefon 0341 555 100.

Unser berechtigtes Interesse und das unserer Leserinnen besteht darin, verlorene Medien zurückzuerhalten.
"""
    _ex, found = _read(("hinweise.pdf", notice), regimes=("gdpr",))
    assert _says(
        found, "gdpr_13_1_a_controller_identity", "Unser Sitz ist Auwaldstraße 4"
    )
    assert any(
        "besteht darin, verlorene Medien" in q
        for q in _quotes(found, "gdpr_13_1_d_legitimate_interests")
    )


@pytest.mark.parametrize(
    "title,sentence,regime,key",
    [
        (
            "Register of information (Informationsregister) – Alder Invest SE",
            "Stand des Verzeichnisses: 15.09.2026; es wird nach jeder Vertragsänderung aktualisiert.",
            "dora",
            "dora_28_3_register_maintained",
        ),
        (
            "Register of information (Informationsregister) – Alder Invest SE",
            "The register is updated upon every new or amended ICT contract.",
            "dora",
            "dora_28_3_register_maintained",
        ),
        (
            "ICT services agreement between Alder Invest SE and Brightwater Hosting GmbH",
            "7.1 Der Auftragnehmer darf den Speicherort der Daten innerhalb der EU ohne vorherige Mitteilung wechseln.",
            "dora",
            "dora_30_2_b_locations",
        ),
        (
            "ICT services agreement between Alder Invest SE and Brightwater Hosting GmbH",
            "7.1 The Provider shall notify the Customer three months before any change of the locations where data are stored.",
            "dora",
            "dora_30_2_b_locations",
        ),
        (
            "Gebrauchsanweisung TextLotse",
            "Auch plausibel wirkende Vorschläge können falsch sein; verlassen Sie sich nicht darauf und prüfen Sie jeden Vorschlag.",
            "aia",
            "aia_14_4_b_automation_bias",
        ),
        (
            "Test report – SiloWacht 2 (Prüfbericht)",
            "Release test RT-4 of 2 June 2026 was run against the acceptance criteria of test plan TP-9 and met all of them.",
            "aia",
            "aia_9_8_testing",
        ),
        (
            "Test report – SiloWacht 2 (Prüfbericht)",
            "Der Abnahmetest gegen die Kriterien AK-1 bis AK-4 fand am 12.05.2026 statt.",
            "aia",
            "aia_9_8_testing",
        ),
        (
            "An die Marktüberwachungsbehörde – Grundrechte-Folgenabschätzung",
            "Hiermit teilen wir Ihnen die Ergebnisse unserer Folgenabschätzung vom 02.11.2026 mit.",
            "aia",
            "aia_27_3_authority_notified",
        ),
        (
            "Datenschutzhinweise der Kiezbibliothek Auwald",
            "Ohne Name und Geburtsdatum können wir keinen Leseausweis ausstellen.",
            "gdpr",
            "gdpr_13_2_e_requirement_consequences",
        ),
        (
            "Datenschutz-Folgenabschätzung Leseverlauf",
            "Endgültige Fassung, unterzeichnet von der Bibliotheksleitung am 14.04.2026.",
            "gdpr",
            "gdpr_35_1_dpia_before_processing",
        ),
    ],
)
def test_one_sentence_in_its_kind_of_document_yields_its_element(
    title, sentence, regime, key
):
    # a register kept up to date with every contract; a clause on changing
    # the service location (also one allowing it without notice); "do not
    # rely on it"; a release or acceptance test against fixed criteria; the
    # FRIA's results told to the authority; a requirement named by what fails
    # without the data; a DPIA's signed final version
    _ex, found = _read(("doc.pdf", f"{title}\n\n{sentence}\n"), regimes=(regime,))
    assert any(sentence[:30] in q for q in _quotes(found, key)), _quotes(found, key)


def test_a_fria_table_with_wrapped_label_cells_reads_the_findings_by_their_labels():
    # the PDF sets each row's label cell on its own lines, wrapped, and the
    # finding after it: the label names the element, the finding is its evidence
    fria = """Grundrechte-Folgenabschätzung nach Art. 27 KI-VO – LernPilot 2

Prüfpunkt
Feststellung

1 Verfahren der
Betreiberin

Die Ausbilderinnen laden die Arbeiten hoch; das System schlägt Noten vor, die Ausbildungsleitung gibt frei.

2 Betroffene
Personen

Betroffen sind rund 300 Auszubildende je Jahrgang.
"""
    _ex, found = _read(("fria.pdf", fria), regimes=("aia",))
    assert _says(
        found, "aia_27_1_a_processes", "Die Ausbilderinnen laden die Arbeiten hoch"
    )
    assert _says(
        found, "aia_27_1_c_affected_categories", "Betroffen sind rund 300 Auszubildende"
    )
    # the label cells themselves are no evidence
    assert not any(
        f.quote.strip().startswith(("1 Verfahren", "2 Betroffene")) for f in found
    )


# ------------------------------------------- plans and pointers are no acts
@pytest.mark.parametrize(
    ("title", "planned", "done", "key"),
    [
        (
            "Action log of the Clinical Governance Committee",
            "The results of the fundamental rights impact assessment are to be submitted to the market surveillance authority by the Head of Compliance.",
            "The outcome of the fundamental rights impact assessment was notified to the market surveillance authority on 3 November 2026.",
            "aia_27_3_authority_notified",
        ),
        (
            "Decision log of the Executive Board",
            "14.10.2026 EB-12 Compliance Office to submit the results of the assessment to the market surveillance authority. open",
            "21.10.2026 EB-15 The results of the assessment were submitted to the market surveillance authority today. closed",
            "aia_27_3_authority_notified",
        ),
        (
            "Risikomanagementakte TourPlan 4",
            "Die Freigabetests gegen die vorab festgelegten Metriken und ihre Ergebnisse sind im Testbericht TP-4-09 dokumentiert, der dieser Akte nicht beiliegt.",
            "Das System wurde vor dem Inverkehrbringen am 03.06.2026 anhand vorab festgelegter Metriken und Schwellenwerte getestet.",
            "aia_9_8_testing",
        ),
        (
            "Outsourcing Policy",
            "Exit plans are exercised once a year; the findings are documented in the separate test report ETR-9.",
            "The exit plan for the card processing service was tested on 4 May 2026 in a tabletop exercise.",
            "dora_28_8_exit_plan_tested",
        ),
        (
            "Incident log IN-77",
            "A notice to affected customers is being drafted and will be sent once the cause is confirmed.",
            "Affected customers were informed by e-mail and a banner in the app about the outage and the measures taken.",
            "dora_19_3_client_information",
        ),
        (
            "Protokoll der Vorstandssitzung vom 02.11.2026",
            "Die Genehmigung des IKT-Risikomanagementrahmens durch den Vorstand ist für die Sitzung am 14.12.2026 vorgesehen.",
            "Der Vorstand hat den IKT-Risikomanagementrahmen in der Sitzung am 02.11.2026 genehmigt.",
            "dora_5_2_management_body_approval",
        ),
    ],
)
def test_a_plan_or_a_pointer_to_a_record_is_not_the_act_itself(
    title, planned, done, key
):
    """An act the law asks to have been done (notified, tested, informed,
    approved) is not shown by an action item, a plan or a reference to a
    record the file does not hold; the same act reported done is."""
    _, findings = _read(("d.pdf", f"{title}\n\n{planned}"))
    assert not _says(findings, key, planned[:30])
    _, findings = _read(("d.pdf", f"{title}\n\n{done}"))
    assert _says(findings, key, done[:30])


def test_a_step_planned_only_after_the_event_it_must_precede_is_still_read():
    """ "To be completed after general availability" shows the technical
    documentation late: evidence for the evaluator, not an open plan."""
    text = (
        "Technical documentation – status\n\n"
        "Version 0.4 of 2 March 2026. The technical documentation is still in "
        "preparation and is to be completed after general availability."
    )
    _, findings = _read(("td.pdf", text))
    assert _of(findings, "aia_11_1_drawn_up_before_market")


# ------------------------------------------------ run-in labels before a colon
IFU_COLON_LABELS_DE = """Gebrauchsanleitung RouteWise Dispo 2

Ausgabe 2.0, Oktober 2026.

Herstellerin: Trassenwerk Software AG, Hafenstraße 12, 24103 Kiel.

Leistungsgrenzen: Bei weniger als drei Wochen Fahrthistorie rechnet das System mit Mittelwerten der Niederlassung.

4.1 Verstehen und überwachen: Die Tagesansicht markiert ungewöhnliche Tourenlängen rot, so dass die Disposition Ausreißer früh bemerkt.

4.2 Vorschläge übersteuern: Die Disposition kann jede vorgeschlagene Tour vor der Freigabe umplanen oder verwerfen.

4.3 Anhalten: Die laufende Planung lässt sich am Dispositionsplatz nicht selbst anhalten; dafür ist ein Anruf bei der Hotline nötig.

Abfahrt: 06:30 Uhr am Depot Nord.
"""


def test_run_in_labels_before_a_colon_name_the_element_in_instructions_for_use():
    """ "4.2 Vorschläge übersteuern: …" names Art. 14(4)(d) as a numbered
    run-in heading with a full stop would; a time ("06:30") or a label that
    names nothing is no heading."""
    _ex, found = _read(("ifu.pdf", IFU_COLON_LABELS_DE), regimes=("aia",))
    assert _says(found, "aia_13_3_a_provider_identity", "Herstellerin: Trassenwerk")
    assert _says(found, "aia_13_3_b_characteristics_performance", "Leistungsgrenzen:")
    assert _says(found, "aia_14_4_a_understand_monitor", "4.1 Verstehen und überwachen")
    assert _says(found, "aia_14_4_d_disregard_override", "4.2 Vorschläge übersteuern")
    (stop,) = _of(found, "aia_14_4_e_intervene_stop")
    assert stop.quote.startswith("4.3 Anhalten")
    assert stop.value["state"] == "contradicted"
    assert not any(f.quote.startswith("Abfahrt") for f in found)


def test_a_technical_documentation_first_drawn_up_on_a_date_is_dated():
    text = (
        "Technische Dokumentation RouteWise Dispo 2\n\n"
        "Diese technische Dokumentation wurde erstmals am 14.09.2026 erstellt (Fassung 1.0)."
    )
    _ex, found = _read(("td.pdf", text), regimes=("aia",))
    (dated,) = _of(found, "aia_11_1_drawn_up_before_market")
    assert dated.value["date"] == "2026-09-14"
