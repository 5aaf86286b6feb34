from django.urls import URLPattern, URLResolver, path

from citations import views

app_name = "citations"
urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.citation_check, name="check"),
]
