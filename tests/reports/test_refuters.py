"""The deterministic refuters and the model refuter's strict schema, pure."""

from __future__ import annotations

from datetime import date

import pytest

from reports.domain.drafting import EvidenceItem, FindingDraft
from reports.domain.model_refuter import refutation_parse
from reports.domain.refuters import (
    CheckedCitation,
    RefutationInput,
    conditional_as_absolute,
    quote_not_found,
    recital_as_obligation,
    refute,
    sentence_around,
    unconfirmed_fact,
    version_not_valid,
)

AT = date(2026, 6, 1)
CONDITIONAL_TEXT = (
    "Der Schuldner einer Entgeltforderung kommt spätestens in Verzug, wenn er "
    "nicht innerhalb von 30 Tagen nach Fälligkeit und Zugang einer Rechnung leistet."
)


def _draft(text: str, *, facts: tuple[int, ...] = (), quote: str = "") -> FindingDraft:
    evidence = tuple(
        EvidenceItem(
            fact_id=f, fact_type="due_date", status="confirmed", value="x", quote=quote
        )
        for f in facts
    )
    return FindingDraft(
        claim_id=1,
        claim_type="verzugsschaden",
        requirement_key="mahnung",
        label="Mahnung",
        verdict_status="satisfied",
        verdict_label="erfüllt",
        text=text,
        supporting_fact_ids=facts,
        evidence=evidence,
    )


def _cite(
    text: str, raw: str, *, path: str, provision: str = "", **kw
) -> CheckedCitation:
    start = text.index(raw)
    return CheckedCitation(
        raw=raw,
        start=start,
        end=start + len(raw),
        canonical=f"x/{path}",
        path=path,
        status="resolved",
        text=provision,
        valid_from=kw.pop("valid_from", date(2016, 5, 4)),
        **kw,
    )


def _input(text: str, citations: list[CheckedCitation], **kw) -> RefutationInput:
    return RefutationInput(
        finding=kw.pop("finding", None) or _draft(text),
        citations=citations,
        fact_statuses=kw.pop("fact_statuses", {}),
        evidence_texts=kw.pop("evidence_texts", []),
        relevant_date=AT,
        **kw,
    )


@pytest.mark.parametrize(
    "text",
    [
        "Nach Erwägungsgrund 47 DSGVO muss der Verantwortliche abwägen.",
        "Recital 47 GDPR requires the controller to document its legitimate interest.",
        "Under Recital 47 GDPR the controller shall balance the interests.",
    ],
)
def test_recital_read_as_obligation_is_refuted(text: str) -> None:
    raw = "Erwägungsgrund 47 DSGVO" if "Erwägungsgrund" in text else "Recital 47 GDPR"
    verdict = recital_as_obligation(_input(text, [_cite(text, raw, path="recital/47")]))
    assert verdict.verdict == "refuted"
    assert raw in verdict.reason and "recital" in verdict.reason


def test_recital_cited_as_explanation_is_upheld() -> None:
    text = "Erwägungsgrund 47 DSGVO erläutert das berechtigte Interesse."
    verdict = recital_as_obligation(
        _input(text, [_cite(text, "Erwägungsgrund 47 DSGVO", path="recital/47")])
    )
    assert verdict.verdict == "upheld"


def test_obligation_in_another_sentence_does_not_refute_a_recital() -> None:
    text = (
        "Erwägungsgrund 47 DSGVO erläutert das Interesse. Der Verantwortliche muss "
        "nach Art. 6 Abs. 1 lit. f DSGVO abwägen."
    )
    cites = [_cite(text, "Erwägungsgrund 47 DSGVO", path="recital/47")]
    assert recital_as_obligation(_input(text, cites)).verdict == "upheld"


def test_conditional_provision_stated_as_absolute_is_refuted() -> None:
    text = "Der Schuldner kommt nach § 286 Abs. 3 S. 1 BGB stets in Verzug."
    cite = _cite(
        text, "§ 286 Abs. 3 S. 1 BGB", path="sec/286/para/3/sent/1",
        provision=CONDITIONAL_TEXT,
    )  # fmt: skip
    verdict = conditional_as_absolute(_input(text, [cite]))
    assert verdict.verdict == "refuted"
    assert "wenn" in verdict.reason
    assert "wenn er nicht innerhalb" in verdict.passage


def test_conditional_provision_stated_with_its_condition_is_upheld() -> None:
    text = "Der Schuldner kam nach § 286 Abs. 3 S. 1 BGB 30 Tage nach Zugang in Verzug."
    cite = _cite(
        text, "§ 286 Abs. 3 S. 1 BGB", path="sec/286/para/3/sent/1",
        provision=CONDITIONAL_TEXT,
    )  # fmt: skip
    assert conditional_as_absolute(_input(text, [cite])).verdict == "upheld"


def test_version_after_the_relevant_date_is_refuted() -> None:
    text = "Nach § 286 Abs. 1 BGB ist der Schuldner in Verzug."
    cite = _cite(
        text, "§ 286 Abs. 1 BGB", path="sec/286/para/1", valid_from=date(2027, 1, 1)
    )
    verdict = version_not_valid(_input(text, [cite]))
    assert verdict.verdict == "refuted" and "2027-01-01" in verdict.reason


