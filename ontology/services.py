"""What the rest of Belegt calls to read claim requirements and evaluate claims.

The pure functions wrap ``ontology.domain``. The database layer is the thin
``ontology.selectors`` module: ``claim_evaluation_for(claim=...)`` and
``claim_missing_requirements_for(claim=...)`` read the case's facts
(``review.selectors.fact_records_for_case``) and parties and call these.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from ontology.domain.claims import ClaimVersion, claim_version_get
from ontology.domain.evaluate import claim_evaluate as _claim_evaluate
from ontology.domain.facts import ClaimContext, FactRecord
from ontology.domain.results import (
    ClaimEvaluation,
)
from ontology.domain.vocabulary import Vocabulary


def claim_requirements_get(
    claim_type: str, jurisdiction: str, valid_at: date
) -> ClaimVersion:
    """The requirements of a claim type valid in the jurisdiction at the date
    (the agents' ``get_claim_requirements``). Raises ClaimVersionNotFound."""
    version, _file = claim_version_get(claim_type, jurisdiction, valid_at)
    return version


def claim_evaluate(
    *,
    facts: Sequence[FactRecord],
    context: ClaimContext,
    vocabulary: Vocabulary | None = None,
) -> ClaimEvaluation:
    """Evaluate a claim against a case's facts. Pure: no database access."""
    return _claim_evaluate(facts=facts, context=context, vocabulary=vocabulary)
