from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OntologyConfig(AppConfig):
    name = "ontology"
    verbose_name = _("Ontology")
