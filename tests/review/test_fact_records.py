"""The facts as the requirements evaluation sees them point at the right page."""

import hashlib

import pytest

from evidence.models import Chunk, Page, SourceDocument
from review.selectors import fact_records_for_case
from tests.review.helpers import make_proposal

pytestmark = pytest.mark.django_db

PAGE_1 = "Mahnung vom 20.05.2026\nHauptforderung 21.955,50 €"
PAGE_2 = "Mahnkosten 5,00 €\nVerzugspauschale 40,00 €"


def _chunk_across_two_pages(case):
    document = SourceDocument.objects.create(
        case=case,
        sha256=hashlib.sha256(b"two-pages").hexdigest(),
        filename="mahnung.pdf",
        size_bytes=1000,
        page_count=2,
        storage_name="test/two-pages.pdf",
    )
    for number, text in ((1, PAGE_1), (2, PAGE_2)):
        Page.objects.create(
            document=document, number=number, width=595, height=842, text=text
        )
    return Chunk.objects.create(
        case=case,
        document=document,
        ordinal=0,
        page_start=1,
        page_end=2,
        text=f"{PAGE_1}\n\n{PAGE_2}",
        spans=[
            {"page": 1, "start": 0, "end": len(PAGE_1), "boxes": []},
            {"page": 2, "start": 0, "end": len(PAGE_2), "boxes": []},
        ],
    )


def test_evidence_of_a_quote_on_the_second_page_names_the_second_page(case, reviewer):
    from review.services.decisions import proposal_accept

    chunk = _chunk_across_two_pages(case)
    proposal = make_proposal(
        case,
        chunk=chunk,
        fact_type="damage_item",
        value={"cents": 500, "currency": "EUR"},
        quote="Mahnkosten 5,00 €",
    )
    proposal_accept(proposal=proposal, reviewer=reviewer)

    [record] = fact_records_for_case(case=case)

    assert [(e.document, e.page) for e in record.evidence] == [("mahnung.pdf", 2)]
