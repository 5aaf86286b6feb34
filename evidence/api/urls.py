from django.urls import URLPattern, URLResolver, include, path

app_name = "evidence-api"
urlpatterns: list[URLPattern | URLResolver] = [
    # Search and page images: the search helper's endpoints.
    path("", include("evidence.api.search")),
]
