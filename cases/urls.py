from django.urls import path

from cases import views

app_name = "cases"
urlpatterns = [
    path("", views.case_list, name="list"),
]
