from django.urls import URLPattern, URLResolver

app_name = "review-api"
urlpatterns: list[URLPattern | URLResolver] = []
