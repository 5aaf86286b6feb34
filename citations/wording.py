"""Wording confirmations: a lawyer's decision that the wording of a provision
in a pinned version was already in force, unchanged, at dates before that
version starts (where no pinned text covers the date).

One rule, here: a citation answered ``unpinned_at_date`` counts as checked
only when a confirmation of the user's firm matches it — same version, the
same top-level unit (the decision covers the whole § or article, so every
paragraph of it that a report cites), a date range containing the asked
date, and the unit's text still the text the lawyer confirmed."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import date
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from cases.audit import audit_event_record
from cases.models import Membership
from cases.selectors import require_role
from citations.errors import WordingDecisionInvalid
from citations.models import InstrumentVersion, WordingConfirmation
from citations.selectors import provision_index

MAX_REASON_CHARS = 2000


def wording_unit(path: str) -> str:
    """The unit a decision covers: the top level of the path (``sec/286``
    for ``sec/286/para/2/point/1``)."""
    return "/".join(path.split("/")[:2])


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def wording_unit_text(*, version: InstrumentVersion, path: str) -> str | None:
    """The text of the unit a decision on ``path`` covers, or None."""
    ref = provision_index(version).by_path.get(wording_unit(path))
    return ref.text if ref is not None else None


def wording_confirmation_match(
    *,
    confirmations: Iterable[WordingConfirmation],
    version: InstrumentVersion,
    provision_path: str,
    at: date,
) -> WordingConfirmation | None:
    """The firm's decision covering this provision of ``version`` at ``at``
    (the earliest made), or None. A decision on a text that has since been
    replaced by a re-import with other content no longer matches."""
    unit = wording_unit(provision_path)
    text = None
    for confirmation in confirmations:
        if (
            confirmation.version_id != version.pk
            or confirmation.provision_path != unit
            or not confirmation.date_from <= at <= confirmation.date_to
        ):
            continue
        if text is None:
            text = wording_unit_text(version=version, path=unit) or ""
        if confirmation.text_sha256 == _sha(text):
            return confirmation
    return None


def wording_confirmation_create(
    *,
    actor: Any,
    version: InstrumentVersion,
    provision_path: str,
    date_from: date,
    date_to: date,
    reason: str,
) -> WordingConfirmation:
    """Record that the wording of the provision's unit in ``version`` was in
    force unchanged from ``date_from`` to ``date_to``, for the actor's firm.
    Lawyers (and admins) only; audited. Deciding the same range twice returns
    the first decision. Raises RoleRequired, WordingDecisionInvalid."""
    membership: Membership = require_role(actor, Membership.Role.LAWYER)
    reason = (reason or "").strip()
    if not reason:
        raise WordingDecisionInvalid(
            _("Give a reason for the decision (e.g. the amendment history checked).")
        )
    if len(reason) > MAX_REASON_CHARS:
        raise WordingDecisionInvalid(
            _("The reason is too long (at most %(n)s characters).")
            % {"n": MAX_REASON_CHARS}
        )
    if date_from > date_to:
        raise WordingDecisionInvalid(_("The range must start before it ends."))
    if date_to >= version.valid_from:
        raise WordingDecisionInvalid(
            _(
                "The decision covers only dates before %(date)s; from then on "
                "the pinned text itself applies."
            )
            % {"date": version.valid_from.strftime("%d.%m.%Y")},
            hint=version.valid_from.isoformat(),
        )
    unit = wording_unit(provision_path)
    text = wording_unit_text(version=version, path=unit)
    if text is None:
        raise WordingDecisionInvalid(
            _("The pinned version has no provision %(path)s.") % {"path": unit}
        )
    fields = {
        "organisation_id": membership.organisation_id,
        "version": version,
        "provision_path": unit,
        "date_from": date_from,
        "date_to": date_to,
    }
    existing = WordingConfirmation.objects.filter(**fields).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            confirmation = WordingConfirmation.objects.create(
                **fields,
                instrument_id=version.instrument_id,
                text_sha256=_sha(text),
                reason=reason,
                decided_by=actor,
            )
            audit_event_record(
                actor=actor,
                action="citations.wording_confirmed",
                target=confirmation,
                organisation_id=membership.organisation_id,
                data={
                    "version": version.pk,
                    "version_label": version.label,
                    "provision": unit,
                    "date_from": date_from.isoformat(),
                    "date_to": date_to.isoformat(),
                    "reason": reason,
                    "text_sha256": confirmation.text_sha256,
                },
            )
    except IntegrityError:  # a concurrent identical decision won the race
        return WordingConfirmation.objects.get(**fields)
    return confirmation
