from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReportsConfig(AppConfig):
    name = "reports"
    verbose_name = _("Reports")

    def ready(self) -> None:
        from citations.services import corpus_version_changed
        from reports.signals import corpus_changed

        corpus_version_changed.connect(corpus_changed, dispatch_uid="reports-stale")
