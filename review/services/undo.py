"""Undo: a reviewer takes back their last decision on a proposal, shortly
after making it.

Decisions are append-only (review migration 0005): an undo never edits or
deletes one. It is a new, compensating ``undo`` decision, audited like every
other, that puts things back as they were before:

- the proposal is pending again (and stays claimed by the reviewer, who is
  looking at it);
- a fact that the undone decision created is *withdrawn* (facts are never
  deleted; a withdrawn fact counts for nothing and pages leave it out);
- a fact that existed before returns to the status its previous decision gave
  it, and loses the evidence the undone decision added.

Only the reviewer's own, newest decision, within ``UNDO_WINDOW``, and only
while nobody has acted on its proposal or fact since.

A decision on a desk item that grouped identical proposals of several runs is
one decision per proposal (the twins name the first as ``group_leader``); an
undo of any of them takes back the whole group, each with its own ``undo``
decision.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cases.models import Membership
from cases.selectors import require_role
from review.errors import DecisionNotUndoable
from review.models import Decision, ExtractionProposal, Fact, FactEvidence
from review.services.decisions import _decision_record, _lock_case_facts
from review.signals import facts_changed_on_commit

UNDO_WINDOW = timedelta(minutes=2)
UNDOABLE_KINDS = frozenset(
    {
        Decision.Kind.ACCEPT,
        Decision.Kind.EDIT_ACCEPT,
        Decision.Kind.DISPUTE,
        Decision.Kind.REJECT,
    }
)
Status = ExtractionProposal.Status


def _group(decision: Decision) -> list[Decision]:
    """The decisions made together with ``decision``, leader first."""
    leader = decision.group_leader or decision
    return [leader, *Decision.objects.filter(group_leader=leader).order_by("id")]


def decision_undoable(*, decision: Decision, reviewer: Any) -> bool:
    """Whether ``decision_undo`` would accept this decision now (for showing
    the undo button; the service checks again under lock)."""
    try:
        _check(decision=_group(decision)[-1], reviewer=reviewer)
    except DecisionNotUndoable:
        return False
    return True


def _check(*, decision: Decision, reviewer: Any) -> None:
    if decision.kind not in UNDOABLE_KINDS or decision.proposal_id is None:
        raise DecisionNotUndoable(
            _("Only a decision on a proposal can be undone."),
            hint={"decision_id": decision.pk},
        )
    if decision.actor_id != reviewer.pk:
        raise DecisionNotUndoable(
            _("Only %(name)s, who made this decision, can undo it.")
            % {"name": decision.actor_label},
            hint={"decision_id": decision.pk},
        )
    if timezone.now() - decision.created_at > UNDO_WINDOW:
        raise DecisionNotUndoable(
            _(
                "The decision is older than %(minutes)d minutes; it can no "
                "longer be undone."
            )
            % {"minutes": UNDO_WINDOW.seconds // 60},
            hint={"decision_id": decision.pk},
        )
    newest = (
        Decision.objects.filter(case_id=decision.case_id, actor_id=reviewer.pk)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
    )
    if newest != decision.pk:
        raise DecisionNotUndoable(
            _("Only your last decision can be undone."),
            hint={"decision_id": decision.pk, "last_decision_id": newest},
        )


@transaction.atomic
def decision_undo(*, decision: Decision, reviewer: Any) -> Decision:
    """Take back ``decision`` with a compensating ``undo`` decision. Returns
    the undo decision. Raises DecisionNotUndoable (409) or RoleRequired."""
    require_role(reviewer, Membership.Role.REVIEWER)
    _lock_case_facts(decision.case)  # serialises with other decisions of the case
    group = _group(decision)
    _check(decision=group[-1], reviewer=reviewer)  # the newest of the group
    for member in group[:0:-1]:  # the twins, newest first
        _undo_proposal(decision=member, reviewer=reviewer, fact_follows=False)
    return _undo_proposal(
        decision=group[0],
        reviewer=reviewer,
        fact_follows=True,
        group_ids={d.pk for d in group},
    )


def _undo_proposal(
    *,
    decision: Decision,
    reviewer: Any,
    fact_follows: bool,
    group_ids: set[int] | None = None,
) -> Decision:
    """Undo one checked decision. A twin's undo (``fact_follows`` False) only
    reopens its proposal: the fact is restored once, by the leader's undo,
    which accepts the group's own decisions as the fact's last ones."""
    case = decision.case
    assert decision.proposal_id is not None  # _check refuses decisions without
    proposal = ExtractionProposal.objects.select_for_update().get(
        pk=decision.proposal_id
    )
    decided_status = (
        Status.REJECTED if decision.kind == Decision.Kind.REJECT else Status.ACCEPTED
    )
    later = Decision.objects.filter(proposal=proposal, id__gt=decision.pk).exists()
    if proposal.status != decided_status or later:
        raise DecisionNotUndoable(
            _("The proposal changed since this decision; nothing was undone."),
            hint={"decision_id": decision.pk, "status": proposal.status},
        )
    now = timezone.now()
    ExtractionProposal.objects.filter(pk=proposal.pk).update(
        status=Status.PENDING, decided_at=None, assignee=reviewer, claimed_at=now
    )
    proposal.refresh_from_db()
    reason = _("Undoes decision #%(id)s.") % {"id": decision.pk}
    if decision.fact_id is None or not fact_follows:
        undo = _decision_record(
            case=case,
            kind=Decision.Kind.UNDO,
            actor=reviewer,
            proposal=proposal,
            reason=reason,
            status_after=Status.PENDING,
            undoes=decision,
        )
        return undo
    fact = Fact.objects.select_for_update().get(pk=decision.fact_id)
    if fact.last_decision_id not in (group_ids or {decision.pk}):
        raise DecisionNotUndoable(
            _("Someone decided on this fact since; nothing was undone."),
            hint={"decision_id": decision.pk, "fact_id": fact.pk},
        )
    previous = (
        Decision.objects.filter(fact=fact, id__lt=decision.pk).order_by("-id").first()
    )
    FactEvidence.objects.filter(fact=fact, proposal=proposal).delete()
    if previous is None:
        fact.status = Fact.Status.WITHDRAWN
    else:
        fact.status = previous.status_after
        if fact.status != Fact.Status.DISPUTED:
            fact.disputed_by = None
            fact.dispute_reason = ""
        else:
            fact.dispute_reason = previous.reason or fact.dispute_reason
        if fact.status == Fact.Status.ASSERTED:
            fact.evidenced_by = None
            fact.confirmed_by = None
    fact.save(
        update_fields=[
            "status",
            "disputed_by",
            "dispute_reason",
            "evidenced_by",
            "confirmed_by",
            "updated_at",
        ]
    )
    undo = _decision_record(
        case=case,
        kind=Decision.Kind.UNDO,
        actor=reviewer,
        proposal=proposal,
        fact=fact,
        reason=reason,
        undoes=decision,
    )
    facts_changed_on_commit(case_id=case.pk)
    return undo
