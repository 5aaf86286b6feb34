from django.urls import URLPattern, URLResolver, path

from reports import views

app_name = "reports"
urlpatterns: list[URLPattern | URLResolver] = [
    path("cases/<int:case_id>/", views.case_reports, name="case_reports"),
    path(
        "cases/<int:case_id>/create/",
        views.report_create_view,
        name="report_create",
    ),
    path("builds/<int:build_id>/", views.build_detail, name="build_detail"),
    path("<int:report_id>/", views.report_detail, name="report_detail"),
    path("<int:report_id>/issue/", views.report_issue_view, name="report_issue"),
    path("<int:report_id>/wording/", views.report_wording, name="report_wording"),
    path(
        "<int:report_id>/download/<slug:export_format>/",
        views.report_download,
        name="report_download",
    ),
]
