from django.urls import URLPattern, URLResolver

app_name = "ontology"
urlpatterns: list[URLPattern | URLResolver] = []
