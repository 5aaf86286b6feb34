"""The case pages: list, search and paging, create and edit with parties and
claims, roles, tenancy, language."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.urls import reverse

from cases.models import AuditEvent, Case, Claim, Party
from cases.services import case_create
from tests.factories import CaseFactory, ClaimFactory, PartyFactory

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _management(prefix: str, total: int, initial: int = 0) -> dict[str, str]:
    return {
        f"{prefix}-TOTAL_FORMS": str(total),
        f"{prefix}-INITIAL_FORMS": str(initial),
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }


def _create_payload(**overrides: Any) -> dict[str, str]:
    data = {
        "reference": "7 O 12/26",
        "title": "Adler GmbH ./. Berg KG",
        "client": "Adler GmbH",
        "description": "Unpaid invoices",
        "status": "open",
        **_management("parties", 1),
        "parties-0-role": "debtor",
        "parties-0-kind": "business",
        "parties-0-name": "Berg KG",
        "parties-0-address": "Ring 2, 50667 Köln",
        **_management("claims", 1),
        "claims-0-claim_type": "verzugsschaden",
        "claims-0-jurisdiction": "de",
        "claims-0-valid_at": "2026-04-26",
    }
    data.update(overrides)
    return data


def _counts() -> tuple[int, int, int, int]:
    return (
        Case.objects.count(),
        Party.objects.count(),
        Claim.objects.count(),
        AuditEvent.objects.count(),
    )


# --- list, search, paging ----------------------------------------------------------


def test_anonymous_user_is_redirected_to_login(client, case):
    for url in (
        reverse("cases:list"),
        reverse("cases:create"),
        reverse("cases:detail", args=[case.pk]),
        reverse("cases:edit", args=[case.pk]),
        reverse("cases:audit", args=[case.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url


def test_login_page_renders_and_logs_in(client, lawyer):
    page = client.get(reverse("login"))
    assert page.status_code == 200
    assert 'name="username"' in page.content.decode()
    response = client.post(
        reverse("login"), {"username": "anna.lawyer", "password": "pw-Belegt-123"}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("cases:list")


def test_list_shows_own_firm_cases_with_party_count_only(
    lawyer_client, case, other_case
):
    PartyFactory(case=case, name="Schmidt KG")
    PartyFactory(case=case, name="Meyer AG", role=Party.Role.CREDITOR)
    response = lawyer_client.get(reverse("cases:list"))
    html = response.content.decode()
    assert response.status_code == 200
    assert case.reference in html
    assert case.title in html
    assert other_case.reference not in html
    assert response.context["page"].object_list[0].party_count == 2


def test_header_shows_firm_user_and_role(lawyer_client):
    html = lawyer_client.get(reverse("cases:list")).content.decode()
    assert "Kanzlei Adler" in html
    assert "anna.lawyer" in html
    assert "Rechtsanwalt" in html  # the role, in German by default
    assert reverse("api-docs") in html
    assert reverse("citations:check") in html and "Zitatprüfung" in html


def test_search_finds_by_party_name_and_htmx_gets_only_the_results(lawyer_client, firm):
    wanted = CaseFactory(organisation=firm, title="Kaufpreis")
    PartyFactory(case=wanted, name="Zeppelin Logistik GmbH")
    CaseFactory(organisation=firm, title="Mietsache")
    response = lawyer_client.get(reverse("cases:list"), {"q": "zeppelin"}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="case-results"')
    assert "<html" not in html
    assert "Kaufpreis" in html
    assert "Mietsache" not in html
    assert "HX-Request" in response["Vary"]


def test_search_without_htmx_renders_the_whole_page(lawyer_client, firm):
    CaseFactory(organisation=firm, title="Kaufpreis")
    response = lawyer_client.get(reverse("cases:list"), {"q": "Kaufpreis"})
    html = response.content.decode()
    assert "<html" in html
    assert 'value="Kaufpreis"' in html


def test_status_filter(lawyer_client, firm):
    CaseFactory(organisation=firm, title="Offene Sache", status=Case.Status.OPEN)
    CaseFactory(organisation=firm, title="Erledigte Sache", status=Case.Status.CLOSED)
    html = lawyer_client.get(
        reverse("cases:list"), {"status": "closed"}
    ).content.decode()
    assert "Erledigte Sache" in html
    assert "Offene Sache" not in html


def test_paging_splits_cases_and_keeps_the_search(lawyer_client, firm):
    for n in range(23):
        CaseFactory(organisation=firm, title=f"Inkasso {n:02d}")
    CaseFactory(organisation=firm, title="Something else")
    first = lawyer_client.get(reverse("cases:list"), {"q": "Inkasso"})
    assert len(first.context["page"].object_list) == 20
    assert first.context["page"].paginator.num_pages == 2
    html = first.content.decode()
    assert "?q=Inkasso&amp;page=2" in html
    second = lawyer_client.get(reverse("cases:list"), {"q": "Inkasso", "page": 2})
    titles = {c.title for c in second.context["page"].object_list}
    assert len(titles) == 3
    assert "Something else" not in titles
    seen = {c.title for c in first.context["page"].object_list} | titles
    assert len(seen) == 23


def test_every_hx_get_link_keeps_an_href(lawyer_client, firm, case):
    for _ in range(25):
        CaseFactory(organisation=firm)
    pages = [
        lawyer_client.get(reverse("cases:list")),
        lawyer_client.get(reverse("evidence:case_documents", args=[case.pk])),
    ]
    for response in pages:
        html = response.content.decode()
        for chunk in html.split("<a ")[1:]:
            tag = chunk.split(">", 1)[0]
            if "hx-get" in tag:
                assert "href=" in tag, tag


def test_reviewer_sees_no_create_or_edit_buttons(reviewer_client, case):
    html = reviewer_client.get(reverse("cases:list")).content.decode()
    assert reverse("cases:create") not in html
    tab = reviewer_client.get(reverse("evidence:case_documents", args=[case.pk]))
    assert reverse("cases:edit", args=[case.pk]) not in tab.content.decode()


# --- create -------------------------------------------------------------------


def test_lawyer_creates_case_with_party_and_claim(lawyer_client, lawyer):
    response = lawyer_client.post(reverse("cases:create"), _create_payload())
    case = Case.objects.get(reference="7 O 12/26")
    assert response.status_code == 302
    assert response["Location"] == reverse("cases:detail", args=[case.pk])
    assert case.created_by == lawyer
    assert case.organisation == lawyer.membership.organisation
    party = case.parties.get()
    assert (party.name, party.role, party.kind) == ("Berg KG", "debtor", "business")
    claim = case.claims.get()
    assert claim.claim_type == "verzugsschaden"
    assert claim.jurisdiction == "DE"
    assert claim.valid_at == dt.date(2026, 4, 26)
    actions = list(
        AuditEvent.objects.filter(case_id=case.pk).values_list("action", flat=True)
    )
    assert actions == ["case.created", "party.created", "claim.created"]


def test_admin_may_create_a_case(admin_member):
    from django.test import Client

    client = Client()
    client.force_login(admin_member)
    response = client.post(reverse("cases:create"), _create_payload())
    assert response.status_code == 302
    assert Case.objects.filter(reference="7 O 12/26").exists()


def test_empty_extra_rows_are_ignored(lawyer_client):
    payload = _create_payload(**_management("parties", 2), **_management("claims", 2))
    payload.update({"parties-1-role": "", "parties-1-kind": "", "parties-1-name": ""})
    payload.update({"claims-1-jurisdiction": "DE"})  # the untouched default
    response = lawyer_client.post(reverse("cases:create"), payload)
    assert response.status_code == 302
    case = Case.objects.get(reference="7 O 12/26")
    assert case.parties.count() == 1
    assert case.claims.count() == 1


def test_invalid_create_shows_field_errors_and_saves_nothing(lawyer_client):
    before = _counts()
    payload = _create_payload(
        title="", **{"parties-0-name": "", "claims-0-valid_at": "not a date"}
    )
    response = lawyer_client.post(reverse("cases:create"), payload)
    assert response.status_code == 400
    assert _counts() == before
    form = response.context["form"]
    assert "title" in form.errors
    assert "reference" not in form.errors
    assert "name" in response.context["parties"].forms[0].errors
    assert "valid_at" in response.context["claims"].forms[0].errors
    html = response.content.decode()
    assert 'id="id_title_error"' in html
    assert 'id="id_parties-0-name_error"' in html
    # What was typed is kept.
    assert 'value="7 O 12/26"' in html
    assert 'value="Adler GmbH"' in html


def test_invalid_jurisdiction_is_a_field_error(lawyer_client):
    before = _counts()
    response = lawyer_client.post(
        reverse("cases:create"), _create_payload(**{"claims-0-jurisdiction": "D3"})
    )
    assert response.status_code == 400
    assert "jurisdiction" in response.context["claims"].forms[0].errors
    assert _counts() == before


def test_taken_reference_is_a_field_error_on_reference(lawyer_client, case):
    before = _counts()
    response = lawyer_client.post(
        reverse("cases:create"), _create_payload(reference=case.reference)
    )
    assert response.status_code == 400
    assert "reference" in response.context["form"].errors
    assert 'id="id_reference_error"' in response.content.decode()
    assert _counts() == before


def test_reference_of_another_firm_is_free(lawyer_client, other_case):
    response = lawyer_client.post(
        reverse("cases:create"), _create_payload(reference=other_case.reference)
    )
    assert response.status_code == 302


@pytest.mark.parametrize("persona", ["reviewer_client", "curator_client"])
def test_non_lawyers_cannot_open_the_create_page(request, persona):
    client = request.getfixturevalue(persona)
    before = _counts()
    assert client.get(reverse("cases:create")).status_code == 403
    assert client.post(reverse("cases:create"), _create_payload()).status_code == 403
    assert _counts() == before


# --- edit ---------------------------------------------------------------------


def _edit_payload(case: Case, **overrides: Any) -> dict[str, str]:
    parties = list(case.parties.all())
    claims = list(case.claims.all())
    data: dict[str, str] = {
        "reference": case.reference,
        "title": case.title,
        "client": case.client,
        "description": case.description,
        "status": case.status,
        **_management("parties", len(parties), len(parties)),
        **_management("claims", len(claims), len(claims)),
    }
    for i, party in enumerate(parties):
        data.update(
            {
                f"parties-{i}-id": str(party.pk),
                f"parties-{i}-case": str(case.pk),
                f"parties-{i}-role": party.role,
                f"parties-{i}-kind": party.kind,
                f"parties-{i}-name": party.name,
                f"parties-{i}-address": party.address,
            }
        )
    for i, claim in enumerate(claims):
        data.update(
            {
                f"claims-{i}-id": str(claim.pk),
                f"claims-{i}-case": str(case.pk),
                f"claims-{i}-claim_type": claim.claim_type,
                f"claims-{i}-jurisdiction": claim.jurisdiction,
                f"claims-{i}-valid_at": claim.valid_at.isoformat(),
            }
        )
    data.update(overrides)
    return data


@pytest.fixture
def full_case(lawyer: Any) -> Case:
    return case_create(
        actor=lawyer,
        reference="3 O 5/26",
        title="Nord AG ./. Süd GmbH",
        client="Nord AG",
        parties=[
            {"role": "creditor", "kind": "business", "name": "Nord AG"},
            {"role": "debtor", "kind": "business", "name": "Süd GmbH"},
        ],
        claims=[{"claim_type": "verzugsschaden", "valid_at": dt.date(2026, 1, 1)}],
    )


def test_edit_page_is_prefilled(lawyer_client, full_case):
    response = lawyer_client.get(reverse("cases:edit", args=[full_case.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'value="3 O 5/26"' in html
    assert 'value="Süd GmbH"' in html
    assert 'value="01.01.2026"' in html  # the claim date, as a German page types it


def test_edit_changes_master_data_parties_and_claims_with_audit(
    lawyer_client, full_case
):
    nord, sued = sorted(full_case.parties.all(), key=lambda p: p.name)
    payload = _edit_payload(full_case, title="Nord AG ./. Süd GmbH (Berufung)")
    index = {v: k.split("-")[1] for k, v in payload.items() if k.endswith("-id")}
    payload[f"parties-{index[str(sued.pk)]}-address"] = "Weg 3, 80331 München"
    payload[f"parties-{index[str(nord.pk)]}-DELETE"] = "on"
    payload.update(
        {
            **_management("parties", 3, 2),
            "parties-2-role": "other",
            "parties-2-kind": "consumer",
            "parties-2-name": "Zeuge Z",
            "claims-0-valid_at": "2026-02-01",
        }
    )
    since_id = AuditEvent.objects.order_by("-id").values_list("id", flat=True)[0]
    response = lawyer_client.post(reverse("cases:edit", args=[full_case.pk]), payload)
    assert response.status_code == 302
    full_case.refresh_from_db()
    assert full_case.title.endswith("(Berufung)")
    names = set(full_case.parties.values_list("name", flat=True))
    assert names == {"Süd GmbH", "Zeuge Z"}
    sued.refresh_from_db()
    assert sued.address == "Weg 3, 80331 München"
    assert full_case.claims.get().valid_at == dt.date(2026, 2, 1)
    actions = sorted(
        AuditEvent.objects.filter(pk__gt=since_id).values_list("action", flat=True)
    )
    assert actions == sorted(
        [
            "case.updated",
            "party.deleted",
            "party.updated",
            "party.created",
            "claim.updated",
        ]
    )


def test_unchanged_edit_writes_no_audit_event(lawyer_client, full_case):
    before = AuditEvent.objects.count()
    response = lawyer_client.post(
        reverse("cases:edit", args=[full_case.pk]), _edit_payload(full_case)
    )
    assert response.status_code == 302
    assert AuditEvent.objects.count() == before


def test_invalid_edit_changes_nothing(lawyer_client, full_case):
    payload = _edit_payload(full_case, title="Neuer Titel")
    payload.update(
        {
            **_management("parties", 3, 2),
            "parties-2-role": "debtor",
            "parties-2-kind": "",  # missing
            "parties-2-name": "Neu",
        }
    )
    before = _counts()
    response = lawyer_client.post(reverse("cases:edit", args=[full_case.pk]), payload)
    assert response.status_code == 400
    assert "kind" in response.context["parties"].forms[2].errors
    assert _counts() == before
    full_case.refresh_from_db()
    assert full_case.title == "Nord AG ./. Süd GmbH"


def test_edit_to_a_taken_reference_is_a_field_error_and_changes_nothing(
    lawyer_client, full_case, case
):
    payload = _edit_payload(full_case, reference=case.reference, title="Anders")
    payload["claims-0-valid_at"] = "2027-01-01"
    before = _counts()
    response = lawyer_client.post(reverse("cases:edit", args=[full_case.pk]), payload)
    assert response.status_code == 400
    assert "reference" in response.context["form"].errors
    assert _counts() == before
    full_case.refresh_from_db()
    assert full_case.reference == "3 O 5/26"
    assert full_case.title == "Nord AG ./. Süd GmbH"
    assert full_case.claims.get().valid_at == dt.date(2026, 1, 1)


def test_edit_cannot_touch_a_party_of_another_case(lawyer_client, full_case, firm):
    PartyFactory(case=CaseFactory(organisation=firm), name="Fremd")
    stranger = Party.objects.get(name="Fremd")
    payload = _edit_payload(full_case)
    payload["parties-0-id"] = str(stranger.pk)
    payload["parties-0-name"] = "Gekapert"
    lawyer_client.post(reverse("cases:edit", args=[full_case.pk]), payload)
    # The formset only knows this case's rows: the foreign id is not an update.
    stranger.refresh_from_db()
    assert stranger.name == "Fremd"
    assert list(stranger.case.parties.values_list("name", flat=True)) == ["Fremd"]
    assert not AuditEvent.objects.filter(
        action__startswith="party.", target_id=str(stranger.pk)
    ).exists()


@pytest.mark.parametrize("persona", ["reviewer_client", "curator_client"])
def test_non_lawyers_cannot_edit_case_master_data(request, persona, full_case):
    client = request.getfixturevalue(persona)
    url = reverse("cases:edit", args=[full_case.pk])
    assert client.get(url).status_code == 403
    response = client.post(url, _edit_payload(full_case, title="Hijacked"))
    assert response.status_code == 403
    full_case.refresh_from_db()
    assert full_case.title == "Nord AG ./. Süd GmbH"


def test_form_row_adds_a_numbered_row_and_raises_the_counter(lawyer_client):
    response = lawyer_client.get(
        reverse("cases:form_row", args=["parties"]),
        {"parties-TOTAL_FORMS": "3"},
        **HTMX,
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert 'name="parties-3-name"' in html
    assert 'name="parties-TOTAL_FORMS" value="4"' in html
    assert 'hx-swap-oob="true"' in html
    claims = lawyer_client.get(
        reverse("cases:form_row", args=["claims"]), {"claims-TOTAL_FORMS": "1"}
    )
    assert 'name="claims-1-valid_at"' in claims.content.decode()


def test_form_row_rejects_unknown_formsets_and_non_lawyers(
    lawyer_client, reviewer_client
):
    assert (
        lawyer_client.get(reverse("cases:form_row", args=["users"])).status_code == 404
    )
    assert (
        reviewer_client.get(reverse("cases:form_row", args=["parties"])).status_code
        == 403
    )


def test_edit_page_without_js_can_offer_more_rows(lawyer_client, full_case):
    response = lawyer_client.get(
        reverse("cases:edit", args=[full_case.pk]), {"parties_extra": "3"}
    )
    assert len(response.context["parties"].forms) == 2 + 3


# --- case page and tabs -------------------------------------------------------

TAB_URLS = [
    "evidence:case_documents",
    "evidence:case_evidence",
    "review:case_review",
    "ontology:case_requirements",
    "reports:case_reports",
]


def test_detail_opens_the_documents_tab(lawyer_client, case):
    response = lawyer_client.get(reverse("cases:detail", args=[case.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("evidence:case_documents", args=[case.pk])


@pytest.mark.parametrize("url_name", TAB_URLS)
def test_tab_page_shows_case_header_and_tab_navigation(lawyer_client, case, url_name):
    PartyFactory(case=case, name="Schuldner Sepp")
    ClaimFactory(case=case)
    response = lawyer_client.get(reverse(url_name, args=[case.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html
    assert case.reference in html and case.title in html and case.client in html
    assert "Schuldner Sepp" in html
    assert "Verzugsschaden" in html
    for other in TAB_URLS:
        assert reverse(other, args=[case.pk]) in html
    current = html.split('id="case-tab-nav"')[1].split("</nav>")[0]
    assert current.count('aria-current="page"') == 1
    assert (
        f'href="{reverse(url_name, args=[case.pk])}"'
        in current.split('aria-current="page"')[0].rsplit("<a ", 1)[1]
    )
    assert '<section id="tab-content"' in html


@pytest.mark.parametrize("url_name", TAB_URLS)
def test_htmx_tab_switch_returns_the_panel_and_the_nav_out_of_band(
    lawyer_client, case, url_name
):
    response = lawyer_client.get(
        reverse(url_name, args=[case.pk]), HTTP_HX_TARGET="tab-content", **HTMX
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert "case-header" not in html
    assert '<section id="tab-content"' in html
    assert 'id="case-tab-nav"' in html and 'hx-swap-oob="true"' in html
    assert "<title>" in html and case.reference in html
    assert "HX-Request" in response["Vary"]
    full = lawyer_client.get(reverse(url_name, args=[case.pk])).content.decode()
    panel = html[html.index('<section id="tab-content"') :].split("</section>")[0]
    assert _without_csrf(panel) in _without_csrf(full)


def _without_csrf(html: str) -> str:
    """CSRF tokens are masked afresh on every response."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)


