from django.urls import URLPattern, URLResolver, path

from agents import views, views_approvals

app_name = "agents"
urlpatterns: list[URLPattern | URLResolver] = [
    path("cases/<int:case_id>/runs/", views.case_runs, name="case_runs"),
    path("cases/<int:case_id>/runs/start/", views.case_run_start, name="run_start"),
    path(
        "cases/<int:case_id>/runs/<int:run_id>/",
        views.case_run_detail,
        name="run_detail",
    ),
    path("approvals/", views_approvals.approvals, name="approvals"),
    path(
        "cases/<int:case_id>/approvals/",
        views_approvals.case_approvals,
        name="case_approvals",
    ),
    path(
        "cases/<int:case_id>/approvals/<int:held_id>/approve/",
        views_approvals.held_call_approve_view,
        name="held_approve",
    ),
    path(
        "cases/<int:case_id>/approvals/<int:held_id>/reject/",
        views_approvals.held_call_reject_view,
        name="held_reject",
    ),
]
