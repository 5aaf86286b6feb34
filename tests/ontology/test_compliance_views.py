"""A GDPR claim on the Requirements tab shows each obligation element by
element: a complete privacy notice without the complaint right makes Art. 13
"nicht erfüllt" and the sentence names Art. 13 Abs. 2 lit. d DSGVO; another
firm gets 404."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from cases.models import Claim
from tests import factories
from tests.ontology.factsdb import accepted
from tests.review.helpers import make_chunk

ClaimFactory: Any = factories.ClaimFactory

pytestmark = pytest.mark.django_db

NOTICE = (
    "Datenschutzhinweise\n\n1. Verantwortlicher: Lernwerk GmbH, Hauptstr. 1, Köln.\n"
    "2. Zwecke und Rechtsgrundlage: Vertragserfüllung (Art. 6 Abs. 1 lit. b DSGVO).\n"
    "3. Empfänger: keine.\n4. Speicherdauer: drei Jahre nach Vertragsende.\n"
    "5. Ihre Rechte: Auskunft, Berichtigung, Löschung, Einschränkung, Widerspruch, "
    "Datenübertragbarkeit.\n6. Die Angabe Ihrer Daten ist für den Vertrag "
    "erforderlich; ohne sie kein Vertrag."
)
ITEMS = {
    "gdpr_13_1_a_controller_identity": ("1.", "Verantwortlicher: Lernwerk GmbH"),
    "gdpr_13_1_c_purposes_legal_basis": ("2.", "Zwecke und Rechtsgrundlage"),
    "gdpr_13_1_e_recipients": ("3.", "Empfänger: keine."),
    "gdpr_13_2_a_storage_period": ("4.", "Speicherdauer: drei Jahre"),
    "gdpr_13_2_b_data_subject_rights": ("5.", "Ihre Rechte: Auskunft"),
    "gdpr_13_2_e_requirement_consequences": ("6.", "ohne sie kein Vertrag"),
}
CONTEXT = {
    "gdpr_ctx_role": ({"role": "controller"}, "Verantwortlicher: Lernwerk GmbH"),
    "gdpr_ctx_collection": (
        {"source": "from_data_subject"},
        "Verantwortlicher: Lernwerk GmbH",
    ),
    "gdpr_ctx_legal_basis": ({"bases": "6_1_b"}, "Vertragserfüllung"),
    "gdpr_ctx_dpo_designated": ({"value": False}, "Datenschutzhinweise"),
    "gdpr_ctx_third_country_transfer": ({"value": False}, "Empfänger: keine."),
    "gdpr_ctx_automated_decision": ({"value": False}, "Datenschutzhinweise"),
    "gdpr_doc_privacy_notice": (
        {"doc": "Datenschutzhinweise", "complete": True, "date": "2026-03-01"},
        "Datenschutzhinweise",
    ),
}


def _gdpr_case(case: Any, reviewer: Any) -> Claim:
    claim = ClaimFactory(
        case=case,
        claim_type=Claim.ClaimType.GDPR,
        jurisdiction="DE",
        valid_at=dt.date(2026, 10, 1),
    )
    chunk = make_chunk(case, text=NOTICE, filename="datenschutz.pdf")
    for key, (value, quote) in CONTEXT.items():
        accepted(case, reviewer, chunk=chunk, fact_type=key, value=value, quote=quote)
    for key, (locator, quote) in ITEMS.items():
        accepted(
            case,
            reviewer,
            chunk=chunk,
            fact_type=key,
            value={
                "state": "present",
                "doc": "Datenschutzhinweise",
                "locator": locator,
            },
            quote=quote,
        )
    return claim


def _tab(client: Client, case: Any, lang: str = "de") -> str:
    client.cookies["django_language"] = lang
    url = reverse("ontology:case_requirements", kwargs={"case_id": case.pk})
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def _obligation(html: str, claim: Claim, key: str) -> str:
    match = re.search(
        rf'<li class="obligation obligation--(\w+)" id="claim-{claim.pk}-{key}">'
        r"(.*?)</li>",
        html,
        re.S,
    )
    assert match, f"obligation {key} not rendered"
    return match.group(0)


def test_notice_without_complaint_right_is_nicht_erfuellt_and_names_the_provision(
    case: Any, reviewer: Any, lawyer_client: Client
) -> None:
    claim = _gdpr_case(case, reviewer)
    html = _tab(lawyer_client, case)
    art13 = _obligation(html, claim, "gdpr_13")
    assert "obligation--not_satisfied" in art13
    assert "Art. 13 Abs. 2 lit. d DSGVO" in art13
    assert "im vollständigen Dokument nicht enthalten" in art13
    assert "element--satisfied" in art13
    # not a processor contract case: Art. 28(3) stays open, never erfüllt
    assert "obligation--satisfied" not in _obligation(html, claim, "gdpr_28_3")


def test_obligations_are_shown_in_english_when_english_is_active(
    case: Any, reviewer: Any, lawyer_client: Client
) -> None:
    claim = _gdpr_case(case, reviewer)
    art13 = _obligation(_tab(lawyer_client, case, "en"), claim, "gdpr_13")
    assert "Art. 13(2)(d) GDPR" in art13
    assert "not contained in the complete document" in art13


def test_other_firm_cannot_read_the_compliance_verdicts(
    case: Any, reviewer: Any, other_client: Client
) -> None:
    _gdpr_case(case, reviewer)
    url = reverse("ontology:case_requirements", kwargs={"case_id": case.pk})
    assert other_client.get(url).status_code == 404


def test_the_tab_shows_the_element_verdicts_and_no_one_fact_checklist(
    case: Any, reviewer: Any, lawyer_client: Client
) -> None:
    claim = _gdpr_case(case, reviewer)
    html = _tab(lawyer_client, case)
    section = html.split(f'id="claim-{claim.pk}"')[1]
    # the old checklist listed requirements met by one fact ("dpia", ...)
    assert '<ol class="requirements">' not in section
    assert f'id="claim-{claim.pk}-dpia"' not in html
    assert f'id="claim-{claim.pk}-lawful_basis"' not in html
    art13 = _obligation(html, claim, "gdpr_13")
    # each evidenced element links the fact that carries it
    fact_id = re.search(r'href="([^"]*/facts/(\d+)/)"', art13)
    assert fact_id is not None
    assert fact_id.group(1) == reverse(
        "review:fact_detail", kwargs={"fact_id": int(fact_id.group(2))}
    )