# The placeholder tab: rendered through the contract directly, so these tests
# stay true while other apps replace their placeholders with real tabs.
TAB_PROMISES = {
    "documents": ("PDF", "Texterkennung"),
    "evidence": ("hybride Suche", "Seite"),
    "review": ("bestätigen", "vorschlägt"),
    "requirements": ("Voraussetzung", "fehlt"),
    "reports": ("Word", "Excel"),
}


def _tab_request(user: Any, *, htmx: bool = False) -> Any:
    from django.test import RequestFactory
    from django_htmx.middleware import HtmxDetails

    headers = {"HX-Request": "true"} if htmx else {}
    request = RequestFactory().get("/", headers=headers)
    request.user = user
    request.htmx = HtmxDetails(request)  # type: ignore[attr-defined]
    return request


@pytest.mark.parametrize("tab", sorted(TAB_PROMISES))
def test_placeholder_tab_says_in_german_what_will_appear_there(lawyer, case, tab):
    from cases.tabs import render_case_tab

    response = render_case_tab(
        _tab_request(lawyer),
        case=case,
        tab=tab,
        template="cases/tab_placeholder.html",
    )
    html = response.content.decode()
    assert "<html" in html and case.title in html
    for word in TAB_PROMISES[tab]:
        assert word in html, (tab, word)
    assert "noch nicht fertig" in html


