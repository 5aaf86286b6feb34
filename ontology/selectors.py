"""Reads that connect the pure evaluator to the database: a claim's facts come
from the review app (``fact_records_for_case``), the party kinds from the case's
Party rows. Evaluation itself stays in ``ontology.domain``."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any

from django.http import Http404

from cases.models import Claim, Party
from cases.selectors import scope_to_user
from ontology.domain.evaluate import claim_evaluate
from ontology.domain.facts import ClaimContext, PartyKind
from ontology.domain.results import (
    ClaimEvaluation,
    MissingRequirement,
    missing_requirements,
)
from review.selectors import fact_records_for_case, vocabulary_for_case


def _kind(kinds: Iterable[str]) -> PartyKind | None:
    """One consumer among several parties in a role makes the role a consumer's
    (the consumer-protecting rules of §§ 286 Abs. 3, 288 Abs. 2 BGB apply);
    only if every party is a business is the role a business'."""
    found = set(kinds)
    if not found:
        return None
    if Party.Kind.CONSUMER in found:
        return "consumer"
    if found == {Party.Kind.BUSINESS}:
        return "business"
    return None


def claim_context_for(
    *, claim: Claim, interest_until: date | None = None
) -> ClaimContext:
    """The evaluation context of a claim: type, jurisdiction, the law's date and
    the kinds of debtor and creditor from the case's parties, and the firm's
    four-eyes option (then only confirmed facts count).

    For Verzugsschaden the claim's valid-at date is the Stichtag; an explicit
    ``interest_until`` (the API's and the command's ``at``) judges the claim
    as of that day instead."""
    parties = list(claim.case.parties.values_list("role", "kind"))
    valid_at = claim.valid_at
    if claim.claim_type == "verzugsschaden" and interest_until is not None:
        valid_at = interest_until
    return ClaimContext(
        claim_type=claim.claim_type,
        jurisdiction=claim.jurisdiction,
        valid_at=valid_at,
        four_eyes=claim.case.organisation.four_eyes_review,
        debtor_kind=_kind(k for r, k in parties if r == Party.Role.DEBTOR),
        creditor_kind=_kind(k for r, k in parties if r == Party.Role.CREDITOR),
        interest_until=interest_until,
        case_key=f"case-{claim.case_id}",
    )


def claim_get_for_user(*, user: Any, claim_id: int | str) -> Claim:
    """The claim if its case belongs to the user's firm; Http404 otherwise."""
    try:
        pk = int(claim_id)
    except (TypeError, ValueError) as exc:
        raise Http404("No such claim.") from exc
    claim = (
        scope_to_user(Claim.objects.select_related("case"), user).filter(pk=pk).first()
    )
    if claim is None:
        raise Http404("No such claim.")
    return claim


def claim_evaluation_for(
    *, claim: Claim, interest_until: date | None = None
) -> ClaimEvaluation:
    """Evaluate a stored claim against its case's current facts. Raises
    ClaimVersionNotFound when no version applies at the claim's date."""
    facts = fact_records_for_case(case=claim.case)
    context = claim_context_for(claim=claim, interest_until=interest_until)
    return claim_evaluate(
        facts=facts, context=context, vocabulary=vocabulary_for_case(claim.case)
    )


def claim_missing_requirements_for(
    *, claim: Claim, interest_until: date | None = None
) -> list[MissingRequirement]:
    """``get_missing_requirements(claim_id)`` for the agents: the open and unmet
    requirements of the claim, with the fact types that would move them."""
    return missing_requirements(
        claim_evaluation_for(claim=claim, interest_until=interest_until)
    )
