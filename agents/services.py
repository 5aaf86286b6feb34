"""Starting and executing agent runs. Every run has a task envelope; its steps
are recorded as they happen; every proposal it makes passes the tool gate.

``extraction_run_start`` is the entry point for the ingestion pipeline (after a
document is ready), the command line and the case page."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F, Q
from django.utils import timezone

from agents.approvals import held_call_decisions_deliver, held_call_record
from agents.domain.envelope import TaskEnvelope
from agents.domain.gate import Gate, GateVerdict, ToolCall
from agents.domain.loop import (
    AgentLoop,
    ChunkInput,
    Pricing,
    Provider,
    ProviderError,
    RunStatus,
    StepRecord,
)
from agents.domain.policies import EVALUATORS
from agents.domain.prompts import COMPLIANCE_GOAL, batches, extraction_episode
from agents.domain.tools import EXTRACTION_TOOLS, TOOL_SPECS
from agents.domain.world import ChunkView
from agents.extraction.compliance import COMPLIANCE_CLAIM_TYPES, regimes_of
from agents.models import AgentRun, AgentStep, HeldToolCall
from agents.policy_graph import compiled_policies
from agents.providers import provider_get
from agents.tools import tool_implementations
from agents.world import DjangoWorld
from cases.audit import audit_event_record
from cases.errors import DomainError
from cases.models import Case
from cases.work import work_lock, work_stale_before, work_worker_alive
from evidence.models import Chunk, SourceDocument

logger = logging.getLogger(__name__)

# The goal the model is given (English, as its prompt); the run page shows it
# from its code and parameters in the reader's language (run_text.py).
EXTRACTION_GOAL_CODE = "extraction"
EXTRACTION_CLAIM_TYPE = "Verzugsschaden"
EXTRACTION_GOAL = (
    f"Propose the facts of this {EXTRACTION_CLAIM_TYPE} case found in its documents: "
    "contract, invoice and due dates, reminders and their delivery, refusals to "
    "pay, amounts, damage items, interest and excuses."
)


# A compliance assessment's goal (the model's prompt gives it as
# agents.domain.prompts.COMPLIANCE_GOAL); its code carries the regimes.
COMPLIANCE_GOAL_CODE = "compliance"


def _case_regimes(case: Case) -> list[str]:
    """The regimes the case's compliance claims examine (gdpr, aia, dora)."""
    return sorted(regimes_of(case.claims.values_list("claim_type", flat=True)))


class RunNotStartable(DomainError):
    code = "run_not_startable"


# Failure codes the run page explains (templates/agents/run_detail.html).
WORKER_LOST = "worker_lost"

# Advisory-lock namespace of agent runs (first key of the two-key form); the
# ingestion uses 0x626C6702.
_LOCK_RUN = 0x62_6C_67_10


def _run_lock(run_id: int) -> contextlib.AbstractContextManager[bool]:
    """A session lock held while a run executes (cases/work.py: it dies with
    a killed worker's connection, so a free lock on a "running" run means its
    worker is gone)."""
    return work_lock(_LOCK_RUN, run_id)


def _run_worker_alive(run_id: int) -> bool:
    """Whether some session holds the run's lock (its worker still runs)."""
    return work_worker_alive(_LOCK_RUN, run_id)


def _stale_before() -> Any:
    return work_stale_before()


def _heartbeat(run_id: int) -> None:
    AgentRun.objects.filter(pk=run_id).update(heartbeat_at=timezone.now())


