from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReviewConfig(AppConfig):
    name = "review"
    verbose_name = _("Review")

    def ready(self) -> None:
        from cases.audit import audit_integrity_check_register
        from review.integrity import decisions_and_facts_verify

        audit_integrity_check_register("review", decisions_and_facts_verify)
