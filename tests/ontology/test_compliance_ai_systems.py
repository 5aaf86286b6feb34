"""The AI Act per AI system: a provider placing two systems on the market
owes the high-risk duties for the one that is high-risk, and the Art. 6(4)
documentation for the one that relies on the Art. 6(3) exception; neither
system's classification, exception or evidence counts for the other
(Art. 6(2)-(4), Art. 16 KI-VO: the duties attach to "high-risk AI systems").

The case (after blind holdout K33 of benchmarks/compliance_corpus): provider
P Ltd places "Resolve" (Annex III point 8(a), no exception) and "Intake"
(Annex III point 8(a), exception (d): a preparatory task, no profiling) on the
market in September 2026. Resolve's technical documentation (D2, complete)
declares accuracy and robustness but no cybersecurity measures; Intake's
assessment under Art. 6(4) was documented before it was placed on the market.
Expected from the law: Art. 15 for Resolve nicht erfüllt (15(5) missing from
the complete documentation), Art. 15 for Intake not applicable (not
high-risk); Art. 6(4) for Intake erfüllt, for Resolve not applicable."""

from __future__ import annotations

from datetime import date

from ontology.domain.compliance import compliance_evaluate
from ontology.domain.compliance_facts import ComplianceFact, ComplianceInput


def _fact(ref: str, key: str, value: dict) -> ComplianceFact:
    return ComplianceFact(ref=ref, key=key, value=value, status="confirmed")


def _system(ref: str, name: str) -> ComplianceFact:
    return _fact(
        ref,
        "aia_ctx_system",
        {
            "name": name,
            "placed_on_market": "2026-09-14",
            "significant_change_after_2026_08_02": False,
            "intended_for_public_authorities": None,
            "trained_models": True,
        },
    )


def _facts() -> list[ComplianceFact]:
    return [
        _fact("role", "aia_ctx_role", {"role": "provider"}),
        _system("s1", "Resolve"),
        _system("s2", "Intake"),
        _fact(
            "a1", "aia_6_2_annex_iii_use_case", {"point": "8(a)", "subject": "Resolve"}
        ),
        _fact(
            "a2", "aia_6_2_annex_iii_use_case", {"point": "8(a)", "subject": "Intake"}
        ),
        _fact(
            "x2", "aia_6_3_exception_claimed", {"condition": "d", "subject": "Intake"}
        ),
        _fact("f2", "aia_6_3_profiling", {"value": False, "subject": "Intake"}),
        _fact(
            "td1",
            "aia_doc_technical_documentation",
            {"doc": "D2", "complete": True, "date": "2026-09-01", "subject": "Resolve"},
        ),
        # in Resolve's own documentation, without a subject: Resolve's
        _fact("e1", "aia_15_3_accuracy_declared", {"state": "present", "doc": "D2"}),
        _fact("e2", "aia_15_4_robustness", {"state": "present", "doc": "D2"}),
        _fact(
            "e3",
            "aia_6_4_assessment_documented",
            {
                "state": "present",
                "doc": "D5",
                "date": "2026-08-20",
                "subject": "Intake",
            },
        ),
    ]


def _evaluate(facts: list[ComplianceFact]):
    return compliance_evaluate(
        ComplianceInput(
            valid_at=date(2026, 11, 30), regimes=("aia",), facts=tuple(facts)
        )
    )


def test_each_system_is_classified_and_judged_on_its_own_facts():
    result = _evaluate(_facts())
    resolve_15 = result.obligation("aia_15", "Resolve")
    assert resolve_15.applicable is True
    assert resolve_15.code == "nicht_erfuellt"
    assert resolve_15.violated == ("aia_15_5_cybersecurity",)
    assert result.obligation("aia_15", "Intake").applicable is False
    intake_6_4 = result.obligation("aia_6_4", "Intake")
    assert intake_6_4.applicable is True
    assert intake_6_4.code == "erfuellt"
    assert result.obligation("aia_6_4", "Resolve").applicable is False
    # no AI Act obligation is judged for the two systems together
    assert {o.subject for o in result.obligations} == {"Resolve", "Intake"}


def test_another_systems_exception_never_lifts_the_high_risk_duties():
    # Before: the dossier's first exception decided for every system, so
    # Resolve's Art. 15 could come out "not applicable"
    facts = _facts()
    facts.insert(1, facts.pop(facts.index(next(f for f in facts if f.ref == "x2"))))
    result = _evaluate(facts)
    assert result.obligation("aia_9", "Resolve").applicable is True
    assert result.obligation("aia_9", "Intake").applicable is False


def test_one_system_keeps_its_obligations_without_a_subject():
    facts = [f for f in _facts() if f.ref not in ("s2", "a2", "x2", "f2", "e3")]
    result = _evaluate(facts)
    assert {o.subject for o in result.obligations} == {None}
    assert result.obligation("aia_15").code == "nicht_erfuellt"
