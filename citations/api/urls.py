from django.urls import URLPattern, URLResolver

app_name = "citations-api"
urlpatterns: list[URLPattern | URLResolver] = []
