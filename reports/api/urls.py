from django.urls import URLPattern, URLResolver

app_name = "reports-api"
urlpatterns: list[URLPattern | URLResolver] = []
