"""Reads of reports, scoped to the user's firm, and the document model that
the preview and both exports render (one source, so they cannot disagree)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils import timezone

from cases.models import Case
from cases.selectors import scope_to_user
from ontology.damage_table import DamageTable
from ontology.domain.verzug_claim import SUMMARY_DE, SUMMARY_EN
from reports.models import Finding, FindingCitation, GateVerdict, Report, ReportBuild

TEXTS: dict[str, dict[str, str]] = {
    "de": {
        "summary": "Zusammenfassung",
        "verdict": "Ergebnis",
        "reasoning": "Begründung",
        "evidence": "Belege",
        "fact": "Tatsache",
        "status": "Status",
        "document": "Dokument",
        "page": "Seite",
        "quote": "Zitat",
        "appendix": "Anhang: Zitierte Vorschriften",
        "citation": "Zitat",
        "canonical": "Kennung",
        "version": "Fassung",
        "valid_from": "gültig ab",
        "version_sha": "SHA-256 der Fassung",
        "text_sha": "SHA-256 des Vorschriftentexts",
        "text": "Text",
        "review": "Zur Prüfung durch einen Menschen",
        "review_intro": (
            "Diese Feststellungen haben die Zitat- oder die Widerlegungsprüfung "
            "nicht bestanden. Sie sind nicht als Tatsachen in diesem Bericht "
            "enthalten."
        ),
        "withheld": (
            "Keine Feststellung gedruckt: zur Prüfung durch einen Menschen "
            "(siehe Abschnitt „Zur Prüfung durch einen Menschen“)."
        ),
        "reason": "Grund",
        "refuter": "Prüfung",
        "passage": "Stelle",
        "case": "Akte",
        "client": "Mandant",
        "claims": "Ansprüche und Checklisten",
        "result": "Ergebnis",
        "default_since": "Verzug seit",
        "recoverable_amount": "Ersatzfähiger Betrag",
        "sheet_result": "Ergebnis",
        "created": "Erstellt",
        "report_status": "Status",
        "printed": "gedruckte Feststellungen",
        "flagged": "zur Prüfung durch einen Menschen",
        "pinned": "Verwendete Fassungen des Rechtskorpus",
        "requirement": "Tatbestandsmerkmal",
        "claim": "Anspruch",
        "finding": "Feststellung",
        "outcome": "Ergebnis der Prüfung",
        "stale": "Veraltet",
        "value": "Wert",
        "notes": "Anmerkungen",
        "status_draft": "Entwurf",
        "status_issued": "Ausgegeben",
        "page_of": "von",
        "language": "Sprache",
        "sheet_findings": "Feststellungen",
        "sheet_evidence": "Belege",
        "sheet_citations": "Zitate",
        "sheet_flags": "Zur Prüfung",
        "drafted_by_rules": (
            "Entworfen von den regelbasierten Vorlagen: ein Modell war gewählt, "
            "ist aber nicht konfiguriert."
        ),
        "wording_note": (
            "{raw}: geprüft an der Fassung „{label}“ (gültig ab {valid_from}). "
            "Wortlaut galt am {at} unverändert — Entscheidung von {who} am "
            "{when}. Grund: {reason}"
        ),
    },
    "en": {
        "summary": "Summary",
        "verdict": "Verdict",
        "reasoning": "Reasoning",
        "evidence": "Evidence",
        "fact": "Fact",
        "status": "Status",
        "document": "Document",
        "page": "Page",
        "quote": "Quote",
        "appendix": "Appendix: cited provisions",
        "citation": "Citation",
        "canonical": "Identifier",
        "version": "Version",
        "valid_from": "valid from",
        "version_sha": "SHA-256 of the version",
        "text_sha": "SHA-256 of the provision text",
        "text": "Text",
        "review": "Zur Prüfung durch einen Menschen",
        "review_intro": (
            "For human review: these findings did not pass the citation gate or "
            "the refutation pass. They are not stated as facts in this report."
        ),
        "withheld": (
            "No finding printed: withheld for human review (see the section "
            "“Zur Prüfung durch einen Menschen”)."
        ),
        "reason": "Reason",
        "refuter": "Check",
        "passage": "Passage",
        "case": "Case",
        "client": "Client",
        "claims": "Claims and checklists",
        "result": "Result",
        "default_since": "In default since",
        "recoverable_amount": "Recoverable amount",
        "sheet_result": "Result",
        "created": "Created",
        "report_status": "Status",
        "printed": "findings printed",
        "flagged": "for human review",
        "pinned": "Pinned corpus versions used",
        "requirement": "Requirement",
        "claim": "Claim",
        "finding": "Finding",
        "outcome": "Outcome",
        "stale": "Stale",
        "value": "Value",
        "notes": "Notes",
        "status_draft": "Draft",
        "status_issued": "Issued",
        "page_of": "of",
        "language": "Language",
        "sheet_findings": "Findings",
        "sheet_evidence": "Evidence",
        "sheet_citations": "Citations",
        "sheet_flags": "Flags",
        "drafted_by_rules": (
            "Drafted by the rules-based templates: a model was chosen but none "
            "is configured."
        ),
        "wording_note": (
            "{raw}: checked against the version “{label}” (valid from "
            "{valid_from}). Wording in force unchanged on {at} — decided by "
            "{who} on {when}. Reason: {reason}"
        ),
    },
}


def reports_for_user(*, user: Any) -> QuerySet[Report]:
    return scope_to_user(Report.objects.all(), user).select_related("case")


def reports_for_case(*, case: Case) -> QuerySet[Report]:
    return (
        Report.objects.filter(case=case)
        .prefetch_related("stale_marks", "claims")
        .order_by("-created_at", "-id")
    )


def report_get_for_user(*, user: Any, report_id: int | str) -> Report:
    """A report of the user's firm; 404 for any other (also another firm's)."""
    try:
        pk = int(report_id)
    except (TypeError, ValueError):
        raise Http404("No such report.") from None
    report = reports_for_user(user=user).filter(pk=pk).first()
    if report is None:
        raise Http404("No such report.")
    return report


def report_build_get_for_user(*, user: Any, build_id: int | str) -> ReportBuild:
    """A report build of the user's firm; 404 for any other."""
    try:
        pk = int(build_id)
    except (TypeError, ValueError):
        raise Http404("No such report build.") from None
    build = (
        scope_to_user(ReportBuild.objects.all(), user)
        .select_related("case", "report")
        .filter(pk=pk)
        .first()
    )
    if build is None:
        raise Http404("No such report build.")
    return build


