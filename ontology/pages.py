"""What the Requirements tab, the API and ``check_claim`` show of a case's
claims: each claim evaluated against the case's current facts, plus what the
page needs around the verdicts (evidence links to the highlighted pages, the
provisions behind the legal basis, a version that changes with every decision).

Reads only: the case is already fetched for the user (``case_get_for_user``).
Evaluation stays in ``ontology.domain``; this module arranges its results in
the active language. There is deliberately no count, percentage or score.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

from django.db.models import Count, Max
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from cases.errors import DomainError
from cases.models import Case, Claim
from evidence.models import Chunk
from evidence.search import page_url
from ontology.damage_table import DamageTable, damage_table
from ontology.domain.compliance_view import ObligationRow, compliance_rows
from ontology.domain.facts import FactRecord
from ontology.domain.results import (
    STATUS_LABELS,
    AlternativeVerdict,
    ClaimEvaluation,
    RequirementVerdict,
)
from ontology.domain.text import (
    date_format,
    value_format,
)
from ontology.selectors import claim_context_for
from ontology.services import claim_evaluate
from review.models import Decision, Fact, FactEvidence
from review.selectors import fact_records_for_case, vocabulary_for_case

logger = logging.getLogger(__name__)

Lang = Literal["de", "en"]


def active_lang() -> Lang:
    return "de" if (translation.get_language() or "de").startswith("de") else "en"


# ------------------------------------------------------------------ evaluation
@dataclass(frozen=True)
class ClaimResult:
    """One claim and its evaluation, or the domain error that prevented it
    (e.g. no version of the claim type applies at the claim's date)."""

    claim: Claim
    evaluation: ClaimEvaluation | None
    error: DomainError | None = None


def case_claims_evaluate(
    *,
    case: Case,
    interest_until: date | None = None,
    claims: Iterable[Claim] | None = None,
    facts: Sequence[FactRecord] | None = None,
) -> list[ClaimResult]:
    """Evaluate the claims of a case (all by default) against its facts, read
    once. A claim that cannot be evaluated carries its error instead of hiding
    the others."""
    records = list(facts) if facts is not None else fact_records_for_case(case=case)
    selected = list(claims) if claims is not None else list(case.claims.order_by("id"))
    vocabulary = vocabulary_for_case(case)
    results = []
    for claim in selected:
        context = claim_context_for(claim=claim, interest_until=interest_until)
        try:
            evaluation = claim_evaluate(
                facts=records, context=context, vocabulary=vocabulary
            )
        except DomainError as exc:
            results.append(ClaimResult(claim=claim, evaluation=None, error=exc))
            continue
        results.append(ClaimResult(claim=claim, evaluation=evaluation))
    return results


def claim_result_json(result: ClaimResult) -> dict[str, Any]:
    """The API's and ``check_claim --json``'s shape of one claim: the domain
    result as JSON, with the status words in both languages."""
    claim = result.claim
    payload: dict[str, Any] = {
        "claim_id": claim.pk,
        "case_id": claim.case_id,
        "claim_type": claim.claim_type,
        "jurisdiction": claim.jurisdiction,
        "valid_at": claim.valid_at.isoformat(),
        "evaluation": None,
        "error": None,
    }
    if result.error is not None:
        payload["error"] = {
            "code": result.error.code,
            "message": result.error.message,
        }
        return payload
    assert result.evaluation is not None
    data = result.evaluation.model_dump(mode="json")
    for verdict in data["requirements"]:
        _status_words(verdict)
        for alternative in verdict["alternatives"]:
            _status_words(alternative)
    payload["evaluation"] = data
    return payload


def _status_words(verdict: dict[str, Any]) -> None:
    verdict["status_de"], verdict["status_en"] = STATUS_LABELS[verdict["status"]]


# ------------------------------------------------------------------ version
def requirements_version(*, case: Case) -> str:
    """Changes whenever anything the evaluation reads changes: a decision (every
    human change of a fact records one), a fact or its evidence, the claims, the
    parties, or the day (interest runs up to today). Cheap aggregates, so the
    tab can poll it without evaluating."""
    facts = Fact.objects.filter(case=case).aggregate(n=Count("id"), t=Max("updated_at"))
    evidence = FactEvidence.objects.filter(fact__case=case).aggregate(
        n=Count("id"), m=Max("id")
    )
    decisions = Decision.objects.filter(case=case).aggregate(m=Max("id"))
    claims = list(
        case.claims.order_by("id").values_list(
            "id", "claim_type", "jurisdiction", "valid_at"
        )
    )
    parties = list(case.parties.order_by("id").values_list("id", "role", "kind"))
    raw = repr(
        (
            facts["n"],
            facts["t"].isoformat() if facts["t"] else None,
            evidence["n"],
            evidence["m"],
            decisions["m"],
            claims,
            parties,
            timezone.localdate().isoformat(),
        )
    )
    return hashlib.sha256(raw.encode()).hexdigest()[:20]


# ------------------------------------------------------------------ the page
@dataclass(frozen=True)
class Link:
    label: str
    url: str
    title: str = ""


@dataclass(frozen=True)
class FactRef:
    fact_id: int
    label: str
    status: str
    status_label: str
    url: str
    evidence: tuple[Link, ...] = ()


@dataclass(frozen=True)
class AlternativeRow:
    label: str
    status: str
    status_label: str
    sentence: str
    legal_basis: tuple[Link, ...]


@dataclass(frozen=True)
class RequirementRow:
    key: str
    label: str
    status: str
    status_label: str
    sentence: str
    legal_basis: tuple[Link, ...]
    supporting: tuple[FactRef, ...]
    unestablished: tuple[FactRef, ...]
    missing: tuple[str, ...]
    alternatives: tuple[AlternativeRow, ...]


@dataclass(frozen=True)
class ClaimView:
    claim_id: int
    anchor: str
    label: str
    jurisdiction: str
    valid_at: str
    version_key: str
    legal_basis: tuple[Link, ...]
    requirements: tuple[RequirementRow, ...] = ()
    damage: DamageTable | None = None  # the one computation, as a table
    error: str = ""
    interest_until: str = ""
    # compliance claims: each obligation judged element by element (issue 17)
    obligations: tuple[ObligationRow, ...] = ()
    summary: str = ""
    awaiting: tuple[FactRef, ...] = ()


@dataclass
class _Context:
    case: Case
    lang: Lang
    facts: dict[int, FactRecord]
    documents: dict[int, int]  # chunk id -> document id
    citations: dict[tuple[str, date], Link] = field(default_factory=dict)


def _pick(lang: Lang, de: str, en: str) -> str:
    return de if lang == "de" else en


def _status_label(lang: Lang, status: str) -> str:
    de, en = STATUS_LABELS[status]
    return _pick(lang, de, en)


FACT_STATUS_LABELS: dict[str, tuple[str, str]] = {
    "asserted": ("behauptet", "asserted"),
    "disputed": ("bestritten", "disputed"),
    "evidenced": ("belegt", "evidenced"),
    "confirmed": ("bestätigt", "confirmed"),
}


def _fact_ref(ctx: _Context, fact_id: int) -> FactRef:
    record = ctx.facts.get(fact_id)
    url = reverse("review:fact_detail", kwargs={"fact_id": fact_id})
    if record is None:  # deleted between the evaluation and now
        return FactRef(fact_id, f"#{fact_id}", "", "", url)
    info = vocabulary_for_case(ctx.case).get(record.fact_type)
    type_label = (
        _pick(ctx.lang, info.label_de, info.label_en) if info else record.fact_type
    ) or record.fact_type
    label = f"{type_label}: {value_format(record.value, ctx.lang)}"
    links = []
    for ref in record.evidence:
        document_id = ctx.documents.get(ref.chunk_id)
        if document_id is None:
            continue
        page_word = _pick(ctx.lang, "S.", "p.")
        links.append(
            Link(
                label=f"{ref.document}, {page_word} {ref.page}",
                url=page_url(
                    case_id=ctx.case.pk,
                    document_id=document_id,
                    number=ref.page,
                    chunk_id=ref.chunk_id,
                ),
                title=ref.quote[:300],
            )
        )
    de, en = FACT_STATUS_LABELS.get(record.status, (record.status, record.status))
    return FactRef(
        fact_id=fact_id,
        label=label,
        status=record.status,
        status_label=_pick(ctx.lang, de, en),
        url=url,
        evidence=tuple(links),
    )


def _citation(ctx: _Context, text: str, at: date) -> Link:
    """The legal basis with the provision text on hover (resolved against the
    version valid at the claim's date) and a link to the citation check."""
    key = (text, at)
    if key in ctx.citations:
        return ctx.citations[key]
    title = ""
    try:
        from citations.services import citations_check

        results = citations_check(text, at=at)
    except Exception:
        logger.exception("could not check the citation %r", text)
        results = []
    parts = []
    for result in results:
        if result.status != "resolved":
            continue
        head = " ".join(p for p in (result.citation.raw, result.heading) if p)
        parts.append(f"{head}: {result.excerpt}" if result.excerpt else head)
    title = "\n\n".join(parts)
    link = Link(label=text, url=reverse("citations:check"), title=title)
    ctx.citations[key] = link
    return link


def _basis(ctx: _Context, texts: Sequence[str], at: date) -> tuple[Link, ...]:
    return tuple(_citation(ctx, t, at) for t in texts)


def _requirement_row(
    ctx: _Context, verdict: RequirementVerdict, at: date
) -> RequirementRow:
    lang = ctx.lang
    return RequirementRow(
        key=verdict.key,
        label=_pick(lang, verdict.label_de, verdict.label_en),
        status=verdict.status,
        status_label=_status_label(lang, verdict.status),
        sentence=_pick(lang, verdict.sentence_de, verdict.sentence_en),
        legal_basis=_basis(ctx, verdict.legal_basis, at),
        supporting=tuple(_fact_ref(ctx, i) for i in verdict.supporting_fact_ids),
        unestablished=tuple(_fact_ref(ctx, m.fact_id) for m in verdict.unestablished),
        missing=tuple(_pick(lang, m.label_de, m.label_en) for m in verdict.missing),
        alternatives=tuple(
            _alternative_row(ctx, alt, at) for alt in verdict.alternatives
        )
        if len(verdict.alternatives) > 1
        else (),
    )


def _alternative_row(
    ctx: _Context, alt: AlternativeVerdict, at: date
) -> AlternativeRow:
    return AlternativeRow(
        label=_pick(ctx.lang, alt.label_de, alt.label_en),
        status=alt.status,
        status_label=_status_label(ctx.lang, alt.status),
        sentence=_pick(ctx.lang, alt.sentence_de, alt.sentence_en),
        legal_basis=_basis(ctx, alt.legal_basis, at),
    )


def _damage_view(ctx: _Context, evaluation: ClaimEvaluation) -> DamageTable | None:
    """The damage table of the one computation, its items linked to their
    facts (the report and its exports render the same table)."""
    if evaluation.damage is None:
        return None
    return damage_table(
        evaluation.damage,
        lang=ctx.lang,
        fact_url=lambda fact_id: reverse(
            "review:fact_detail", kwargs={"fact_id": fact_id}
        ),
    )


def case_requirements_page(
    *, case: Case, interest_until: date | None = None
) -> list[ClaimView]:
    """Every claim of the case as the Requirements tab shows it, in the active
    language. Interest is computed up to ``interest_until`` (today by default)."""
    until = interest_until or timezone.localdate()
    lang = active_lang()
    records = fact_records_for_case(case=case)
    chunk_ids = {ref.chunk_id for r in records for ref in r.evidence}
    ctx = _Context(
        case=case,
        lang=lang,
        facts={r.id: r for r in records},
        documents=dict(
            Chunk.objects.filter(pk__in=chunk_ids, case=case).values_list(
                "id", "document_id"
            )
        ),
    )
    views = []
    # a Verzugsschaden claim is judged as of its own valid-at date (the
    # Stichtag) unless a day is asked for explicitly
    for result in case_claims_evaluate(
        case=case, interest_until=interest_until, facts=records
    ):
        claim = result.claim
        anchor = f"claim-{claim.pk}"
        if result.evaluation is None:
            error = result.error
            views.append(
                ClaimView(
                    claim_id=claim.pk,
                    anchor=anchor,
                    label=claim.get_claim_type_display(),
                    jurisdiction=claim.jurisdiction,
                    valid_at=date_format(claim.valid_at, lang),
                    version_key="",
                    legal_basis=(),
                    error=error.message if error else _("Not evaluated."),
                )
            )
            continue
        evaluation = result.evaluation
        # a compliance checklist is shown as its obligations, element by
        # element; its requirement verdicts are the same verdicts, summarised
        obligations = compliance_rows(
            records,
            claim_type=claim.claim_type,
            valid_at=claim.valid_at,
            four_eyes=case.organisation.four_eyes_review,
            lang=lang,
        )
        views.append(
            ClaimView(
                claim_id=claim.pk,
                anchor=anchor,
                label=_pick(lang, evaluation.label_de, evaluation.label_en),
                jurisdiction=evaluation.jurisdiction,
                valid_at=date_format(evaluation.valid_at, lang),
                version_key=evaluation.version_key,
                legal_basis=_basis(ctx, evaluation.legal_basis, claim.valid_at),
                requirements=()
                if obligations
                else tuple(
                    _requirement_row(ctx, v, claim.valid_at)
                    for v in evaluation.requirements
                ),
                damage=_damage_view(ctx, evaluation),
                interest_until=date_format(until, lang),
                obligations=obligations,
                summary=_pick(lang, evaluation.summary_de, evaluation.summary_en),
                awaiting=tuple(_fact_ref(ctx, i) for i in evaluation.awaiting_review),
            )
        )
    return views
