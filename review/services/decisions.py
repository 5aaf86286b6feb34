"""Human decisions: the only way a fact comes into being or changes.

Every decision is a conditional update (``UPDATE ... WHERE status = 'pending'``)
so that two reviewers deciding the same item at once cannot both win: the
second one's update finds no row, and it gets a ``ProposalNotPending`` (409)
naming who decided first. Each decision writes a ``Decision`` row and an audit
event in the same transaction, and after the commit tells whoever listens that
the case's facts changed (``review.signals``), so the requirements can be
evaluated again.

Agents never call anything here (a static test scans ``agents/**``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from cases.audit import audit_event_record
from cases.models import Case, Membership
from cases.selectors import require_role
from ontology.value_messages import fact_value_invalid_text
from ontology.vocabulary import (
    CaseParties,
    FactValueInvalid,
    fact_value_schema,
    fact_value_validate,
)
from ontology.vocabulary import UnknownFactType as VocabularyUnknownFactType
from review.errors import (
    FactStatusConflict,
    FourEyesViolation,
    InvalidDecision,
    InvalidValue,
    ProposalClaimed,
    ProposalNotPending,
    ReasonRequired,
    UnknownFactType,
)
from review.models import CLAIM_TTL, Decision, ExtractionProposal, Fact, FactEvidence
from review.selectors import proposal_twins, vocabulary_for_case
from review.signals import facts_changed_on_commit

Role = Membership.Role
Status = ExtractionProposal.Status
# Serialises fact creation per case, so that two acceptances of the same value
# make one fact with two pieces of evidence, not two facts.
_FACT_LOCK_NAMESPACE = 0x7265_7669  # "revi"


def _label(user: Any) -> str:
    return str(user.get_username()) if user is not None else "system"


def fact_value_check(*, case: Case, fact_type: str, value: Any) -> dict[str, Any]:
    """The value in canonical form, admitted by the ontology's one value schema
    (``fact_value_validate``, the same check as the agents' gate) with the
    parties of the case. Raises InvalidValue / UnknownFactType."""
    parties = CaseParties.of(list(case.parties.values_list("pk", "name")))
    vocabulary = vocabulary_for_case(case)  # the case's firm's terms
    try:
        return fact_value_validate(
            fact_type=fact_type, value=value, parties=parties, vocabulary=vocabulary
        )
    except VocabularyUnknownFactType:
        raise UnknownFactType(
            f"The ontology has no fact type {fact_type!r}.", hint=fact_type
        ) from None
    except FactValueInvalid as exc:
        # the page's language for people; the stable reason code for clients
        schema = fact_value_schema(fact_type, vocabulary=vocabulary)
        raise InvalidValue(
            fact_value_invalid_text(exc, schema=schema),
            hint={"field": exc.field, "expected": exc.hint, "reason": exc.code},
        ) from None


def _decision_record(
    *,
    case: Case,
    kind: str,
    actor: Any,
    proposal: ExtractionProposal | None = None,
    fact: Fact | None = None,
    reason: str = "",
    value_before: Any = None,
    value_after: Any = None,
    evidence: Mapping[str, Any] | None = None,
    status_after: str | None = None,
    undoes: Decision | None = None,
    group_leader: Decision | None = None,
) -> Decision:
    """The decision row and its audit event (``evidence``: the chunk and quote
    a manual decision rests on, recorded in the audit data; ``undoes``: the
    decision an undo compensates)."""
    if status_after is None:
        status_after = fact.status if fact is not None else Status.REJECTED
    decision = Decision.objects.create(
        case=case,
        kind=kind,
        actor=actor,
        actor_label=_label(actor),
        proposal=proposal,
        fact=fact,
        reason=reason,
        value_before=value_before,
        value_after=value_after,
        status_after=status_after,
        group_leader=group_leader,
    )
    if fact is not None:
        # The database refuses, at commit, a fact changed without this link.
        Fact.objects.filter(pk=fact.pk).update(last_decision=decision)
        fact.last_decision = decision
    audit_event_record(
        actor=actor,
        action=f"review.{kind}",
        target=fact if fact is not None else proposal,
        case=case,
        data={
            "decision_id": decision.pk,
            "proposal_id": proposal.pk if proposal else None,
            "fact_id": fact.pk if fact else None,
            "fact_status": fact.status if fact else None,
            "reason": reason,
            "value_before": value_before,
            "value_after": value_after,
            **({"evidence": dict(evidence)} if evidence else {}),
            **({"undoes_decision_id": undoes.pk} if undoes is not None else {}),
            **(
                {"group_leader_decision_id": group_leader.pk}
                if group_leader is not None
                else {}
            ),
        },
    )
    return decision


def _close_proposal(
    *, proposal: ExtractionProposal, reviewer: Any, status: str
) -> None:
    """Move a pending proposal to ``status`` if nobody else decided or holds
    it. Raises ProposalNotPending / ProposalClaimed (both 409)."""
    now = timezone.now()
    free = (
        Q(assignee__isnull=True)
        | Q(assignee=reviewer)
        | Q(claimed_at__isnull=True)
        | Q(claimed_at__lte=now - CLAIM_TTL)
    )
    updated = (
        ExtractionProposal.objects.filter(pk=proposal.pk, status=Status.PENDING)
        .filter(free)
        .update(status=status, decided_at=now, assignee=reviewer, claimed_at=now)
    )
    if updated == 1:
        proposal.status = status
        proposal.decided_at = now
        proposal.assignee = reviewer
        proposal.claimed_at = now
        return
    current = ExtractionProposal.objects.select_related("assignee").get(pk=proposal.pk)
    if current.status == Status.SUPERSEDED:
        raise ProposalNotPending(
            _(
                "A newer proposal (#%(id)s) superseded this one while it was "
                "open. Nothing was changed."
            )
            % {"id": current.superseded_by_id},
            hint={"status": current.status, "superseded_by": current.superseded_by_id},
        )
    if current.status != Status.PENDING:
        last = Decision.objects.filter(proposal=current).order_by("-id").first()
        raise ProposalNotPending(
            _(
                "%(who)s already decided this proposal: it is now %(status)s. "
                "Nothing was changed."
            )
            % {
                "who": last.actor_label if last else _("Someone else"),
                "status": current.get_status_display(),
            },
            hint={"status": current.status, "proposal_id": current.pk},
        )
    raise ProposalClaimed(
        _("%(name)s is working on this proposal.") % {"name": _label(current.assignee)},
        hint={"assignee": _label(current.assignee), "proposal_id": current.pk},
    )


def _lock_case_facts(case: Case) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(%s, %s)", [_FACT_LOCK_NAMESPACE, case.pk]
        )


def _fact_for_value(
    *, case: Case, fact_type: str, value: dict[str, Any]
) -> Fact | None:
    return (
        Fact.objects.select_for_update()
        .filter(case=case, fact_type=fact_type, value=value)
        .order_by("id")
        .first()
    )


def _evidence_add(*, fact: Fact, proposal: ExtractionProposal) -> None:
    FactEvidence.objects.get_or_create(
        fact=fact,
        chunk_id=proposal.source_chunk_id,
        defaults={"quote": proposal.quote, "proposal": proposal},
    )


def fact_establish(
    *,
    case: Case,
    fact_type: str,
    value: dict[str, Any],
    reviewer: Any,
    proposal: ExtractionProposal | None = None,
) -> Fact:
    """The fact a reviewer's acceptance of evidence makes (inside the caller's
    transaction, after ``_lock_case_facts``; the caller adds the evidence and
    records the decision). *Evidenced* under four-eyes review, when a second
    reviewer must confirm, and *confirmed* otherwise. A fact of the same type
    and value is reused: an asserted one is raised to that status, an
    evidenced, confirmed or disputed one keeps its status. One place for the
    proposal path and the manual path alike."""
    fact = _fact_for_value(case=case, fact_type=fact_type, value=value)
    four_eyes = case.organisation.four_eyes_review
    established = Fact.Status.EVIDENCED if four_eyes else Fact.Status.CONFIRMED
    if fact is None:
        return Fact.objects.create(
            case=case,
            fact_type=fact_type,
            value=value,
            status=established,
            proposal=proposal,
            evidenced_by=reviewer,
            confirmed_by=None if four_eyes else reviewer,
        )
    if fact.status in (Fact.Status.ASSERTED, Fact.Status.WITHDRAWN):
        fact.status = established
        fact.evidenced_by = reviewer
        fact.confirmed_by = None if four_eyes else reviewer
        fact.save(
            update_fields=["status", "evidenced_by", "confirmed_by", "updated_at"]
        )
    return fact


@transaction.atomic
def proposal_accept(
    *,
    proposal: ExtractionProposal,
    reviewer: Any,
    value: Mapping[str, Any] | None = None,
    reason: str = "",
    group_leader: Decision | None = None,
) -> Fact:
    """Accept a pending proposal, optionally with an edited value (decision
    ``edit_accept``). The fact is *evidenced* under four-eyes review (a second
    reviewer must confirm) and *confirmed* otherwise. A fact of the same type
    and value in the case gains this chunk as further evidence instead of being
    duplicated; an existing disputed fact stays disputed."""
    require_role(reviewer, Role.REVIEWER)
    case = proposal.case
    final = fact_value_check(
        case=case,
        fact_type=proposal.fact_type,
        value=proposal.value if value is None else value,
    )
    edited = value is not None and final != proposal.value
    _close_proposal(proposal=proposal, reviewer=reviewer, status=Status.ACCEPTED)
    _lock_case_facts(case)
    fact = fact_establish(
        case=case,
        fact_type=proposal.fact_type,
        value=final,
        reviewer=reviewer,
        proposal=proposal,
    )
    _evidence_add(fact=fact, proposal=proposal)
    _decision_record(
        case=case,
        kind=Decision.Kind.EDIT_ACCEPT if edited else Decision.Kind.ACCEPT,
        actor=reviewer,
        proposal=proposal,
        fact=fact,
        reason=reason,
        value_before=proposal.value if edited else None,
        value_after=final,
        group_leader=group_leader,
    )
    facts_changed_on_commit(case_id=case.pk)
    return fact


@transaction.atomic
def proposal_reject(
    *,
    proposal: ExtractionProposal,
    reviewer: Any,
    reason: str = "",
    group_leader: Decision | None = None,
) -> Decision:
    """Reject a pending proposal: it never becomes a fact."""
    require_role(reviewer, Role.REVIEWER)
    _close_proposal(proposal=proposal, reviewer=reviewer, status=Status.REJECTED)
    return _decision_record(
        case=proposal.case,
        kind=Decision.Kind.REJECT,
        actor=reviewer,
        proposal=proposal,
        reason=reason,
        group_leader=group_leader,
    )


def _reason(reason: str) -> str:
    cleaned = (reason or "").strip()
    if not cleaned:
        raise ReasonRequired(
            _("A dispute needs a reason: who disputes it and why."),
            hint={"field": "reason"},
        )
    return cleaned


@transaction.atomic
def proposal_dispute(
    *,
    proposal: ExtractionProposal,
    reviewer: Any,
    reason: str,
    value: Mapping[str, Any] | None = None,
    group_leader: Decision | None = None,
) -> Fact:
    """The document says it, but it is contested: the proposal is taken into
    the case graph (status accepted) as a *disputed* fact, which never counts as
    established. A matching existing fact becomes disputed."""
    require_role(reviewer, Role.REVIEWER)
    cleaned = _reason(reason)
    case = proposal.case
    final = fact_value_check(
        case=case,
        fact_type=proposal.fact_type,
        value=proposal.value if value is None else value,
    )
    _close_proposal(proposal=proposal, reviewer=reviewer, status=Status.ACCEPTED)
    _lock_case_facts(case)
    fact = _fact_for_value(case=case, fact_type=proposal.fact_type, value=final)
    if fact is None:
        fact = Fact.objects.create(
            case=case,
            fact_type=proposal.fact_type,
            value=final,
            status=Fact.Status.DISPUTED,
            proposal=proposal,
            disputed_by=reviewer,
            dispute_reason=cleaned,
        )
    else:
        fact.status = Fact.Status.DISPUTED
        fact.disputed_by = reviewer
        fact.dispute_reason = cleaned
        fact.save(
            update_fields=["status", "disputed_by", "dispute_reason", "updated_at"]
        )
    _evidence_add(fact=fact, proposal=proposal)
    _decision_record(
        case=case,
        kind=Decision.Kind.DISPUTE,
        actor=reviewer,
        proposal=proposal,
        fact=fact,
        reason=cleaned,
        value_after=final,
        group_leader=group_leader,
    )
    facts_changed_on_commit(case_id=case.pk)
    return fact


@transaction.atomic
def fact_assert(
    *, case: Case, fact_type: str, value: Mapping[str, Any], reviewer: Any, reason: str
) -> Fact:
    """Record a fact a party asserts without a document for it yet (status
    *asserted*, not established). Accepting a proposal with the same type and
    value later makes it evidenced/confirmed with that proposal's chunk."""
    require_role(reviewer, Role.REVIEWER)
    if not (reason or "").strip():
        raise ReasonRequired(
            _("Say who asserts it (e.g. the client's statement)."),
            hint={"field": "reason"},
        )
    final = fact_value_check(case=case, fact_type=fact_type, value=value)
    _lock_case_facts(case)
    fact = _fact_for_value(case=case, fact_type=fact_type, value=final)
    if fact is not None and fact.status == Fact.Status.WITHDRAWN:
        fact.status = Fact.Status.ASSERTED
        fact.save(update_fields=["status", "updated_at"])
    elif fact is not None:
        raise FactStatusConflict(
            _("The case already has this fact (%(status)s).")
            % {"status": fact.get_status_display()},
            hint={"fact_id": fact.pk, "status": fact.status},
        )
    else:
        fact = Fact.objects.create(
            case=case, fact_type=fact_type, value=final, status=Fact.Status.ASSERTED
        )
    _decision_record(
        case=case,
        kind=Decision.Kind.ASSERT,
        actor=reviewer,
        fact=fact,
        reason=reason.strip(),
        value_after=final,
    )
    facts_changed_on_commit(case_id=case.pk)
    return fact


