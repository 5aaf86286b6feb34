from django.urls import URLPattern, URLResolver

app_name = "agents"
urlpatterns: list[URLPattern | URLResolver] = []