def envelope_for_extraction(
    *, case: Case, actor: Any, document: SourceDocument | None = None, **overrides: Any
) -> TaskEnvelope:
    values: dict[str, Any] = {
        # A compliance assessment pursues its own goal (the prompt's), and
        # the run page names it rather than the Verzug one.
        "goal": COMPLIANCE_GOAL if _case_regimes(case) else EXTRACTION_GOAL,
        "actor_id": actor.pk,
        "case_id": case.pk,
        "allowed_tools": EXTRACTION_TOOLS,
        "step_limit": settings.BELEGT_AGENT_STEP_LIMIT,
        "token_budget": settings.BELEGT_AGENT_TOKEN_BUDGET,
        "cost_budget_cents": settings.BELEGT_AGENT_COST_BUDGET_CENTS,
        "identical_failure_limit": settings.BELEGT_AGENT_IDENTICAL_FAILURE_LIMIT,
        "document_id": document.pk if document is not None else None,
    }
    allowed = overrides.get("allowed_tools", EXTRACTION_TOOLS)
    held = [t for t in settings.BELEGT_AGENT_HUMAN_APPROVAL_TOOLS if t in allowed]
    if held:
        values["approval"] = {"per_tool": {tool: "human" for tool in held}}
    values.update(overrides)
    return TaskEnvelope.model_validate(values)


def _goal_code(case: Case, goal: str) -> dict[str, Any]:
    if goal == EXTRACTION_GOAL:
        return {
            "goal_code": EXTRACTION_GOAL_CODE,
            "goal_params": {"claim_type": EXTRACTION_CLAIM_TYPE},
        }
    regimes = _case_regimes(case)
    if goal == COMPLIANCE_GOAL and regimes:
        return {"goal_code": COMPLIANCE_GOAL_CODE, "goal_params": {"regimes": regimes}}
    return {}


@transaction.atomic
def agent_run_create(
    *,
    case: Case,
    actor: Any,
    provider: str,
    envelope: TaskEnvelope,
    document: SourceDocument | None = None,
) -> AgentRun:
    if envelope.case_id != case.pk or envelope.actor_id != actor.pk:
        raise RunNotStartable("The envelope names another case or actor.")
    run = AgentRun.objects.create(
        case=case,
        document=document,
        actor=actor,
        provider=provider,
        goal=envelope.goal,
        # Only the standard goals have a code; a goal given otherwise is
        # shown as it was given.
        **_goal_code(case, envelope.goal),
        envelope=envelope.model_dump(mode="json"),
    )
    audit_event_record(
        actor=actor,
        action="agent_run.created",
        target=run,
        case=case,
        data={"provider": provider, "document_id": envelope.document_id},
    )
    return run


class DbRecorder:
    """Writes each step as it happens, so a running run can be watched."""

    def __init__(self, *, run: AgentRun, world: DjangoWorld) -> None:
        self.run = run
        self.world = world
        self._open: AgentStep | None = None

    def around_call(
        self, *, index: int, call: ToolCall, execute: Callable[[], GateVerdict]
    ) -> GateVerdict:
        """One transaction per call: the step row (created first, so that a
        proposal can name it), the proposal, its audit event and the verdict
        commit together or not at all."""
        with transaction.atomic():
            self._open = AgentStep.objects.create(
                run=self.run,
                index=index,
                kind=AgentStep.Kind.TOOL_CALL,
                call_id=call.call_id[:200],
                tool=call.name[:64],
            )
            self.world.current_step_id = self._open.pk
            try:
                return execute()
            finally:
                self._open = None
                self.world.current_step_id = None

    def step(self, record: StepRecord) -> None:
        verdict = record.verdict
        fields: dict[str, Any] = {
            "index": record.index,
            "kind": record.kind,
            "call_id": record.call_id[:200],
            "tool": record.tool[:64],
            "raw_proposal": record.raw,
            "tokens_in": record.tokens_in,
            "tokens_out": record.tokens_out,
            "latency_ms": round(record.latency_ms, 3),
            "model_id": record.model_id[:200],
            "prompt_hash": record.prompt_hash,
            "note": record.note,
            "note_code": record.note_code[:32],
            "note_params": dict(record.note_params),
        }
        if verdict is not None:
            fields.update(
                verdict=verdict.status,
                stage=verdict.stage,
                arguments=dict(verdict.arguments) if verdict.arguments else None,
                rejection=verdict.rejection.model_dump(mode="json")
                if verdict.rejection
                else None,
                observation=dict(verdict.observation),
            )
            if verdict.commit is not None:
                fields.update(
                    committed_type=verdict.commit.object_type,
                    committed_id=verdict.commit.object_id,
                )
        if record.kind == "tool_call" and self._open is not None:
            AgentStep.objects.filter(pk=self._open.pk).update(**fields)
            step_id: int | None = self._open.pk
        else:
            step_id = AgentStep.objects.create(run=self.run, **fields).pk
        delay = float(settings.BELEGT_AGENT_STEP_DELAY)
        if delay:
            time.sleep(delay)
        if record.kind == "tool_call":
            progress: dict[str, Any] = {
                "steps": F("steps") + 1,
                "heartbeat_at": timezone.now(),
            }
            if verdict is not None and verdict.status == "rejected":
                progress["rejected"] = F("rejected") + 1
            if verdict is not None and verdict.status == "ok":
                progress["accepted"] = F("accepted") + 1
                if (
                    verdict.commit is not None
                    and verdict.commit.created
                    and verdict.commit.object_type == "extraction_proposal"
                ):
                    progress["proposals_created"] = F("proposals_created") + 1
            if (
                verdict is not None
                and verdict.status == "approval_required"
                and held_call_record(
                    run=self.run, step_id=step_id, record=record, verdict=verdict
                )
            ):
                progress["held"] = F("held") + 1
            AgentRun.objects.filter(pk=self.run.pk).update(**progress)
        else:
            _heartbeat(self.run.pk)

    def decisions(self) -> list[dict[str, Any]]:
        """Approval decisions on this run's held calls that the run has not
        seen yet, as observations (each is delivered once)."""
        return held_call_decisions_deliver(run=self.run)


