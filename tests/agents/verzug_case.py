"""A small generated Verzugsschaden case file (contract, Abnahme, invoice,
reminder, delivery record, the debtor's answer, the creditor's reply and the
lawyer's letter) and, per fact kind of the vocabulary, what a model reading it
would propose: a verbatim quote and a typed value, written by hand. Plus one
badly typed value per record kind, as a model would get it wrong."""

from __future__ import annotations

from typing import Any

# (file name, page texts): one chunk per page (``conftest.make_document``).
CASE_FILE: list[tuple[str, tuple[str, ...]]] = [
    ("werkvertrag.pdf", (
        "Werkvertrag\n"
        "zwischen der Müller Baustoffe GmbH, Leipzig (Auftragnehmerin),\n"
        "und der Schmidt Bau KG, Halle (Auftraggeberin).\n"
        "Dieser Werkvertrag wird am 02.03.2026 geschlossen.\n"
        "§ 3 Abschlag: Ein Abschlag ist am 15.04.2026 zur Zahlung fällig.\n"
        "§ 4 Zahlung: Die Vergütung ist binnen 14 Tagen nach Abnahme und Zugang "
        "der Rechnung zu zahlen.\n"
        "§ 5 Abnahme: Die Abnahme erfolgt förmlich durch gemeinsame Begehung "
        "mit Protokoll.\n"
        "§ 9 Es gilt deutsches Recht.\n"
        "Die Auftragnehmerin ist zum Vorsteuerabzug berechtigt.",
    )),
    ("abnahmeprotokoll.pdf", (
        "Abnahmeprotokoll\n"
        "Bei der ersten Begehung am 12.03.2026 verweigerte die Auftraggeberin "
        "die Abnahme unter Hinweis auf Mängel.\n"
        "Gerügt wurden am 12.03.2026 fehlende Fugen im Bereich der Terrasse.\n"
        "Die Auftragnehmerin hat die Leistung am 18.03.2026 fertiggestellt und "
        "übergeben.\n"
        "Mit Schreiben vom 19.03.2026 hat die Auftragnehmerin die Abnahme "
        "verlangt.\n"
        "Die Auftraggeberin erklärt am 20.03.2026 die Abnahme der Werkleistung.",
    )),
    ("rechnung.pdf", (
        "Müller Baustoffe GmbH · Leipzig\n"
        "Rechnung Nr. 2026-0147 vom 26.03.2026 über 4.250,00 EUR\n"
        "Rechnungsbetrag: 4.250,00 EUR\n"
        "Zahlbar bis zum 09.04.2026.\n"
        "Sie kommen spätestens in Verzug, wenn Sie nicht innerhalb von 30 Tagen "
        "nach Zugang dieser Rechnung zahlen.\n"
        "Bitte überweisen Sie auf IBAN DE12 8605 5592 1090 0123 45 bei der "
        "Sparkasse Leipzig.\n"
        "Eingangsstempel Schmidt Bau KG: eingegangen am 27.03.2026",
    )),
    ("mahnung.pdf", (
        "Leipzig, 08.05.2026\n"
        "Betreff: 1. Mahnung vom 08.05.2026 per Einwurf-Einschreiben, "
        "Zahlungsfrist bis zum 22.05.2026\n"
        "Sehr geehrte Damen und Herren,\n"
        "unsere Rechnung Nr. 2026-0147 ist noch offen.\n"
        "Mahnkosten: 5,00 EUR",
    )),
    ("sendungsstatus.pdf", (
        "Deutsche Post · Sendungsverfolgung RT 1234 5678 9DE\n"
        "Auslieferungsbeleg Einwurf-Einschreiben\n"
        "Die Sendung wurde am 11.05.2026 in den Briefkasten des Empfängers "
        "eingeworfen.",
    )),
    ("antwort_schuldnerin.pdf", (
        "Schmidt Bau KG · Halle, 18.05.2026\n"
        "Ein Schreiben vom 08.05.2026 haben wir nie erhalten.\n"
        "Wegen der Erkrankung unseres Geschäftsführers konnten wir die Zahlung "
        "nicht rechtzeitig freigeben.\n"
        "Ein ärztliches Attest vom 30.04.2026 liegt bei.\n"
        "Die Verzögerung haben wir nicht zu vertreten.\n"
        "Derzeit fehlen uns zudem die Mittel, da ein Großkunde nicht gezahlt hat.\n"
        "Unsere Überweisung vom 14.05.2026 wurde von der Bank mangels Deckung "
        "zurückgewiesen.\n"
        "Am 15.05.2026 haben wir einen Teilbetrag von 1.000,00 EUR überwiesen.\n"
        "Bis zur Klärung der Mängel zahlen wir den Rest vorerst nicht.\n"
        "Wir bitten um Stundung bis zum 30.06.2026.",
    )),
    ("telefonvermerk.pdf", (
        "Telefonvermerk Müller Baustoffe GmbH\n"
        "Herr Schmidt räumte im Telefonat vom 25.05.2026 ein, die Mahnung doch "
        "erhalten zu haben.",
    )),
    ("antwort_glaeubigerin.pdf", (
        "Müller Baustoffe GmbH · Leipzig, 20.05.2026\n"
        "Wir stimmen Ihrer Bitte um Stundung bis zum 30.06.2026 zu.\n"
        "Damit ist die Zahlung des Restbetrags bis zum 30.06.2026 gestundet.",
    )),
    ("anwaltsschreiben.pdf", (
        "Rechtsanwälte Weber & Partner · Leipzig, 10.07.2026\n"
        "Die Müller Baustoffe GmbH hat uns am 01.07.2026 mit der Durchsetzung "
        "ihrer Forderung beauftragt.\n"
        "Die Forderung war am 10.04.2026 fällig.\n"
        "Die Schuldnerin ist Unternehmerin (§ 14 BGB), kein Verbraucher.\n"
        "Eine weitere Mahnung war entbehrlich, weil die Schuldnerin ihren "
        "Geschäftsbetrieb eingestellt hat.\n"
        "Wir machen Verzugszinsen in Höhe von 9 Prozentpunkten über dem "
        "Basiszinssatz geltend.\n"
        "Ferner ist unserer Mandantin ein weiterer Schaden durch entgangene "
        "Skonti entstanden, den wir nach Abschluss der Prüfung beziffern.\n"
        "Kostennote: 1,3 Geschäftsgebühr Nr. 2300 VV RVG: 434,20 EUR\n"
        "Auslagenpauschale Nr. 7002 VV RVG: 20,00 EUR",
    )),
]  # fmt: skip


