from django.urls import URLPattern, URLResolver, path

from ontology import views

app_name = "ontology"
urlpatterns: list[URLPattern | URLResolver] = [
    path("cases/<int:case_id>/", views.case_requirements, name="case_requirements"),
    path(
        "cases/<int:case_id>/verdicts/",
        views.case_requirements_verdicts,
        name="case_requirements_verdicts",
    ),
]
