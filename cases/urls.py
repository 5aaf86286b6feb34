from django.urls import path

from cases import views

app_name = "cases"
urlpatterns = [
    path("", views.case_list, name="list"),
    path("cases/new/", views.case_create, name="create"),
    path("cases/form-row/<str:formset>/", views.case_form_row, name="form_row"),
    path("cases/<int:case_id>/", views.case_detail, name="detail"),
    path("cases/<int:case_id>/edit/", views.case_edit, name="edit"),
    path("cases/<int:case_id>/audit/", views.case_audit, name="audit"),
]