def _eur(cents: int) -> dict[str, Any]:
    return {"cents": cents, "currency": "EUR"}


# (fact type, verbatim quote, typed value) — every Verzugsschaden kind.
READINGS: list[tuple[str, str, dict[str, Any]]] = [
    ("contract_concluded", "Dieser Werkvertrag wird am 02.03.2026 geschlossen.",
     {"date": "2026-03-02", "contract_kind": "werkvertrag"}),
    ("calendar_payment_date", "Ein Abschlag ist am 15.04.2026 zur Zahlung fällig.",
     {"date": "2026-04-15"}),
    ("payment_term", "Die Vergütung ist binnen 14 Tagen nach Abnahme und Zugang "
     "der Rechnung zu zahlen.",
     {"event": "acceptance_and_invoice_receipt", "period_days": 14}),
    ("acceptance_clause", "Die Abnahme erfolgt förmlich durch gemeinsame Begehung "
     "mit Protokoll.",
     {"text": "förmliche Abnahme durch gemeinsame Begehung mit Protokoll"}),
    ("governing_law", "§ 9 Es gilt deutsches Recht.", {"text": "deutsches Recht"}),
    ("creditor_input_vat", "Die Auftragnehmerin ist zum Vorsteuerabzug berechtigt.",
     {"boolean": True}),
    ("acceptance_refused", "Bei der ersten Begehung am 12.03.2026 verweigerte die "
     "Auftraggeberin die Abnahme unter Hinweis auf Mängel.",
     {"date": "2026-03-12", "defects_asserted": True}),
    ("defects_asserted", "Gerügt wurden am 12.03.2026 fehlende Fugen im Bereich "
     "der Terrasse.",
     {"date": "2026-03-12", "text": "fehlende Fugen im Bereich der Terrasse"}),
    ("performance_delivered", "Die Auftragnehmerin hat die Leistung am 18.03.2026 "
     "fertiggestellt und übergeben.", {"date": "2026-03-18"}),
    ("acceptance_requested", "Mit Schreiben vom 19.03.2026 hat die Auftragnehmerin "
     "die Abnahme verlangt.", {"date": "2026-03-19"}),
    ("acceptance_declared", "Die Auftraggeberin erklärt am 20.03.2026 die Abnahme "
     "der Werkleistung.", {"date": "2026-03-20"}),
    ("invoice_issued", "Rechnung Nr. 2026-0147 vom 26.03.2026 über 4.250,00 EUR",
     {"date": "2026-03-26", "number": "2026-0147", "amount": _eur(425000)}),
    ("claim_amount", "Rechnungsbetrag: 4.250,00 EUR", _eur(425000)),
    ("invoice_payment_deadline", "Zahlbar bis zum 09.04.2026.",
     {"date": "2026-04-09"}),
    ("consumer_notice_in_invoice", "Sie kommen spätestens in Verzug, wenn Sie "
     "nicht innerhalb von 30 Tagen nach Zugang dieser Rechnung zahlen.",
     {"boolean": True}),
    ("payment_period_from_event", "innerhalb von 30 Tagen nach Zugang dieser "
     "Rechnung", {"text": "30 Tage nach Zugang der Rechnung"}),
    ("creditor_payment_details", "Bitte überweisen Sie auf IBAN DE12 8605 5592 "
     "1090 0123 45 bei der Sparkasse Leipzig.",
     {"text": "IBAN DE12 8605 5592 1090 0123 45, Sparkasse Leipzig"}),
    ("invoice_received", "Eingangsstempel Schmidt Bau KG: eingegangen am 27.03.2026",
     {"date": "2026-03-27"}),
    ("reminder_sent", "1. Mahnung vom 08.05.2026 per Einwurf-Einschreiben, "
     "Zahlungsfrist bis zum 22.05.2026",
     {"date": "2026-05-08", "deadline": "2026-05-22",
      "dispatch": "einwurf_einschreiben"}),
    ("damage_item", "Mahnkosten: 5,00 EUR",
     {"amount": _eur(500), "text": "Mahnkosten"}),
    ("delivery_evidence", "Auslieferungsbeleg Einwurf-Einschreiben",
     {"kind": "auslieferungsbeleg"}),
    ("reminder_received", "Die Sendung wurde am 11.05.2026 in den Briefkasten des "
     "Empfängers eingeworfen.", {"date": "2026-05-11"}),
    ("reminder_delivered", "Die Sendung wurde am 11.05.2026 in den Briefkasten des "
     "Empfängers eingeworfen.", {"date": "2026-05-11", "proof": "auslieferungsbeleg"}),
    ("receipt_denied", "Ein Schreiben vom 08.05.2026 haben wir nie erhalten.",
     {"date": "2026-05-18"}),
    ("exoneration_pleaded", "Wegen der Erkrankung unseres Geschäftsführers konnten "
     "wir die Zahlung nicht rechtzeitig freigeben.",
     {"kind": "krankheit", "text": "Erkrankung des Geschäftsführers"}),
    ("exoneration_evidenced", "Ein ärztliches Attest vom 30.04.2026 liegt bei.",
     {"kind": "krankheit", "evidence": "ärztliches Attest vom 30.04.2026"}),
    ("debtor_not_responsible", "Die Verzögerung haben wir nicht zu vertreten.",
     {"text": "Verzögerung nicht zu vertreten"}),
    ("lack_of_funds_pleaded", "Derzeit fehlen uns zudem die Mittel, da ein "
     "Großkunde nicht gezahlt hat.",
     {"date": "2026-05-18", "text": "Großkunde hat nicht gezahlt"}),
    ("payment_attempt_failed", "Unsere Überweisung vom 14.05.2026 wurde von der "
     "Bank mangels Deckung zurückgewiesen.",
     {"date": "2026-05-14", "reason": "mangels Deckung zurückgewiesen"}),
    ("payment_received", "Am 15.05.2026 haben wir einen Teilbetrag von 1.000,00 EUR "
     "überwiesen.", {"date": "2026-05-15", "amount": _eur(100000)}),
    ("refusal_to_pay", "Bis zur Klärung der Mängel zahlen wir den Rest vorerst "
     "nicht.", {"date": "2026-05-18", "kind": "voruebergehend"}),
    ("deferral_requested", "Wir bitten um Stundung bis zum 30.06.2026.",
     {"date": "2026-05-18", "until": "2026-06-30"}),
    ("debtor_admission", "Herr Schmidt räumte im Telefonat vom 25.05.2026 ein, die "
     "Mahnung doch erhalten zu haben.", {"date": "2026-05-25"}),
    ("deferral_consented", "Wir stimmen Ihrer Bitte um Stundung bis zum 30.06.2026 "
     "zu.", {"date": "2026-05-20", "until": "2026-06-30"}),
    ("deferral_agreed", "Damit ist die Zahlung des Restbetrags bis zum 30.06.2026 "
     "gestundet.", {"date": "2026-05-20", "until": "2026-06-30"}),
    ("lawyer_instructed", "Die Müller Baustoffe GmbH hat uns am 01.07.2026 mit der "
     "Durchsetzung ihrer Forderung beauftragt.", {"date": "2026-07-01"}),
    ("due_date", "Die Forderung war am 10.04.2026 fällig.", {"date": "2026-04-10"}),
    ("debtor_consumer", "Die Schuldnerin ist Unternehmerin (§ 14 BGB), kein "
     "Verbraucher.", {"boolean": False}),
    ("special_reasons", "Eine weitere Mahnung war entbehrlich, weil die Schuldnerin "
     "ihren Geschäftsbetrieb eingestellt hat.",
     {"text": "Schuldnerin hat ihren Geschäftsbetrieb eingestellt"}),
    ("interest_claimed", "Wir machen Verzugszinsen in Höhe von 9 Prozentpunkten "
     "über dem Basiszinssatz geltend.",
     {"text": "9 Prozentpunkte über dem Basiszinssatz"}),
    ("interest_rate_claimed", "Verzugszinsen in Höhe von 9 Prozentpunkten über dem "
     "Basiszinssatz", {"points_over_base": 9}),
    ("damage_unquantified", "ein weiterer Schaden durch entgangene Skonti "
     "entstanden, den wir nach Abschluss der Prüfung beziffern.",
     {"text": "entgangene Skonti, noch nicht beziffert"}),
    ("fee_note_item", "1,3 Geschäftsgebühr Nr. 2300 VV RVG: 434,20 EUR",
     {"kind": "geschaeftsgebuehr", "net": _eur(43420), "vv_no": "2300"}),
    ("fee_note_item", "Auslagenpauschale Nr. 7002 VV RVG: 20,00 EUR",
     {"kind": "auslagenpauschale", "net": _eur(2000), "vv_no": "7002"}),
]  # fmt: skip

