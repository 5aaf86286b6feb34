"""The curator's decisions on term candidates, and the versioned extension
graph they build (``OntologyExtension``)."""

from __future__ import annotations

from typing import Any

from django.db import connection, transaction
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from cases.audit import audit_event_record
from cases.models import Membership
from cases.selectors import require_role
from ontology.domain.vocabulary import vocabulary_graph
from review.domain.extension import ConceptUnknown, extension_term_add
from review.errors import TermNotPending, UnknownConcept
from review.models import OntologyExtension, TermCandidate

Resolution = TermCandidate.Resolution
_EXTENSION_LOCK = 0x6F6E_746F  # "onto": one new version at a time


@transaction.atomic
def term_candidate_decide(
    *,
    candidate: TermCandidate,
    curator: Any,
    resolution: str,
    concept: str = "",
    reason: str = "",
) -> TermCandidate:
    """Synonym of a concept, new subclass of one, or noise. An accepted term
    makes a new version of the candidate's firm's extension graph (the whole
    graph, so each version stands alone; no other firm's vocabulary changes);
    noise is rejected and changes nothing. Raises TermNotPending (409) when
    someone decided first, UnknownConcept (400)."""
    membership = require_role(curator, Membership.Role.CURATOR)
    if membership.organisation_id != candidate.organisation_id:
        raise Http404("No such term.")  # another firm's term does not exist here
    if resolution not in Resolution.values:
        raise UnknownConcept(
            _("Unknown decision: %(decision)s.") % {"decision": resolution},
            hint=list(Resolution.values),
        )
    if resolution != Resolution.NOISE and not concept:
        raise UnknownConcept(
            _("Choose the concept the term belongs to."), hint={"field": "concept"}
        )
    now = timezone.now()
    status = (
        TermCandidate.Status.REJECTED
        if resolution == Resolution.NOISE
        else TermCandidate.Status.ACCEPTED
    )
    updated = TermCandidate.objects.filter(
        pk=candidate.pk, status=TermCandidate.Status.PENDING
    ).update(
        status=status,
        resolution=resolution,
        target_concept=concept if resolution != Resolution.NOISE else "",
        decided_by=curator,
        decided_at=now,
        reason=reason,
    )
    if updated != 1:
        current = TermCandidate.objects.get(pk=candidate.pk)
        raise TermNotPending(
            _("This term was already decided: %(status)s.")
            % {"status": current.get_status_display()},
            hint={"status": current.status},
        )
    version: int | None = None
    added = ""
    if resolution != Resolution.NOISE:
        with connection.cursor() as cursor:
            # one new version of this firm's extension at a time
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)",
                [_EXTENSION_LOCK, candidate.organisation_id],
            )
        latest = (
            OntologyExtension.objects.filter(organisation_id=candidate.organisation_id)
            .order_by("-version")
            .first()
        )
        version = (latest.version + 1) if latest else 1
        try:
            turtle, added = extension_term_add(
                turtle=latest.turtle if latest else "",
                core=vocabulary_graph(),
                label=candidate.label,
                resolution=resolution,
                concept_iri=concept,
                version=version,
            )
        except ConceptUnknown as exc:
            raise UnknownConcept(str(exc), hint={"field": "concept"}) from None
        OntologyExtension.objects.create(
            organisation_id=candidate.organisation_id,
            version=version,
            turtle=turtle,
            created_by=curator,
            term_candidate=candidate,
        )
        TermCandidate.objects.filter(pk=candidate.pk).update(extension_version=version)
    candidate.refresh_from_db()
    audit_event_record(
        actor=curator,
        action=f"term_candidate.{resolution}",
        target=candidate,
        case=candidate.case,
        data={
            "label": candidate.label,
            "concept": concept,
            "added": added,
            "extension_version": version,
            "reason": reason,
        },
    )
    return candidate
