"""Creating, issuing and staling reports.

``report_create`` drafts, gates and stores a draft report in one transaction
(the model calls, if any, happen before it opens). ``report_issue`` renders
both exports, stores them with their SHA-256 and moves the report from draft
to issued with a conditional update; from then on the database refuses every
change to it. Regenerating is ``report_create`` again: a new report."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from datetime import date
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cases.audit import audit_event_record
from cases.models import Case, Claim, Membership
from cases.selectors import require_role
from citations.models import Instrument
from citations.selectors import version_valid_at
from evidence.models import Chunk
from reports.domain.drafting import FindingDraft, Language
from reports.errors import ClaimNotInCase, NoClaims, ReportNotDraft
from reports.models import (
    Finding,
    FindingCitation,
    GateVerdict,
    Report,
    ReportExport,
    ReportStaleMark,
)
from reports.services.drafting import argument_draft, known_labels, rules_drafts
from reports.services.gates import (
    CHECKED_STATUSES,
    GatedFinding,
    GateTimings,
    corpus_versions_used,
    findings_gate,
)
from review.models import Fact
from review.selectors import fact_records_for_case

logger = logging.getLogger(__name__)
Role = Membership.Role

# ``progress(stage, done, total)``: where a build stands (ReportBuild.Stage
# values; done and total count findings through the gates).
Progress = Callable[[str, int, int], None]


def claims_of_case(case: Case, claims: Sequence[Claim] | None) -> list[Claim]:
    if claims is None:
        found = list(Claim.objects.filter(case=case).order_by("id"))
    else:
        found = list(claims)
        for claim in found:
            if claim.case_id != case.pk:
                raise ClaimNotInCase(
                    _("This claim does not belong to the case."), hint=claim.pk
                )
    if not found:
        raise NoClaims(
            _("The case has no claim or checklist to report on."),
            hint=_("Add a claim on the case page first."),
        )
    return found


def _evidence_texts(case: Case, drafts: Sequence[FindingDraft]) -> dict[int, str]:
    ids = {e.chunk_id for d in drafts for e in d.evidence if e.chunk_id is not None}
    return dict(Chunk.objects.filter(case=case, pk__in=ids).values_list("pk", "text"))


def _case_evidence(case: Case) -> list[str]:
    """Passages and values of the case's established facts: where a quotation
    in a finding may come from besides the cited provisions."""
    from reports.domain.drafting import fact_value_text

    texts: list[str] = []
    chunk_ids: set[int] = set()
    for record in fact_records_for_case(case=case):
        if not record.established:
            continue
        texts += [fact_value_text(record, "de"), fact_value_text(record, "en")]
        chunk_ids |= {ref.chunk_id for ref in record.evidence}
    texts += Chunk.objects.filter(case=case, pk__in=chunk_ids).values_list(
        "text", flat=True
    )
    return texts


def _store(
    *, report: Report, gated: Sequence[GatedFinding], claims: dict[int, Claim]
) -> None:
    findings = Finding.objects.bulk_create(
        [
            Finding(
                report=report,
                position=position,
                claim=claims[g.draft.claim_id],
                claim_type=g.draft.claim_type,
                requirement_key=g.draft.requirement_key,
                label=g.draft.label[:300],
                verdict_status=g.draft.verdict_status,
                verdict_label=g.draft.verdict_label,
                text=g.draft.text,
                drafter=g.draft.drafter,
                supporting_fact_ids=list(g.draft.supporting_fact_ids),
                evidence=[e.model_dump(mode="json") for e in g.draft.evidence],
                outcome=(
                    Finding.Outcome.PRINTED if g.printed else Finding.Outcome.FLAGGED
                ),
                flag_reason="" if g.printed else g.flag_reason,
            )
            for position, g in enumerate(gated, start=1)
        ]
    )
    citations = []
    verdicts = []
    for finding, g in zip(findings, gated, strict=True):
        for position, c in enumerate(g.citations, start=1):
            info = c.result.version
            citations.append(
                FindingCitation(
                    finding=finding,
                    position=position,
                    raw=c.checked.raw[:300],
                    canonical=c.checked.canonical[:300],
                    status=c.result.status,
                    reason=c.result.reason or "",
                    instrument=info.instrument if info else "",
                    version_label=(info.label if info else "")[:300],
                    version_language=info.language if info else "",
                    version_valid_from=info.valid_from if info else None,
                    version_sha256=info.sha256 if info else "",
                    provision_path=(c.result.provision_path or "")[:200],
                    heading=c.result.heading[:500],
                    text=c.checked.text,
                    text_sha256=c.text_sha256,
                    wording_confirmation=c.confirmation,
                )
            )
        for gate, items in (
            (GateVerdict.Gate.CITATIONS, g.citation_verdicts),
            (GateVerdict.Gate.REFUTATION, g.refutations),
        ):
            for v in items:
                is_model = v.refuter == "model"
                verdicts.append(
                    GateVerdict(
                        finding=finding,
                        gate=gate,
                        refuter=v.refuter[:40],
                        verdict=v.verdict,
                        reason=v.reason,
                        passage=v.passage,
                        model_id=g.model_id if is_model else "",
                        raw=g.model_raw if is_model else "",
                    )
                )
    FindingCitation.objects.bulk_create(citations, batch_size=1000)
    GateVerdict.objects.bulk_create(verdicts, batch_size=1000)


def report_create(
    *,
    case: Case,
    actor: Any,
    claims: Sequence[Claim] | None = None,
    language: Language = "en",
    drafter: str = "rules",
    title: str = "",
    drafts: Sequence[FindingDraft] | None = None,
    timings: GateTimings | None = None,
    call_id: str = "",
    progress: Progress | None = None,
) -> Report:
    """Draft the findings of the case's claims (all of them by default), run
    both gates and store a draft report with every verdict. ``drafter`` is
    ``rules`` or ``model`` (the model phrases findings from approved — i.e.
    established — facts only). ``drafts`` takes findings drafted elsewhere
    (e.g. by the agents' ``draft_argument``); they face the same gates.
    ``call_id`` (an agent's tool call) makes the call idempotent: a replay
    returns the report the first call made. ``progress`` hears of each stage
    and of each finding through the gates (a build's page shows it).
    Lawyers only (actor None: the command line). Raises RoleRequired,
    ClaimNotInCase, NoClaims."""
    if actor is not None:
        require_role(actor, Role.LAWYER)
    if call_id:
        existing = Report.objects.filter(case=case, source_call_id=call_id).first()
        if existing is not None:
            return existing
    claim_list = claims_of_case(case, claims)
    if progress is not None:
        progress("drafting", 0, 0)
    by_id = {c.pk: c for c in claim_list}
    facts = fact_records_for_case(case=case)
    evaluations = []
    if drafts is None:
        if drafter == Report.Drafter.MODEL:
            established = [f.id for f in facts if f.established]
            made: list[FindingDraft] = []
            for claim in claim_list:
                part, evaluation = argument_draft(
                    case=case,
                    claim=claim,
                    approved_evidence_ids=established,
                    language=language,
                    use_model=True,
                )
                made += part
                evaluations.append(evaluation)
            drafts = made
        else:
            drafts, evaluations = rules_drafts(
                case=case, claims=claim_list, language=language, facts=facts
            )
    else:
        for draft in drafts:
            if draft.claim_id not in by_id:
                raise ClaimNotInCase(
                    "A draft names a claim outside this report.", hint=draft.claim_id
                )
        from reports.services.drafting import claim_evaluation

        evaluations = [
            claim_evaluation(case=case, claim=c, facts=facts) for c in claim_list
        ]
    statuses = dict(Fact.objects.filter(case=case).values_list("pk", "status"))
    total = len(drafts)
    if progress is not None:
        progress("gating", 0, total)
    gated = findings_gate(
        drafts=[(d, by_id[d.claim_id].valid_at) for d in drafts],
        fact_statuses=statuses,
        evidence_texts=_evidence_texts(case, drafts),
        known_labels=known_labels(evaluations),
        case_evidence=_case_evidence(case),
        timings=timings,
        organisation_id=case.organisation_id,
        on_checked=(lambda done: progress("gating", done, total))
        if progress is not None
        else None,
        four_eyes=case.organisation.four_eyes_review,
    )
    if progress is not None:
        progress("storing", total, total)
    printed = sum(1 for g in gated if g.printed)
    model_used = any(v.refuter == "model" for g in gated for v in g.refutations)
    summary = {
        "findings": len(gated),
        "printed": printed,
        "flagged": len(gated) - printed,
        "claims": [
            {
                "claim_id": e_claim.pk,
                "claim_type": e.claim_type,
                "label": e.label_de if language == "de" else e.label_en,
                "version_key": e.version_key,
                "valid_at": e.valid_at.isoformat(),
                # the one damage computation the report was built on: the
                # preview and both exports render it, never a recomputation
                "damage": e.damage.model_dump(mode="json") if e.damage else None,
                # the claim-level result (begruendet / unbegruendet / offen,
                # default since, recoverable amount) as the evaluation stated
                # it: the report's summary prints it, never a recomputation
                "result": e.summary,
                "result_text": e.summary_de if language == "de" else e.summary_en,
                "default_from": e.default_from.isoformat() if e.default_from else None,
                "recoverable_cents": e.recoverable_cents,
            }
            for e_claim, e in zip(claim_list, evaluations, strict=False)
        ],
    }
    # What really drafted: a model chosen but not configured (or silent)
    # leaves the rules' drafts, and the report says so (rules_fallback).
    drafted_by = (
        Report.Drafter.MODEL
        if any(d.drafter == Report.Drafter.MODEL for d in drafts)
        else Report.Drafter.RULES
    )
    summary["drafter_requested"] = drafter
    with transaction.atomic():
        # The case row's lock numbers the case's reports one after another.
        Case.objects.select_for_update().filter(pk=case.pk).first()
        number = Report.objects.filter(case=case).count() + 1
        summary["number"] = number
        report = Report.objects.create(
            case=case,
            title=title or _default_title(case, language, number, summary),
            language=language,
            drafter=drafted_by,
            corpus_versions=corpus_versions_used(gated),
            summary=summary,
            model_refuter=next((g.model_id for g in gated if g.model_id), "configured")
            if model_used
            else "",
            created_by=actor if actor is not None and actor.is_authenticated else None,
            source_call_id=call_id,
        )
        report.claims.set(claim_list)
        _store(report=report, gated=gated, claims=by_id)
        audit_event_record(
            actor=actor,
            action="report.created",
            target=report,
            case=case,
            data={"printed": printed, "flagged": len(gated) - printed},
        )
    return report


def _default_title(
    case: Case, language: str, number: int, summary: dict[str, Any]
) -> str:
    """Distinguishable among the case's reports: number, reference, claims
    and date, e.g. "Gutachten Nr. 3 – 7 O 24/26 – Verzugsschaden – 01.12.2026"."""
    today = timezone.localdate()
    # the claim's short name: its label without the version in brackets
    claims = ", ".join(c["label"].split(" (")[0] for c in summary.get("claims", []))
    if language == "de":
        head, day = f"Gutachten Nr. {number}", today.strftime("%d.%m.%Y")
    else:
        head, day = f"Report no. {number}", today.isoformat()
    return " – ".join(p for p in (head, case.reference, claims, day) if p)[:255]


def _sha256(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


@transaction.atomic
def report_issue(*, report: Report, actor: Any) -> Report:
    """Render and store both exports, then move draft → issued with the
    exports' SHA-256 (a conditional update: a second click or a race finds no
    draft). Lawyers only. Raises ReportNotDraft, RoleRequired."""
    from reports.exports import export_render

    if actor is not None:
        require_role(actor, Role.LAWYER)
    locked = Report.objects.select_for_update().filter(pk=report.pk).first()
    if locked is None or locked.status != Report.Status.DRAFT:
        raise ReportNotDraft(_("Only a draft report can be issued."))
    # The sealed files show the report as issued (header, title page).
    issued_at = timezone.now()
    locked.status = Report.Status.ISSUED
    locked.issued_at = issued_at
    hashes = {}
    for fmt in (ReportExport.Format.DOCX, ReportExport.Format.XLSX):
        content, filename = export_render(report=locked, fmt=fmt)
        digest = _sha256(content)
        ReportExport.objects.create(
            report=locked,
            format=fmt,
            filename=filename,
            sha256=digest,
            size=len(content),
            content=content,
        )
        hashes[str(fmt)] = digest
    claimed = Report.objects.filter(pk=locked.pk, status=Report.Status.DRAFT).update(
        status=Report.Status.ISSUED,
        export_sha256=hashes,
        issued_by=actor if actor is not None and actor.is_authenticated else None,
        issued_at=issued_at,
    )
    if claimed != 1:  # pragma: no cover - the row lock makes this unreachable
        raise ReportNotDraft(_("Only a draft report can be issued."))
    audit_event_record(
        actor=actor,
        action="report.issued",
        target=locked,
        case=locked.case,
        data={"sha256": hashes},
    )
    locked.refresh_from_db()
    return locked


@transaction.atomic
def reports_mark_stale_for_corpus_change(
    *, instrument_key: str, language: str | None = None
) -> list[Report]:
    """After a new or replaced pinned version of an instrument: every report
    whose resolved citations of it now lead (at the claim's relevant date) to
    a different provision text — or to none — gets a stale mark naming those
    provisions. Reports whose cited texts did not change stay as they are.
    Returns the reports marked."""
    instrument = Instrument.objects.filter(key=instrument_key).first()
    if instrument is None:
        return []
    rows = (
        FindingCitation.objects.filter(
            instrument=instrument.ident, status__in=CHECKED_STATUSES
        )
        .select_related("finding__claim")
        .order_by("finding__report_id", "id")
    )
    if language:
        rows = rows.filter(version_language=language)
    changed: dict[int, list[str]] = {}
    texts: dict[tuple[date, str, str], str | None] = {}
    for row in rows.iterator():
        at = row.finding.claim.valid_at
        key = (at, row.version_language, row.provision_path)
        if key not in texts:
            version, _ = version_valid_at(
                instrument=instrument, at=at, language=row.version_language
            )
            provision = (
                version.provisions.filter(path=row.provision_path).first()
                if version is not None
                else None
            )
            texts[key] = provision.text if provision is not None else None
        current = texts[key]
        digest = _sha256(current.encode("utf-8")) if current is not None else None
        if digest != row.text_sha256:
            bucket = changed.setdefault(row.finding.report_id, [])
            if row.canonical not in bucket:
                bucket.append(row.canonical)
    marked = []
    for report in Report.objects.filter(pk__in=changed).order_by("id"):
        provisions = changed[report.pk]
        already = ReportStaleMark.objects.filter(
            report=report, instrument=instrument.ident, provisions=provisions
        ).exists()
        if already:
            continue
        ReportStaleMark.objects.create(
            report=report,
            instrument=instrument.ident,
            provisions=provisions,
            reason=(
                f"A new pinned version of {instrument} changed the text of "
                f"{', '.join(provisions)}."
            ),
        )
        audit_event_record(
            actor=None,
            action="report.stale",
            target=report,
            case=report.case,
            data={"instrument": instrument.ident, "provisions": provisions},
        )
        marked.append(report)
    return marked