@transaction.atomic
def fact_dispute(*, fact: Fact, reviewer: Any, reason: str) -> Fact:
    """Mark a fact as disputed (who and why are recorded). A disputed fact no
    longer counts as established."""
    require_role(reviewer, Role.REVIEWER)
    cleaned = _reason(reason)
    updated = (
        Fact.objects.filter(pk=fact.pk)
        .exclude(status=Fact.Status.DISPUTED)
        .update(
            status=Fact.Status.DISPUTED,
            disputed_by=reviewer,
            dispute_reason=cleaned,
            updated_at=timezone.now(),
        )
    )
    if updated != 1:
        raise FactStatusConflict(
            _("This fact is already disputed."), hint={"fact_id": fact.pk}
        )
    fact.refresh_from_db()
    _decision_record(
        case=fact.case,
        kind=Decision.Kind.DISPUTE,
        actor=reviewer,
        fact=fact,
        reason=cleaned,
    )
    facts_changed_on_commit(case_id=fact.case_id)
    return fact


@transaction.atomic
def fact_confirm(*, fact: Fact, reviewer: Any, reason: str = "") -> Fact:
    """The second pair of eyes: an *evidenced* fact becomes *confirmed*. The
    reviewer who accepted it cannot confirm it (FourEyesViolation)."""
    require_role(reviewer, Role.REVIEWER)
    updated = (
        Fact.objects.filter(pk=fact.pk, status=Fact.Status.EVIDENCED)
        .exclude(evidenced_by=reviewer)
        .update(
            status=Fact.Status.CONFIRMED,
            confirmed_by=reviewer,
            updated_at=timezone.now(),
        )
    )
    if updated != 1:
        current = Fact.objects.get(pk=fact.pk)
        if (
            current.status == Fact.Status.EVIDENCED
            and current.evidenced_by_id == reviewer.pk
        ):
            raise FourEyesViolation(
                _(
                    "You accepted this fact yourself; a second reviewer must "
                    "confirm it."
                ),
                hint={"fact_id": fact.pk},
            )
        raise FactStatusConflict(
            _("Only an evidenced fact can be confirmed; this one is %(status)s.")
            % {"status": current.get_status_display()},
            hint={"status": current.status, "fact_id": fact.pk},
        )
    fact.refresh_from_db()
    _decision_record(
        case=fact.case,
        kind=Decision.Kind.CONFIRM,
        actor=reviewer,
        fact=fact,
        reason=reason,
    )
    facts_changed_on_commit(case_id=fact.case_id)
    return fact


