"""Reads of the review app, scoped to the user's firm (another firm's proposal,
fact or term answers 404), plus the contracts other apps read:

- ``fact_records_for_case(case=...)`` — the ontology evaluator's FactRecords;
- ``confirmed_fact_ids(case=...)`` — established (evidenced or confirmed) facts,
  for the agents' evidence-ids policy;
- ``vocabulary_for_organisation(org)`` / ``vocabulary_for_case(case)`` — a
  firm's vocabulary (versioned fact types plus the firm's newest extension),
  which the agents, the editor, the API and the evaluator are handed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import get_language

from cases.models import Case, Organisation
from cases.selectors import membership_for_user, scope_to_user
from evidence.models import Chunk, Page
from evidence.selectors import quote_page_ranges_for_chunk, quote_pages
from ontology.domain.facts import EvidenceRef, FactRecord, established_statuses
from ontology.domain.vocabulary import vocabulary_graph
from ontology.vocabulary import (
    FactTypeInfo,
    Vocabulary,
    vocabulary_base,
    vocabulary_for,
)
from review.domain.extension import extension_fact_types
from review.models import (
    CLAIM_TTL,
    Decision,
    ExtractionProposal,
    Fact,
    FactEvidence,
    OntologyExtension,
    TermCandidate,
)

QUEUE_PAGE = 50


# ------------------------------------------------------------------ proposals
@dataclass(frozen=True)
class QueueFilters:
    """What the queue shows. ``assignee``: "" any, "me", "free" (nobody or an
    expired claim), "others", or a user id."""

    case_id: int | None = None
    fact_type: str = ""
    status: str = ExtractionProposal.Status.PENDING
    min_confidence: float | None = None
    max_confidence: float | None = None
    assignee: str = ""

    @classmethod
    def from_params(cls, params: Any) -> QueueFilters:
        def number(name: str) -> float | None:
            try:
                value = float(params.get(name, ""))
            except (TypeError, ValueError):
                return None
            return value if 0 <= value <= 1 else None

        case_raw = str(params.get("case", "") or "")
        status = params.get("status", ExtractionProposal.Status.PENDING)
        if status not in (*ExtractionProposal.Status.values, "all"):
            status = ExtractionProposal.Status.PENDING
        return cls(
            case_id=int(case_raw) if case_raw.isdecimal() else None,
            fact_type=str(params.get("fact_type", "") or "")[:64],
            status="" if status == "all" else status,
            min_confidence=number("min_confidence"),
            max_confidence=number("max_confidence"),
            assignee=str(params.get("assignee", "") or "")[:20],
        )


def _same_proposal(
    *, case_id: Any, fact_type: Any, source_chunk_id: Any, value: Any, quote: Any
) -> dict[str, Any]:
    """THE rule of which pending proposals are one desk item: the same case,
    fact kind, typed value, chunk and quote, whichever runs proposed them.
    Takes values or ``OuterRef``s (the queue's subquery)."""
    return {
        "case_id": case_id,
        "fact_type": fact_type,
        "source_chunk_id": source_chunk_id,
        "value": value,
        "quote": quote,
        "status": ExtractionProposal.Status.PENDING,
    }


def proposal_twins(*, proposal: ExtractionProposal) -> list[ExtractionProposal]:
    """The other pending proposals of ``proposal``'s desk item (identical ones
    from other runs), in proposal order; empty for a decided proposal."""
    if proposal.status != ExtractionProposal.Status.PENDING:
        return []
    same = _same_proposal(
        case_id=proposal.case_id,
        fact_type=proposal.fact_type,
        source_chunk_id=proposal.source_chunk_id,
        value=proposal.value,
        quote=proposal.quote,
    )
    return list(
        ExtractionProposal.objects.filter(**same).exclude(pk=proposal.pk).order_by("id")
    )


def _later_twin(queryset: QuerySet[ExtractionProposal]) -> QuerySet[ExtractionProposal]:
    """Drop the pending proposals an earlier identical one represents."""
    earlier = ExtractionProposal.objects.filter(
        **_same_proposal(
            case_id=OuterRef("case_id"),
            fact_type=OuterRef("fact_type"),
            source_chunk_id=OuterRef("source_chunk_id"),
            value=OuterRef("value"),
            quote=OuterRef("quote"),
        ),
        id__lt=OuterRef("id"),
    )
    return queryset.exclude(
        Q(status=ExtractionProposal.Status.PENDING) & Exists(earlier)
    )


def proposals_for_user(*, user: Any) -> QuerySet[ExtractionProposal]:
    return scope_to_user(ExtractionProposal.objects.all(), user)


def proposal_queue(
    *,
    user: Any,
    filters: QueueFilters,
    after_id: int | None = None,
    before_id: int | None = None,
    limit: int = QUEUE_PAGE,
) -> list[ExtractionProposal]:
    """One page of the queue in proposal order (keyset on id, so page N costs
    what page 1 costs). ``before_id`` walks backwards (returned in order)."""
    queryset = proposals_for_user(user=user).select_related(
        "case", "assignee", "source_chunk__document"
    )
    queryset = _later_twin(queryset)  # one item per group of identical ones
    if filters.case_id is not None:
        queryset = queryset.filter(case_id=filters.case_id)
    if filters.status:
        queryset = queryset.filter(status=filters.status)
    if filters.fact_type:
        queryset = queryset.filter(fact_type=filters.fact_type)
    if filters.min_confidence is not None:
        queryset = queryset.filter(confidence__gte=filters.min_confidence)
    if filters.max_confidence is not None:
        queryset = queryset.filter(confidence__lte=filters.max_confidence)
    expiry = timezone.now() - CLAIM_TTL
    claimed = Q(assignee__isnull=False, claimed_at__gt=expiry)
    if filters.assignee == "me":
        queryset = queryset.filter(claimed, assignee=user)
    elif filters.assignee == "free":
        queryset = queryset.filter(~claimed | Q(assignee=user))
    elif filters.assignee == "others":
        queryset = queryset.filter(claimed).exclude(assignee=user)
    elif filters.assignee.isdecimal():
        queryset = queryset.filter(claimed, assignee_id=int(filters.assignee))
    if before_id is not None:
        rows = list(queryset.filter(id__lt=before_id).order_by("-id")[:limit])
        return rows[::-1]
    if after_id is not None:
        queryset = queryset.filter(id__gt=after_id)
    return list(queryset.order_by("id")[:limit])


def proposal_get_for_user(*, user: Any, proposal_id: int | str) -> ExtractionProposal:
    try:
        pk = int(proposal_id)
    except (TypeError, ValueError):
        raise Http404("No such proposal.") from None
    proposal = (
        proposals_for_user(user=user)
        .select_related("case__organisation", "assignee", "source_chunk__document")
        .filter(pk=pk)
        .first()
    )
    if proposal is None:
        raise Http404("No such proposal.")
    return proposal


def decision_get_for_user(*, user: Any, decision_id: int | str) -> Decision:
    """A decision of the user's firm (another firm's is 404)."""
    try:
        pk = int(decision_id)
    except (TypeError, ValueError):
        raise Http404("No such decision.") from None
    decision = (
        scope_to_user(Decision.objects.all(), user)
        .select_related("case__organisation", "proposal")
        .filter(pk=pk)
        .first()
    )
    if decision is None:
        raise Http404("No such decision.")
    return decision


def decision_last_of_user(*, user: Any, case_id: int | None = None) -> Decision | None:
    """The user's newest decision (in one case, or in any case of the firm)."""
    queryset = scope_to_user(Decision.objects.all(), user).filter(actor_id=user.pk)
    if case_id is not None:
        queryset = queryset.filter(case_id=case_id)
    return queryset.select_related("proposal").order_by("-id").first()


def proposals_newer_count(*, user: Any, case_id: int, since_id: int) -> int:
    """How many pending proposals of the case arrived after ``since_id`` (an
    upload or an agent run added them while the reviewer had the desk open)."""
    return (
        _later_twin(proposals_for_user(user=user))  # new desk items, not twins
        .filter(case_id=case_id, status=ExtractionProposal.Status.PENDING)
        .filter(id__gt=since_id)
        .count()
    )


def proposals_newest_id(*, user: Any, case_id: int) -> int:
    """The newest proposal id of the case (0 when it has none)."""
    newest = (
        proposals_for_user(user=user)
        .filter(case_id=case_id)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
    )
    return int(newest or 0)


def fact_type_label(info: FactTypeInfo | None, key: str = "") -> str:
    """A fact type's name for people, in the page's language (the
    vocabulary's rdfs:label @de / @en); the key only when it has none."""
    if info is None:
        return key
    english = (get_language() or "de").startswith("en")
    first, second = (
        (info.label_en, info.label_de) if english else (info.label_de, info.label_en)
    )
    return first or second or info.key


def fact_type_labels(vocabulary: Vocabulary) -> dict[str, str]:
    """Key → label of every fact type of a vocabulary (for list rows)."""
    return {key: fact_type_label(info, key) for key, info in vocabulary.types.items()}


def _sorted_labels(
    vocabulary: Vocabulary, keys: Iterable[str]
) -> list[tuple[str, str]]:
    return sorted(
        ((key, fact_type_label(vocabulary.get(key), key)) for key in set(keys)),
        key=lambda pair: pair[1].casefold(),
    )


def case_fact_types(*, case: Case) -> list[tuple[str, str]]:
    """(key, label) of the fact kinds that matter for the case: those of its
    claims' types (a firm's extension counts through the core type it
    narrows), plus any kind its proposals already carry. A case without a
    claim gets the whole vocabulary."""
    vocabulary = vocabulary_for_case(case)
    claim_types = set(case.claims.values_list("claim_type", flat=True))
    proposed = set(
        ExtractionProposal.objects.filter(case=case)
        .values_list("fact_type", flat=True)
        .distinct()
    )
    if not claim_types:
        return _sorted_labels(vocabulary, set(vocabulary.types) | proposed)
    direct = {
        key for key, info in vocabulary.types.items() if info.claim_types & claim_types
    }
    narrower = {key for key, info in vocabulary.types.items() if info.broader & direct}
    return _sorted_labels(vocabulary, direct | narrower | proposed)


def queue_fact_types(*, user: Any) -> list[tuple[str, str]]:
    """(key, label) of the fact kinds the firm's proposals carry, for the
    firm-wide queue's filter."""
    vocabulary = vocabulary_for_user(user)
    keys = proposals_for_user(user=user).values_list("fact_type", flat=True).distinct()
    return _sorted_labels(vocabulary, keys)


def queue_assignees(*, user: Any) -> list[tuple[int, str]]:
    membership = membership_for_user(user)
    if membership is None:
        return []
    return [
        (m.user_id, m.user.get_username())
        for m in membership.organisation.memberships.select_related("user").order_by(
            "user__username"
        )
    ]


def agent_run_url(run_id: int | None, case_id: int | None = None) -> str:
    """The agents' run page, if the agents app has one (by URL name only:
    review does not import agents)."""
    if run_id is None:
        return ""
    attempts: list[dict[str, int]] = [{"run_id": run_id}]
    if case_id is not None:
        attempts.insert(0, {"case_id": case_id, "run_id": run_id})
    for kwargs in attempts:
        try:
            return reverse("agents:run_detail", kwargs=kwargs)
        except NoReverseMatch:
            continue
    return ""


@dataclass
class Highlight:
    """What the item view shows beside a proposal: the page, the chunk's boxes
    and the quote's boxes (percent of the page), and the viewer link."""

    page: Page | None
    chunk_boxes: list[Any] = field(default_factory=list)
    quote_boxes: list[Any] = field(default_factory=list)
    quote_found: bool = False
    page_url: str = ""


def chunk_highlight(*, chunk: Chunk, quote: str, back: str = "") -> Highlight:
    """The page the quote is on (else the chunk's first page), with boxes over
    the quote's words. The quote is located by the same matcher the gate used
    to accept it. The viewer link marks the quote and leads back to ``back``."""
    from evidence.viewer import chunk_boxes, quote_word_boxes, viewer_url

    pages = {
        p.number: p
        for p in Page.objects.filter(
            document_id=chunk.document_id,
            number__in={chunk.page_start, chunk.page_end},
        ).select_related("document")
    }
    chosen: Page | None = pages.get(chunk.page_start)
    quote_boxes: list[Any] = []
    for found in quote_page_ranges_for_chunk(chunk=chunk, quote=quote, pages=pages):
        page = pages.get(found.page)
        if page is None:
            continue
        chosen = page
        quote_boxes = quote_word_boxes(
            document=page.document, page=page, start=found.start, end=found.end
        )
        break
    if chosen is None:
        return Highlight(page=None)
    return Highlight(
        page=chosen,
        chunk_boxes=chunk_boxes(chunk=chunk, page=chosen),
        quote_boxes=quote_boxes,
        quote_found=bool(quote_boxes),
        page_url=viewer_url(
            case_id=chunk.case_id,
            document_id=chunk.document_id,
            number=chosen.number,
            chunk_id=chunk.pk,
            quote=quote,
            back=back,
        ),
    )


# ---------------------------------------------------------------------- facts
def facts_for_case(*, case: Case) -> QuerySet[Fact]:
    """The case's facts; a withdrawn one (its decision was undone) is left out."""
    return (
        Fact.objects.filter(case=case)
        .exclude(status=Fact.Status.WITHDRAWN)
        .select_related("evidenced_by", "confirmed_by", "disputed_by")
    )


def fact_get_for_user(*, user: Any, fact_id: int | str) -> Fact:
    try:
        pk = int(fact_id)
    except (TypeError, ValueError):
        raise Http404("No such fact.") from None
    fact = (
        scope_to_user(Fact.objects.all(), user)
        .select_related("case__organisation", "evidenced_by", "confirmed_by")
        .filter(pk=pk)
        .first()
    )
    if fact is None:
        raise Http404("No such fact.")
    return fact


def fact_provenance(*, fact: Fact) -> dict[str, Any]:
    """The full chain: fact → decisions → proposals (agent run, step, model) →
    chunk → page → document SHA-256, each evidence with its viewer link
    (which marks the quote and leads back to the fact)."""
    from evidence.viewer import viewer_url

    back = reverse("review:fact_detail", kwargs={"fact_id": fact.pk})

    decisions = list(
        Decision.objects.filter(fact=fact).select_related("proposal").order_by("id")
    )
    evidence = []
    for item in FactEvidence.objects.filter(fact=fact).select_related(
        "chunk__document", "proposal"
    ):
        chunk = item.chunk
        highlight = chunk_highlight(chunk=chunk, quote=item.quote, back=back)
        number = highlight.page.number if highlight.page else chunk.page_start
        proposal = item.proposal
        evidence.append(
            {
                "id": item.pk,
                "quote": item.quote,
                "chunk_id": chunk.pk,
                "page": number,
                "document_id": chunk.document_id,
                "document": chunk.document.filename,
                "sha256": chunk.document.sha256,
                "url": highlight.page_url
                or viewer_url(
                    case_id=fact.case_id,
                    document_id=chunk.document_id,
                    number=number,
                    chunk_id=chunk.pk,
                    quote=item.quote,
                    back=back,
                ),
                "proposal": (
                    {
                        "id": proposal.pk,
                        "status": proposal.status,
                        "confidence": proposal.confidence,
                        "value": proposal.value,
                        "agent_run_id": proposal.agent_run_id,
                        "agent_step_id": proposal.agent_step_id,
                        "agent_run_url": agent_run_url(
                            proposal.agent_run_id, fact.case_id
                        ),
                        "model_id": proposal.model_id,
                        "call_id": proposal.call_id,
                        "created_at": proposal.created_at,
                    }
                    if proposal
                    else None
                ),
            }
        )
    return {
        "fact": fact,
        "decisions": [
            {
                "id": d.pk,
                "kind": d.kind,
                "kind_label": d.get_kind_display(),
                "actor": d.actor_label,
                "reason": d.reason,
                "value_before": d.value_before,
                "value_after": d.value_after,
                "status_after": d.status_after,
                "proposal_id": d.proposal_id,
                "created_at": d.created_at,
            }
            for d in decisions
        ],
        "evidence": evidence,
    }


def fact_of_case(*, case: Case, fact_id: int) -> Fact | None:
    """A fact of this case, for read-only use by the agents' tools (which never
    import the Fact model)."""
    return Fact.objects.filter(pk=fact_id, case_id=case.pk).first()


def fact_has_evidence_chunk(*, fact: Fact, chunk_id: int) -> bool:
    return FactEvidence.objects.filter(fact=fact, chunk_id=chunk_id).exists()


def fact_ids_of_case(*, case: Case) -> set[int]:
    """Every fact of the case, whatever its status (but withdrawn: its only
    decision was undone)."""
    return set(
        Fact.objects.filter(case=case)
        .exclude(status=Fact.Status.WITHDRAWN)
        .values_list("id", flat=True)
    )


def confirmed_fact_ids(*, case: Case) -> set[int]:
    """Established facts (evidenced or confirmed) of the case: the only ones an
    argument may cite. Disputed and merely asserted facts are left out."""
    statuses = established_statuses(four_eyes=case.organisation.four_eyes_review)
    return set(
        Fact.objects.filter(case=case, status__in=statuses).values_list("id", flat=True)
    )


def fact_records_for_case(*, case: Case) -> list[FactRecord]:
    """Every fact of the case (all statuses: the evaluator tells established
    from disputed) as the ontology's pure ``FactRecord``. Facts of a fact type
    the vocabulary no longer knows are skipped."""
    types = vocabulary_for_case(case).types
    parties = dict(case.parties.values_list("pk", "name"))
    evidence: dict[int, list[EvidenceRef]] = {}
    for item in (
        FactEvidence.objects.filter(fact__case=case)
        .select_related("chunk__document")
        .order_by("id")
    ):
        evidence.setdefault(item.fact_id, []).append(
            EvidenceRef(
                document=item.chunk.document.filename,
                # The page the quote is on (a chunk may span a page break).
                page=quote_pages(chunk=item.chunk, quote=item.quote)[0],
                chunk_id=item.chunk_id,
                quote=item.quote,
            )
        )
    records = []
    facts = Fact.objects.filter(case=case).exclude(status=Fact.Status.WITHDRAWN)
    for fact in facts.order_by("id"):
        info = types.get(fact.fact_type)
        if info is None:
            continue
        records.append(
            FactRecord.model_validate(
                {
                    "id": fact.pk,
                    "fact_type": fact.fact_type,
                    "status": fact.status,
                    "value": info.value_schema.read(
                        fact.value, party_names_by_id=parties
                    ),
                    "evidence": tuple(evidence.get(fact.pk, ())),
                }
            )
        )
    return records


# ---------------------------------------------------------------------- terms
def term_candidates_for_user(
    *, user: Any, status: str = TermCandidate.Status.PENDING
) -> QuerySet[TermCandidate]:
    queryset = scope_to_user(TermCandidate.objects.all(), user).select_related(
        "case", "source_chunk__document", "decided_by"
    )
    if status:
        queryset = queryset.filter(status=status)
    return queryset.order_by("id")


def term_candidate_get_for_user(*, user: Any, candidate_id: int | str) -> TermCandidate:
    try:
        pk = int(candidate_id)
    except (TypeError, ValueError):
        raise Http404("No such term.") from None
    candidate = (
        scope_to_user(TermCandidate.objects.all(), user)
        .select_related("case", "source_chunk__document")
        .filter(pk=pk)
        .first()
    )
    if candidate is None:
        raise Http404("No such term.")
    return candidate


def ontology_extension_latest(*, organisation_id: int) -> OntologyExtension | None:
    """The firm's newest extension version (None before its first term)."""
    return (
        OntologyExtension.objects.filter(organisation_id=organisation_id)
        .order_by("-version")
        .first()
    )


def ontology_extension_latest_for_user(*, user: Any) -> OntologyExtension | None:
    """The newest extension version of the user's firm (another firm's never)."""
    return (
        scope_to_user(OntologyExtension.objects.all(), user, case_path="")
        .order_by("-version")
        .first()
    )


def ontology_extension_graph_latest(*, organisation_id: int) -> str:
    """The firm's newest extension graph as Turtle ("" before its first term)."""
    latest = ontology_extension_latest(organisation_id=organisation_id)
    return latest.turtle if latest else ""


@lru_cache(maxsize=256)
def _vocabulary_at(organisation_id: int, version: int, row_id: int) -> Vocabulary:
    """A firm's vocabulary at one extension version. Versions are never
    rewritten, so (firm, version, row) keys the cache safely."""
    turtle = OntologyExtension.objects.values_list("turtle", flat=True).get(pk=row_id)
    return vocabulary_for(
        extension_fact_types(turtle=turtle, core=vocabulary_graph()),
        version=version,
        organisation_id=organisation_id,
    )


def vocabulary_for_organisation(organisation: Organisation | int) -> Vocabulary:
    """The firm's vocabulary: the versioned fact types plus the terms of the
    firm's newest extension version, read from the database on each call (one
    query; the parsed vocabulary is cached per version). Nothing is kept per
    process: a web process and a worker see the same firm's vocabulary, and
    never another firm's."""
    org_id = organisation if isinstance(organisation, int) else organisation.pk
    latest = (
        OntologyExtension.objects.filter(organisation_id=org_id)
        .order_by("-version")
        .values_list("version", "pk")
        .first()
    )
    if latest is None:
        return vocabulary_for(organisation_id=org_id)
    return _vocabulary_at(org_id, latest[0], latest[1])


def vocabulary_for_case(case: Case) -> Vocabulary:
    """The vocabulary of the case's firm."""
    return vocabulary_for_organisation(case.organisation_id)


def vocabulary_for_user(user: Any) -> Vocabulary:
    """The vocabulary of the user's firm (the versioned one without a firm)."""
    membership = membership_for_user(user)
    if membership is None:
        return vocabulary_base()
    return vocabulary_for_organisation(membership.organisation_id)