def _chunk_queryset(case: Case, document: SourceDocument | None) -> Any:
    queryset = Chunk.objects.filter(case=case)
    if document is not None:
        queryset = queryset.filter(document=document)
    return queryset


def _chunk_pages(
    case: Case, document: SourceDocument | None, *, page_size: int
) -> Iterator[list[ChunkInput]]:
    """The run's chunks in reading order (document, ordinal), one page of
    ``page_size`` at a time by keyset (no OFFSET, no whole case in memory):
    a 2,000-page file is read as it is worked through."""
    after: tuple[int, int] | None = None
    while True:
        queryset = _chunk_queryset(case, document)
        if after is not None:
            queryset = queryset.filter(
                Q(document_id__gt=after[0])
                | Q(document_id=after[0], ordinal__gt=after[1])
            )
        rows = list(
            queryset.order_by("document_id", "ordinal").values_list(
                "id",
                "document_id",
                "document__filename",
                "page_start",
                "page_end",
                "text",
                "ordinal",
            )[:page_size]
        )
        if not rows:
            return
        yield [
            ChunkInput(
                chunk_id=pk,
                document_id=doc_id,
                document=filename,
                pages=tuple(range(page_start, page_end + 1)),
                text=text,
            )
            for pk, doc_id, filename, page_start, page_end, text, _ordinal in rows
        ]
        after = (rows[-1][1], rows[-1][6])


def _episodes(
    *, run: AgentRun, world: DjangoWorld, envelope: TaskEnvelope
) -> Iterator[Any]:
    """Extraction episodes over the run's chunks, paged from the database;
    the run's progress (chunks read) is written as each episode is handed
    to the model (before its first turn), so its page can show it while the
    run goes."""
    fact_types = world.fact_types()
    claim_types = tuple(run.case.claims.values_list("claim_type", flat=True))
    if any(c in COMPLIANCE_CLAIM_TYPES for c in claim_types):
        # A compliance assessment: the model is offered its claims' element,
        # context and instrument keys, not the whole vocabulary (a case with
        # a Verzug claim as well keeps the kinds of both).
        vocabulary = world.vocabulary()
        fact_types = {
            key: kind
            for key, kind in fact_types.items()
            if (info := vocabulary.get(key)) is not None
            and info.claim_types & set(claim_types)
        }
    page_size = max(1, int(settings.BELEGT_AGENT_CHUNK_PAGE))
    for page in _chunk_pages(run.case, run.document, page_size=page_size):
        world.prime_chunks([ChunkView(c.chunk_id, c.document_id, c.text) for c in page])
        for batch in batches(page, max_chars=settings.BELEGT_AGENT_BATCH_CHARS):
            AgentRun.objects.filter(pk=run.pk).update(
                chunks_read=F("chunks_read") + len(batch),
                heartbeat_at=timezone.now(),
            )
            yield extraction_episode(
                chunks=batch,
                fact_types=fact_types,
                goal=envelope.goal,
                claim_types=claim_types,
            )


