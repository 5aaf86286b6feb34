"""Building a report in a Celery worker, with progress the page polls.

``report_build_start`` checks the request (role, claims), records a queued
``ReportBuild`` and dispatches ``report_build_task`` once the transaction
commits: the web request returns at once. ``report_build_execute`` (in the
worker) claims the build, calls ``report_create`` with a progress callback
that writes the stage and a heartbeat, and ends the build ``succeeded`` with
its report or ``failed`` with a code and a reason the page shows.

Recovery follows the agent runs' rules (cases/work.py): the worker holds the
build's advisory lock; a redelivered task (same task id) or any task after
the heartbeat went silent takes a running build over; the stuck-work sweep
re-dispatches a silent build whose lock is free, or ends it ``failed``
(``worker_lost``) after ``BELEGT_REPORT_BUILD_MAX_ATTEMPTS`` executions. The
report is keyed by the build (``source_call_id``), so a replay after a kill
between storing the report and marking the build finds the report instead
of making a second one."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from cases.audit import audit_event_record
from cases.errors import DomainError
from cases.models import Case, Claim, Membership
from cases.selectors import require_role
from cases.work import work_lock, work_stale_before, work_worker_alive
from reports.domain.drafting import Language
from reports.errors import ClaimNotInCase
from reports.models import Report, ReportBuild
from reports.services.lifecycle import Progress, claims_of_case, report_create

logger = logging.getLogger(__name__)
Status = ReportBuild.Status
Stage = ReportBuild.Stage

# Failure codes the build page explains (templates/reports/build_detail.html).
WORKER_LOST = "worker_lost"
ACTOR_GONE = "actor_gone"
CRASHED = "crashed"

# Advisory-lock namespace of report builds (first key of the two-key form);
# agent runs use 0x626C6710, the ingestion 0x626C6702.
_LOCK_BUILD = 0x62_6C_67_20


def _max_attempts() -> int:
    return int(settings.BELEGT_REPORT_BUILD_MAX_ATTEMPTS)


def _dispatch(build_id: int) -> None:
    from reports.tasks import report_build_task

    transaction.on_commit(lambda: report_build_task.delay(build_id))


@transaction.atomic
def report_build_start(
    *,
    case: Case,
    actor: Any,
    claims: Sequence[Claim] | None = None,
    language: Language = "en",
    drafter: str = Report.Drafter.RULES,
    title: str = "",
) -> ReportBuild:
    """Queue a report of the case's claims (all of them by default) for a
    worker and return the queued build at once. What can be refused now is
    refused now: lawyers only; the claims must belong to the case, and the
    case must have one. Raises RoleRequired, ClaimNotInCase, NoClaims."""
    require_role(actor, Membership.Role.LAWYER)
    claim_list = claims_of_case(case, claims)
    build = ReportBuild.objects.create(
        case=case,
        claim_ids=[c.pk for c in claim_list] if claims is not None else [],
        language=language,
        drafter=drafter,
        title=title[:255],
        created_by=actor,
    )
    audit_event_record(
        actor=actor,
        action="report_build.queued",
        target=build,
        case=case,
        data={"claims": build.claim_ids, "drafter": drafter, "language": language},
    )
    _dispatch(build.pk)
    return build


def _claim(build: ReportBuild, claim: str) -> bool:
    """Take the build (we hold its lock): a queued one, or a running one whose
    execution was ours (a redelivered task keeps its id) or went silent."""
    stale = work_stale_before()
    takeover = Q(status=Status.RUNNING) & (
        Q(heartbeat_at__lt=stale) | Q(heartbeat_at__isnull=True, started_at__lt=stale)
    )
    if claim:
        takeover |= Q(status=Status.RUNNING, claimed_by=claim)
    now = timezone.now()
    claimed = ReportBuild.objects.filter(
        Q(pk=build.pk) & (Q(status=Status.QUEUED) | takeover)
    ).update(
        status=Status.RUNNING,
        started_at=now,
        heartbeat_at=now,
        claimed_by=claim[:200],
        attempts=F("attempts") + 1,
    )
    build.refresh_from_db()
    return claimed == 1


def _progress(build: ReportBuild) -> Progress:
    """Write each stage and each finding checked, with a heartbeat."""
    delay = float(settings.BELEGT_REPORT_BUILD_STEP_DELAY)

    def report(stage: str, done: int, total: int) -> None:
        ReportBuild.objects.filter(pk=build.pk, status=Status.RUNNING).update(
            stage=stage,
            progress_done=done,
            progress_total=total,
            heartbeat_at=timezone.now(),
        )
        if delay and stage == Stage.GATING:
            time.sleep(delay)

    return report


@transaction.atomic
def _finish(
    build: ReportBuild,
    *,
    status: str,
    report: Report | None = None,
    failure_code: str = "",
    reason: str = "",
    **fields: Any,
) -> ReportBuild:
    ReportBuild.objects.filter(pk=build.pk).update(
        status=status,
        stage=Stage.DONE if status == Status.SUCCEEDED else F("stage"),
        report=report,
        failure_code=failure_code[:40],
        reason=reason[:2000],
        finished_at=timezone.now(),
        **fields,
    )
    build.refresh_from_db()
    audit_event_record(
        actor=build.created_by,
        action="report_build.finished",
        target=build,
        case=build.case,
        data={
            "status": build.status,
            "report": build.report_id,
            "failure_code": build.failure_code,
            "attempts": build.attempts,
        },
    )
    return build


def _lost(build: ReportBuild, *, attempts: int) -> ReportBuild:
    """End a build whose worker was lost too often: ``succeeded`` if an
    attempt stored its report before the kill, else ``failed``."""
    stored = Report.objects.filter(source_call_id=build.call_id).first()
    if stored is not None:
        return _finish(build, status=Status.SUCCEEDED, report=stored, attempts=attempts)
    return _finish(
        build,
        status=Status.FAILED,
        failure_code=WORKER_LOST,
        reason=f"the worker was lost {attempts} times",
        attempts=attempts,
    )


def _claims(build: ReportBuild) -> list[Claim] | None:
    if not build.claim_ids:
        return None
    claims = list(
        Claim.objects.filter(case=build.case, pk__in=build.claim_ids).order_by("id")
    )
    if len(claims) != len(set(build.claim_ids)):
        raise ClaimNotInCase(
            _("A claim of this report was removed from the case."),
            hint=sorted(set(build.claim_ids) - {c.pk for c in claims}),
        )
    return claims


def report_build_execute(*, build: ReportBuild, claim: str = "") -> ReportBuild:
    """Execute a queued build (in a worker) to its end. A build that ended,
    or that another live worker executes, is left alone (no-op). ``claim``
    names this execution (the Celery task id). A domain error ends the build
    ``failed`` with its code and message; any other error ends it ``failed``
    (``crashed``) and is raised again; transient database errors leave it
    running under our claim for the task's retry to take over."""
    with work_lock(_LOCK_BUILD, build.pk) as acquired:
        if not acquired:
            logger.info("report build %s is being executed elsewhere", build.pk)
            build.refresh_from_db()
            return build
        if not _claim(build, claim):
            return build
        if build.attempts > _max_attempts():
            return _lost(build, attempts=build.attempts - 1)
        if build.attempts > 1:
            logger.warning(
                "report build %s resumed (attempt %s)", build.pk, build.attempts
            )
        actor = build.created_by
        if actor is None:
            return _finish(
                build,
                status=Status.FAILED,
                failure_code=ACTOR_GONE,
                reason="the user who asked for the report no longer exists",
            )
        try:
            report = report_create(
                case=build.case,
                actor=actor,
                claims=_claims(build),
                language="de" if build.language == "de" else "en",
                drafter=build.drafter,
                title=build.title,
                call_id=build.call_id,
                progress=_progress(build),
            )
        except (OperationalError, InterfaceError):
            raise
        except DomainError as exc:
            return _finish(
                build, status=Status.FAILED, failure_code=exc.code, reason=exc.message
            )
        except Exception as exc:
            logger.exception("report build %s crashed", build.pk)
            _finish(
                build,
                status=Status.FAILED,
                failure_code=CRASHED,
                reason=f"{type(exc).__name__}: {exc}",
            )
            raise
        return _finish(build, status=Status.SUCCEEDED, report=report)


