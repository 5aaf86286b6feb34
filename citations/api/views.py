from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from citations.api.serializers import (
    CitationCheckInputSerializer,
    CitationSerializer,
)
from citations.api.throttles import CitationCheckThrottle
from citations.services import citation_input_check, citations_check


class CitationCheckApi(APIView):
    """POST a text; get every citation in it, resolved against the pinned
    corpus (the same JSON as ``manage.py cite --json``). A text longer than
    ``MAX_CHECK_CHARS`` is refused (400, ``citation_input_too_large``); checks
    are rate-limited per user (429, ``throttled``)."""

    throttle_classes = [CitationCheckThrottle]

    @extend_schema(
        request=CitationCheckInputSerializer,
        responses=CitationSerializer(many=True),
    )
    def post(self, request: Request) -> Response:
        serializer = CitationCheckInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        citation_input_check(str(data["text"]))
        results = citations_check(
            str(data["text"]),
            at=data.get("at"),
            default_instrument=data.get("default_instrument") or None,
        )
        return Response([r.to_json() for r in results])