def agent_run_execute(
    *, run: AgentRun, provider: Provider | None = None, claim: str = ""
) -> AgentRun:
    """Run an extraction to its end (finish, limit or circuit breaker) and
    store the outcome. Safe to call for a run that already ended (no-op) and
    for one that is being executed elsewhere (no-op).

    ``claim`` names this execution (the Celery task id; a redelivered or
    retried task keeps its id). A "running" run is taken over when its worker
    is gone (its lock is free) and the claim is ours or its heartbeat is older
    than ``BELEGT_STUCK_AFTER_SECONDS``. The takeover replays the run from its
    start: every commit is keyed by the call id, so no proposal is made twice.
    After ``BELEGT_AGENT_RUN_MAX_ATTEMPTS`` executions the run ends ``failed``
    with the code ``worker_lost``."""
    with _run_lock(run.pk) as acquired:
        if not acquired:
            logger.info("agent run %s is being executed elsewhere", run.pk)
            run.refresh_from_db()
            return run
        return _execute_claimed(run=run, provider=provider, claim=claim)


def _claim(run: AgentRun, claim: str) -> bool:
    """Take the run (we hold its lock): a queued run, or a running one whose
    execution was ours or went silent."""
    takeover = Q(status=AgentRun.Status.RUNNING) & (
        Q(heartbeat_at__lt=_stale_before())
        | Q(heartbeat_at__isnull=True, started_at__lt=_stale_before())
    )
    if claim:
        takeover |= Q(status=AgentRun.Status.RUNNING, claimed_by=claim)
    now = timezone.now()
    claimed = AgentRun.objects.filter(
        Q(pk=run.pk) & (Q(status=AgentRun.Status.QUEUED) | takeover)
    ).update(
        status=AgentRun.Status.RUNNING,
        started_at=now,
        heartbeat_at=now,
        claimed_by=claim[:200],
        attempts=F("attempts") + 1,
    )
    run.refresh_from_db()
    return claimed == 1


def _execute_claimed(
    *, run: AgentRun, provider: Provider | None, claim: str
) -> AgentRun:
    if not _claim(run, claim):
        return run
    if run.attempts > int(settings.BELEGT_AGENT_RUN_MAX_ATTEMPTS):
        lost = run.attempts - 1
        return _finish(
            run,
            status=RunStatus.FAILED,
            reason=f"the worker was lost {lost} times",
            reason_code=WORKER_LOST,
            reason_params={"count": lost},
            failure_code=WORKER_LOST,
            attempts=lost,
        )
    if run.attempts > 1:
        # A replay. The interrupted attempt's steps stay on record (proposals
        # name them); a marker step shows where the new attempt begins.
        AgentStep.objects.create(
            run=run,
            index=0,
            kind=AgentStep.Kind.LIMIT,
            note=f"resumed after a lost worker (attempt {run.attempts})",
            note_code="resumed",
            note_params={"attempt": run.attempts},
        )
        logger.warning("agent run %s resumed (attempt %s)", run.pk, run.attempts)
    try:
        return _execute(run=run, provider=provider)
    except (OperationalError, InterfaceError):
        # Transient database trouble: the run stays "running" under our claim
        # and the task's retry takes it over (our lock is released on the way out).
        raise


