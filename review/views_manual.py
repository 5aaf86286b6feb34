"""The reviewer's own fact from a marked passage: the panel of the page viewer.

The page viewer (``evidence``) cannot import the review app, so it loads this
panel by htmx (``hx-get`` with an ``href`` fallback to the same URL as a page).
The panel shows the chunk's text to mark a passage in
(``static/review/manual_fact.js`` copies the selection into the quote field),
a select of the claim's fact kinds in German, and the value inputs of the one
value schema (``FactValueForm``). Posting it calls ``fact_record_manual``; a
refusal (not verbatim, invalid value, no role) re-renders the panel with the
message and everything typed kept."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from cases.errors import DomainError
from cases.models import Case, Membership
from cases.selectors import case_get_for_user, user_has_role
from cases.tabs import is_fragment_request, render_case_tab
from evidence.models import Chunk
from ontology.domain.values import FactValueInvalid, value_schema
from ontology.value_messages import fact_value_invalid_text
from review.errors import InvalidValue
from review.forms import FactValueForm
from review.models import Fact
from review.selectors import case_fact_types, vocabulary_for_case
from review.services.manual import fact_record_manual

TEMPLATE = "review/manual_fact.html"


def _chunk_for(case: Case, raw: str | None) -> Chunk | None:
    """A chunk of this case (the case was fetched for the user: another
    firm's or another case's chunk is not found); None without ``chunk``."""
    if not raw:
        return None
    if not str(raw).isdecimal():
        raise Http404("No such section.")
    chunk = (
        Chunk.objects.select_related("document").filter(pk=int(raw), case=case).first()
    )
    if chunk is None:
        raise Http404("No such section.")
    return chunk


def _panel_context(
    request: HttpRequest,
    *,
    case: Case,
    chunk: Chunk | None,
    data: QueryDict,
    posted: bool,
    error: DomainError | None = None,
    created: Fact | None = None,
) -> dict[str, Any]:
    kinds = case_fact_types(case=case)
    keys = [key for key, _label in kinds]
    fact_type = data.get("fact_type", "")
    if fact_type not in keys:
        fact_type = keys[0] if keys else ""
    info = vocabulary_for_case(case).get(fact_type)
    schema = info.value_schema if info else value_schema("text")
    parties = list(case.parties.values_list("pk", "name"))
    form = FactValueForm(data if posted else None, schema=schema, parties=parties)
    return {
        "case": case,
        "chunk": chunk,
        "kinds": kinds,
        "fact_type": fact_type,
        "form": form,
        "quote": data.get("quote", ""),
        "reason": data.get("reason", ""),
        "error": error,
        "created": created,
        "created_label": (
            dict(kinds).get(created.fact_type, created.fact_type) if created else ""
        ),
        "four_eyes": case.organisation.four_eyes_review,
        "can_add": user_has_role(request.user, Membership.Role.REVIEWER),
        "panel_url": reverse("review:manual_fact", kwargs={"case_id": case.pk}),
        "facts_url": reverse("review:case_facts", kwargs={"case_id": case.pk}),
    }


def _render(
    request: HttpRequest, context: dict[str, Any], *, status: int = 200
) -> HttpResponse:
    if is_fragment_request(request):
        return render(request, f"{TEMPLATE}#panel", context, status=status)
    response = render_case_tab(
        request,
        case=context["case"],
        tab="review",
        template=TEMPLATE,
        context={"sub": "facts", **context},
    )
    response.status_code = status
    return response


@login_required
@require_http_methods(["GET", "POST"])
def manual_fact(request: HttpRequest, case_id: int) -> HttpResponse:
    """GET ``?chunk=`` (and ``fact_type``, ``quote`` to keep them when the
    kind changes): the panel. POST: record the fact from the marked passage
    (reviewers); the panel answers with the new fact or the refusal. Without
    a chunk there is nothing to mark: the fact is recorded as asserted."""
    case = case_get_for_user(user=request.user, case_id=case_id)
    data = request.POST if request.method == "POST" else request.GET
    chunk = _chunk_for(case, data.get("chunk"))
    if request.method == "GET":
        return _render(
            request,
            _panel_context(request, case=case, chunk=chunk, data=data, posted=False),
        )
    context = _panel_context(request, case=case, chunk=chunk, data=data, posted=True)
    try:
        try:
            value = context["form"].json_value()
        except FactValueInvalid as exc:
            raise InvalidValue(
                fact_value_invalid_text(exc, schema=context["form"].schema),
                hint={"field": exc.field, "reason": exc.code},
            ) from None
        fact = fact_record_manual(
            case=case,
            fact_type=context["fact_type"],
            value=value,
            reviewer=request.user,
            chunk=chunk,
            quote=data.get("quote", ""),
            reason=data.get("reason", ""),
        )
    except DomainError as exc:
        context["error"] = exc
        return _render(request, context, status=exc.http_status)
    if not is_fragment_request(request):
        messages.success(
            request,
            _("Asserted fact recorded.")
            if fact.status == Fact.Status.ASSERTED
            else _("Fact recorded from the marked passage."),
        )
        return redirect(f"{context['facts_url']}#fact-{fact.pk}")
    fresh = _panel_context(
        request,
        case=case,
        chunk=chunk,
        data=QueryDict(urlencode({"fact_type": context["fact_type"]})),
        posted=False,
        created=fact,
    )
    return _render(request, fresh)
