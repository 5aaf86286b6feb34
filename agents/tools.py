"""The tool implementations behind the gate (``agents.domain.gate``): prepare
without a side effect, commit with the call id as idempotency key. This module
and ``agents.world`` are the agents' only way into the domain."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agents.domain.gate import CommitResult, ToolImplementation, ToolRefusal
from agents.domain.policies import PreparedResult
from agents.domain.tools import (
    DraftArgumentArgs,
    GetClaimRequirementsArgs,
    GetMissingRequirementsArgs,
    LinkEvidenceProposalArgs,
    ProposeCaseFactArgs,
    ProposeTermArgs,
    SearchCaseEvidenceArgs,
)
from agents.domain.world import World
from agents.world import DjangoWorld
from cases.errors import DomainError
from cases.models import Claim
from evidence.search import search_case_evidence
from ontology.domain.claims import claim_version_get
from ontology.domain.compliance_catalogue import obligations_for_claim_type
from ontology.domain.errors import ClaimVersionNotFound
from ontology.selectors import claim_missing_requirements_for
from reports.domain.drafting import FindingDraft
from reports.services import argument_draft, report_create
from review.selectors import fact_has_evidence_chunk, fact_of_case
from review.services.proposals import (
    proposal_create,
    proposal_exists_for,
    term_candidate_create,
)

SEARCH_K = 8


def _django(world: World) -> DjangoWorld:
    if not isinstance(world, DjangoWorld):  # pragma: no cover - wiring error
        raise TypeError("the Django tools need a DjangoWorld")
    return world


class _ReadOnly:
    def commit(
        self, prepared: PreparedResult, *, call_id: str, world: World
    ) -> CommitResult:  # pragma: no cover - the gate never commits read-only tools
        raise RuntimeError("read-only tools are never committed")

    def discard(self, prepared: PreparedResult) -> None:
        return None


class SearchCaseEvidence(_ReadOnly):
    """The evidence app's hybrid search inside the run's case."""

    def prepare(self, args: SearchCaseEvidenceArgs, world: World) -> PreparedResult:
        dw = _django(world)
        hits = [
            {
                "chunk_id": h.chunk_id,
                "document": h.document,
                "page": h.page,
                "page_end": h.page_end,
                "score": h.score,
                "snippet": h.snippet,
            }
            for h in search_case_evidence(case=dw.case, query=args.query, k=SEARCH_K)
        ]
        return PreparedResult(echo=args.model_dump(mode="json"), payload={"hits": hits})


class GetClaimRequirements(_ReadOnly):
    def prepare(self, args: GetClaimRequirementsArgs, world: World) -> PreparedResult:
        try:
            version, _file = claim_version_get(
                args.claim_type, args.jurisdiction, args.valid_at
            )
        except ClaimVersionNotFound as exc:
            raise ToolRefusal(
                "claim_version_not_found", str(exc), hint=getattr(exc, "hint", None)
            ) from exc
        payload = {
            "claim_type": version.claim_type,
            "version": version.version_key,
            "valid_from": version.valid_from.isoformat(),
            "requirements": [
                {
                    "key": r.key,
                    "label": r.label_en,
                    "label_de": r.label_de,
                    "legal_basis": list(r.legal_basis),
                    "alternatives": [
                        {
                            "key": a.key,
                            "label": a.label_en,
                            "fact_types": list(a.fact_types),
                        }
                        for a in r.alternatives
                    ],
                }
                for r in version.requirements
            ],
            # a compliance checklist is judged element by element: what an
            # agent looks for is each element's evidence
            "obligations": [
                {
                    "key": o.key,
                    "label": o.label_en,
                    "label_de": o.label_de,
                    "provision": o.provision_en,
                    "elements": [
                        {
                            "key": e.key,
                            "label": e.label_en,
                            "label_de": e.label_de,
                            "provision": e.provision_en,
                            "fact_type": e.fact_type,
                        }
                        for e in o.elements
                    ],
                }
                for o in obligations_for_claim_type(version.claim_type)
            ],
        }
        return PreparedResult(echo=args.model_dump(mode="json"), payload=payload)


class GetMissingRequirements(_ReadOnly):
    """The open and unmet requirements of one of the case's claims, evaluated
    on the case's current facts (``ontology.selectors``). Only evidenced and
    confirmed facts count, so the answer tells the agent what to look for."""

    def prepare(self, args: GetMissingRequirementsArgs, world: World) -> PreparedResult:
        dw = _django(world)
        claim = Claim.objects.filter(pk=args.claim_id, case_id=dw.case.pk).first()
        if claim is None:  # the claim_of_case policy makes this unreachable
            raise ToolRefusal("claim_not_in_case", "No such claim in this case.")
        try:
            missing = claim_missing_requirements_for(claim=claim)
        except DomainError as exc:  # e.g. no version of the law at its date
            raise ToolRefusal(exc.code, exc.message, hint=exc.hint) from exc
        payload = {
            "claim_id": claim.pk,
            "claim_type": claim.claim_type,
            "missing": [m.model_dump(mode="json") for m in missing],
        }
        return PreparedResult(echo=args.model_dump(mode="json"), payload=payload)


class ProposeCaseFact:
    def prepare(self, args: ProposeCaseFactArgs, world: World) -> PreparedResult:
        chunk = world.case_chunk(args.source_chunk_id)
        if chunk is None:  # the before-policies make this unreachable
            raise ToolRefusal("chunk_not_in_case", "No such chunk in this case.")
        echo = {
            "fact_type": args.fact_type,
            "source_chunk_id": chunk.id,
            "quote": args.quote,
            "value": dict(args.value),
            "confidence": args.confidence,
        }
        return PreparedResult(echo=echo, payload=echo)

    def commit(
        self, prepared: PreparedResult, *, call_id: str, world: World
    ) -> CommitResult:
        return _proposal_commit(prepared, call_id=call_id, world=world)

    def discard(self, prepared: PreparedResult) -> None:
        return None


def _proposal_commit(
    prepared: PreparedResult, *, call_id: str, world: World
) -> CommitResult:
    """A pending proposal from a prepared fact payload (``propose_case_fact``
    and ``link_evidence_proposal`` alike); a replay (same call id) returns the
    row an earlier step made."""
    dw = _django(world)
    p: Mapping[str, Any] = prepared.payload
    proposal = proposal_create(
        case=dw.case,
        fact_type=p["fact_type"],
        value=p["value"],
        source_chunk=dw.chunk_row(p["source_chunk_id"]),
        quote=p["quote"],
        confidence=p["confidence"],
        call_id=call_id,
        agent_run_id=dw.run_id,
        agent_step_id=dw.current_step_id,
        model_id=dw.model_id,
        actor=dw.actor,
    )
    dw.proposal_noted(
        fact_type=p["fact_type"],
        value=p["value"],
        chunk_id=p["source_chunk_id"],
        call_id=call_id,
    )
    created = proposal.agent_step_id == dw.current_step_id
    return CommitResult("extraction_proposal", proposal.pk, created)


class ProposeTerm:
    def prepare(self, args: ProposeTermArgs, world: World) -> PreparedResult:
        echo = args.model_dump(mode="json")
        return PreparedResult(echo=echo, payload=echo)

    def commit(
        self, prepared: PreparedResult, *, call_id: str, world: World
    ) -> CommitResult:
        dw = _django(world)
        p = prepared.payload
        candidate = term_candidate_create(
            case=dw.case,
            label=p["label"],
            kind=p["kind"],
            source_chunk=dw.chunk_row(p["source_chunk_id"]),
            call_id=call_id,
            agent_run_id=dw.run_id,
            agent_step_id=dw.current_step_id,
            model_id=dw.model_id,
            actor=dw.actor,
        )
        created = candidate.agent_step_id == dw.current_step_id
        return CommitResult("term_candidate", candidate.pk, created)

    def discard(self, prepared: PreparedResult) -> None:
        return None


class LinkEvidenceProposal:
    """Propose a chunk as further evidence for an existing fact. The agent only
    proposes: the result is a pending ``ExtractionProposal`` of the fact's type
    and value from that chunk, decided in the review queue like any other.
    Accepting it adds the chunk to the fact's evidence (the review service
    finds the fact by type and value); rejecting it changes nothing. Like
    ``propose_case_fact`` it carries a verbatim quote (checked by the
    ``quote_in_chunk`` policy, so the reviewer sees the passage highlighted)
    and the model's confidence."""

    def prepare(self, args: LinkEvidenceProposalArgs, world: World) -> PreparedResult:
        dw = _django(world)
        fact = fact_of_case(case=dw.case, fact_id=args.fact_id)
        if fact is None:  # the fact_of_case policy makes this unreachable
            raise ToolRefusal("fact_not_in_case", "No such fact in this case.")
        chunk = world.case_chunk(args.source_chunk_id)
        if chunk is None:  # the chunk_belongs_to_case policy makes this unreachable
            raise ToolRefusal("chunk_not_in_case", "No such chunk in this case.")
        if fact_has_evidence_chunk(fact=fact, chunk_id=chunk.id):
            raise ToolRefusal(
                "already_evidence",
                "This chunk is already evidence for the fact.",
                hint={"fact_id": fact.pk, "source_chunk_id": chunk.id},
            )
        if proposal_exists_for(
            case=dw.case,
            fact_type=fact.fact_type,
            value=fact.value,
            source_chunk=chunk.id,
        ):
            raise ToolRefusal(
                "duplicate_proposal",
                "This chunk was already proposed for a fact of this type and value.",
                hint={"fact_id": fact.pk, "source_chunk_id": chunk.id},
            )
        payload = {
            "fact_id": fact.pk,
            "fact_type": fact.fact_type,
            "value": dict(fact.value),
            "source_chunk_id": chunk.id,
            "quote": args.quote,
            "confidence": args.confidence,
        }
        return PreparedResult(echo=args.model_dump(mode="json"), payload=payload)

    def commit(
        self, prepared: PreparedResult, *, call_id: str, world: World
    ) -> CommitResult:
        return _proposal_commit(prepared, call_id=call_id, world=world)

    def discard(self, prepared: PreparedResult) -> None:
        return None