@pytest.mark.parametrize("tab", sorted(TAB_PROMISES))
def test_placeholder_tab_content_survives_inheritance_in_the_htmx_fragment(
    lawyer, case, tab
):
    """tab_placeholder.html extends case_tab.html, which extends a layout chosen
    per request: the fragment must carry the child's tab_body, not an empty
    parent block."""
    from cases.tabs import render_case_tab

    response = render_case_tab(
        _tab_request(lawyer, htmx=True),
        case=case,
        tab=tab,
        template="cases/tab_placeholder.html",
    )
    html = response.content.decode()
    assert "<html" not in html and "case-header" not in html
    panel = html[html.index('<section id="tab-content"') :]
    for word in TAB_PROMISES[tab]:
        assert word in panel, (tab, word)
    assert f'aria-labelledby="tab-{tab}"' in panel


def test_template_extending_case_tab_without_the_helper_gets_the_page(lawyer, case):
    from django.template.loader import render_to_string

    html = render_to_string(
        "cases/tab_placeholder.html",
        {"case": case, "active_tab": "reports", "case_tabs": []},
        request=_tab_request(lawyer),
    )
    assert "<html" in html and "Excel" in html


def test_htmx_history_restore_gets_the_whole_page(lawyer_client, case):
    response = lawyer_client.get(
        reverse("review:case_review", args=[case.pk]),
        HTTP_HX_REQUEST="true",
        HTTP_HX_HISTORY_RESTORE_REQUEST="true",
    )
    assert "<html" in response.content.decode()


