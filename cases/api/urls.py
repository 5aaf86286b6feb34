from django.urls import URLPattern, URLResolver

app_name = "cases-api"
urlpatterns: list[URLPattern | URLResolver] = []