class DraftArgument:
    """Findings for one claim from the approved (confirmed) facts only, via
    ``reports.services.argument_draft``; committing stores them as a draft
    report that faces the citation gate and the refutation pass like any
    other (idempotent on the call id). Nothing here writes a fact."""

    def prepare(self, args: DraftArgumentArgs, world: World) -> PreparedResult:
        dw = _django(world)
        claim = Claim.objects.filter(case=dw.case, pk=args.claim_id).first()
        if claim is None:  # the before-policies make this unreachable
            raise ToolRefusal("claim_not_in_case", "No such claim in this case.")
        drafts, _evaluation = argument_draft(
            case=dw.case,
            claim=claim,
            approved_evidence_ids=args.approved_evidence_ids,
        )
        echo = args.model_dump(mode="json")
        payload = {**echo, "drafts": [d.model_dump(mode="json") for d in drafts]}
        return PreparedResult(echo=echo, payload=payload)

    def commit(
        self, prepared: PreparedResult, *, call_id: str, world: World
    ) -> CommitResult:
        dw = _django(world)
        p = prepared.payload
        claim = Claim.objects.get(case=dw.case, pk=p["claim_id"])
        report = report_create(
            case=dw.case,
            actor=dw.actor,
            claims=[claim],
            drafts=[FindingDraft.model_validate(d) for d in p["drafts"]],
            call_id=call_id,
        )
        created = report.findings.exists() and report.source_call_id == call_id
        return CommitResult("report", report.pk, created)

    def discard(self, prepared: PreparedResult) -> None:
        return None


def tool_implementations() -> dict[str, ToolImplementation]:
    return {
        "search_case_evidence": SearchCaseEvidence(),
        "get_claim_requirements": GetClaimRequirements(),
        "get_missing_requirements": GetMissingRequirements(),
        "propose_case_fact": ProposeCaseFact(),
        "propose_term": ProposeTerm(),
        "link_evidence_proposal": LinkEvidenceProposal(),
        "draft_argument": DraftArgument(),
    }
