"""The review API: proposals (list/filter, claim, decide, bulk), decisions,
facts (with provenance, confirm, dispute), term candidates (list, decide) and
the latest ontology extension. The same selectors and services as the pages:
another firm's object is 404, a conflict is 409 with a stable code."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404, QueryDict
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cases.selectors import case_get_for_user, scope_to_user
from evidence.models import Chunk
from review.api.serializers import (
    BulkInputSerializer,
    BulkOutputSerializer,
    DecideInputSerializer,
    DecideOutputSerializer,
    DecisionOutputSerializer,
    ExtensionOutputSerializer,
    FactAssertInputSerializer,
    FactDetailOutputSerializer,
    FactManualInputSerializer,
    FactOutputSerializer,
    ProposalFilterSerializer,
    ProposalListOutputSerializer,
    ProposalOutputSerializer,
    ReasonInputSerializer,
    TermCandidateOutputSerializer,
    TermDecideInputSerializer,
)
from review.models import Decision, Fact, TermCandidate
from review.selectors import (
    QueueFilters,
    fact_get_for_user,
    fact_provenance,
    ontology_extension_latest_for_user,
    proposal_get_for_user,
    proposal_queue,
    term_candidate_get_for_user,
    term_candidates_for_user,
)
from review.services.decisions import (
    fact_assert,
    fact_confirm,
    fact_dispute,
    proposal_claim,
    proposal_decide,
    proposals_decide_bulk,
)
from review.services.manual import fact_record_manual
from review.services.terms import term_candidate_decide

CASE_FILTER = OpenApiParameter("case", int, description="Only this case.")


def _case_filter(request: Request, queryset: QuerySet[Any]) -> QuerySet[Any]:
    raw = request.query_params.get("case", "")
    if not raw:
        return queryset
    case = case_get_for_user(user=request.user, case_id=raw)  # 404 for others
    return queryset.filter(case=case)


class ProposalListApi(APIView):
    @extend_schema(
        operation_id="review_proposals_list",
        parameters=[ProposalFilterSerializer],
        responses=ProposalListOutputSerializer,
    )
    def get(self, request: Request) -> Response:
        """The queue, in proposal order; page on with ``after=<next_after>``."""
        params = ProposalFilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        data = params.validated_data
        if "case" in data:
            case_get_for_user(user=request.user, case_id=data["case"])
        query = QueryDict(mutable=True)
        for key in ("case", "fact_type", "status", "assignee"):
            if key in data:
                query[key] = str(data[key])
        for key in ("min_confidence", "max_confidence"):
            if key in data:
                query[key] = str(data[key])
        limit = data.get("limit", 50)
        items = proposal_queue(
            user=request.user,
            filters=QueueFilters.from_params(query),
            after_id=data.get("after"),
            limit=limit,
        )
        return Response(
            {
                "results": ProposalOutputSerializer(items, many=True).data,
                "next_after": items[-1].pk if len(items) == limit else None,
            }
        )


class ProposalDetailApi(APIView):
    @extend_schema(responses=ProposalOutputSerializer)
    def get(self, request: Request, proposal_id: int) -> Response:
        proposal = proposal_get_for_user(user=request.user, proposal_id=proposal_id)
        return Response(ProposalOutputSerializer(proposal).data)


class ProposalDecideApi(APIView):
    @extend_schema(request=DecideInputSerializer, responses=DecideOutputSerializer)
    def post(self, request: Request, proposal_id: int) -> Response:
        """accept · edit (with ``value``) · dispute (with ``reason``) · reject.
        409 ``proposal_not_pending`` when someone decided first, 409
        ``proposal_claimed`` while another reviewer holds it, 403
        ``role_required`` for non-reviewers, 400 ``invalid_value``."""
        proposal = proposal_get_for_user(user=request.user, proposal_id=proposal_id)
        payload = DecideInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        decision = proposal_decide(
            proposal=proposal,
            reviewer=request.user,
            action=data["action"],
            value=data.get("value"),
            reason=data.get("reason", ""),
        )
        fact = decision.fact
        proposal.refresh_from_db()
        return Response(
            {
                "proposal": ProposalOutputSerializer(proposal).data,
                "fact": FactOutputSerializer(fact).data if fact else None,
            }
        )


class ProposalClaimApi(APIView):
    @extend_schema(request=None, responses=ProposalOutputSerializer)
    def post(self, request: Request, proposal_id: int) -> Response:
        proposal = proposal_get_for_user(user=request.user, proposal_id=proposal_id)
        proposal_claim(proposal=proposal, reviewer=request.user)
        return Response(ProposalOutputSerializer(proposal).data)


class ProposalBulkApi(APIView):
    @extend_schema(request=BulkInputSerializer, responses=BulkOutputSerializer)
    def post(self, request: Request) -> Response:
        """Accept or reject many; per-item conflicts are listed, not fatal. An
        id of another firm is 404 for the whole request (nothing decided)."""
        payload = BulkInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        proposals = [
            proposal_get_for_user(user=request.user, proposal_id=pk)
            for pk in data["ids"]
        ]
        result = proposals_decide_bulk(
            proposals=proposals,
            reviewer=request.user,
            action=data["action"],
            reason=data.get("reason", ""),
        )
        return Response({"decided": result.decided, "conflicts": result.conflicts})


class DecisionListApi(generics.ListAPIView[Decision]):
    serializer_class = DecisionOutputSerializer

    @extend_schema(parameters=[CASE_FILTER])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[Decision]:
        queryset = scope_to_user(Decision.objects.all(), self.request.user)
        return _case_filter(self.request, queryset).order_by("-id")


class FactListApi(generics.ListAPIView[Fact]):
    serializer_class = FactOutputSerializer

    @extend_schema(parameters=[CASE_FILTER])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[Fact]:
        queryset = scope_to_user(Fact.objects.all(), self.request.user).select_related(
            "evidenced_by", "confirmed_by", "disputed_by"
        )
        status = self.request.query_params.get("status", "")
        if status:
            queryset = queryset.filter(status=status)
        return _case_filter(self.request, queryset).order_by("id")


class FactAssertApi(APIView):
    @extend_schema(request=FactAssertInputSerializer, responses=FactOutputSerializer)
    def post(self, request: Request) -> Response:
        """Record an asserted fact (no document yet); reviewers only. 409
        ``fact_status_conflict`` if the case has it already."""
        payload = FactAssertInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        case = case_get_for_user(user=request.user, case_id=data["case"])
        fact = fact_assert(
            case=case,
            fact_type=data["fact_type"],
            value=data["value"],
            reviewer=request.user,
            reason=data["reason"],
        )
        return Response(FactOutputSerializer(fact).data, status=201)


class FactManualApi(APIView):
    @extend_schema(request=FactManualInputSerializer, responses=FactOutputSerializer)
    def post(self, request: Request) -> Response:
        """A fact the reviewer found: with ``chunk`` and the verbatim ``quote``
        an evidenced fact (decision ``manual``; under four-eyes review a second
        reviewer confirms it), without ``chunk`` an asserted one. 400
        ``quote_not_verbatim`` / ``invalid_value``, 403 ``role_required``, 404
        for another firm's case or a chunk of another case."""
        payload = FactManualInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        case = case_get_for_user(user=request.user, case_id=data["case"])
        chunk = None
        if data.get("chunk") is not None:
            chunk = Chunk.objects.filter(pk=data["chunk"], case=case).first()
            if chunk is None:
                raise Http404("No such section in this case.")
        fact = fact_record_manual(
            case=case,
            fact_type=data["fact_type"],
            value=data["value"],
            reviewer=request.user,
            chunk=chunk,
            quote=data.get("quote", ""),
            reason=data.get("reason", ""),
        )
        return Response(FactOutputSerializer(fact).data, status=201)


