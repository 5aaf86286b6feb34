"""Reads, scoped to the user's firm. Every page, API endpoint and task fetches a
case through these, so that fetching and authorising happen in one step: a case
of another firm is simply not found (404), never "forbidden"."""

from __future__ import annotations

from typing import Any, TypeVar

from django.db.models import Count, Model, Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from cases.errors import RoleRequired
from cases.models import Case, Membership

M = TypeVar("M", bound=Model)

Role = Membership.Role


def membership_for_user(user: Any) -> Membership | None:
    if user is None or not user.is_authenticated:
        return None
    try:
        membership: Membership = user.membership
    except Membership.DoesNotExist:
        return None
    return membership


def user_has_role(user: Any, *roles: str) -> bool:
    """Admins hold every role."""
    membership = membership_for_user(user)
    if membership is None:
        return False
    return membership.role == Role.ADMIN or membership.role in roles


def require_role(user: Any, *roles: str) -> Membership:
    membership = membership_for_user(user)
    if membership is None or not user_has_role(user, *roles):
        names = ", ".join(str(Role(r).label) for r in roles)
        raise RoleRequired(
            _("This action needs the role: %(roles)s.") % {"roles": names},
            hint=list(roles),
        )
    return membership


def scope_to_user(
    queryset: QuerySet[M], user: Any, *, case_path: str = "case"
) -> QuerySet[M]:
    """Restrict any queryset of case-owned rows to the user's firm.
    ``case_path`` is the lookup from the model to its Case ('' for Case itself)."""
    membership = membership_for_user(user)
    if membership is None:
        return queryset.none()
    prefix = f"{case_path}__" if case_path else ""
    return queryset.filter(**{f"{prefix}organisation_id": membership.organisation_id})


def case_list_for_user(
    *, user: Any, search: str = "", status: str = ""
) -> QuerySet[Case]:
    queryset = scope_to_user(Case.objects.all(), user, case_path="")
    if search:
        queryset = queryset.filter(
            Q(reference__icontains=search)
            | Q(title__icontains=search)
            | Q(client__icontains=search)
            | Q(parties__name__icontains=search)
        ).distinct()
    if status:
        queryset = queryset.filter(status=status)
    return queryset.annotate(
        party_count=Count("parties", distinct=True)
    ).select_related("created_by")


def case_get_for_user(*, user: Any, case_id: int | str) -> Case:
    """The case if it belongs to the user's firm; Http404 otherwise."""
    try:
        pk = int(case_id)
    except (TypeError, ValueError) as exc:
        raise Http404("No such case.") from exc
    case = (
        scope_to_user(Case.objects.all(), user, case_path="")
        .select_related("organisation", "created_by")
        .filter(pk=pk)
        .first()
    )
    if case is None:
        raise Http404("No such case.")
    return case


def case_get_by_reference(*, organisation_id: int | None, reference: str) -> Case:
    """For command-line tools: a case by its Aktenzeichen, optionally within a firm."""
    queryset = Case.objects.filter(reference=reference)
    if organisation_id is not None:
        queryset = queryset.filter(organisation_id=organisation_id)
    matches = list(queryset[:2])
    if not matches:
        raise Http404(f"No case with reference {reference!r}.")
    if len(matches) > 1:
        raise Http404(
            f"Reference {reference!r} exists in several firms; name the firm."
        )
    return matches[0]
