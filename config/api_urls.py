"""Every app's API under /api/v1/."""

from django.urls import include, path

urlpatterns = [
    path("", include("cases.api.urls")),
    path("", include("evidence.api.urls")),
    path("", include("agents.api.urls")),
    path("", include("review.api.urls")),
    path("", include("ontology.api.urls")),
    path("", include("citations.api.urls")),
    path("", include("reports.api.urls")),
]
