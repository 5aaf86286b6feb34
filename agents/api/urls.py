from django.urls import URLPattern, URLResolver

app_name = "agents-api"
urlpatterns: list[URLPattern | URLResolver] = []