def report_builds_open_for_case(*, case: Case) -> QuerySet[ReportBuild]:
    """Builds of the case that have not made their report yet (queued,
    running, or failed within the last day), newest first."""
    since = timezone.now() - timedelta(days=1)
    return ReportBuild.objects.filter(case=case).filter(
        Q(status__in=[ReportBuild.Status.QUEUED, ReportBuild.Status.RUNNING])
        | Q(status=ReportBuild.Status.FAILED, created_at__gte=since)
    )[:20]


@dataclass
class FindingView:
    finding: Finding
    citations: list[FindingCitation]
    verdicts: list[GateVerdict]
    notes: list[str] = field(default_factory=list)

    @property
    def printed(self) -> bool:
        return self.finding.outcome == Finding.Outcome.PRINTED

    @property
    def failed(self) -> list[GateVerdict]:
        return [v for v in self.verdicts if v.verdict != "upheld"]

    def wording_notes(self, texts: dict[str, str]) -> list[str]:
        """Footnotes of a printed finding whose citations rest on a lawyer's
        wording decision: the version used and who decided when (the one
        wording of them for the preview and both exports)."""
        notes = []
        at = self.finding.claim.valid_at
        for c in self.citations:
            decision = c.wording_confirmation
            if decision is None:
                continue
            notes.append(
                texts["wording_note"].format(
                    raw=c.raw,
                    label=c.version_label,
                    valid_from=_day(c.version_valid_from),
                    at=_day(at),
                    who=decision.decided_by.get_full_name()
                    or decision.decided_by.get_username(),
                    when=timezone.localtime(decision.decided_at).strftime(
                        "%d.%m.%Y %H:%M"
                    ),
                    reason=decision.reason,
                )
            )
        return notes


def _day(value: Any) -> str:
    return value.strftime("%d.%m.%Y") if value else ""


