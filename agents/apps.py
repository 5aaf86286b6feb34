from django.apps import AppConfig
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _


class AgentsConfig(AppConfig):
    name = "agents"
    verbose_name = _("Agents")

    def ready(self) -> None:
        """Fail closed: a policy without an evaluator, an evaluator without a
        policy, or a tool without its node stops the application here, before
        any request or task can reach the gate."""
        from agents.domain.policies import PolicyGraphError
        from agents.policy_graph import compiled_policies
        from agents.receivers import start_extraction_after_ingestion
        from evidence.signals import document_ready

        document_ready.connect(
            start_extraction_after_ingestion, dispatch_uid="agents-extract-on-ready"
        )
        compiled_policies.cache_clear()
        try:
            compiled_policies()
        except PolicyGraphError as exc:
            raise ImproperlyConfigured(str(exc)) from exc