DECISION_ACTIONS = ("accept", "edit", "dispute", "reject")


@dataclass(frozen=True)
class ProposalDecision:
    """What ``proposal_decide`` did: the action, the fact it made or changed
    (None for a rejection), and the ids of every proposal it decided (the
    desk item's group of identical proposals, first the one asked for)."""

    action: str
    fact: Fact | None
    decided: tuple[int, ...] = ()


def _decide_one(
    *,
    proposal: ExtractionProposal,
    reviewer: Any,
    action: str,
    value: Mapping[str, Any] | None,
    reason: str,
    group_leader: Decision | None,
) -> tuple[Fact | None, Decision]:
    """One proposal through its service; returns the fact and the decision."""
    if action in ("accept", "edit"):
        if action == "edit" and value is None:
            raise InvalidDecision(
                _("An edit needs the new value."), hint={"field": "value"}
            )
        fact = proposal_accept(
            proposal=proposal,
            reviewer=reviewer,
            value=value if action == "edit" else None,
            reason=reason,
            group_leader=group_leader,
        )
        assert fact.last_decision is not None
        return fact, fact.last_decision
    if action == "dispute":
        fact = proposal_dispute(
            proposal=proposal,
            reviewer=reviewer,
            reason=reason,
            value=value,
            group_leader=group_leader,
        )
        assert fact.last_decision is not None
        return fact, fact.last_decision
    if action == "reject":
        decision = proposal_reject(
            proposal=proposal,
            reviewer=reviewer,
            reason=reason,
            group_leader=group_leader,
        )
        return None, decision
    raise InvalidDecision(
        _("Unknown decision."), hint={"actions": list(DECISION_ACTIONS)}
    )


