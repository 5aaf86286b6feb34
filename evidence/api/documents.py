"""Documents API: upload (multipart, several files under ``files``), list and
retrieve with the ingestion state.

``POST /api/v1/cases/{case_id}/documents/`` answers per file (stored,
duplicate or refused with a code and message). Status: 201 when at least one
file was stored, 200 when all were duplicates, 400 when every file was
refused. Lawyers and administrators upload; every member of the firm reads.
Another firm's case or document answers 404."""

from __future__ import annotations

from typing import Any

from django.urls import URLPattern, path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cases.selectors import case_get_for_user
from evidence import selectors
from evidence.models import DocumentIngestion, SourceDocument
from evidence.services.ingest import (
    UploadOutcome,
    documents_upload,
    source_document_retry,
)


class IngestionSerializer(serializers.ModelSerializer):
    percent = serializers.IntegerField(read_only=True)

    class Meta:
        model = DocumentIngestion
        fields = [
            "stage",
            "percent",
            "error_code",
            "error_message",
            "attempts",
            "pages",
            "ocr_pages",
            "chunks",
            "embedded",
            "started_at",
            "finished_at",
            "updated_at",
        ]


class DocumentSerializer(serializers.ModelSerializer):
    ingestion = IngestionSerializer(read_only=True)

    class Meta:
        model = SourceDocument
        fields = [
            "id",
            "case",
            "filename",
            "sha256",
            "content_type",
            "size_bytes",
            "page_count",
            "has_javascript",
            "has_embedded_files",
            "created_at",
            "ingestion",
        ]


class UploadResultSerializer(serializers.Serializer):
    filename = serializers.CharField()
    status = serializers.ChoiceField(choices=["stored", "duplicate", "refused"])
    code = serializers.CharField(allow_blank=True)
    message = serializers.CharField(allow_blank=True)
    document = DocumentSerializer(allow_null=True)


def _result(outcome: UploadOutcome) -> dict[str, Any]:
    return {
        "filename": outcome.filename,
        "status": outcome.status,
        "code": outcome.code,
        "message": outcome.message,
        "document": outcome.document,
    }


class CaseDocumentsApi(APIView):
    parser_classes = [MultiPartParser, FormParser]

    class InputSerializer(serializers.Serializer):
        files = serializers.ListField(
            child=serializers.FileField(allow_empty_file=True), allow_empty=False
        )

    @extend_schema(
        operation_id="case_documents_list",
        responses={200: DocumentSerializer(many=True)},
    )
    def get(self, request: Request, case_id: int) -> Response:
        case = case_get_for_user(user=request.user, case_id=case_id)
        paginator = PageNumberPagination()
        documents = selectors.document_list_for_case(case=case)
        page = paginator.paginate_queryset(documents, request, view=self)
        return paginator.get_paginated_response(
            DocumentSerializer(page, many=True).data
        )

    @extend_schema(
        operation_id="case_documents_upload",
        request={"multipart/form-data": InputSerializer},
        responses={
            201: OpenApiResponse(UploadResultSerializer(many=True)),
            200: OpenApiResponse(UploadResultSerializer(many=True)),
            400: OpenApiResponse(description="Every file was refused."),
        },
    )
    def post(self, request: Request, case_id: int) -> Response:
        case = case_get_for_user(user=request.user, case_id=case_id)
        files = request.FILES.getlist("files")
        serializer = self.InputSerializer(data={"files": files})
        serializer.is_valid(raise_exception=True)
        outcomes = documents_upload(
            actor=request.user, case=case, uploads=serializer.validated_data["files"]
        )
        results = UploadResultSerializer([_result(o) for o in outcomes], many=True).data
        statuses = {o.status for o in outcomes}
        if "stored" in statuses:
            return Response({"results": results}, status=201)
        if "duplicate" in statuses:
            return Response({"results": results}, status=200)
        return Response(
            {
                "code": "upload_refused",
                "message": "Every file was refused.",
                "results": results,
            },
            status=400,
        )


class CaseDocumentDetailApi(APIView):
    @extend_schema(
        operation_id="case_documents_retrieve",
        responses={200: DocumentSerializer},
    )
    def get(self, request: Request, case_id: int, document_id: int) -> Response:
        document = selectors.document_get_for_user(
            user=request.user, case_id=case_id, document_id=document_id
        )
        return Response(DocumentSerializer(document).data)


class CaseDocumentRetryApi(APIView):
    """``POST .../documents/{id}/retry/``: queue a failed, retryable ingestion
    again (lawyers). 202 with the document; an ingestion already queued,
    running or ready is returned unchanged (200); one that cannot be read
    answers 409 ``ingestion_not_retryable``."""

    @extend_schema(
        operation_id="case_documents_retry",
        request=None,
        responses={
            202: DocumentSerializer,
            200: DocumentSerializer,
            403: OpenApiResponse(description="Only lawyers retry."),
            409: OpenApiResponse(description="The failure is not retryable."),
        },
    )
    def post(self, request: Request, case_id: int, document_id: int) -> Response:
        document = selectors.document_get_for_user(
            user=request.user, case_id=case_id, document_id=document_id
        )
        was_failed = document.ingestion.stage == DocumentIngestion.Stage.FAILED
        source_document_retry(actor=request.user, document=document)
        document.ingestion.refresh_from_db()
        return Response(
            DocumentSerializer(document).data, status=202 if was_failed else 200
        )


urlpatterns: list[URLPattern] = [
    path(
        "cases/<int:case_id>/documents/",
        CaseDocumentsApi.as_view(),
        name="case-documents",
    ),
    path(
        "cases/<int:case_id>/documents/<int:document_id>/",
        CaseDocumentDetailApi.as_view(),
        name="case-document-detail",
    ),
    path(
        "cases/<int:case_id>/documents/<int:document_id>/retry/",
        CaseDocumentRetryApi.as_view(),
        name="case-document-retry",
    ),
]
