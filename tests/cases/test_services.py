import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from cases.audit import audit_chain_verify
from cases.errors import ConflictError, RoleRequired
from cases.models import AuditEvent, Case, Claim, Party
from cases.selectors import case_get_for_user, case_list_for_user
from cases.services import (
    case_create,
    case_update,
    claim_create,
    party_create,
    party_delete,
)

pytestmark = pytest.mark.django_db


def _open_case(lawyer, reference="12 O 1/26"):
    return case_create(
        actor=lawyer,
        reference=reference,
        title="Müller GmbH ./. Schmidt KG",
        client="Müller GmbH",
        parties=[{"role": "debtor", "kind": "business", "name": "Schmidt KG"}],
        claims=[{"claim_type": "verzugsschaden", "valid_at": dt.date(2026, 5, 1)}],
    )


def test_lawyer_opens_case_with_parties_and_claims_and_it_is_audited(lawyer, firm):
    case = _open_case(lawyer)

    assert case.organisation == firm
    assert case.created_by == lawyer
    assert case.parties.get().name == "Schmidt KG"
    assert case.claims.get().claim_type == Claim.ClaimType.VERZUGSSCHADEN
    actions = list(
        AuditEvent.objects.filter(case_id=case.pk).values_list("action", flat=True)
    )
    assert actions == ["case.created", "party.created", "claim.created"]
    assert audit_chain_verify().ok


def test_case_creation_is_all_or_nothing(lawyer):
    with pytest.raises(ValidationError):
        case_create(
            actor=lawyer,
            reference="1 O 2/26",
            title="T",
            client="C",
            claims=[{"claim_type": "verzugsschaden", "valid_at": "not a date"}],
        )
    assert not Case.objects.filter(reference="1 O 2/26").exists()
    assert not Party.objects.exists()


def test_reference_is_unique_within_a_firm_only(lawyer, other_lawyer):
    _open_case(lawyer, "7 O 7/26")
    with pytest.raises(ConflictError) as exc_info:
        _open_case(lawyer, "7 O 7/26")
    assert exc_info.value.code == "case_reference_taken"

    other = _open_case(other_lawyer, "7 O 7/26")  # another firm may use it
    assert (
        other.organisation
        != Case.objects.get(
            reference="7 O 7/26", organisation__memberships__user=lawyer
        ).organisation
    )


@pytest.mark.parametrize("persona", ["reviewer", "curator"])
def test_only_lawyers_and_admins_edit_case_master_data(persona, request, case):
    user = request.getfixturevalue(persona)
    with pytest.raises(RoleRequired):
        case_update(actor=user, case=case, title="changed")
    with pytest.raises(RoleRequired):
        party_create(actor=user, case=case, role="debtor", kind="consumer", name="X")
    case.refresh_from_db()
    assert case.title != "changed"


def test_admin_holds_every_role(admin_member, case):
    case_update(actor=admin_member, case=case, title="Neu")
    case.refresh_from_db()
    assert case.title == "Neu"


def test_update_records_only_what_changed(lawyer, case):
    case_update(actor=lawyer, case=case, title="Neuer Titel", client=case.client)

    event = AuditEvent.objects.get(case_id=case.pk, action="case.updated")
    assert set(event.data) == {"title"}
    assert event.data["title"]["to"] == "Neuer Titel"


def test_unchanged_update_writes_no_event(lawyer, case):
    case_update(actor=lawyer, case=case, title=case.title)
    assert not AuditEvent.objects.filter(case_id=case.pk).exists()


def test_deleted_party_leaves_its_audit_trail(lawyer, case):
    party = party_create(
        actor=lawyer, case=case, role="debtor", kind="consumer", name="Eva"
    )
    party_delete(actor=lawyer, party=party)

    assert not Party.objects.filter(pk=party.pk).exists()
    assert list(
        AuditEvent.objects.filter(case_id=case.pk).values_list("action", flat=True)
    ) == ["party.created", "party.deleted"]


def test_claim_valid_at_is_a_date(lawyer, case):
    claim = claim_create(
        actor=lawyer,
        case=case,
        claim_type="verzugsschaden",
        valid_at=dt.date(2025, 1, 1),
    )
    assert claim.jurisdiction == "DE"


def test_selectors_hide_other_firms_cases(lawyer, case, other_case):
    from django.http import Http404

    assert list(case_list_for_user(user=lawyer)) == [case]
    with pytest.raises(Http404):
        case_get_for_user(user=lawyer, case_id=other_case.pk)
    with pytest.raises(Http404):
        case_get_for_user(user=lawyer, case_id="not-a-number")


def test_case_search_finds_reference_title_client_and_party(lawyer):
    case = _open_case(lawyer, "3 O 33/26")
    for term in ("3 O 33", "müller gmbh", "Schmidt KG"):
        assert list(case_list_for_user(user=lawyer, search=term)) == [case], term
    assert not case_list_for_user(user=lawyer, search="nichts dergleichen").exists()


def test_user_without_membership_sees_nothing(django_user_model, case):
    loner = django_user_model.objects.create_user(username="loner", password="x")
    assert not case_list_for_user(user=loner).exists()
