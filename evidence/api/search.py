"""Search API: the hits of one case for a query, and a page as PNG.

``GET /api/v1/cases/{case_id}/search/?q=...&k=...`` runs the same
``search_case_evidence`` as the Evidence tab. A case of another firm, or a
document of another case, answers 404."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import URLPattern, path, reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cases.selectors import case_get_for_user
from evidence.models import SourceDocument
from evidence.search import search_case_evidence
from evidence.viewer import (
    DEFAULT_ZOOM,
    ZOOMS,
    PageNotRenderable,
    RenderBusy,
    page_image_png,
)


class CaseEvidenceSearchApi(APIView):
    class InputSerializer(serializers.Serializer):
        q = serializers.CharField(max_length=500, trim_whitespace=True)
        k = serializers.IntegerField(min_value=1, max_value=50, default=10)

    class OutputSerializer(serializers.Serializer):
        chunk_id = serializers.IntegerField()
        document_id = serializers.IntegerField()
        document = serializers.CharField(help_text="File name of the document.")
        page = serializers.IntegerField(
            help_text="The page to open: the first page of the passage holding "
            "a query word."
        )
        page_start = serializers.IntegerField(help_text="First page of the passage.")
        page_end = serializers.IntegerField(help_text="Last page of the passage.")
        score = serializers.FloatField(help_text="Reciprocal rank fusion score.")
        snippet = serializers.CharField()
        snippet_html = serializers.CharField(
            help_text="Escaped snippet with matches in <mark>."
        )
        text_rank = serializers.IntegerField(allow_null=True)
        vector_rank = serializers.IntegerField(allow_null=True)
        url = serializers.CharField(help_text="Page viewer with the chunk highlighted.")
        image_url = serializers.CharField(help_text="The page as PNG (API).")

    @extend_schema(
        operation_id="case_evidence_search",
        summary="Search the evidence of one case (full text + vector, fused)",
        parameters=[
            OpenApiParameter("case_id", int, OpenApiParameter.PATH),
            OpenApiParameter("q", str, required=True),
            OpenApiParameter("k", int, required=False, default=10),
        ],
        responses={
            200: OutputSerializer(many=True),
            404: OpenApiResponse(description="No such case in your firm."),
        },
    )
    def get(self, request: Request, case_id: int) -> Response:
        case = case_get_for_user(user=request.user, case_id=case_id)
        params = self.InputSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        hits = search_case_evidence(
            case=case, query=params.validated_data["q"], k=params.validated_data["k"]
        )
        rows = []
        for hit in hits:
            row = hit.as_dict()
            row["url"] = request.build_absolute_uri(hit.url)
            row["image_url"] = request.build_absolute_uri(
                reverse(
                    "evidence-api:page-image",
                    kwargs={
                        "case_id": case.pk,
                        "document_id": hit.document_id,
                        "number": hit.page,
                    },
                )
            )
            rows.append(row)
        return Response(self.OutputSerializer(rows, many=True).data)


class PageImageApi(APIView):
    @extend_schema(
        operation_id="case_document_page_image",
        summary="A page of a document rendered as PNG",
        parameters=[
            OpenApiParameter("case_id", int, OpenApiParameter.PATH),
            OpenApiParameter("document_id", int, OpenApiParameter.PATH),
            OpenApiParameter("number", int, OpenApiParameter.PATH),
            OpenApiParameter("zoom", float, enum=list(ZOOMS), default=DEFAULT_ZOOM),
        ],
        responses={
            (200, "image/png"): OpenApiTypes.BINARY,
            404: OpenApiResponse(description="No such case, document or page."),
            503: OpenApiResponse(description="Every render slot is busy; retry."),
        },
    )
    def get(
        self, request: Request, case_id: int, document_id: int, number: int
    ) -> HttpResponse:
        case = case_get_for_user(user=request.user, case_id=case_id)
        document = get_object_or_404(SourceDocument, pk=document_id, case=case)
        try:
            zoom = float(request.query_params.get("zoom") or DEFAULT_ZOOM)
            png = page_image_png(document=document, number=number, zoom=zoom)
        except (ValueError, PageNotRenderable) as exc:
            raise Http404("No such page image.") from exc
        except RenderBusy:
            return Response(
                {
                    "code": "render_busy",
                    "message": "Too many pages are being rendered; retry shortly.",
                    "retryable": True,
                },
                status=503,
                headers={"Retry-After": "5"},
            )
        response = HttpResponse(png, content_type="image/png")
        response["Cache-Control"] = "private, max-age=86400, immutable"
        return response


urlpatterns: list[URLPattern] = [
    path(
        "cases/<int:case_id>/search/",
        CaseEvidenceSearchApi.as_view(),
        name="case-search",
    ),
    path(
        "cases/<int:case_id>/documents/<int:document_id>/pages/<int:number>/image/",
        PageImageApi.as_view(),
        name="page-image",
    ),
]
