from django.urls import URLPattern, URLResolver, path

from agents import views

app_name = "agents"
urlpatterns: list[URLPattern | URLResolver] = [
    path("cases/<int:case_id>/runs/", views.case_runs, name="case_runs"),
    path("cases/<int:case_id>/runs/start/", views.case_run_start, name="run_start"),
    path(
        "cases/<int:case_id>/runs/<int:run_id>/",
        views.case_run_detail,
        name="run_detail",
    ),
]
