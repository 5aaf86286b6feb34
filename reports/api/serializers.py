from __future__ import annotations

from rest_framework import serializers

from reports.models import Finding, FindingCitation, GateVerdict, Report, ReportBuild


class ReportCreateInputSerializer(serializers.Serializer):
    case = serializers.IntegerField()
    claims = serializers.ListField(child=serializers.IntegerField(), required=False)
    language = serializers.ChoiceField(choices=["de", "en"], default="en")
    drafter = serializers.ChoiceField(choices=Report.Drafter.choices, default="rules")
    title = serializers.CharField(required=False, allow_blank=True, max_length=255)


class CitationOutputSerializer(serializers.ModelSerializer):
    class Meta:
        model = FindingCitation
        fields = [
            "raw",
            "canonical",
            "status",
            "reason",
            "instrument",
            "version_label",
            "version_language",
            "version_valid_from",
            "version_sha256",
            "provision_path",
            "text_sha256",
        ]


class VerdictOutputSerializer(serializers.ModelSerializer):
    class Meta:
        model = GateVerdict
        fields = ["gate", "refuter", "verdict", "reason", "passage", "model_id"]


class FindingOutputSerializer(serializers.ModelSerializer):
    citations = CitationOutputSerializer(many=True, read_only=True)
    verdicts = VerdictOutputSerializer(many=True, read_only=True)

    class Meta:
        model = Finding
        fields = [
            "id",
            "position",
            "claim",
            "claim_type",
            "requirement_key",
            "label",
            "verdict_status",
            "verdict_label",
            "text",
            "drafter",
            "supporting_fact_ids",
            "evidence",
            "outcome",
            "flag_reason",
            "citations",
            "verdicts",
        ]


class ReportOutputSerializer(serializers.ModelSerializer):
    stale = serializers.SerializerMethodField()
    downloads = serializers.SerializerMethodField()

    class Meta:
        model = Report
        fields = [
            "id",
            "case",
            "claims",
            "title",
            "language",
            "drafter",
            "status",
            "corpus_versions",
            "summary",
            "model_refuter",
            "export_sha256",
            "created_by",
            "created_at",
            "issued_at",
            "stale",
            "downloads",
        ]

    def get_stale(self, obj: Report) -> list[str]:
        return [m.reason for m in obj.stale_marks.all()]

    def get_downloads(self, obj: Report) -> dict[str, str]:
        from django.urls import reverse

        return {
            fmt: reverse(
                "reports-api:report-download",
                kwargs={"report_id": obj.pk, "export_format": fmt},
            )
            for fmt in ("docx", "xlsx")
        }


class ReportDetailOutputSerializer(ReportOutputSerializer):
    findings = FindingOutputSerializer(many=True, read_only=True)

    class Meta(ReportOutputSerializer.Meta):
        fields = [*ReportOutputSerializer.Meta.fields, "findings"]


class WordingDecisionInputSerializer(serializers.Serializer):
    citation = serializers.IntegerField(
        help_text="Id of a waiting citation of the report (from GET)."
    )
    date_from = serializers.DateField(required=False, allow_null=True)
    date_to = serializers.DateField(required=False, allow_null=True)
    reason = serializers.CharField(max_length=2000)


class WordingConfirmationOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    provision = serializers.CharField(source="provision_path")
    version_label = serializers.CharField(source="version.label")
    version_valid_from = serializers.DateField(source="version.valid_from")
    date_from = serializers.DateField()
    date_to = serializers.DateField()
    reason = serializers.CharField()
    decided_by = serializers.CharField(source="decided_by.username")
    decided_at = serializers.DateTimeField()


class ReportBuildOutputSerializer(serializers.ModelSerializer):
    """A build's state; ``status_url`` is where to poll it and ``report_url``
    (once ``succeeded``) where its report is."""

    status_url = serializers.SerializerMethodField()
    report_url = serializers.SerializerMethodField()

    class Meta:
        model = ReportBuild
        fields = [
            "id",
            "case",
            "status",
            "stage",
            "progress_done",
            "progress_total",
            "failure_code",
            "reason",
            "attempts",
            "report",
            "claim_ids",
            "language",
            "drafter",
            "created_at",
            "started_at",
            "finished_at",
            "status_url",
            "report_url",
        ]

    def _url(self, name: str, pk: int) -> str:
        from django.urls import reverse

        path = reverse(name, args=[pk])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path

    def get_status_url(self, build: ReportBuild) -> str:
        return self._url("reports-api:report-build-detail", build.pk)

    def get_report_url(self, build: ReportBuild) -> str | None:
        if build.report_id is None:
            return None
        return self._url("reports-api:report-detail", build.report_id)
