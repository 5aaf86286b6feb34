"""The Celery app. Tasks are thin and call services (see STYLE.md)."""

import os

from celery import Celery
from celery.signals import worker_process_init
from kombu.transport import sqlalchemy as kombu_sqlalchemy

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

# The SQLAlchemy transport (the no-server broker of ``make run``) polls once a
# second by default; passing polling_interval through broker_transport_options
# crashes kombu 5.7, setting it on the class works (STACK-NOTES.md).
kombu_sqlalchemy.Transport.polling_interval = 0.1

app = Celery("belegt")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def query_embedder_warm(**kwargs: object) -> None:
    """Each worker process (after the fork: the engine's threads do not
    survive one) loads and warms the query embedder in the background, so an
    agent's first evidence search does not pay the model's load."""
    from evidence.search_vectors import query_vectors_warm_start

    query_vectors_warm_start()
