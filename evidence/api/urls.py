from django.urls import URLPattern, URLResolver

app_name = "evidence-api"
urlpatterns: list[URLPattern | URLResolver] = []
