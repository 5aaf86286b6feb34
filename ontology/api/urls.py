"""Requirements API under /api/v1/ (namespace ``ontology-api``)."""

from django.urls import URLPattern, URLResolver, path

from ontology.api import views

app_name = "ontology-api"
urlpatterns: list[URLPattern | URLResolver] = [
    path(
        "cases/<int:case_id>/evaluation/",
        views.CaseEvaluationApi.as_view(),
        name="case-evaluation",
    ),
    path(
        "cases/<int:case_id>/claims/<int:claim_id>/evaluation/",
        views.ClaimEvaluationApi.as_view(),
        name="claim-evaluation",
    ),
    path("fact-types/", views.FactTypeListApi.as_view(), name="fact-types"),
]