@transaction.atomic
def proposal_decide(
    *,
    proposal: ExtractionProposal,
    reviewer: Any,
    action: str,
    value: Mapping[str, Any] | None = None,
    reason: str = "",
) -> ProposalDecision:
    """THE decision path of a proposal, for the review page and the API alike:
    ``accept`` (as proposed), ``edit`` (accept with ``value``), ``dispute``
    (with ``reason``, and the edited ``value`` if the reviewer changed it) or
    ``reject``. Every value passes ``fact_value_check``. Raises the services'
    DomainErrors; an unknown action or an edit without a value is
    InvalidDecision.

    Identical pending proposals of other runs (``proposal_twins``: one desk
    item) are decided alike, in the same transaction, each with its own
    decision and audit event naming the first as its group leader (an undo
    takes back the group). A twin someone else decided meanwhile keeps that
    decision; a twin another reviewer holds refuses the whole decision."""
    twins = proposal_twins(proposal=proposal)
    fact, leader = _decide_one(
        proposal=proposal,
        reviewer=reviewer,
        action=action,
        value=value,
        reason=reason,
        group_leader=None,
    )
    decided = [proposal.pk]
    for twin in twins:
        try:
            with transaction.atomic():
                _decide_one(
                    proposal=twin,
                    reviewer=reviewer,
                    action=action,
                    value=value,
                    reason=reason,
                    group_leader=leader,
                )
        except ProposalNotPending:
            continue
        decided.append(twin.pk)
    return ProposalDecision(action, fact, tuple(decided))