def test_version_replaced_before_the_relevant_date_is_refuted() -> None:
    text = "Nach § 286 Abs. 1 BGB ist der Schuldner in Verzug."
    cite = _cite(
        text, "§ 286 Abs. 1 BGB", path="sec/286/para/1",
        valid_from=date(2020, 1, 1), valid_until=date(2026, 3, 29),
    )  # fmt: skip
    assert version_not_valid(_input(text, [cite])).verdict == "refuted"


def test_repealed_provision_is_refuted_and_valid_one_upheld() -> None:
    text = "Nach § 286 Abs. 1 BGB ist der Schuldner in Verzug."
    repealed = _cite(text, "§ 286 Abs. 1 BGB", path="sec/286/para/1", repealed=True)
    valid = _cite(text, "§ 286 Abs. 1 BGB", path="sec/286/para/1")
    assert version_not_valid(_input(text, [repealed])).verdict == "refuted"
    assert version_not_valid(_input(text, [valid])).verdict == "upheld"


def test_quote_found_nowhere_is_refuted() -> None:
    text = "Der Schuldner schrieb: „Wir zahlen niemals.“ Das ist nach § 286 BGB so."
    verdict = quote_not_found(
        _input(text, [], evidence_texts=["Wir zahlen nicht vor Juli."])
    )
    assert verdict.verdict == "refuted" and verdict.passage == "Wir zahlen niemals."


def test_quote_found_in_evidence_or_provision_is_upheld() -> None:
    text = "Er schrieb „Wir zahlen  nicht\nvor Juli“, § 286 Abs. 2 Nr. 3 BGB."
    data = _input(text, [], evidence_texts=["… Wir zahlen nicht vor Juli."])
    assert quote_not_found(data).verdict == "upheld"
    text2 = "Es genügt „30 Tagen nach Fälligkeit“ (§ 286 Abs. 3 S. 1 BGB)."
    cite = _cite(
        text2, "§ 286 Abs. 3 S. 1 BGB", path="sec/286/para/3/sent/1",
        provision=CONDITIONAL_TEXT,
    )  # fmt: skip
    assert quote_not_found(_input(text2, [cite])).verdict == "upheld"


def test_quoted_requirement_label_is_not_a_quotation() -> None:
    text = "Zu „Mahnung mit Zugang“: erfüllt (§ 286 Abs. 1 BGB)."
    data = _input(text, [], known_labels=frozenset({"Mahnung mit Zugang"}))
    assert quote_not_found(data).verdict == "upheld"


@pytest.mark.parametrize("status", ["disputed", "asserted"])
def test_conclusion_on_unestablished_fact_is_refuted(status: str) -> None:
    draft = _draft("Fällig seit dem 30.04.2026 (§ 271 BGB).", facts=(7,), quote="q")
    verdict = unconfirmed_fact(
        _input(draft.text, [], finding=draft, fact_statuses={7: status})
    )
    assert verdict.verdict == "refuted" and status in verdict.reason


def test_conclusion_on_missing_fact_is_refuted_and_on_confirmed_upheld() -> None:
    draft = _draft("Fällig (§ 271 BGB).", facts=(7,))
    missing = _input(draft.text, [], finding=draft, fact_statuses={})
    assert unconfirmed_fact(missing).verdict == "refuted"
    for status in ("confirmed", "evidenced"):
        ok = _input(draft.text, [], finding=draft, fact_statuses={7: status})
        assert unconfirmed_fact(ok).verdict == "upheld"


def test_every_refuter_gives_a_verdict() -> None:
    text = "Fällig (§ 271 BGB)."
    verdicts = refute(_input(text, [_cite(text, "§ 271 BGB", path="sec/271")]))
    assert [v.refuter for v in verdicts] == [
        "recital_as_obligation",
        "conditional_as_absolute",
        "version_not_valid",
        "quote_not_found",
        "unconfirmed_fact",
    ]
    assert {v.verdict for v in verdicts} == {"upheld"}


def test_sentence_around_keeps_abbreviations_inside_the_sentence() -> None:
    text = "Erste Aussage. Nach § 286 Abs. 2 Nr. 3 BGB ist sie entbehrlich. Dritte."
    start = text.index("§")
    assert sentence_around(text, start, start + 5) == (
        "Nach § 286 Abs. 2 Nr. 3 BGB ist sie entbehrlich."
    )


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"verdict": "upheld", "reason": "carried", "passage": "p"}', "upheld"),
        ('{"verdict": "refuted", "reason": "no", "passage": "p"}', "refuted"),
        ('{"verdict": "uncertain", "reason": "?", "passage": ""}', "uncertain"),
        ('{"verdict": "upheld", "reason": "ok", "passage": "", "x": 1}', "uncertain"),
        ('{"verdict": "UPHELD", "reason": "ok", "passage": "p"}', "uncertain"),
        ('{"verdict": "upheld", "passage": "p"}', "uncertain"),
        ('{"verdict": "upheld", "reason": "", "passage": "p"}', "uncertain"),
        ("Sure! The finding is upheld.", "uncertain"),
        ('["upheld"]', "uncertain"),
    ],
)
def test_model_answer_outside_the_strict_schema_is_uncertain(
    content: str, expected: str
) -> None:
    verdict = refutation_parse(content)
    assert verdict.verdict == expected
    if expected == "uncertain" and "malformed" in verdict.reason:
        assert verdict.refuter == "model"
