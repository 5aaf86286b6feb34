"""Small reads for the case pages that the selectors do not (yet) offer."""

from __future__ import annotations

from django.db.models import QuerySet

from cases.models import AuditEvent, Case


def audit_events_for_case(*, case: Case) -> QuerySet[AuditEvent]:
    """The audit events of a case the caller has already fetched through
    ``case_get_for_user`` (which did the authorisation), newest first."""
    return AuditEvent.objects.filter(
        case_id=case.pk, organisation_id=case.organisation_id
    ).order_by("-id")
