"""The two gates every finding passes before it may be printed.

Gate 1 parses every citation from the finding's final text (never from its
metadata) and resolves it against the pinned corpus at the relevant date; any
citation that is not ``resolved`` — or no citation at all — flags the finding.
Gate 2 runs the deterministic refuters and, when a model is configured, the
model refuter. Only a finding every refuter upholds is printed."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from citations.models import InstrumentVersion, Provision
from citations.services import CitationResult, citations_check
from reports.conf import model_refuter_enabled
from reports.domain import model_refuter
from reports.domain.drafting import FindingDraft
from reports.domain.refuters import (
    CheckedCitation,
    RefutationInput,
    RefuterVerdict,
    refute,
)
from reports.llm import ModelUnavailable, chat_complete


@dataclass
class GatedCitation:
    result: CitationResult
    checked: CheckedCitation
    text_sha256: str


@dataclass
class GatedFinding:
    draft: FindingDraft
    relevant_date: date
    citations: list[GatedCitation] = field(default_factory=list)
    citation_verdicts: list[RefuterVerdict] = field(default_factory=list)
    refutations: list[RefuterVerdict] = field(default_factory=list)
    model_id: str = ""
    model_raw: str = ""

    @property
    def passed_citations(self) -> bool:
        return bool(self.citation_verdicts) and all(
            v.verdict == "upheld" for v in self.citation_verdicts
        )

    @property
    def printed(self) -> bool:
        return (
            self.passed_citations
            and bool(self.refutations)
            and all(v.verdict == "upheld" for v in self.refutations)
        )

    @property
    def flag_reason(self) -> str:
        if not self.passed_citations:
            return " ".join(
                v.reason for v in self.citation_verdicts if v.verdict != "upheld"
            )
        return " ".join(
            f"[{v.refuter}] {v.reason}"
            for v in self.refutations
            if v.verdict != "upheld"
        )


@dataclass
class GateTimings:
    citations: float = 0.0
    refutation: float = 0.0


class _VersionFacts:
    """Validity ends and repealed flags of the cited versions, read once."""

    def __init__(self) -> None:
        self._starts: dict[tuple[str, str], list[date]] = {}
        self._repealed: dict[tuple[str, str, date, str], bool] = {}
        rows = InstrumentVersion.objects.values_list(
            "instrument__ident", "language", "valid_from"
        )
        for ident, language, valid_from in rows:
            self._starts.setdefault((ident, language), []).append(valid_from)
        for starts in self._starts.values():
            starts.sort()

    def valid_until(self, ident: str, language: str, valid_from: date) -> date | None:
        later = [d for d in self._starts.get((ident, language), []) if d > valid_from]
        return later[0] if later else None

    def repealed(self, ident: str, language: str, valid_from: date, path: str) -> bool:
        key = (ident, language, valid_from, path)
        if key not in self._repealed:
            self._repealed[key] = Provision.objects.filter(
                version__instrument__ident=ident,
                version__language=language,
                version__valid_from=valid_from,
                path=path,
                repealed=True,
            ).exists()
        return self._repealed[key]


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _citation_verdict(result: CitationResult) -> RefuterVerdict:
    if result.status == "resolved":
        return RefuterVerdict(
            f"citation:{result.citation.raw}"[:40],
            "upheld",
            f"{result.citation.raw} resolved to {result.citation.canonical}.",
            result.citation.raw,
        )
    return RefuterVerdict(
        f"citation:{result.citation.raw}"[:40],
        "refuted",
        f"{result.citation.raw}: {result.status}"
        + (f" ({result.reason})" if result.reason else "")
        + ".",
        result.citation.raw,
    )


def citation_gate(finding: GatedFinding, versions: _VersionFacts) -> None:
    """Gate 1 on the finding's final text."""
    results = citations_check(finding.draft.text, at=finding.relevant_date)
    for result in results:
        c = result.citation
        info = result.version
        valid_until = None
        repealed = False
        if info is not None and result.status == "resolved":
            valid_until = versions.valid_until(
                info.instrument, info.language, info.valid_from
            )
            if result.provision_path:
                repealed = versions.repealed(
                    info.instrument,
                    info.language,
                    info.valid_from,
                    result.provision_path,
                )
        text = result.text or ""
        finding.citations.append(
            GatedCitation(
                result=result,
                checked=CheckedCitation(
                    raw=c.raw,
                    start=c.start,
                    end=c.end,
                    canonical=c.canonical or "",
                    path=c.path,
                    status=result.status,
                    text=text,
                    valid_from=info.valid_from if info else None,
                    valid_until=valid_until,
                    repealed=repealed,
                ),
                text_sha256=_sha(text) if text else "",
            )
        )
        finding.citation_verdicts.append(_citation_verdict(result))
    if not results:
        finding.citation_verdicts.append(
            RefuterVerdict(
                "citation:none",
                "refuted",
                "The finding's text cites no provision; a conclusion without a "
                "resolved citation is not printed.",
            )
        )


