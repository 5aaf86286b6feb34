"""The report's HTML preview, like the .docx, shows the "Zur Prüfung durch
einen Menschen" section only when something awaits a human (issue 14 item 10)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from reports.services import report_create
from tests.reports.helpers import verzug_case
from tests.reports.test_export_layout import _flagged_draft

pytestmark = pytest.mark.django_db

HEADING = "Zur Prüfung durch einen Menschen"


def _preview(client: Any, report: Any) -> str:
    response = client.get(
        reverse("reports:report_detail", args=[report.pk]), HTTP_ACCEPT_LANGUAGE="de"
    )
    assert response.status_code == 200
    return str(response.content.decode())


def test_preview_hides_the_review_heading_when_nothing_awaits_review(
    lawyer_client: Any, case: Any, lawyer: Any, corpus: Any
) -> None:
    verzug_case(case)
    clean = report_create(case=case, actor=lawyer, language="de")
    assert clean.summary["flagged"] == 0

    page = _preview(lawyer_client, clean)

    assert 'id="human-review"' not in page
    assert f'<h3 id="human-review">{HEADING}</h3>' not in page


def test_preview_shows_the_review_heading_and_the_flagged_finding(
    lawyer_client: Any, case: Any, lawyer: Any, corpus: Any
) -> None:
    claim = verzug_case(case)
    flagged = report_create(
        case=case, actor=lawyer, language="de", drafts=[_flagged_draft(claim)]
    )
    assert flagged.summary["flagged"] == 1

    page = _preview(lawyer_client, flagged)

    assert f'<h3 id="human-review">{HEADING}</h3>' in page
    assert 'data-flagged="' in page
