"""The cases API: cases, their parties and claims, tokens and the current user.

Reads go through the tenancy selectors, so a case of another firm is 404 for
every method. Writes fetch (and so authorise) the case first, then check the
form of the request, then call a service, which checks the role, writes the
audit event and commits all or nothing. One ViewSet per resource keeps REST
URLs (POST on the collection, PATCH/DELETE on the item); each write method is a
command in the house style: input serializer → service → output serializer.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from django.db.models import QuerySet
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import status, viewsets
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from cases import services
from cases.api.auth import auth_token_issue
from cases.api.serializers import (
    AuthTokenInputSerializer,
    AuthTokenOutputSerializer,
    CaseCreateInputSerializer,
    CaseDetailOutputSerializer,
    CaseFilterSerializer,
    CaseListOutputSerializer,
    CaseUpdateInputSerializer,
    ClaimInputSerializer,
    ClaimOutputSerializer,
    ClaimUpdateInputSerializer,
    ErrorOutputSerializer,
    MeOutputSerializer,
    PartyInputSerializer,
    PartyOutputSerializer,
    PartyUpdateInputSerializer,
)
from cases.errors import DomainError
from cases.models import Case, Claim, Party
from cases.selectors import case_get_for_user, case_list_for_user, membership_for_user


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorOutputSerializer, description=description)


E400 = {400: _error("Invalid data: `fields` names each field's problems.")}
E401 = {401: _error("Not authenticated.")}
E403 = {403: _error("Your role does not allow this (code `role_required`).")}
E404 = {404: _error("No such case in your firm (or no such item in the case).")}
E409 = {409: _error("The file reference is taken (code `case_reference_taken`).")}

CASE_ID = OpenApiParameter("case_id", int, OpenApiParameter.PATH)


class InvalidCredentials(DomainError):
    code = "invalid_credentials"
    http_status = 400


class CasePagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 200


# --- Cases -----------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        summary="List the cases of your firm",
        parameters=[CaseFilterSerializer],
        responses={200: CaseListOutputSerializer(many=True), **E400, **E401},
    ),
    retrieve=extend_schema(
        summary="A case with its parties and claims",
        parameters=[CASE_ID],
        responses={200: CaseDetailOutputSerializer, **E401, **E404},
    ),
)
class CaseViewSet(viewsets.ReadOnlyModelViewSet[Case]):
    lookup_url_kwarg = "case_id"
    pagination_class = CasePagination

    def get_queryset(self) -> QuerySet[Case]:
        if getattr(self, "swagger_fake_view", False):
            return Case.objects.none()
        filters = CaseFilterSerializer(data=self.request.query_params)
        filters.is_valid(raise_exception=True)
        # Meta.ordering does not apply to the selector's GROUP BY query; paging
        # needs a stable order.
        return case_list_for_user(
            user=self.request.user, **filters.validated_data
        ).order_by("-updated_at", "-id")

    def get_object(self) -> Case:
        return case_get_for_user(user=self.request.user, case_id=self.kwargs["case_id"])

    def get_serializer_class(self) -> type[Any]:
        if self.action == "list":
            return CaseListOutputSerializer
        return CaseDetailOutputSerializer

    @extend_schema(
        summary="Open a case, optionally with parties and claims (all or nothing)",
        request=CaseCreateInputSerializer,
        responses={201: CaseDetailOutputSerializer, **E400, **E401, **E403, **E409},
    )
    def create(self, request: Request) -> Response:
        payload = CaseCreateInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        case = services.case_create(actor=request.user, **payload.validated_data)
        return Response(
            CaseDetailOutputSerializer(case).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(
        summary="Change a case's master data",
        parameters=[CASE_ID],
        request=CaseUpdateInputSerializer,
        responses={
            200: CaseDetailOutputSerializer,
            **E400,
            **E401,
            **E403,
            **E404,
            **E409,
        },
    )
    def partial_update(self, request: Request, case_id: int) -> Response:
        case = self.get_object()
        payload = CaseUpdateInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        case = services.case_update(
            actor=request.user, case=case, **payload.validated_data
        )
        return Response(CaseDetailOutputSerializer(case).data)


# --- Parties and claims: items of one case ---------------------------------------


class _CaseItemViewSet(viewsets.ReadOnlyModelViewSet[Any]):
    """Items owned by the case in the URL. The case is fetched through the
    tenancy selector before anything else, so every method on another firm's
    case (or on an item of another case) answers 404."""

    pagination_class = None

    def get_case(self) -> Case:
        return case_get_for_user(user=self.request.user, case_id=self.kwargs["case_id"])


_ITEM_PARAMS = {
    "party": OpenApiParameter("party_id", int, OpenApiParameter.PATH),
    "claim": OpenApiParameter("claim_id", int, OpenApiParameter.PATH),
}


@extend_schema_view(
    list=extend_schema(
        summary="The parties of a case",
        parameters=[CASE_ID],
        responses={200: PartyOutputSerializer(many=True), **E401, **E404},
    ),
    retrieve=extend_schema(
        summary="One party of a case",
        parameters=[CASE_ID, _ITEM_PARAMS["party"]],
        responses={200: PartyOutputSerializer, **E401, **E404},
    ),
)
class PartyViewSet(_CaseItemViewSet):
    lookup_url_kwarg = "party_id"
    serializer_class = PartyOutputSerializer

    def get_queryset(self) -> QuerySet[Party]:
        if getattr(self, "swagger_fake_view", False):
            return Party.objects.none()
        return Party.objects.filter(case=self.get_case()).select_related("case")

    @extend_schema(
        summary="Add a party to a case",
        parameters=[CASE_ID],
        request=PartyInputSerializer,
        responses={201: PartyOutputSerializer, **E400, **E401, **E403, **E404},
    )
    def create(self, request: Request, case_id: int) -> Response:
        case = self.get_case()
        payload = PartyInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        party = services.party_create(
            actor=request.user, case=case, **payload.validated_data
        )
        return Response(
            PartyOutputSerializer(party).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(
        summary="Change a party",
        parameters=[CASE_ID, _ITEM_PARAMS["party"]],
        request=PartyUpdateInputSerializer,
        responses={200: PartyOutputSerializer, **E400, **E401, **E403, **E404},
    )
    def partial_update(self, request: Request, case_id: int, party_id: int) -> Response:
        party = self.get_object()
        payload = PartyUpdateInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        party = services.party_update(
            actor=request.user, party=party, **payload.validated_data
        )
        return Response(PartyOutputSerializer(party).data)

    @extend_schema(
        summary="Remove a party",
        parameters=[CASE_ID, _ITEM_PARAMS["party"]],
        request=None,
        responses={204: None, **E401, **E403, **E404},
    )
    def destroy(self, request: Request, case_id: int, party_id: int) -> Response:
        services.party_delete(actor=request.user, party=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_view(
    list=extend_schema(
        summary="The claims of a case",
        parameters=[CASE_ID],
        responses={200: ClaimOutputSerializer(many=True), **E401, **E404},
    ),
    retrieve=extend_schema(
        summary="One claim of a case",
        parameters=[CASE_ID, _ITEM_PARAMS["claim"]],
        responses={200: ClaimOutputSerializer, **E401, **E404},
    ),
)
class ClaimViewSet(_CaseItemViewSet):
    lookup_url_kwarg = "claim_id"
    serializer_class = ClaimOutputSerializer

    def get_queryset(self) -> QuerySet[Claim]:
        if getattr(self, "swagger_fake_view", False):
            return Claim.objects.none()
        return Claim.objects.filter(case=self.get_case()).select_related("case")

    @extend_schema(
        summary="Add a claim to a case",
        parameters=[CASE_ID],
        request=ClaimInputSerializer,
        responses={201: ClaimOutputSerializer, **E400, **E401, **E403, **E404},
    )
    def create(self, request: Request, case_id: int) -> Response:
        case = self.get_case()
        payload = ClaimInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        claim = services.claim_create(
            actor=request.user, case=case, **payload.validated_data
        )
        return Response(
            ClaimOutputSerializer(claim).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(
        summary="Change a claim",
        parameters=[CASE_ID, _ITEM_PARAMS["claim"]],
        request=ClaimUpdateInputSerializer,
        responses={200: ClaimOutputSerializer, **E400, **E401, **E403, **E404},
    )
    def partial_update(self, request: Request, case_id: int, claim_id: int) -> Response:
        claim = self.get_object()
        payload = ClaimUpdateInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        claim = services.claim_update(
            actor=request.user, claim=claim, **payload.validated_data
        )
        return Response(ClaimOutputSerializer(claim).data)

    @extend_schema(
        summary="Remove a claim",
        parameters=[CASE_ID, _ITEM_PARAMS["claim"]],
        request=None,
        responses={204: None, **E401, **E403, **E404},
    )
    def destroy(self, request: Request, case_id: int, claim_id: int) -> Response:
        services.claim_delete(actor=request.user, claim=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- Tokens and the current user -------------------------------------------------


class AuthTokenThrottle(AnonRateThrottle):
    """Slows down password guessing: per client address, per process."""

    scope = "auth_token"
    rate = "10/minute"


class AuthTokenObtainApi(APIView):
    """Exchange a username and password for the user's API token."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    throttle_classes = [AuthTokenThrottle]

    @extend_schema(
        summary="Obtain an API token",
        request=AuthTokenInputSerializer,
        responses={
            200: AuthTokenOutputSerializer,
            400: _error("Invalid data, or code `invalid_credentials`."),
            429: _error("Too many attempts (code `throttled`)."),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        payload = AuthTokenInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        user = authenticate(
            request._request,
            username=payload.validated_data["username"],
            password=payload.validated_data["password"],
        )
        if user is None or not user.is_active:
            raise InvalidCredentials("Unable to log in with these credentials.")
        token = auth_token_issue(user=user)
        return Response(AuthTokenOutputSerializer({"token": token.key}).data)


class MeApi(APIView):
    """Who is asking: the user, their firm and their role."""

    @extend_schema(
        summary="The current user, firm and role",
        responses={200: MeOutputSerializer, **E401},
    )
    def get(self, request: Request) -> Response:
        membership = membership_for_user(request.user)
        data = {
            "user": request.user,
            "organisation": membership.organisation if membership else None,
            "role": membership.role if membership else None,
        }
        return Response(MeOutputSerializer(data).data)
