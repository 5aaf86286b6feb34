from django.urls import URLPattern, URLResolver, include, path

from evidence import views

app_name = "evidence"
urlpatterns: list[URLPattern | URLResolver] = [
    path("cases/<int:case_id>/documents/", views.case_documents, name="case_documents"),
    path(
        "cases/<int:case_id>/documents/<int:document_id>/progress/",
        views.document_progress,
        name="document_progress",
    ),
    path(
        "cases/<int:case_id>/documents/<int:document_id>/retry/",
        views.document_retry,
        name="document_retry",
    ),
    path(
        "cases/<int:case_id>/documents/<int:document_id>/download/",
        views.document_download,
        name="document_download",
    ),
    # Evidence tab (search) and page viewer: the search helper's views.
    path("", include("evidence.urls_search")),
]