def report_builds_recover_stuck() -> dict[str, int]:
    """The reports' part of the stuck-work sweep (Celery beat). A build is
    stuck when it shows no sign of life for ``BELEGT_STUCK_AFTER_SECONDS``
    and no worker holds its lock: a running one is queued and dispatched
    again while attempts remain, else it ends ``failed`` (``worker_lost``;
    ``ended`` as ``succeeded`` if an attempt stored its report first); a
    queued one whose message was lost (the SQLAlchemy transport never
    redelivers the task of a killed worker) is dispatched again. Idempotent:
    each step is a conditional update, and a build dispatched twice is
    executed once."""
    stale = work_stale_before()
    counts = {"resumed": 0, "failed": 0, "ended": 0, "redispatched": 0}
    running = ReportBuild.objects.filter(status=Status.RUNNING).filter(
        Q(heartbeat_at__lt=stale) | Q(heartbeat_at__isnull=True, started_at__lt=stale)
    )
    for build in running.order_by("pk"):
        if work_worker_alive(_LOCK_BUILD, build.pk):
            continue
        with transaction.atomic():
            if build.attempts >= _max_attempts():
                locked = (
                    ReportBuild.objects.select_for_update()
                    .filter(
                        pk=build.pk,
                        status=Status.RUNNING,
                        heartbeat_at=build.heartbeat_at,
                    )
                    .first()
                )
                if locked is not None:
                    ended = _lost(build, attempts=build.attempts)
                    counts["failed" if ended.status == Status.FAILED else "ended"] += 1
                continue
            requeued = ReportBuild.objects.filter(
                pk=build.pk, status=Status.RUNNING, heartbeat_at=build.heartbeat_at
            ).update(status=Status.QUEUED, heartbeat_at=timezone.now())
            if requeued:
                _dispatch(build.pk)
                counts["resumed"] += 1
    queued = ReportBuild.objects.filter(
        status=Status.QUEUED, created_at__lt=stale
    ).filter(Q(heartbeat_at__isnull=True) | Q(heartbeat_at__lt=stale))
    for build in queued.order_by("pk"):
        with transaction.atomic():
            marked = ReportBuild.objects.filter(
                pk=build.pk, status=Status.QUEUED, heartbeat_at=build.heartbeat_at
            ).update(heartbeat_at=timezone.now())
            if marked:
                _dispatch(build.pk)
                counts["redispatched"] += 1
    return counts
