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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from citations.models import WordingConfirmation
from citations.selectors import (
    provision_index,
    wording_confirmations_for_organisation,
)
from citations.services import CitationChecker, CitationResult, citations_check
from citations.wording import wording_confirmation_match
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
    confirmation: WordingConfirmation | None = None

    @property
    def wording_pending(self) -> bool:
        """Before every pinned version and no lawyer's decision yet."""
        return self.result.status == "unpinned_at_date" and self.confirmation is None


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
    def awaiting_wording(self) -> bool:
        """Gate 1 failed only because wording decisions are missing: gate 2
        runs anyway, so that the decision alone can let the finding print."""
        failed = [
            g
            for g, v in zip(self.citations, self.citation_verdicts, strict=False)
            if v.verdict != "upheld"
        ]
        return (
            bool(self.citations)
            and len(self.citations) == len(self.citation_verdicts)
            and bool(failed)
            and all(g.wording_pending for g in failed)
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


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _citation_verdict(
    result: CitationResult, confirmation: WordingConfirmation | None
) -> RefuterVerdict:
    name = f"citation:{result.citation.raw}"[:40]
    raw = result.citation.raw
    if result.status == "resolved":
        return RefuterVerdict(
            name, "upheld", f"{raw} resolved to {result.citation.canonical}.", raw
        )
    if result.status == "unpinned_at_date" and result.at is not None:
        at = result.at.isoformat()
        if confirmation is not None:
            return RefuterVerdict(
                name,
                "upheld",
                f"{raw}: the wording of the pinned version was in force unchanged "
                f"on {at} (decided by {confirmation.decided_by.get_username()} on "
                f"{confirmation.decided_at:%Y-%m-%d %H:%M}).",
                raw,
            )
        return RefuterVerdict(
            name,
            "uncertain",
            f"{raw}: unpinned_at_date ({result.reason}). A lawyer must decide "
            f"whether this wording was in force on {at}.",
            raw,
        )
    return RefuterVerdict(
        name,
        "refuted",
        f"{raw}: {result.status}"
        + (f" ({result.reason})" if result.reason else "")
        + ".",
        raw,
    )


def _checked(result: CitationResult, checker: CitationChecker) -> CheckedCitation:
    """What the refuters see. An ``unpinned_at_date`` citation gives its text
    (the refuters judge what the finding makes of it) but no validity: whether
    that wording held at the date is gate 1's question, for a lawyer."""
    c = result.citation
    info = result.version
    valid_from = valid_until = None
    repealed = False
    status = result.status
    if status == "unpinned_at_date":
        status = "resolved"
    elif info is not None and status == "resolved":
        valid_from = info.valid_from
        if info.valid_to is not None:
            valid_until = info.valid_to + timedelta(days=1)
        if result.provision_path and result.version_id is not None:
            span = checker.snapshot.versions[result.version_id]
            ref = provision_index(span).by_path.get(result.provision_path)
            repealed = bool(ref and ref.repealed)
    return CheckedCitation(
        raw=c.raw,
        start=c.start,
        end=c.end,
        canonical=c.canonical or "",
        path=c.path,
        status=status,
        text=result.text or "",
        valid_from=valid_from,
        valid_until=valid_until,
        repealed=repealed,
    )


def citation_gate(
    finding: GatedFinding,
    checker: CitationChecker,
    confirmations: Sequence[WordingConfirmation] = (),
) -> None:
    """Gate 1 on the finding's final text. A citation whose date is before
    every pinned version passes only with a matching wording confirmation of
    the firm; without one the finding waits for that decision."""
    results = citations_check(
        finding.draft.text, at=finding.relevant_date, checker=checker
    )
    for result in results:
        confirmation = None
        if (
            result.status == "unpinned_at_date"
            and result.version_id is not None
            and result.provision_path
        ):
            confirmation = wording_confirmation_match(
                confirmations=confirmations,
                version=checker.snapshot.versions[result.version_id],
                provision_path=result.provision_path,
                at=finding.relevant_date,
            )
        checked = _checked(result, checker)
        finding.citations.append(
            GatedCitation(
                result=result,
                checked=checked,
                text_sha256=_sha(checked.text) if checked.text else "",
                confirmation=confirmation,
            )
        )
        finding.citation_verdicts.append(_citation_verdict(result, confirmation))
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
    four_eyes: bool = False,
) -> None:
    """Gate 2 (only for findings that passed gate 1). ``four_eyes``: the
    firm's option; then a finding resting on a fact that awaits its second
    review is refuted as unconfirmed."""
    data = RefutationInput(
        finding=finding.draft,
        citations=[g.checked for g in finding.citations],
        fact_statuses=fact_statuses,
        evidence_texts=evidence_texts,
        relevant_date=finding.relevant_date,
        known_labels=known_labels,
        four_eyes=four_eyes,
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
    organisation_id: int | None = None,
    on_checked: Callable[[int], None] | None = None,
    four_eyes: bool = False,
) -> list[GatedFinding]:
    """Both gates over every draft (with its relevant date). Reads the corpus
    and, if configured, calls the model; writes nothing. A quotation may come
    from the finding's own evidence or from ``case_evidence`` (the passages and
    values of the case's established facts). ``organisation_id``: whose
    wording confirmations count (none without it). ``on_checked(n)`` is
    called after the n-th finding has been through both gates (the slow part
    when a model refutes)."""
    use_model = model_refuter_enabled() if use_model is None else use_model
    checker = CitationChecker()
    confirmations = (
        wording_confirmations_for_organisation(organisation_id=organisation_id)
        if organisation_id is not None
        else []
    )
    gated = [GatedFinding(draft=d, relevant_date=at) for d, at in drafts]
    started = time.perf_counter()
    for finding in gated:
        citation_gate(finding, checker, confirmations)
    middle = time.perf_counter()
    for done, finding in enumerate(gated, start=1):
        if on_checked is not None and done > 1:
            on_checked(done - 1)
        if not (finding.passed_citations or finding.awaiting_wording):
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
            four_eyes=four_eyes,
        )
    if on_checked is not None and gated:
        on_checked(len(gated))
    if timings is not None:
        timings.citations += middle - started
        timings.refutation += time.perf_counter() - middle
    return gated


# A citation that counts as checked once its gate verdict is upheld (an
# unpinned one needs the lawyer's wording decision for that).
CHECKED_STATUSES = ("resolved", "unpinned_at_date")


def version_json(result: CitationResult) -> dict[str, Any] | None:
    return result.version.to_json() if result.version else None


def corpus_versions_used(findings: Sequence[GatedFinding]) -> list[dict[str, Any]]:
    """Each pinned version a resolved citation was checked against, once."""
    seen: dict[str, dict[str, Any]] = {}
    for finding in findings:
        for g in finding.citations:
            data = version_json(g.result)
            if data is None or g.result.status not in CHECKED_STATUSES:
                continue
            seen.setdefault(json.dumps(data, sort_keys=True), data)
    return sorted(
        seen.values(),
        key=lambda v: (v["instrument"], v["language"], v["valid_from"]),
    )
