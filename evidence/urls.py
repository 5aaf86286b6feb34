from django.urls import URLPattern, URLResolver, path

from evidence import views

app_name = "evidence"
urlpatterns: list[URLPattern | URLResolver] = [
    path("cases/<int:case_id>/documents/", views.case_documents, name="case_documents"),
    path("cases/<int:case_id>/search/", views.case_evidence, name="case_evidence"),
]