# Record kind -> a value a model plausibly gets wrong (German dates, amounts
# as text, a label instead of the enumeration's key, a missing field).
BAD_RECORD_VALUES: dict[str, dict[str, Any]] = {
    "acceptance_refusal": {"date": "12.03.2026", "defects_asserted": True},
    "contract": {"date": "2026-03-02", "contract_kind": "Werkvertrag"},
    "damage_item": {"amount": "5,00 EUR", "text": "Mahnkosten"},
    "defects": {"text": "fehlende Fugen im Bereich der Terrasse"},
    "deferral": {"date": "2026-05-20"},
    "deferral_request": {"date": "2026-05-18", "until": "Ende Juni"},
    "delivery_evidence": {"kind": "Foto vom Briefkasten"},
    "exoneration_evidenced": {"kind": "krankheit"},
    "exoneration_pleaded": {"kind": "Krankheit des Geschäftsführers"},
    "fee_note_item": {"kind": "geschaeftsgebuehr", "net": "434,20 EUR"},
    "interest_rate": {"points_over_base": "9 Prozentpunkte"},
    "invoice": {"date": "26.03.2026", "number": "2026-0147"},
    "lack_of_funds": {"date": "18. Mai 2026"},
    "payment_attempt": {"reason": "mangels Deckung zurückgewiesen"},
    "payment": {"date": "2026-05-15", "amount": {"cents": "1.000,00"}},
    "payment_term": {"event": "acceptance_and_invoice_receipt",
                     "period_days": "14 Tage"},
    "refusal": {"date": "2026-05-18", "kind": "vorerst"},
    "reminder_delivery": {"date": "2026-05-11"},
    "reminder": {"date": "08.05.2026", "dispatch": "einwurf_einschreiben"},
}  # fmt: skip