def _execute(*, run: AgentRun, provider: Provider | None) -> AgentRun:
    envelope = TaskEnvelope.model_validate(run.envelope)
    case = run.case
    world = DjangoWorld(case=case, actor=run.actor, document_id=envelope.document_id)
    world.run_id = run.pk
    # The case's firm's vocabulary as of the run's start: terms its curators
    # accepted are known fact types, another firm's never are.
    world.vocabulary()
    try:
        provider = provider or provider_get(run.provider)
    except (ProviderError, ValueError) as exc:  # not configured, unknown name
        return _finish(
            run,
            status=RunStatus.FAILED,
            reason=f"provider: {exc}",
            reason_code="provider_unavailable",
            reason_params={"detail": str(exc)[:1000]},
        )
    if hasattr(provider, "tools"):
        provider.tools = [
            TOOL_SPECS[name].openai_tool() for name in sorted(envelope.allowed_tools)
        ]
    world.model_id = getattr(provider, "model", "") or provider.name
    gate = Gate(
        envelope=envelope,
        tools=TOOL_SPECS,
        implementations=tool_implementations(),
        policies=compiled_policies(),
        evaluators=EVALUATORS,
        world=world,
    )
    loop = AgentLoop(
        envelope=envelope,
        provider=provider,
        gate=gate,
        recorder=DbRecorder(run=run, world=world),
        run_key=f"run{run.pk}",
        pricing=Pricing(
            input_per_1k=settings.BELEGT_LLM_PRICE_IN_CENTS_PER_1K,
            output_per_1k=settings.BELEGT_LLM_PRICE_OUT_CENTS_PER_1K,
        )
        if run.provider == "openai"
        else Pricing(),
    )
    AgentRun.objects.filter(pk=run.pk).update(
        chunks_total=_chunk_queryset(case, run.document).count(), chunks_read=0
    )
    episodes = _episodes(run=run, world=world, envelope=envelope)
    try:
        outcome = loop.run(episodes)
    except (OperationalError, InterfaceError):
        raise
    except Exception as exc:
        logger.exception("agent run %s crashed", run.pk)
        _finish(
            run,
            status=RunStatus.FAILED,
            reason=f"{type(exc).__name__}: {exc}",
            reason_code="crashed",
            reason_params={"error": f"{type(exc).__name__}: {exc}"[:1000]},
        )
        raise
    finally:
        close = getattr(provider, "close", None)
        if callable(close):
            close()
    created = AgentStep.objects.filter(
        run=run,
        verdict="ok",
        committed_type="extraction_proposal",
        observation__result__created=True,
    ).count()
    # Decisions a lawyer made on held calls while the run went count too.
    decided = HeldToolCall.objects.filter(run=run)
    return _finish(
        run,
        status=outcome.status,
        reason=outcome.reason,
        reason_code=outcome.reason_code,
        reason_params=outcome.reason_params,
        model_id=outcome.model_id,
        accepted=outcome.accepted
        + decided.filter(status=HeldToolCall.Status.APPROVED).count(),
        rejected=outcome.rejected
        + decided.filter(
            status__in=(HeldToolCall.Status.REJECTED, HeldToolCall.Status.FAILED)
        ).count(),
        rejections_by_code=outcome.rejections_by_code,
        tokens_in=outcome.tokens_in,
        tokens_out=outcome.tokens_out,
        cost_cents=outcome.cost_cents,
        proposals_created=created,
    )


@transaction.atomic
def _finish(run: AgentRun, *, status: str, reason: str, **fields: Any) -> AgentRun:
    AgentRun.objects.filter(pk=run.pk).update(
        status=status, reason=reason[:2000], finished_at=timezone.now(), **fields
    )
    run.refresh_from_db()
    audit_event_record(
        actor=run.actor,
        action="agent_run.finished",
        target=run,
        case=run.case,
        data={
            "status": run.status,
            "steps": run.steps,
            "proposals_created": run.proposals_created,
            "rejected": run.rejected,
        },
    )
    return run


