"""The case pages: list with search and paging, create and edit with parties and
claims, the case page (its tabs live in the apps that fill them, see
``cases.tabs``) and the case's audit log. Views only parse, authorise and
render; every write goes through ``cases.services``."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Page, Paginator
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from cases import services
from cases.errors import ConflictError, RoleRequired
from cases.forms import (
    CaseForm,
    CaseSearchForm,
    ClaimFormSet,
    PartyFormSet,
    case_form_initial,
)
from cases.models import Case
from cases.selectors import case_get_for_user, case_list_for_user, user_has_role
from cases.tabs import is_fragment_request
from cases.ui_helpers import audit_events_for_case

CASES_PER_PAGE = 20
AUDIT_EVENTS_PER_PAGE = 50
MAX_EXTRA_ROWS = 10
FORMSETS: dict[str, Any] = {"parties": PartyFormSet, "claims": ClaimFormSet}


def _require_case_editor(user: Any) -> None:
    """Lawyers and admins edit case master data; everyone else gets 403."""
    if not user_has_role(user, services.Role.LAWYER):
        raise PermissionDenied(_("Only lawyers can change case master data."))


def _all_valid(*forms_and_formsets: Any) -> bool:
    """Validate every one (no short circuit), so all errors show at once."""
    return all([item.is_valid() for item in forms_and_formsets])


def _page(request: HttpRequest, items: Any, per_page: int) -> Page[Any]:
    return Paginator(items, per_page).get_page(request.GET.get("page"))


def _render_htmx(
    request: HttpRequest, template: str, partial: str, context: dict[str, Any]
) -> HttpResponse:
    """The whole page, or only ``partial`` of it for an htmx request."""
    name = f"{template}#{partial}" if is_fragment_request(request) else template
    response = render(request, name, context)
    patch_vary_headers(response, ("HX-Request",))
    return response


@login_required
@require_GET
def case_list(request: HttpRequest) -> HttpResponse:
    search_form = CaseSearchForm(request.GET or None)
    search = status = ""
    if search_form.is_bound and search_form.is_valid():
        search = search_form.cleaned_data["q"].strip()
        status = search_form.cleaned_data["status"]
    # Explicit order: Meta.ordering does not apply to the selector's GROUP BY.
    cases = case_list_for_user(
        user=request.user, search=search, status=status
    ).order_by("-updated_at", "-id")
    page = _page(request, cases, CASES_PER_PAGE)
    query = {k: v for k, v in (("q", search), ("status", status)) if v}
    return _render_htmx(
        request,
        "cases/case_list.html",
        "case-results",
        {
            "search_form": search_form,
            "page": page,
            "filtered": bool(query),
            "query": query,
            "can_edit_cases": user_has_role(request.user, services.Role.LAWYER),
        },
    )


def _extra_rows(request: HttpRequest, name: str) -> int:
    try:
        return max(1, min(int(request.GET.get(f"{name}_extra", 1)), MAX_EXTRA_ROWS))
    except ValueError:
        return 1


def _formsets(
    request: HttpRequest, case: Case
) -> tuple[Any, Any]:  # (PartyFormSet, ClaimFormSet)
    data = request.POST if request.method == "POST" else None
    parties = PartyFormSet(data, instance=case, prefix="parties")
    claims = ClaimFormSet(data, instance=case, prefix="claims")
    if data is None:
        parties.extra = _extra_rows(request, "parties")
        claims.extra = _extra_rows(request, "claims")
    return parties, claims


def _reference_taken(form: CaseForm) -> None:
    form.add_error("reference", _("This file reference is already used in your firm."))


@login_required
@require_http_methods(["GET", "POST"])
def case_create(request: HttpRequest) -> HttpResponse:
    _require_case_editor(request.user)
    form = CaseForm(request.POST if request.method == "POST" else None)
    parties, claims = _formsets(request, Case())
    if request.method == "POST" and _all_valid(form, parties, claims):
        try:
            case = services.case_create(
                actor=request.user,
                **form.cleaned_data,
                parties=parties.rows_to_create(),
                claims=claims.rows_to_create(),
            )
        except ConflictError:
            _reference_taken(form)
        except RoleRequired as exc:
            raise PermissionDenied(exc.message) from exc
        else:
            messages.success(
                request,
                _("Case %(reference)s created.") % {"reference": case.reference},
            )
            return redirect("cases:detail", case_id=case.pk)
    return render(
        request,
        "cases/case_form.html",
        {"form": form, "parties": parties, "claims": claims, "case": None},
        status=400 if form.is_bound else 200,
    )


@transaction.atomic
def _row_changes(formset: Any) -> services.RowChanges:
    return services.RowChanges(
        create=list(formset.rows_to_create()),
        update=list(formset.rows_to_update()),
        delete=list(formset.rows_to_delete()),
    )


@login_required
@require_http_methods(["GET", "POST"])
def case_edit(request: HttpRequest, case_id: int) -> HttpResponse:
    case = case_get_for_user(user=request.user, case_id=case_id)
    _require_case_editor(request.user)
    form = CaseForm(
        request.POST if request.method == "POST" else None,
        initial=case_form_initial(case),
    )
    parties, claims = _formsets(request, case)
    if request.method == "POST" and _all_valid(form, parties, claims):
        try:
            services.case_edit(
                actor=request.user,
                case_id=case.pk,
                fields=form.cleaned_data,
                parties=_row_changes(parties),
                claims=_row_changes(claims),
            )
        except ConflictError:
            _reference_taken(form)
        except RoleRequired as exc:
            raise PermissionDenied(exc.message) from exc
        else:
            messages.success(request, _("Changes saved."))
            return redirect("cases:detail", case_id=case.pk)
    return render(
        request,
        "cases/case_form.html",
        {"form": form, "parties": parties, "claims": claims, "case": case},
        status=400 if form.is_bound else 200,
    )


@login_required
@require_GET
def case_form_row(request: HttpRequest, formset: str) -> HttpResponse:
    """htmx: one more empty party or claim row for the case form, and the
    formset's TOTAL_FORMS counter raised by one (out-of-band swap)."""
    _require_case_editor(request.user)
    formset_class = FORMSETS.get(formset)
    if formset_class is None:
        raise Http404
    try:
        index = int(request.GET.get(f"{formset}-TOTAL_FORMS", ""))
    except ValueError:
        index = 0
    index = max(0, min(index, formset_class.max_num - 1))
    empty = formset_class(instance=Case(), prefix=formset)
    form = empty.empty_form
    form.prefix = empty.add_prefix(index)
    return render(
        request,
        "cases/case_form.html#form-row",
        {"row_form": form, "formset_name": formset, "total_forms": index + 1},
    )


@login_required
@require_GET
def case_detail(request: HttpRequest, case_id: int) -> HttpResponse:
    """The case page opens on its first tab (Documents)."""
    case = case_get_for_user(user=request.user, case_id=case_id)
    return redirect("evidence:case_documents", case_id=case.pk)


@login_required
@require_GET
def case_audit(request: HttpRequest, case_id: int) -> HttpResponse:
    case = case_get_for_user(user=request.user, case_id=case_id)
    _require_case_editor(request.user)
    page = _page(request, audit_events_for_case(case=case), AUDIT_EVENTS_PER_PAGE)
    return _render_htmx(
        request, "cases/case_audit.html", "audit-events", {"case": case, "page": page}
    )