@dataclass
class ClaimSection:
    claim_id: int
    label: str
    findings: list[FindingView] = field(default_factory=list)
    # the Schadensberechnung stored with the report (reports/exports_damage.py)
    damage: DamageTable | None = None


@dataclass(frozen=True)
class ClaimResult:
    """One claim's result at the top of the report: begründet / unbegründet /
    offen, Verzug since, the recoverable amount, and the sentence saying so."""

    claim_id: int
    label: str
    result: str
    result_label: str
    text: str
    default_from: date | None
    recoverable_cents: int | None
    currency: str


# the claim summary's words, from the one claim summary (verzug_claim)
RESULT_WORDS = {"de": SUMMARY_DE, "en": SUMMARY_EN}


@dataclass
class ReportDocument:
    report: Report
    texts: dict[str, str]
    sections: list[ClaimSection]
    printed: list[FindingView]
    flagged: list[FindingView]
    appendix: list[FindingCitation]
    stale: bool

    @property
    def rules_fallback(self) -> bool:
        """A model was asked to draft, but the rules did (none configured,
        or it did not answer): the report says so."""
        summary = self.report.summary
        return (
            summary.get("drafter_requested") == Report.Drafter.MODEL
            and self.report.drafter == Report.Drafter.RULES
        )

    @property
    def claim_results(self) -> list[ClaimResult]:
        """Each claim's result as the report stored it at build time (a report
        built before results were stored has none)."""
        words = RESULT_WORDS.get(self.report.language, RESULT_WORDS["en"])
        result = []
        for claim in self.report.summary.get("claims", []):
            code = claim.get("result")
            if code not in words:
                continue
            since = claim.get("default_from")
            damage = claim.get("damage") or {}
            result.append(
                ClaimResult(
                    claim_id=int(claim["claim_id"]),
                    label=str(claim.get("label", "")),
                    result=str(code),
                    result_label=words[code],
                    text=str(claim.get("result_text", "")),
                    default_from=date.fromisoformat(since) if since else None,
                    recoverable_cents=claim.get("recoverable_cents"),
                    currency=str(damage.get("currency") or "EUR"),
                )
            )
        return result

    @property
    def evidence_rows(self) -> list[tuple[FindingView, dict[str, Any]]]:
        return [(fv, item) for fv in self.printed for item in fv.finding.evidence]


def report_document(*, report: Report) -> ReportDocument:
    """Everything the preview and the exports show. Only printed findings
    contribute text, evidence and citations; flagged ones contribute their
    requirement, the checks that failed and the reasons."""
    findings = list(
        Finding.objects.filter(report=report)
        .select_related("claim")
        .prefetch_related("citations__wording_confirmation__decided_by", "verdicts")
        .order_by("position")
    )
    labels = {c["claim_id"]: c["label"] for c in report.summary.get("claims", [])}
    texts = TEXTS.get(report.language, TEXTS["en"])
    sections: dict[int, ClaimSection] = {}
    views = []
    for finding in findings:
        view = FindingView(
            finding, list(finding.citations.all()), list(finding.verdicts.all())
        )
        if view.printed:
            view.notes = view.wording_notes(texts)
        views.append(view)
        section = sections.setdefault(
            finding.claim_id,
            ClaimSection(
                finding.claim_id, labels.get(finding.claim_id, finding.claim_type)
            ),
        )
        section.findings.append(view)
    from reports.exports_damage import damage_tables_stored

    # the table only beside a printed Schaden finding: figures whose finding
    # waits for a human are not printed either
    for claim_id, table in damage_tables_stored(report=report).items():
        section_ = sections.get(claim_id)
        if section_ is not None and any(
            v.printed and v.finding.requirement_key == "schaden"
            for v in section_.findings
        ):
            section_.damage = table
    printed = [v for v in views if v.printed]
    appendix: dict[str, FindingCitation] = {}
    for view in printed:
        for citation in view.citations:
            key = f"{citation.canonical}|{citation.version_sha256}"
            appendix.setdefault(key, citation)
    return ReportDocument(
        report=report,
        texts=texts,
        sections=list(sections.values()),
        printed=printed,
        flagged=[v for v in views if not v.printed],
        appendix=sorted(appendix.values(), key=lambda c: c.canonical),
        stale=report.stale_marks.exists(),
    )
