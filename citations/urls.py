from django.urls import URLPattern, URLResolver

app_name = "citations"
urlpatterns: list[URLPattern | URLResolver] = []
