from django.urls import URLPattern, URLResolver, include, path

app_name = "evidence-api"
urlpatterns: list[URLPattern | URLResolver] = [
    # Upload, list and retrieve documents with their ingestion state.
    path("", include("evidence.api.documents")),
    # Search and page images: the search helper's endpoints.
    path("", include("evidence.api.search")),
]
