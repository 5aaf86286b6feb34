"""Facts a reviewer adds: the fact the agent missed, from a passage the
reviewer marked in the page viewer.

``fact_record_manual`` makes an *evidenced* fact whose evidence is the chunk and
the verbatim quote, through the same path as an accepted proposal: the one
value schema (``fact_value_check``), the same four-eyes status rule
(``fact_establish``: with four-eyes on, a second reviewer must confirm), the
decision row (kind ``manual``) and its audit event in the same transaction.
Without a passage there is no evidence: the fact is recorded as *asserted* by
``fact_assert`` (the one implementation of that), which needs a reason.

Agents never call anything here (a static test scans ``agents/**``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from cases.models import Case, Membership
from cases.selectors import require_role
from evidence.domain.quotes import quote_span
from evidence.models import Chunk
from review.errors import ChunkNotInCase, FactStatusConflict, QuoteNotVerbatim
from review.models import Decision, Fact, FactEvidence
from review.services.decisions import (
    _decision_record,
    _lock_case_facts,
    fact_assert,
    fact_establish,
    fact_value_check,
)
from review.signals import facts_changed_on_commit

#: A marked passage longer than this is no quote but a page: mark less.
QUOTE_MAX_CHARS = 2000


def manual_quote_verbatim(*, chunk: Chunk, quote: str) -> str:
    """The passage exactly as the chunk has it, if ``quote`` occurs in the
    chunk's text by the one quote matcher (whitespace, hyphenation at a line
    end and invisible characters aside, verbatim); QuoteNotVerbatim otherwise.
    A selection copied from the viewer's text differs from the stored text
    only in what the matcher ignores, so the stored slice is what is kept."""
    cleaned = (quote or "").strip()
    if not cleaned:
        raise QuoteNotVerbatim(
            _("Mark the passage that evidences the fact."),
            hint={"field": "quote"},
        )
    if len(cleaned) > QUOTE_MAX_CHARS:
        raise QuoteNotVerbatim(
            _("The marked passage is too long (at most %(max)s characters).")
            % {"max": QUOTE_MAX_CHARS},
            hint={"field": "quote", "max_chars": QUOTE_MAX_CHARS},
        )
    found = quote_span(chunk.text, cleaned)
    if found is None:
        raise QuoteNotVerbatim(
            _(
                "The marked passage does not occur verbatim in this section of "
                "the document. Mark it again in the text shown, without "
                "changing it."
            ),
            hint={"field": "quote", "chunk_id": chunk.pk},
        )
    return chunk.text[found[0] : found[1]]


@transaction.atomic
def fact_record_manual(
    *,
    case: Case,
    fact_type: str,
    value: Mapping[str, Any],
    reviewer: Any,
    chunk: Chunk | None = None,
    quote: str = "",
    reason: str = "",
) -> Fact:
    """A reviewer's own fact. With ``chunk`` and ``quote``: an evidenced fact
    (confirmed at once without four-eyes review) resting on that chunk and
    the verbatim quote, decision ``manual``. Without a chunk: an asserted
    fact (``fact_assert``; ``reason`` says who asserts it).

    A fact of the same type and value gains the passage as further evidence
    (an asserted one becomes evidenced); the same chunk twice is a
    FactStatusConflict. Raises RoleRequired (reviewers only), ChunkNotInCase,
    QuoteNotVerbatim, InvalidValue, UnknownFactType."""
    if chunk is None:
        return fact_assert(
            case=case,
            fact_type=fact_type,
            value=value,
            reviewer=reviewer,
            reason=reason,
        )
    require_role(reviewer, Membership.Role.REVIEWER)
    if chunk.case_id != case.pk:
        raise ChunkNotInCase(
            _("This section belongs to another case."), hint={"chunk_id": chunk.pk}
        )
    verbatim = manual_quote_verbatim(chunk=chunk, quote=quote)
    final = fact_value_check(case=case, fact_type=fact_type, value=value)
    _lock_case_facts(case)
    fact = fact_establish(
        case=case, fact_type=fact_type, value=final, reviewer=reviewer
    )
    if FactEvidence.objects.filter(fact=fact, chunk=chunk).exists():
        raise FactStatusConflict(
            _(
                "The case already has this fact (%(status)s), evidenced by this "
                "section. Nothing was changed."
            )
            % {"status": fact.get_status_display()},
            hint={"fact_id": fact.pk, "status": fact.status},
        )
    FactEvidence.objects.create(fact=fact, chunk=chunk, quote=verbatim)
    _decision_record(
        case=case,
        kind=Decision.Kind.MANUAL,
        actor=reviewer,
        fact=fact,
        reason=(reason or "").strip(),
        value_after=final,
        evidence={
            "chunk_id": chunk.pk,
            "document_id": chunk.document_id,
            "quote": verbatim,
        },
    )
    facts_changed_on_commit(case_id=case.pk)
    return fact
