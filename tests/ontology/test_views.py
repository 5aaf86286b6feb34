"""The Requirements tab: verdicts in words per claim, evidence links to the
highlighted pages, legal basis, damage; it follows review decisions; every
firm member reads it, another firm gets 404; no percentage or score."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from evidence.search import page_url
from ontology.selectors import claim_evaluation_for
from review.models import Fact
from review.services.decisions import fact_dispute, proposal_accept
from tests import factories
from tests.citations.fixtures import _corpus_session, corpus  # noqa: F401
from tests.ontology.factsdb import verzug_case
from tests.ontology.test_no_score import INTEREST_RATE
from tests.review.helpers import fact_decided

ClaimFactory: Any = factories.ClaimFactory
MembershipFactory: Any = factories.MembershipFactory

pytestmark = pytest.mark.django_db


def _tab(client: Client, case: Any, lang: str = "de", **headers: Any) -> str:
    client.cookies["django_language"] = lang
    response = client.get(
        reverse("ontology:case_requirements", kwargs={"case_id": case.pk}), **headers
    )
    assert response.status_code == 200
    return response.content.decode()


def _verdicts_url(case: Any, since: str) -> str:
    url = reverse("ontology:case_requirements_verdicts", kwargs={"case_id": case.pk})
    return f"{url}?since={since}"


def _requirement(html: str, claim: Any, key: str) -> str:
    match = re.search(
        rf'<li class="req req--(\w+)" id="claim-{claim.pk}-{key}">(.*?)</li>\s*'
        rf'(?=<li class="req |</ol>)',
        html,
        re.S,
    )
    assert match, f"requirement {key} not rendered"
    return match.group(0)


def _version(html: str) -> str:
    match = re.search(r'data-version="(\w+)"', html)
    assert match
    return match.group(1)


def test_each_requirement_shows_status_sentence_and_legal_basis_in_german(
    case: Any, reviewer: Any, lawyer_client: Client
) -> None:
    data = verzug_case(case, reviewer)
    evaluation = claim_evaluation_for(claim=data["claim"])
    html = _tab(lawyer_client, case, "de")
    for verdict in evaluation.requirements:
        block = _requirement(html, data["claim"], verdict.key)
        assert f"req--{verdict.status}" in block
        assert f">{verdict.status_de}</span>" in block
        assert (
            verdict.sentence_de in block.replace("&quot;", '"').replace("&#x27;", "'")
            or verdict.sentence_de.split(".")[0] in block
        )
        for basis in verdict.legal_basis:
            assert basis in block
    faelligkeit = _requirement(html, data["claim"], "faelligkeit")
    assert ">erfüllt</span>" in faelligkeit
    mahnung = _requirement(html, data["claim"], "mahnung")
    assert ">offen</span>" in mahnung
    assert 'class="missing-items">Zugangsnachweis fehlt' in mahnung


def test_english_is_shown_when_english_is_active(
    case: Any, reviewer: Any, lawyer_client: Client
) -> None:
    data = verzug_case(case, reviewer)
    evaluation = claim_evaluation_for(claim=data["claim"])
    html = _tab(lawyer_client, case, "en")
    faelligkeit = _requirement(html, data["claim"], "faelligkeit")
    assert ">satisfied</span>" in faelligkeit
    first = evaluation.requirement("faelligkeit").sentence_en.split(".")[0]
    assert first.split(" ")[0] in faelligkeit
    assert evaluation.requirement("faelligkeit").sentence_de not in html
    assert ">open</span>" in _requirement(html, data["claim"], "mahnung")


def test_evidence_links_open_the_highlighted_page(
    case: Any, reviewer: Any, lawyer_client: Client
) -> None:
    data = verzug_case(case, reviewer)
    html = _tab(lawyer_client, case)
    invoice = data["invoice"]
    expected = page_url(
        case_id=case.pk,
        document_id=invoice.document_id,
        number=invoice.page_start,
        chunk_id=invoice.pk,
    )
    faelligkeit = _requirement(html, data["claim"], "faelligkeit")
    assert f'href="{expected}"' in faelligkeit
    assert "rechnung.pdf, S. 1" in faelligkeit
    assert reverse("review:fact_detail", args=[data["due"].pk]) in faelligkeit
    page = lawyer_client.get(expected)
    assert page.status_code == 200
    assert (
        f"chunk-{invoice.pk}" in page.content.decode()
        or str(invoice.pk) in page.content.decode()
    )


def test_disputed_fact_is_named_but_does_not_satisfy(
    case: Any, reviewer: Any, lawyer_client: Client
) -> None:
    data = verzug_case(case, reviewer)
    fact_dispute(fact=data["due"], reviewer=reviewer, reason="Schuldner bestreitet")
    html = _tab(lawyer_client, case, "en")
    faelligkeit = _requirement(html, data["claim"], "faelligkeit")
    assert ">satisfied</span>" not in faelligkeit
    assert "unestablished-facts" in faelligkeit
    assert "(disputed)" in faelligkeit


def test_tab_follows_a_review_decision(
    case: Any, reviewer: Any, lawyer_client: Client
) -> None:
    data = verzug_case(case, reviewer)
    html = _tab(lawyer_client, case, "en")
    assert ">open</span>" in _requirement(html, data["claim"], "mahnung")
    version = _version(html)
    assert f"since={version}" in html
    assert 'hx-trigger="every 10s' in html

    unchanged = lawyer_client.get(_verdicts_url(case, version), HTTP_HX_REQUEST="true")
    assert unchanged.status_code == 204

    proposal_accept(proposal=data["receipt_proposal"], reviewer=reviewer)

    changed = lawyer_client.get(_verdicts_url(case, version), HTTP_HX_REQUEST="true")
    assert changed.status_code == 200
    fragment = changed.content.decode()
    assert fragment.lstrip().startswith('<div id="requirements-verdicts"')
    assert "<html" not in fragment
    assert ">satisfied</span>" in _requirement(fragment, data["claim"], "mahnung")
    new_version = _version(fragment)
    assert new_version != version
    again = lawyer_client.get(_verdicts_url(case, new_version), HTTP_HX_REQUEST="true")
    assert again.status_code == 204


def test_a_party_kind_change_also_counts_as_a_change(
    case: Any, reviewer: Any, lawyer_client: Client
) -> None:
    verzug_case(case, reviewer)
    version = _version(_tab(lawyer_client, case))
    case.parties.filter(role="debtor").update(kind="consumer")
    assert lawyer_client.get(_verdicts_url(case, version)).status_code == 200


@time_machine.travel(dt.datetime(2026, 6, 15, 12, tzinfo=dt.UTC), tick=False)
def test_damage_sum_and_interest_are_shown(
    case: Any, reviewer: Any, lawyer_client: Client
) -> None:
    data = verzug_case(case, reviewer)
    proposal_accept(proposal=data["receipt_proposal"], reviewer=reviewer)
    from tests.ontology.factsdb import accepted

    accepted(
        case,
        reviewer,
        chunk=data["letter"],
        fact_type="damage_item",
        value={"cents": 500, "currency": "EUR"},
        quote="Mahnung",
    )
    evaluation = claim_evaluation_for(
        claim=data["claim"], interest_until=dt.date(2026, 6, 15)
    )
    damage = evaluation.damage
    assert damage is not None and damage.interest is not None
    html = _tab(lawyer_client, case, "de")
    assert 'class="damage"' in html
    euros, cents = divmod(damage.total_cents, 100)
    assert f"{euros:,}".replace(",", ".") + f",{cents:02d} €" in html
    interest_euros, interest_cents = divmod(damage.interest.interest_cents, 100)
    assert f"{interest_euros},{interest_cents:02d} €" in html
    assert "Default interest by base-rate period" in html or "Basiszins" in html


def test_rendered_tab_has_no_percentage_score_or_progress_bar(
    case: Any, reviewer: Any, lawyer_client: Client
) -> None:
    data = verzug_case(case, reviewer)
    proposal_accept(proposal=data["receipt_proposal"], reviewer=reviewer)
    ClaimFactory(case=case, claim_type="gdpr", valid_at=dt.date(2026, 11, 1))
    for lang in ("de", "en"):
        with time_machine.travel(dt.datetime(2026, 6, 15, tzinfo=dt.UTC)):
            html = _tab(lawyer_client, case, lang, HTTP_HX_REQUEST="true")
        lowered = html.lower()
        for forbidden in ("<progress", "progress", "score", "width:", "prozent "):
            assert forbidden not in lowered, forbidden
        # "percentage points above the base rate" is the statutory interest rate
        assert not re.search(r"percent(?!age points)", lowered)
        assert not re.search(
            r"\b\d+\s*(?:von|of|/)\s*\d+\s+(?:anforderung|requirement)", lowered
        )
        without_rates = re.sub(r'<td class="interest-rate">[^<]*</td>', "", html)
        without_rates = INTEREST_RATE.sub("", without_rates)
        assert "%" not in without_rates


def test_every_firm_member_reads_the_tab(case: Any, reviewer: Any, firm: Any) -> None:
    verzug_case(case, reviewer)
    for role in ("admin", "lawyer", "reviewer", "curator"):
        client = Client()
        client.force_login(MembershipFactory(organisation=firm, role=role).user)
        assert "verdict-status" in _tab(client, case)


def test_other_firm_gets_404(case: Any, reviewer: Any, other_client: Client) -> None:
    verzug_case(case, reviewer)
    for name in ("ontology:case_requirements", "ontology:case_requirements_verdicts"):
        url = reverse(name, kwargs={"case_id": case.pk})
        assert other_client.get(url).status_code == 404


def test_htmx_tab_switch_gets_the_tab_content_only(
    case: Any, reviewer: Any, lawyer_client: Client
) -> None:
    verzug_case(case, reviewer)
    html = _tab(lawyer_client, case, HTTP_HX_REQUEST="true")
    assert 'id="tab-content"' in html and "<html" not in html
    assert 'id="requirements-verdicts"' in html


def test_a_claim_without_a_version_says_so_and_the_others_still_show(
    case: Any, reviewer: Any, lawyer_client: Client
) -> None:
    data = verzug_case(case, reviewer)
    old = ClaimFactory(case=case, valid_at=dt.date(1990, 1, 1))
    html = _tab(lawyer_client, case, "en")
    assert f'id="claim-{old.pk}"' in html
    assert "could not be evaluated" in html
    assert ">satisfied</span>" in _requirement(html, data["claim"], "faelligkeit")


def test_case_without_claims_explains_how_to_add_one(
    case: Any, lawyer_client: Client
) -> None:
    html = _tab(lawyer_client, case, "en")
    assert "no claims yet" in html


@pytest.mark.corpus
def test_legal_basis_shows_the_provision_text_on_hover(
    corpus: None,  # noqa: F811
    case: Any,
    reviewer: Any,
    lawyer_client: Client,
) -> None:
    data = verzug_case(case, reviewer)
    html = _tab(lawyer_client, case)
    faelligkeit = _requirement(html, data["claim"], "faelligkeit")
    titles = re.findall(r'class="citation" href="([^"]+)" title="([^"]*)"', faelligkeit)
    assert titles
    assert all(url == reverse("citations:check") for url, _ in titles)
    basis, text = next((label, title) for label, title in _basis_titles(faelligkeit))
    assert basis == "§ 271 Abs. 1 BGB"
    assert text.startswith("§ 271 Abs. 1 BGB: ")
    assert "Zeit für die Leistung" in text


def _basis_titles(html: str) -> list[tuple[str, str]]:
    """(label, hover text) of each legal-basis link."""
    pattern = r'class="citation" href="[^"]+" title="([^"]*)">([^<]+)<'
    return [(label, title) for title, label in re.findall(pattern, html)]


def test_fact_status_words_come_from_the_fact(
    case: Any, reviewer: Any, lawyer_client: Client
) -> None:
    data = verzug_case(case, reviewer)
    assert Fact.objects.get(pk=data["due"].pk).status == Fact.Status.CONFIRMED
    html = _tab(lawyer_client, case, "de")
    assert "(bestätigt)" in _requirement(html, data["claim"], "faelligkeit")


def test_tab_templates_have_no_progress_bar_score_or_percentage() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "templates" / "ontology"
    for template in root.rglob("*.html"):
        text = re.sub(
            r"{% comment %}.*?{% endcomment %}",
            "",
            template.read_text(encoding="utf-8").lower(),
            flags=re.S,
        )
        for forbidden in ("<progress", "progress", "percent", "score", "width:"):
            assert forbidden not in text, (template.name, forbidden)
        assert not re.search(r"\d\s*%(?!\})", text), template.name


def test_long_fact_lists_are_folded_and_every_fact_stays_reachable(
    case: Any, reviewer: Any, lawyer_client: Client
) -> None:
    data = verzug_case(case, reviewer)
    proposal_accept(proposal=data["receipt_proposal"], reviewer=reviewer)
    items = Fact.objects.bulk_create(
        Fact(
            case=case,
            fact_type="damage_item",
            value={"cents": 100 + i, "currency": "EUR"},
            status=Fact.Status.CONFIRMED,
        )
        for i in range(30)
    )
    for item in items:
        fact_decided(item)
    html = _tab(lawyer_client, case, "en")
    schaden = _requirement(html, data["claim"], "schaden")
    assert 'class="more-facts"' in schaden
    for item in items:
        assert reverse("review:fact_detail", args=[item.pk]) in schaden
    damage = html[html.index('class="damage"') :]
    assert "30 confirmed damage items" in damage
    assert reverse("review:fact_detail", args=[items[0].pk]) not in damage
