from django.urls import URLPattern, URLResolver

app_name = "ontology-api"
urlpatterns: list[URLPattern | URLResolver] = []
