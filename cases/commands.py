"""Shared pieces of the management commands that act on one case."""

from __future__ import annotations

from django.core.management.base import CommandError
from django.http import Http404

from cases.models import Case, Organisation
from cases.selectors import case_get_by_reference


def case_for_command(*, reference: str, firm_slug: str | None = None) -> Case:
    """The case with this Aktenzeichen (within the firm, when one is named),
    or a CommandError that says why there is none."""
    organisation_id = None
    if firm_slug:
        firm = Organisation.objects.filter(slug=firm_slug).first()
        if firm is None:
            raise CommandError(f"No firm {firm_slug!r}.")
        organisation_id = firm.pk
    try:
        return case_get_by_reference(
            organisation_id=organisation_id, reference=reference
        )
    except Http404 as exc:
        raise CommandError(str(exc)) from exc
