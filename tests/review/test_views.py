"""The htmx pages: Review tab, item partial, decisions with conflicts shown in
the item, claims, bulk, the facts view with provenance, the firm-wide queue's
filters and the curator's queue."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from review.models import ExtractionProposal, Fact, OntologyExtension, TermCandidate
from review.services.decisions import proposal_accept, proposal_claim
from tests.review.helpers import make_proposal, make_term

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _decide(client: Any, proposal: Any, **data: Any) -> Any:
    return client.post(
        reverse("review:proposal_decide", kwargs={"proposal_id": proposal.pk}),
        data,
        **HTMX,
    )


def test_review_tab_shows_the_item_beside_its_highlighted_page(
    reviewer_client: Any, case: Any
) -> None:
    proposal = make_proposal(case)
    response = reviewer_client.get(
        reverse("review:case_review", kwargs={"case_id": case.pk})
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert f'id="rq-row-{proposal.pk}"' in html
    document_id = proposal.source_chunk.document_id
    assert (
        reverse(
            "evidence:page_image",
            kwargs={"case_id": case.pk, "document_id": document_id, "number": 1},
        )
        in html
    )
    assert "data-quote-box" in html  # the quote is located and marked
    assert "data-chunk-box" in html
    assert f"?chunk={proposal.source_chunk_id}" in html  # link to the viewer
    assert "rules:test" in html and f"#{proposal.agent_run_id}" in html
    # a German text date (a browser's date input follows its own locale)
    assert 'type="text" name="date" value="05.05.2026"' in html
    assert 'placeholder="TT.MM.JJJJ"' in html
    assert 'data-key="a"' in html and 'data-key="r"' in html


def test_item_partial_for_htmx_and_queue_page_otherwise(
    reviewer_client: Any, case: Any
) -> None:
    proposal = make_proposal(case)
    url = reverse("review:proposal_detail", kwargs={"proposal_id": proposal.pk})
    partial = reviewer_client.get(url, **HTMX)
    assert partial.status_code == 200
    assert b"<html" not in partial.content
    assert f'data-proposal-id="{proposal.pk}"'.encode() in partial.content
    page = reviewer_client.get(url)
    assert page.status_code == 302
    assert f"item={proposal.pk}" in page["Location"]


def test_accepting_shows_the_next_item_and_removes_the_row(
    reviewer_client: Any, case: Any
) -> None:
    first = make_proposal(case)
    second = make_proposal(case, fact_type="due_date", value={"date": "2026-04-26"})
    response = _decide(reviewer_client, first, action="accept", filters="")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'id="rq-row-{first.pk}" hx-swap-oob="delete"' in html
    assert f'data-proposal-id="{second.pk}"' in html
    fact = Fact.objects.get(case=case)
    assert fact.status == Fact.Status.CONFIRMED


def test_a_conflict_is_shown_in_the_item_with_409(
    reviewer_client: Any, case: Any, second_reviewer: Any
) -> None:
    proposal = make_proposal(case)
    proposal_accept(proposal=proposal, reviewer=second_reviewer)
    response = _decide(reviewer_client, proposal, action="reject")
    assert response.status_code == 409
    html = response.content.decode()
    assert 'data-code="proposal_not_pending"' in html
    assert second_reviewer.get_username() in html
    assert ExtractionProposal.objects.get(pk=proposal.pk).status == "accepted"


def test_edit_takes_the_typed_editor_fields(reviewer_client: Any, case: Any) -> None:
    proposal = make_proposal(
        case,
        fact_type="claim_amount",
        value={"cents": 400000, "currency": "EUR"},
        quote="4.250,00 EUR",
    )
    response = _decide(
        reviewer_client,
        proposal,
        action="edit",
        amount="4.250,00",
        currency="EUR",
        label="",
    )
    assert response.status_code == 200
    fact = Fact.objects.get(case=case)
    assert fact.value == {"cents": 425000, "currency": "EUR"}
    assert fact.decisions.get().kind == "edit_accept"


def test_an_invalid_edit_keeps_what_was_typed(reviewer_client: Any, case: Any) -> None:
    proposal = make_proposal(case)
    response = _decide(reviewer_client, proposal, action="edit", date="2026-13-40")
    assert response.status_code == 400
    html = response.content.decode()
    assert 'data-code="invalid_value"' in html
    assert 'value="2026-13-40"' in html
    assert not Fact.objects.exists()


def test_dispute_needs_a_reason(reviewer_client: Any, case: Any) -> None:
    proposal = make_proposal(case)
    missing = _decide(reviewer_client, proposal, action="dispute", reason="")
    assert missing.status_code == 400
    assert b'data-code="reason_required"' in missing.content
    done = _decide(
        reviewer_client, proposal, action="dispute", reason="Zugang bestritten"
    )
    assert done.status_code == 200
    assert Fact.objects.get(case=case).status == Fact.Status.DISPUTED


def test_lawyers_read_but_do_not_decide(lawyer_client: Any, case: Any) -> None:
    proposal = make_proposal(case)
    page = lawyer_client.get(reverse("review:case_review", kwargs={"case_id": case.pk}))
    assert page.status_code == 200
    assert b"data-decide" not in page.content
    response = _decide(lawyer_client, proposal, action="accept")
    assert response.status_code == 403
    assert b'data-code="role_required"' in response.content
    assert ExtractionProposal.objects.get(pk=proposal.pk).status == "pending"


def test_claiming_an_item_someone_else_holds_says_who(
    reviewer_client: Any, case: Any, second_reviewer: Any
) -> None:
    proposal = make_proposal(case)
    proposal_claim(proposal=proposal, reviewer=second_reviewer)
    url = reverse("review:proposal_claim", kwargs={"proposal_id": proposal.pk})
    response = reviewer_client.post(url, **HTMX)
    assert response.status_code == 409
    assert second_reviewer.get_username().encode() in response.content
    free = make_proposal(case, fact_type="due_date", value={"date": "2026-04-26"})
    mine = reviewer_client.post(
        reverse("review:proposal_claim", kwargs={"proposal_id": free.pk}), **HTMX
    )
    assert mine.status_code == 200
    assert b'data-claim="mine"' in mine.content


def test_bulk_accepts_the_selection_and_reports_conflicts(
    reviewer_client: Any, case: Any, second_reviewer: Any
) -> None:
    a = make_proposal(case)
    b = make_proposal(case, fact_type="due_date", value={"date": "2026-04-26"})
    c = make_proposal(case, fact_type="invoice_issued", value={"date": "2026-03-26"})
    proposal_accept(proposal=b, reviewer=second_reviewer)
    response = reviewer_client.post(
        reverse("review:bulk"),
        {"ids": [a.pk, b.pk, c.pk], "bulk": "accept", "filters": ""},
        follow=True,
    )
    assert response.status_code == 200
    messages = [str(m) for m in response.context["messages"]]
    assert any("2" in m for m in messages)
    assert any(f"#{b.pk}" in m for m in messages)
    assert set(
        ExtractionProposal.objects.filter(status="accepted").values_list(
            "pk", flat=True
        )
    ) == {a.pk, b.pk, c.pk}
    assert Fact.objects.count() == 3


def test_facts_view_shows_the_whole_provenance_chain(
    reviewer_client: Any, case: Any
) -> None:
    proposal = make_proposal(case)
    fact = proposal_accept(proposal=proposal, reviewer=proposal_reviewer(case))
    response = reviewer_client.get(
        reverse("review:case_facts", kwargs={"case_id": case.pk})
    )
    html = response.content.decode()
    chunk = proposal.source_chunk
    page_link = reverse(
        "evidence:page_view",
        kwargs={"case_id": case.pk, "document_id": chunk.document_id, "number": 1},
    )
    assert f'id="fact-{fact.pk}"' in html
    assert 'data-decision="accept"' in html
    assert f"#{proposal.pk}" in html  # proposal
    assert f"#{proposal.agent_step_id}" in html  # agent step
    assert f"{page_link}?chunk={chunk.pk}" in html  # chunk → page, one click
    assert chunk.document.sha256 in html
    detail = reviewer_client.get(
        reverse("review:fact_detail", kwargs={"fact_id": fact.pk})
    )
    assert chunk.document.sha256 in detail.content.decode()


def proposal_reviewer(case: Any) -> Any:
    from cases.models import Membership
    from tests.conftest import _member

    return _member(case.organisation, Membership.Role.REVIEWER, "paul.proposer")


def test_four_eyes_confirmation_from_the_facts_view(
    four_eyes_firm: Any,
    case: Any,
    reviewer: Any,
    reviewer_client: Any,
    second_reviewer_client: Any,
) -> None:
    fact = proposal_accept(proposal=make_proposal(case), reviewer=reviewer)
    url = reverse("review:fact_confirm", kwargs={"fact_id": fact.pk})
    own = reviewer_client.post(url, follow=True)
    assert [m.level_tag for m in own.context["messages"]] == ["error"]
    fact.refresh_from_db()
    assert fact.status == Fact.Status.EVIDENCED
    page = second_reviewer_client.get(
        reverse("review:case_facts", kwargs={"case_id": case.pk})
    )
    assert url.encode() in page.content
    second_reviewer_client.post(url)
    fact.refresh_from_db()
    assert fact.status == Fact.Status.CONFIRMED


def test_firm_wide_queue_filters(reviewer_client: Any, case: Any, firm: Any) -> None:
    from tests.factories import CaseFactory

    other_case: Any = CaseFactory(organisation=firm)
    low = make_proposal(case, confidence=0.3)
    high = make_proposal(
        other_case, fact_type="due_date", value={"date": "2026-04-26"}, confidence=0.95
    )
    url = reverse("review:queue")

    def shown(**params: Any) -> set[int]:
        response = reviewer_client.get(url, params)
        return {p.pk for p in response.context["items"]}

    assert shown() == {low.pk, high.pk}
    assert shown(case=other_case.pk) == {high.pk}
    assert shown(fact_type="reminder_sent") == {low.pk}
    assert shown(min_confidence="0.5") == {high.pk}
    assert shown(max_confidence="0.5") == {low.pk}
    assert shown(status="accepted") == set()
    proposal_claim(proposal=high, reviewer=case_reviewer(firm))
    assert shown(assignee="others") == {high.pk}
    assert shown(assignee="free") == {low.pk}


def case_reviewer(firm: Any) -> Any:
    from cases.models import Membership
    from tests.conftest import _member

    return _member(firm, Membership.Role.REVIEWER, "olga.other")


def test_queue_pages_by_keyset(reviewer_client: Any, case: Any) -> None:
    from review.selectors import QUEUE_PAGE

    chunk = make_proposal(case).source_chunk
    for i in range(QUEUE_PAGE + 4):
        make_proposal(
            case,
            chunk=chunk,
            fact_type="damage_item",
            value={"cents": 100 + i, "currency": "EUR"},
            agent_run_id=7,
        )
    first = reviewer_client.get(reverse("review:queue"))
    assert len(first.context["items"]) == QUEUE_PAGE
    assert "after=" in first.context["next_url"]
    second = reviewer_client.get(first.context["next_url"])
    ids = [p.pk for p in first.context["items"]] + [
        p.pk for p in second.context["items"]
    ]
    assert len(ids) == len(set(ids)) == QUEUE_PAGE + 5


# --- curator queue -----------------------------------------------------------------


def test_curator_accepts_a_synonym_and_a_subclass_as_new_versions(
    curator_client: Any, case: Any
) -> None:
    synonym = make_term(case, label="Zahlungsaufforderung")
    subclass = make_term(case, label="Mahnung per Einschreiben")
    page = curator_client.get(reverse("review:terms"))
    assert b"Zahlungsaufforderung" in page.content
    assert b"https://belegt.example/ns/core#PaymentReminder" in page.content

    curator_client.post(
        reverse("review:term_decide", kwargs={"candidate_id": synonym.pk}),
        {
            "resolution": "synonym",
            "concept": "https://belegt.example/ns/core#PaymentReminder",
        },
    )
    curator_client.post(
        reverse("review:term_decide", kwargs={"candidate_id": subclass.pk}),
        {
            "resolution": "subclass",
            "concept": "https://belegt.example/ns/core#PaymentReminder",
        },
    )
    versions = list(OntologyExtension.objects.order_by("version"))
    assert [v.version for v in versions] == [1, 2]
    assert "Zahlungsaufforderung" in versions[1].turtle  # each version is whole
    assert "Mahnung per Einschreiben" in versions[1].turtle
    synonym.refresh_from_db()
    assert synonym.status == TermCandidate.Status.ACCEPTED
    assert synonym.extension_version == 1


def test_only_curators_decide_terms(reviewer_client: Any, case: Any) -> None:
    term = make_term(case)
    response = reviewer_client.post(
        reverse("review:term_decide", kwargs={"candidate_id": term.pk}),
        {"resolution": "noise"},
        follow=True,
    )
    assert response.status_code == 200
    term.refresh_from_db()
    assert term.status == TermCandidate.Status.PENDING
    assert b'name="resolution"' not in response.content
