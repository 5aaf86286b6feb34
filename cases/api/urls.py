"""Cases API under /api/v1/ (namespace ``cases-api``)."""

from typing import Any

from django.urls import URLPattern, URLResolver, path

from cases.api import views

app_name = "cases-api"

_COLLECTION: dict[str, Any] = {"get": "list", "post": "create"}
_CASE_ITEM: dict[str, Any] = {"get": "retrieve", "patch": "partial_update"}
_ITEM: dict[str, Any] = {
    "get": "retrieve",
    "patch": "partial_update",
    "delete": "destroy",
}

urlpatterns: list[URLPattern | URLResolver] = [
    path("auth/token/", views.AuthTokenObtainApi.as_view(), name="auth-token"),
    path("me/", views.MeApi.as_view(), name="me"),
    path("cases/", views.CaseViewSet.as_view(_COLLECTION), name="case-list"),
    path(
        "cases/<int:case_id>/",
        views.CaseViewSet.as_view(_CASE_ITEM),
        name="case-detail",
    ),
    path(
        "cases/<int:case_id>/parties/",
        views.PartyViewSet.as_view(_COLLECTION),
        name="party-list",
    ),
    path(
        "cases/<int:case_id>/parties/<int:party_id>/",
        views.PartyViewSet.as_view(_ITEM),
        name="party-detail",
    ),
    path(
        "cases/<int:case_id>/claims/",
        views.ClaimViewSet.as_view(_COLLECTION),
        name="claim-list",
    ),
    path(
        "cases/<int:case_id>/claims/<int:claim_id>/",
        views.ClaimViewSet.as_view(_ITEM),
        name="claim-detail",
    ),
]