# --------------------------------------------------------------------- claims
@transaction.atomic
def proposal_claim(
    *, proposal: ExtractionProposal, reviewer: Any
) -> ExtractionProposal:
    """Take a pending proposal for ``CLAIM_TTL`` so that other reviewers skip
    it. Re-claiming one's own item renews it; an expired claim can be taken
    over. A reviewer holds one item at a time: claiming the next one releases
    the previous (so walking the queue with j/k does not lock it for others).
    Raises ProposalClaimed / ProposalNotPending."""
    require_role(reviewer, Role.REVIEWER)
    now = timezone.now()
    updated = (
        ExtractionProposal.objects.filter(pk=proposal.pk, status=Status.PENDING)
        .filter(
            Q(assignee__isnull=True)
            | Q(assignee=reviewer)
            | Q(claimed_at__isnull=True)
            | Q(claimed_at__lte=now - CLAIM_TTL)
        )
        .update(assignee=reviewer, claimed_at=now)
    )
    if updated != 1:
        current = ExtractionProposal.objects.select_related("assignee").get(
            pk=proposal.pk
        )
        if current.status != Status.PENDING:
            raise ProposalNotPending(
                _("This proposal is already %(status)s.")
                % {"status": current.get_status_display()},
                hint={"status": current.status, "proposal_id": current.pk},
            )
        raise ProposalClaimed(
            _("%(name)s is working on this proposal.")
            % {"name": _label(current.assignee)},
            hint={"assignee": _label(current.assignee), "proposal_id": current.pk},
        )
    ExtractionProposal.objects.filter(assignee=reviewer, status=Status.PENDING).exclude(
        pk=proposal.pk
    ).update(assignee=None, claimed_at=None)
    proposal.assignee = reviewer
    proposal.claimed_at = now
    return proposal


