"""Writes for firms, cases, parties and claims. Each write and its audit event
commit together; role checks happen here so that the UI, the API and the
command line obey the same rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from cases.audit import audit_event_record
from cases.errors import ConflictError
from cases.models import Case, Claim, Membership, Organisation, Party, WorkerPing
from cases.selectors import require_role

Role = Membership.Role
CASE_EDITORS = (Role.LAWYER,)

CASE_FIELDS = ("reference", "title", "client", "description", "status")
PARTY_FIELDS = ("role", "kind", "name", "address")
CLAIM_FIELDS = ("claim_type", "jurisdiction", "valid_at")


def _changes(instance: Any, fields: dict[str, Any]) -> dict[str, Any]:
    changed = {}
    for name, value in fields.items():
        old = getattr(instance, name)
        if old != value:
            changed[name] = {"from": old, "to": value}
            setattr(instance, name, value)
    return changed


@transaction.atomic
def organisation_create(
    *, name: str, slug: str, four_eyes_review: bool = False
) -> Organisation:
    organisation = Organisation.objects.create(
        name=name, slug=slug, four_eyes_review=four_eyes_review
    )
    audit_event_record(
        actor=None,
        action="organisation.created",
        target=organisation,
        organisation_id=organisation.pk,
        data={"name": name},
    )
    return organisation


@transaction.atomic
def member_create(
    *,
    organisation: Organisation,
    username: str,
    password: str,
    role: str,
    email: str = "",
    first_name: str = "",
    last_name: str = "",
) -> Membership:
    user = get_user_model().objects.create_user(
        username=username,
        password=password,
        email=email,
        first_name=first_name,
        last_name=last_name,
    )
    membership = Membership.objects.create(
        user=user, organisation=organisation, role=role
    )
    audit_event_record(
        actor=None,
        action="member.created",
        target=membership,
        organisation_id=organisation.pk,
        data={"username": username, "role": role},
    )
    return membership


@transaction.atomic
def case_create(
    *,
    actor: Any,
    reference: str,
    title: str,
    client: str,
    description: str = "",
    status: str = Case.Status.OPEN,
    parties: list[dict[str, Any]] | None = None,
    claims: list[dict[str, Any]] | None = None,
) -> Case:
    """Open a case in the actor's firm, with its parties and claims, all or nothing.
    Raises RoleRequired, ConflictError (reference taken)."""
    membership = require_role(actor, *CASE_EDITORS)
    if Case.objects.filter(
        organisation_id=membership.organisation_id, reference=reference
    ).exists():
        raise ConflictError(
            f"The file reference {reference!r} is already used in your firm.",
            code="case_reference_taken",
        )
    try:
        with transaction.atomic():
            case = Case.objects.create(
                organisation_id=membership.organisation_id,
                reference=reference,
                title=title,
                client=client,
                description=description,
                status=status,
                created_by=actor,
            )
    except IntegrityError as exc:  # a concurrent create with the same reference
        raise ConflictError(
            f"The file reference {reference!r} is already used in your firm.",
            code="case_reference_taken",
        ) from exc
    audit_event_record(
        actor=actor,
        action="case.created",
        target=case,
        case=case,
        data={"reference": reference, "title": title, "client": client},
    )
    for party in parties or []:
        party_create(actor=actor, case=case, **party)
    for claim in claims or []:
        claim_create(actor=actor, case=case, **claim)
    return case


@transaction.atomic
def case_update(*, actor: Any, case: Case, **fields: Any) -> Case:
    """Change master data. Raises RoleRequired, ConflictError."""
    require_role(actor, *CASE_EDITORS)
    unknown = set(fields) - set(CASE_FIELDS)
    if unknown:
        raise ValueError(f"not case fields: {sorted(unknown)}")
    new_reference = fields.get("reference")
    if (
        new_reference is not None
        and new_reference != case.reference
        and Case.objects.filter(
            organisation_id=case.organisation_id, reference=new_reference
        ).exists()
    ):
        raise ConflictError(
            f"The file reference {new_reference!r} is already used in your firm.",
            code="case_reference_taken",
        )
    changed = _changes(case, fields)
    if changed:
        try:
            with transaction.atomic():
                case.save()
        except IntegrityError as exc:  # the same reference taken concurrently
            raise ConflictError(
                f"The file reference {new_reference!r} is already used in your firm.",
                code="case_reference_taken",
            ) from exc
        audit_event_record(
            actor=actor, action="case.updated", target=case, case=case, data=changed
        )
    return case


@transaction.atomic
def party_create(
    *, actor: Any, case: Case, role: str, kind: str, name: str, address: str = ""
) -> Party:
    require_role(actor, *CASE_EDITORS)
    party = Party.objects.create(
        case=case, role=role, kind=kind, name=name, address=address
    )
    audit_event_record(
        actor=actor,
        action="party.created",
        target=party,
        case=case,
        data={"role": role, "kind": kind, "name": name},
    )
    return party


@transaction.atomic
def party_update(*, actor: Any, party: Party, **fields: Any) -> Party:
    require_role(actor, *CASE_EDITORS)
    changed = _changes(party, {k: v for k, v in fields.items() if k in PARTY_FIELDS})
    if changed:
        party.save()
        audit_event_record(
            actor=actor,
            action="party.updated",
            target=party,
            case=party.case,
            data=changed,
        )
    return party


@transaction.atomic
def party_delete(*, actor: Any, party: Party) -> None:
    require_role(actor, *CASE_EDITORS)
    audit_event_record(
        actor=actor,
        action="party.deleted",
        target=party,
        case=party.case,
        data={"name": party.name, "role": party.role},
    )
    party.delete()


@transaction.atomic
def claim_create(
    *,
    actor: Any,
    case: Case,
    claim_type: str,
    valid_at: date,
    jurisdiction: str = "DE",
) -> Claim:
    require_role(actor, *CASE_EDITORS)
    claim = Claim.objects.create(
        case=case, claim_type=claim_type, jurisdiction=jurisdiction, valid_at=valid_at
    )
    audit_event_record(
        actor=actor,
        action="claim.created",
        target=claim,
        case=case,
        data={
            "claim_type": claim_type,
            "jurisdiction": jurisdiction,
            "valid_at": valid_at,
        },
    )
    return claim


@transaction.atomic
def claim_update(*, actor: Any, claim: Claim, **fields: Any) -> Claim:
    require_role(actor, *CASE_EDITORS)
    changed = _changes(claim, {k: v for k, v in fields.items() if k in CLAIM_FIELDS})
    if changed:
        claim.save()
        audit_event_record(
            actor=actor,
            action="claim.updated",
            target=claim,
            case=claim.case,
            data=changed,
        )
    return claim


@transaction.atomic
def claim_delete(*, actor: Any, claim: Claim) -> None:
    require_role(actor, *CASE_EDITORS)
    audit_event_record(
        actor=actor,
        action="claim.deleted",
        target=claim,
        case=claim.case,
        data={"claim_type": claim.claim_type},
    )
    claim.delete()


def worker_ping_dispatch() -> WorkerPing:
    """Queue a round trip through a worker once this transaction commits."""
    from cases.tasks import worker_ping_task

    with transaction.atomic():
        ping = WorkerPing.objects.create()
        transaction.on_commit(lambda: worker_ping_task.delay(ping.pk))
    return ping


@dataclass(frozen=True)
class RowChanges:
    """Edits to a case's parties or claims: new rows, changed rows by id, and
    ids of rows to remove."""

    create: list[dict[str, Any]] = field(default_factory=list)
    update: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    delete: list[int] = field(default_factory=list)


@transaction.atomic
def case_edit(
    *,
    actor: Any,
    case_id: int,
    fields: dict[str, Any],
    parties: RowChanges,
    claims: RowChanges,
) -> Case:
    """Apply one edit of a case page (master data, parties, claims) all or
    nothing, on freshly read and locked rows, so that each service sees what
    really changed. Ids of rows that belong to another case are ignored."""
    case = Case.objects.select_for_update().get(pk=case_id)
    case_update(actor=actor, case=case, **fields)
    party_rows = Party.objects.filter(case=case).select_related("case").in_bulk()
    for pk in parties.delete:
        if pk in party_rows:
            party_delete(actor=actor, party=party_rows[pk])
    for pk, values in parties.update:
        if pk in party_rows:
            party_update(actor=actor, party=party_rows[pk], **values)
    for values in parties.create:
        party_create(actor=actor, case=case, **values)
    claim_rows = Claim.objects.filter(case=case).select_related("case").in_bulk()
    for pk in claims.delete:
        if pk in claim_rows:
            claim_delete(actor=actor, claim=claim_rows[pk])
    for pk, values in claims.update:
        if pk in claim_rows:
            claim_update(actor=actor, claim=claim_rows[pk], **values)
    for values in claims.create:
        claim_create(actor=actor, case=case, **values)
    return case
