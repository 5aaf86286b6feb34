from django.urls import URLPattern, URLResolver, path

from citations.api.views import CitationCheckApi

app_name = "citations-api"
urlpatterns: list[URLPattern | URLResolver] = [
    path("citations/check/", CitationCheckApi.as_view(), name="check"),
]
