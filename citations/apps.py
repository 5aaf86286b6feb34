from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CitationsConfig(AppConfig):
    name = "citations"
    verbose_name = _("Citations")

    def ready(self) -> None:
        from citations.corpus import corpus_dir_default
        from citations.corpus.registry import law_index_install

        # lazy: the registry file is read on the first look-up of a law name
        law_index_install(corpus_dir=corpus_dir_default())
