"""The "Zitatprüfung" page: paste a text, see every citation and its status."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _

from cases.tabs import is_fragment_request
from citations.api.throttles import citation_check_allowed
from citations.domain.resolver import STATUSES
from citations.forms import CitationCheckForm
from citations.services import CitationResult, citations_check


@dataclass(frozen=True, slots=True)
class Segment:
    text: str
    result: CitationResult | None = None


def _segments(text: str, results: list[CitationResult]) -> list[Segment]:
    """The text cut into plain pieces and citation pieces (spans never overlap)."""
    out: list[Segment] = []
    pos = 0
    for r in results:
        start, end = r.citation.start, r.citation.end
        if start > pos:
            out.append(Segment(text[pos:start]))
        out.append(Segment(text[start:end], r))
        pos = end
    if pos < len(text):
        out.append(Segment(text[pos:]))
    return out


@dataclass(frozen=True, slots=True)
class Group:
    """Citations written as one ("§§ 280, 288 BGB"): one row group in the table."""

    raw: str
    results: list[CitationResult]


def _groups(text: str, results: list[CitationResult]) -> list[Group]:
    out: list[Group] = []
    for r in results:
        if out and out[-1].results[-1].citation.group == r.citation.group:
            out[-1].results.append(r)
        else:
            out.append(Group("", [r]))
    return [
        Group(text[g.results[0].citation.start : g.results[-1].citation.end], g.results)
        for g in out
    ]


@login_required
def citation_check(request: HttpRequest) -> HttpResponse:
    form = CitationCheckForm(request.POST or None)
    context: dict[str, object] = {"form": form}
    status = 200
    if request.method == "POST" and form.is_valid():
        allowed, wait = citation_check_allowed(request)
        if not allowed:
            form.add_error(
                None,
                _("Too many checks; try again in %(s)s seconds.")
                % {"s": int(wait or 1) + 1},
            )
            status = 429
    if request.method == "POST" and form.is_valid():
        text = form.cleaned_data["text"]
        results = citations_check(
            text,
            at=form.cleaned_data["at"],
            default_instrument=form.cleaned_data["default_instrument"] or None,
        )
        context["results"] = results
        context["segments"] = _segments(text, results)
        context["groups"] = _groups(text, results)
        context["counts"] = {
            name: sum(1 for r in results if r.status == name) for name in STATUSES
        }
    elif form.has_error("text", code="citation_input_too_large"):
        status = 400
    template = "citations/check.html"
    if is_fragment_request(request):
        template += "#results"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response