class FactDetailApi(APIView):
    @extend_schema(responses=FactDetailOutputSerializer)
    def get(self, request: Request, fact_id: int) -> Response:
        """The fact with its decisions and evidence (chunk, page, document
        SHA-256, proposal, agent run and model, viewer URL)."""
        fact = fact_get_for_user(user=request.user, fact_id=fact_id)
        return Response(FactDetailOutputSerializer(fact_provenance(fact=fact)).data)


class FactConfirmApi(APIView):
    @extend_schema(request=ReasonInputSerializer, responses=FactOutputSerializer)
    def post(self, request: Request, fact_id: int) -> Response:
        """Four-eyes confirmation; 403 ``four_eyes_same_reviewer`` for the
        reviewer who accepted it, 409 ``fact_status_conflict``."""
        fact = fact_get_for_user(user=request.user, fact_id=fact_id)
        payload = ReasonInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        fact = fact_confirm(
            fact=fact,
            reviewer=request.user,
            reason=payload.validated_data.get("reason", ""),
        )
        return Response(FactOutputSerializer(fact).data)


class FactDisputeApi(APIView):
    @extend_schema(request=ReasonInputSerializer, responses=FactOutputSerializer)
    def post(self, request: Request, fact_id: int) -> Response:
        fact = fact_get_for_user(user=request.user, fact_id=fact_id)
        payload = ReasonInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        fact = fact_dispute(
            fact=fact,
            reviewer=request.user,
            reason=payload.validated_data.get("reason", ""),
        )
        return Response(FactOutputSerializer(fact).data)


class TermCandidateListApi(generics.ListAPIView[TermCandidate]):
    serializer_class = TermCandidateOutputSerializer

    @extend_schema(
        parameters=[
            CASE_FILTER,
            OpenApiParameter("status", str, description="pending (default) or all"),
        ]
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[TermCandidate]:
        status = self.request.query_params.get("status", TermCandidate.Status.PENDING)
        queryset = term_candidates_for_user(
            user=self.request.user, status="" if status == "all" else status
        )
        return _case_filter(self.request, queryset)


class TermCandidateDecideApi(APIView):
    @extend_schema(
        request=TermDecideInputSerializer, responses=TermCandidateOutputSerializer
    )
    def post(self, request: Request, candidate_id: int) -> Response:
        """synonym / subclass (with ``concept`` IRI) / noise; curators only."""
        candidate = term_candidate_get_for_user(
            user=request.user, candidate_id=candidate_id
        )
        payload = TermDecideInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        candidate = term_candidate_decide(
            candidate=candidate,
            curator=request.user,
            resolution=data["resolution"],
            concept=data.get("concept", ""),
            reason=data.get("reason", ""),
        )
        return Response(TermCandidateOutputSerializer(candidate).data)


class OntologyExtensionLatestApi(APIView):
    @extend_schema(responses=ExtensionOutputSerializer)
    def get(self, request: Request) -> Response:
        """The newest extension graph of the user's firm (version 0 and empty
        before the firm's first accepted term)."""
        latest = ontology_extension_latest_for_user(user=request.user)
        if latest is None:
            return Response({"version": 0, "turtle": ""})
        return Response({"version": latest.version, "turtle": latest.turtle})