def test_other_firm_gets_404_on_every_case_page(other_client, case):
    urls = [
        reverse("cases:detail", args=[case.pk]),
        reverse("cases:edit", args=[case.pk]),
        reverse("cases:audit", args=[case.pk]),
        *[reverse(name, args=[case.pk]) for name in TAB_URLS],
    ]
    for url in urls:
        assert other_client.get(url).status_code == 404, url
        assert other_client.get(url, **HTMX).status_code == 404, url
    response = other_client.post(reverse("cases:edit", args=[case.pk]), {"title": "x"})
    assert response.status_code == 404


def test_reviewer_may_read_the_case_tabs(reviewer_client, case):
    for name in TAB_URLS:
        assert reviewer_client.get(reverse(name, args=[case.pk])).status_code == 200


# --- audit page ---------------------------------------------------------------


def test_audit_page_lists_this_cases_events_only(lawyer_client, lawyer, full_case):
    case_create(actor=lawyer, reference="X 1/26", title="Other", client="C")
    response = lawyer_client.get(reverse("cases:audit", args=[full_case.pk]))
    events = list(response.context["page"].object_list)
    assert response.status_code == 200
    assert {e.case_id for e in events} == {full_case.pk}
    assert len(events) == 4  # case + two parties + claim
    html = response.content.decode()
    assert "anna.lawyer" in html


def test_reviewer_cannot_read_the_audit_page(reviewer_client, case):
    response = reviewer_client.get(reverse("cases:audit", args=[case.pk]))
    assert response.status_code == 403


# --- language -----------------------------------------------------------------


def test_german_is_the_default_and_english_is_one_switch_away(lawyer_client):
    german = lawyer_client.get(reverse("cases:list")).content.decode()
    assert '<html lang="de">' in german
    assert "Neue Akte" in german
    response = lawyer_client.post(
        reverse("set_language"), {"language": "en", "next": reverse("cases:list")}
    )
    assert response.status_code == 302
    english = lawyer_client.get(reverse("cases:list")).content.decode()
    assert '<html lang="en">' in english
    assert "New case" in english
    assert "Neue Akte" not in english
