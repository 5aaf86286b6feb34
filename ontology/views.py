"""The Requirements tab: each claim of the case with its requirements, their
status in words, sentence, evidence links and legal basis, and the damage sum.

The tab keeps itself current by polling ``case_requirements_verdicts`` every
few seconds with the version it shows: an unchanged case answers 204 (htmx
swaps nothing, nothing is evaluated); after a review decision the version
differs and the answer is the re-evaluated verdicts, which replace the old
ones. A ``facts-changed`` event on the page (HX-Trigger) refreshes at once.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers

from cases.models import Case
from cases.selectors import case_get_for_user
from cases.tabs import render_case_tab
from ontology.pages import case_requirements_page, requirements_version

TEMPLATE = "ontology/case_requirements.html"
POLL_SECONDS = 10  # BELEGT_REQUIREMENTS_POLL_SECONDS overrides it


def _context(case: Case) -> dict[str, object]:
    # The version is read before the evaluation: a decision committed in
    # between makes the next poll re-render rather than be missed.
    version = requirements_version(case=case)
    return {
        "claims": case_requirements_page(case=case),
        "version": version,
        "poll_seconds": getattr(
            settings, "BELEGT_REQUIREMENTS_POLL_SECONDS", POLL_SECONDS
        ),
    }


@login_required
def case_requirements(request: HttpRequest, case_id: int) -> HttpResponse:
    """The tab (whole page, or its content for an htmx tab switch)."""
    case = case_get_for_user(user=request.user, case_id=case_id)
    return render_case_tab(
        request,
        case=case,
        tab="requirements",
        template=TEMPLATE,
        context=_context(case),
    )


@login_required
def case_requirements_verdicts(request: HttpRequest, case_id: int) -> HttpResponse:
    """The verdicts alone, for the tab's polling: 204 while ``since`` is still
    the current version, the re-evaluated verdicts otherwise."""
    case = case_get_for_user(user=request.user, case_id=case_id)
    since = request.GET.get("since", "")
    if since and since == requirements_version(case=case):
        response = HttpResponse(status=204)
    else:
        response = render(
            request,
            f"{TEMPLATE}#verdicts",
            {"case": case, **_context(case)},
        )
    patch_vary_headers(response, ("HX-Request",))
    response["Cache-Control"] = "no-store"
    return response
