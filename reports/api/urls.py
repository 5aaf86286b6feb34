"""Reports API under /api/v1/reports/ (namespace ``reports-api``)."""

from django.urls import URLPattern, URLResolver, path

from reports.api import views

app_name = "reports-api"
urlpatterns: list[URLPattern | URLResolver] = [
    path("reports/", views.ReportListCreateApi.as_view(), name="report-list"),
    path(
        "report-builds/<int:build_id>/",
        views.ReportBuildDetailApi.as_view(),
        name="report-build-detail",
    ),
    path(
        "reports/<int:report_id>/",
        views.ReportDetailApi.as_view(),
        name="report-detail",
    ),
    path(
        "reports/<int:report_id>/issue/",
        views.ReportIssueApi.as_view(),
        name="report-issue",
    ),
    path(
        "reports/<int:report_id>/wording-confirmations/",
        views.ReportWordingApi.as_view(),
        name="report-wording",
    ),
    path(
        "reports/<int:report_id>/download/<slug:export_format>/",
        views.ReportDownloadApi.as_view(),
        name="report-download",
    ),
]
