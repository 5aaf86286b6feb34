"""Evidence tab and page viewer. Included into the ``evidence`` namespace by
``evidence/urls.py``."""

from django.urls import URLPattern, URLResolver, path

from evidence import views_search

PAGE = "cases/<int:case_id>/documents/<int:document_id>/pages/<int:number>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path(
        "cases/<int:case_id>/search/",
        views_search.case_evidence,
        name="case_evidence",
    ),
    path(PAGE, views_search.page_view, name="page_view"),
    path(f"{PAGE}image.png", views_search.page_image, name="page_image"),
]
