"""Issuing API tokens. A token is a credential, so issuing one is an audit event
(without the key itself: the audit log must never hold a secret)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from rest_framework.authtoken.models import Token

from cases.audit import audit_event_record
from cases.selectors import membership_for_user


@transaction.atomic
def auth_token_issue(*, user: Any) -> Token:
    """The user's token, created on first use. Safe to repeat: a second call
    returns the same token and records that it was handed out again."""
    token, created = Token.objects.get_or_create(user=user)
    membership = membership_for_user(user)
    audit_event_record(
        actor=user,
        action="api.token_issued",
        organisation_id=membership.organisation_id if membership else None,
        data={"created": created},
    )
    return token