def extraction_run_start(
    *,
    case: Case,
    document: SourceDocument | None = None,
    actor: Any,
    provider: str | None = None,
    run_async: bool = True,
) -> AgentRun:
    """Start an extraction of a case (or one document of it). With
    ``run_async`` the run is queued and a worker executes it once this
    transaction commits; otherwise it runs here and returns finished."""
    if document is not None and document.case_id != case.pk:
        raise RunNotStartable("The document belongs to another case.")
    if actor is None or not getattr(actor, "pk", None):
        raise RunNotStartable("An extraction acts for a user; none was given.")
    provider_name = provider or str(settings.BELEGT_AGENT_PROVIDER)
    envelope = envelope_for_extraction(case=case, actor=actor, document=document)
    run = agent_run_create(
        case=case,
        actor=actor,
        provider=provider_name,
        envelope=envelope,
        document=document,
    )
    if run_async:
        from agents.tasks import extraction_run_task

        transaction.on_commit(lambda: extraction_run_task.delay(run.pk))
        return run
    return agent_run_execute(run=run)


def _dispatch_run(run_id: int) -> None:
    from agents.tasks import extraction_run_task

    transaction.on_commit(lambda: extraction_run_task.delay(run_id))


def agent_runs_recover_stuck() -> dict[str, int]:
    """The agents' part of the stuck-work sweep (Celery beat). A run counts as
    stuck when it shows no sign of life for ``BELEGT_STUCK_AFTER_SECONDS`` and
    no worker holds its lock: a running one is queued again while attempts
    remain, else ends ``failed`` (``worker_lost``); a queued one whose message
    was lost (the SQLAlchemy transport never redelivers the task of a killed
    worker) is dispatched again. Idempotent: each step is a conditional
    update, and a run dispatched twice is executed once."""
    stale = _stale_before()
    counts = {"resumed": 0, "failed": 0, "redispatched": 0}
    max_attempts = int(settings.BELEGT_AGENT_RUN_MAX_ATTEMPTS)
    running = AgentRun.objects.filter(status=AgentRun.Status.RUNNING).filter(
        Q(heartbeat_at__lt=stale) | Q(heartbeat_at__isnull=True, started_at__lt=stale)
    )
    for run in running.order_by("pk"):
        if _run_worker_alive(run.pk):
            continue
        with transaction.atomic():
            if run.attempts >= max_attempts:
                locked = (
                    AgentRun.objects.select_for_update()
                    .filter(
                        pk=run.pk,
                        status=AgentRun.Status.RUNNING,
                        heartbeat_at=run.heartbeat_at,
                    )
                    .first()
                )
                if locked is not None:
                    _finish(
                        run,
                        status=RunStatus.FAILED,
                        reason=f"the worker was lost {run.attempts} times",
                        reason_code=WORKER_LOST,
                        reason_params={"count": run.attempts},
                        failure_code=WORKER_LOST,
                    )
                    counts["failed"] += 1
                continue
            requeued = AgentRun.objects.filter(
                pk=run.pk, status=AgentRun.Status.RUNNING, heartbeat_at=run.heartbeat_at
            ).update(status=AgentRun.Status.QUEUED, heartbeat_at=timezone.now())
            if requeued:
                _dispatch_run(run.pk)
                counts["resumed"] += 1
    queued = AgentRun.objects.filter(
        status=AgentRun.Status.QUEUED, created_at__lt=stale
    ).filter(Q(heartbeat_at__isnull=True) | Q(heartbeat_at__lt=stale))
    for run in queued.order_by("pk"):
        with transaction.atomic():
            marked = AgentRun.objects.filter(
                pk=run.pk, status=AgentRun.Status.QUEUED, heartbeat_at=run.heartbeat_at
            ).update(heartbeat_at=timezone.now())
            if marked:
                _dispatch_run(run.pk)
                counts["redispatched"] += 1
    return counts
