from django.urls import URLPattern, URLResolver, path

from review import views

app_name = "review"
urlpatterns: list[URLPattern | URLResolver] = [
    path("cases/<int:case_id>/", views.case_review, name="case_review"),
]
