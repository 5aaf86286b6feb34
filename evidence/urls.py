from django.urls import URLPattern, URLResolver

app_name = "evidence"
urlpatterns: list[URLPattern | URLResolver] = []
