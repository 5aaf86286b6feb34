"""The lawyer's wording decision from a report's review section.

A citation whose relevant date lies before every pinned version of its
instrument (``unpinned_at_date``) holds its finding back until a lawyer
decides "Wortlaut galt am <Datum> unverändert" for that provision. The
decision is the firm's (``citations.WordingConfirmation``), so every draft
report of the firm that waits for the same provision and date picks it up
now, and every later report at gate 1. A finding then prints if all its other
citations resolved and the refutation pass (already run while it waited)
upheld it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from cases.audit import audit_event_record
from citations.errors import WordingDecisionInvalid
from citations.models import InstrumentVersion, WordingConfirmation
from citations.selectors import wording_confirmations_for_organisation
from citations.wording import (
    wording_confirmation_create,
    wording_confirmation_match,
    wording_unit,
    wording_unit_text,
)
from reports.models import Finding, FindingCitation, GateVerdict, Report

UNPINNED = "unpinned_at_date"


def _version_of(citation: FindingCitation) -> InstrumentVersion | None:
    """The pinned version the citation was checked against, if it is still
    the same text (same SHA-256)."""
    if citation.version_valid_from is None:
        return None
    return InstrumentVersion.objects.filter(
        instrument__ident=citation.instrument,
        language=citation.version_language,
        valid_from=citation.version_valid_from,
        sha256=citation.version_sha256,
    ).first()


@dataclass(frozen=True)
class WordingItem:
    """One decision a report waits for: a provision's unit, a version, the
    relevant date, and the citations of the report it covers."""

    citation_id: int  # the first of them; names the item in forms and the API
    raws: tuple[str, ...]
    instrument: str
    unit: str
    version_label: str
    version_valid_from: date
    at: date
    text: str
    findings: tuple[int, ...]

    @property
    def default_to(self) -> date:
        return self.version_valid_from - timedelta(days=1)

    def to_json(self) -> dict[str, Any]:
        return {
            "citation": self.citation_id,
            "citations": list(self.raws),
            "instrument": self.instrument,
            "provision": self.unit,
            "version_label": self.version_label,
            "version_valid_from": self.version_valid_from.isoformat(),
            "date": self.at.isoformat(),
            "default_date_from": self.at.isoformat(),
            "default_date_to": self.default_to.isoformat(),
            "findings": list(self.findings),
        }


def report_wording_pending(*, report: Report) -> list[WordingItem]:
    """The wording decisions the report's findings wait for, one per
    provision unit, version and date."""
    rows = (
        FindingCitation.objects.filter(
            finding__report=report, status=UNPINNED, wording_confirmation__isnull=True
        )
        .select_related("finding__claim")
        .order_by("finding__position", "position")
    )
    groups: dict[tuple[Any, ...], list[FindingCitation]] = {}
    for row in rows:
        key = (
            row.instrument,
            row.version_language,
            row.version_valid_from,
            row.version_sha256,
            wording_unit(row.provision_path),
            row.finding.claim.valid_at,
        )
        groups.setdefault(key, []).append(row)
    items = []
    for (ident, _lang, valid_from, _sha, unit, at), members in groups.items():
        version = _version_of(members[0])
        text = wording_unit_text(version=version, path=unit) if version else None
        items.append(
            WordingItem(
                citation_id=members[0].pk,
                raws=tuple(dict.fromkeys(m.raw for m in members)),
                instrument=ident,
                unit=unit,
                version_label=members[0].version_label,
                version_valid_from=valid_from,
                at=at,
                text=text or members[0].text,
                findings=tuple(dict.fromkeys(m.finding.position for m in members)),
            )
        )
    return items


def report_wording_confirm(
    *,
    report: Report,
    citation_id: int | str,
    actor: Any,
    reason: str,
    date_from: date | None = None,
    date_to: date | None = None,
) -> WordingConfirmation:
    """Decide, from a report, that the wording of the cited provision's unit
    was in force unchanged from ``date_from`` (default: the claim's date) to
    ``date_to`` (default: the day before the pinned version starts); then let
    every draft report of the firm use it. Lawyers only. Raises RoleRequired,
    WordingDecisionInvalid (also for a citation that waits for nothing)."""
    try:
        pk = int(citation_id)
    except (TypeError, ValueError):
        pk = -1
    citation = (
        FindingCitation.objects.filter(finding__report=report, pk=pk, status=UNPINNED)
        .select_related("finding__claim")
        .first()
    )
    if citation is None:
        raise WordingDecisionInvalid(
            _("This report has no citation waiting for a wording decision."),
            hint=str(citation_id),
        )
    version = _version_of(citation)
    if version is None:
        raise WordingDecisionInvalid(
            _(
                "The pinned version this citation was checked against has been "
                "replaced; create the report again."
            )
        )
    at = citation.finding.claim.valid_at
    confirmation = wording_confirmation_create(
        actor=actor,
        version=version,
        provision_path=citation.provision_path,
        date_from=date_from or at,
        date_to=date_to or version.valid_from - timedelta(days=1),
        reason=reason,
    )
    reports_apply_wording_confirmations(organisation_id=confirmation.organisation_id)
    return confirmation


def _printable(finding: Finding) -> bool:
    citations = list(finding.citations.all())
    if not citations:
        return False
    for c in citations:
        if c.status == UNPINNED and c.wording_confirmation_id is None:
            return False
        if c.status not in ("resolved", UNPINNED):
            return False
    refutations = [
        v for v in finding.verdicts.all() if v.gate == GateVerdict.Gate.REFUTATION
    ]
    return bool(refutations) and all(
        v.verdict == GateVerdict.Verdict.UPHELD for v in refutations
    )


@transaction.atomic
def reports_apply_wording_confirmations(*, organisation_id: int) -> list[Finding]:
    """Attach the firm's wording confirmations to the waiting citations of its
    draft reports and print the findings that no longer wait for anything.
    Issued reports are sealed and stay as they are. Returns the findings that
    now print."""
    confirmations = wording_confirmations_for_organisation(
        organisation_id=organisation_id
    )
    waiting = (
        FindingCitation.objects.select_for_update(of=("self",))
        .filter(
            status=UNPINNED,
            wording_confirmation__isnull=True,
            finding__report__case__organisation_id=organisation_id,
            finding__report__status=Report.Status.DRAFT,
        )
        .select_related("finding__claim", "finding__report__case")
        .order_by("id")
    )
    versions: dict[tuple[str, str, Any, str], InstrumentVersion | None] = {}
    touched: dict[int, Finding] = {}
    verdicts = []
    for row in waiting:
        key = (
            row.instrument,
            row.version_language,
            row.version_valid_from,
            row.version_sha256,
        )
        if key not in versions:
            versions[key] = _version_of(row)
        version = versions[key]
        if version is None:
            continue
        at = row.finding.claim.valid_at
        match = wording_confirmation_match(
            confirmations=confirmations,
            version=version,
            provision_path=row.provision_path,
            at=at,
        )
        if match is None:
            continue
        row.wording_confirmation = match
        row.save(update_fields=["wording_confirmation"])
        verdicts.append(
            GateVerdict(
                finding=row.finding,
                gate=GateVerdict.Gate.CITATIONS,
                refuter=f"wording:{row.raw}"[:40],
                verdict=GateVerdict.Verdict.UPHELD,
                reason=(
                    f"{row.raw}: the wording of the pinned version was in force "
                    f"unchanged on {at.isoformat()} (decided by "
                    f"{match.decided_by.get_username()} on "
                    f"{match.decided_at:%Y-%m-%d %H:%M})."
                ),
                passage=row.raw,
            )
        )
        touched[row.finding_id] = row.finding
    GateVerdict.objects.bulk_create(verdicts)
    printed = []
    for finding in (
        Finding.objects.filter(pk__in=touched, outcome=Finding.Outcome.FLAGGED)
        .select_related("report__case")
        .prefetch_related("citations", "verdicts")
    ):
        if not _printable(finding):
            continue
        updated = Finding.objects.filter(
            pk=finding.pk,
            outcome=Finding.Outcome.FLAGGED,
            report__status=Report.Status.DRAFT,
        ).update(outcome=Finding.Outcome.PRINTED, flag_reason="")
        if updated != 1:
            continue
        printed.append(finding)
        audit_event_record(
            actor=None,
            action="report.finding_printed_after_wording_decision",
            target=finding.report,
            case=finding.report.case,
            data={"finding": finding.position},
        )
    for report_id in {f.report_id for f in printed}:
        _summary_refresh(report_id)
    return printed


def _summary_refresh(report_id: int) -> None:
    report = Report.objects.get(pk=report_id)
    outcomes = list(report.findings.values_list("outcome", flat=True))
    printed = sum(1 for o in outcomes if o == Finding.Outcome.PRINTED)
    summary = dict(report.summary)
    summary.update(
        {
            "findings": len(outcomes),
            "printed": printed,
            "flagged": len(outcomes) - printed,
        }
    )
    Report.objects.filter(pk=report_id, status=Report.Status.DRAFT).update(
        summary=summary
    )
