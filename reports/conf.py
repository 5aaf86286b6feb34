"""When the reports' model refuter runs. It uses the same OpenAI-compatible
provider settings as the agents app (``BELEGT_LLM_*``, read in
``config/settings``): when ``BELEGT_REPORT_MODEL_REFUTER`` is ``on``, or
``auto`` (default) and a model is configured (``BELEGT_LLM_MODEL``)."""

from __future__ import annotations

from django.conf import settings


def model_refuter_enabled() -> bool:
    mode = str(settings.BELEGT_REPORT_MODEL_REFUTER).lower()
    if mode in ("off", "0", "false", "no"):
        return False
    return bool(settings.BELEGT_LLM_MODEL)
