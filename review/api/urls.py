"""Review API under /api/v1/review/ (namespace ``review-api``)."""

from django.urls import URLPattern, URLResolver, path

from review.api import views

app_name = "review-api"
urlpatterns: list[URLPattern | URLResolver] = [
    path("review/proposals/", views.ProposalListApi.as_view(), name="proposal-list"),
    path(
        "review/proposals/bulk/", views.ProposalBulkApi.as_view(), name="proposal-bulk"
    ),
    path(
        "review/proposals/<int:proposal_id>/",
        views.ProposalDetailApi.as_view(),
        name="proposal-detail",
    ),
    path(
        "review/proposals/<int:proposal_id>/decide/",
        views.ProposalDecideApi.as_view(),
        name="proposal-decide",
    ),
    path(
        "review/proposals/<int:proposal_id>/claim/",
        views.ProposalClaimApi.as_view(),
        name="proposal-claim",
    ),
    path("review/decisions/", views.DecisionListApi.as_view(), name="decision-list"),
    path("review/facts/", views.FactListApi.as_view(), name="fact-list"),
    path("review/facts/assert/", views.FactAssertApi.as_view(), name="fact-assert"),
    path("review/facts/manual/", views.FactManualApi.as_view(), name="fact-manual"),
    path(
        "review/facts/<int:fact_id>/",
        views.FactDetailApi.as_view(),
        name="fact-detail",
    ),
    path(
        "review/facts/<int:fact_id>/confirm/",
        views.FactConfirmApi.as_view(),
        name="fact-confirm",
    ),
    path(
        "review/facts/<int:fact_id>/dispute/",
        views.FactDisputeApi.as_view(),
        name="fact-dispute",
    ),
    path("review/terms/", views.TermCandidateListApi.as_view(), name="term-list"),
    path(
        "review/terms/<int:candidate_id>/decide/",
        views.TermCandidateDecideApi.as_view(),
        name="term-decide",
    ),
    path(
        "review/ontology-extension/",
        views.OntologyExtensionLatestApi.as_view(),
        name="ontology-extension",
    ),
]