@transaction.atomic
def proposal_release(*, proposal: ExtractionProposal, reviewer: Any) -> None:
    """Give one's own claim back (someone else's claim is left alone)."""
    ExtractionProposal.objects.filter(
        pk=proposal.pk, status=Status.PENDING, assignee=reviewer
    ).update(assignee=None, claimed_at=None)


# ----------------------------------------------------------------------- bulk
@dataclass
class BulkResult:
    decided: list[int] = field(default_factory=list)
    conflicts: list[dict[str, Any]] = field(default_factory=list)


def proposals_decide_bulk(
    *,
    proposals: list[ExtractionProposal],
    reviewer: Any,
    action: str,
    reason: str = "",
) -> BulkResult:
    """Accept or reject several proposals. Each one is its own transaction: a
    conflict on one (someone else decided it) is reported and the rest go
    through; nothing is silently dropped."""
    require_role(reviewer, Role.REVIEWER)
    if action not in ("accept", "reject"):
        raise ValueError(f"unknown bulk action {action!r}")
    result = BulkResult()
    for proposal in proposals:
        if proposal.pk in result.decided:
            continue  # decided with an identical proposal of its desk item
        try:
            outcome = proposal_decide(
                proposal=proposal, reviewer=reviewer, action=action, reason=reason
            )
        except (
            ProposalNotPending,
            ProposalClaimed,
            InvalidValue,
            UnknownFactType,
        ) as exc:
            result.conflicts.append(
                {"id": proposal.pk, "code": exc.code, "message": exc.message}
            )
        else:
            result.decided.extend(outcome.decided)
    return result
