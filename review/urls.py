from django.urls import URLPattern, URLResolver

app_name = "review"
urlpatterns: list[URLPattern | URLResolver] = []
