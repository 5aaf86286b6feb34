import pytest

from cases.models import WorkerPing
from cases.services import worker_ping_dispatch

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_task_dispatched_on_commit_runs_on_a_real_worker(celery_worker):
    ping = worker_ping_dispatch()

    done = celery_worker.wait_for(
        lambda: WorkerPing.objects.filter(pk=ping.pk, done_at__isnull=False).first(),
        timeout=60,
    )

    assert done.worker  # the worker's host name, written by the worker process
    assert "worker_ping_task" in celery_worker.log()


def test_task_is_not_sent_when_the_transaction_rolls_back(
    celery_worker, django_capture_on_commit_callbacks
):
    from django.db import transaction

    with pytest.raises(RuntimeError), transaction.atomic():
        ping = worker_ping_dispatch()
        raise RuntimeError("abort")
    assert not WorkerPing.objects.filter(pk=ping.pk).exists()
