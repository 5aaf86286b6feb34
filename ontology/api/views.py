"""The requirements API: the verdicts of a case's claims as JSON (the domain
``ClaimEvaluation`` with the status words in both languages). Reads only; every
firm member may read; another firm's case or claim answers 404."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.http import Http404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cases.selectors import case_get_for_user
from ontology.api.serializers import FactTypeOutputSerializer
from ontology.pages import case_claims_evaluate, claim_result_json
from review.selectors import vocabulary_for_user

AT_PARAMETER = OpenApiParameter(
    "at",
    OpenApiTypes.DATE,
    description="Compute default interest up to this day (inclusive); today "
    "by default.",
)


class _AtSerializer(serializers.Serializer[Any]):
    at = serializers.DateField(required=False)


def _interest_until(request: Request) -> date | None:
    """The day asked for (``?at=``); without it a claim is judged as of its
    own valid-at date (the Stichtag)."""
    params = _AtSerializer(data=request.query_params)
    params.is_valid(raise_exception=True)
    at: date | None = params.validated_data.get("at")
    return at


class CaseEvaluationApi(APIView):
    @extend_schema(
        operation_id="requirements_case_evaluation",
        parameters=[AT_PARAMETER],
        responses=OpenApiTypes.OBJECT,
    )
    def get(self, request: Request, case_id: int) -> Response:
        """Every claim of the case with its verdicts (or the error that
        prevented its evaluation, e.g. no version of the law at its date)."""
        case = case_get_for_user(user=request.user, case_id=case_id)
        until = _interest_until(request)
        results = case_claims_evaluate(case=case, interest_until=until)
        return Response(
            {
                "case_id": case.pk,
                "interest_until": (until or timezone.localdate()).isoformat(),
                "claims": [claim_result_json(r) for r in results],
            }
        )


class ClaimEvaluationApi(APIView):
    @extend_schema(
        operation_id="requirements_claim_evaluation",
        parameters=[AT_PARAMETER],
        responses=OpenApiTypes.OBJECT,
    )
    def get(self, request: Request, case_id: int, claim_id: int) -> Response:
        """One claim's verdicts: per requirement the status, the sentence in
        German and English, the supporting facts, what is missing and the legal
        basis; the damage computation with interest. 404 with code
        ``claim_version_not_found`` if no version of the law applies."""
        case = case_get_for_user(user=request.user, case_id=case_id)
        claim = case.claims.filter(pk=claim_id).first()
        if claim is None:
            raise Http404("No such claim.")
        until = _interest_until(request)
        [result] = case_claims_evaluate(case=case, interest_until=until, claims=[claim])
        if result.error is not None:
            raise result.error
        payload = claim_result_json(result)
        payload["interest_until"] = (until or claim.valid_at).isoformat()
        return Response(payload)


class FactTypeListApi(APIView):
    @extend_schema(
        operation_id="ontology_fact_types",
        responses=FactTypeOutputSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        """Every fact type of the user's firm's vocabulary (the versioned
        types plus the terms the firm's curators accepted; never another
        firm's) and the JSON shape its values take."""
        vocabulary = vocabulary_for_user(request.user)
        types = [info for _, info in sorted(vocabulary.types.items())]
        return Response(FactTypeOutputSerializer(types, many=True).data)
