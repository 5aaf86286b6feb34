from django.urls import URLPattern, URLResolver, path

from reports import views

app_name = "reports"
urlpatterns: list[URLPattern | URLResolver] = [
    path("cases/<int:case_id>/", views.case_reports, name="case_reports"),
]