def _model_refutation(finding: GatedFinding) -> RefuterVerdict:
    messages = model_refuter.refutation_messages(
        finding_text=finding.draft.text,
        citations=[g.checked for g in finding.citations],
        evidence=[e.model_dump(mode="json") for e in finding.draft.evidence],
    )
    try:
        content, model_id = chat_complete(
            messages, response_format=model_refuter.response_format()
        )
    except ModelUnavailable as exc:
        return RefuterVerdict(
            model_refuter.NAME, "uncertain", f"The model refuter failed: {exc}."
        )
    finding.model_id = model_id
    finding.model_raw = content[:20000]
    return model_refuter.refutation_parse(content)


def refutation_gate(
    finding: GatedFinding,
    *,
    fact_statuses: Mapping[int, str],
    evidence_texts: Sequence[str],
    known_labels: frozenset[str],
    use_model: bool,
) -> None:
    """Gate 2 (only for findings that passed gate 1)."""
    data = RefutationInput(
        finding=finding.draft,
        citations=[g.checked for g in finding.citations],
        fact_statuses=fact_statuses,
        evidence_texts=evidence_texts,
        relevant_date=finding.relevant_date,
        known_labels=known_labels,
    )
    finding.refutations = refute(data)
    if use_model:
        finding.refutations.append(_model_refutation(finding))


def findings_gate(
    *,
    drafts: Sequence[tuple[FindingDraft, date]],
    fact_statuses: Mapping[int, str],
    evidence_texts: Mapping[int, str],
    known_labels: frozenset[str] = frozenset(),
    case_evidence: Sequence[str] = (),
    use_model: bool | None = None,
    timings: GateTimings | None = None,
) -> list[GatedFinding]:
    """Both gates over every draft (with its relevant date). Reads the corpus
    and, if configured, calls the model; writes nothing. A quotation may come
    from the finding's own evidence or from ``case_evidence`` (the passages and
    values of the case's established facts)."""
    use_model = model_refuter_enabled() if use_model is None else use_model
    versions = _VersionFacts()
    gated = [GatedFinding(draft=d, relevant_date=at) for d, at in drafts]
    started = time.perf_counter()
    for finding in gated:
        citation_gate(finding, versions)
    middle = time.perf_counter()
    for finding in gated:
        if not finding.passed_citations:
            continue
        texts = [
            evidence_texts[e.chunk_id]
            for e in finding.draft.evidence
            if e.chunk_id is not None and e.chunk_id in evidence_texts
        ]
        texts += case_evidence
        refutation_gate(
            finding,
            fact_statuses=fact_statuses,
            evidence_texts=texts,
            known_labels=known_labels,
            use_model=use_model,
        )
    if timings is not None:
        timings.citations += middle - started
        timings.refutation += time.perf_counter() - middle
    return gated


def version_json(result: CitationResult) -> dict[str, Any] | None:
    return result.version.to_json() if result.version else None


def corpus_versions_used(findings: Sequence[GatedFinding]) -> list[dict[str, Any]]:
    """Each pinned version a resolved citation was checked against, once."""
    seen: dict[str, dict[str, Any]] = {}
    for finding in findings:
        for g in finding.citations:
            data = version_json(g.result)
            if data is None or g.result.status != "resolved":
                continue
            seen.setdefault(json.dumps(data, sort_keys=True), data)
    return sorted(
        seen.values(),
        key=lambda v: (v["instrument"], v["language"], v["valid_from"]),
    )
