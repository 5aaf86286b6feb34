from django.urls import URLPattern, URLResolver, path

from review import views, views_facts, views_manual

app_name = "review"
urlpatterns: list[URLPattern | URLResolver] = [
    path("cases/<int:case_id>/", views.case_review, name="case_review"),
    path("cases/<int:case_id>/facts/", views_facts.case_facts, name="case_facts"),
    path(
        "cases/<int:case_id>/facts/manual/",
        views_manual.manual_fact,
        name="manual_fact",
    ),
    path(
        "cases/<int:case_id>/new/",
        views.case_new_proposals,
        name="case_new_proposals",
    ),
    path("queue/", views.queue, name="queue"),
    path(
        "decisions/<int:decision_id>/undo/",
        views.decision_undo_view,
        name="decision_undo",
    ),
    path("queue/bulk/", views.proposals_bulk, name="bulk"),
    path("proposals/<int:proposal_id>/", views.proposal_detail, name="proposal_detail"),
    path(
        "proposals/<int:proposal_id>/decide/",
        views.proposal_decide,
        name="proposal_decide",
    ),
    path(
        "proposals/<int:proposal_id>/claim/",
        views.proposal_claim_view,
        name="proposal_claim",
    ),
    path("facts/<int:fact_id>/", views_facts.fact_detail, name="fact_detail"),
    path(
        "facts/<int:fact_id>/confirm/",
        views_facts.fact_confirm_view,
        name="fact_confirm",
    ),
    path(
        "facts/<int:fact_id>/dispute/",
        views_facts.fact_dispute_view,
        name="fact_dispute",
    ),
    path("terms/", views_facts.term_queue, name="terms"),
    path(
        "terms/<int:candidate_id>/decide/",
        views_facts.term_decide,
        name="term_decide",
    ),
]
