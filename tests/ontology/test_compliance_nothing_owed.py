"""An obligation none of whose elements applies owes nothing, so it is not
applicable, never "erfüllt".

Art. 50 AI Act binds per paragraph: (1) and (2) the provider of a system that
interacts with people or generates synthetic content, (3) the deployer of an
emotion recognition or biometric categorisation system, (4) the deployer of
a system that generates deep fakes or public-interest text. A deployer of a
workforce-management system (Annex III point 4(b)) that does none of this
owes nothing under Art. 50: "erfüllt" would report a duty met where none
exists (blind holdout K37 of benchmarks/compliance_corpus, whose ground truth
says "nicht anwendbar", found the evaluator saying "erfüllt")."""

from __future__ import annotations

import re
from datetime import date

from ontology.domain.compliance import compliance_evaluate
from ontology.domain.compliance_catalogue import element_index
from ontology.domain.compliance_facts import ComplianceFact, ComplianceInput


def _fact(ref: str, key: str, value: dict) -> ComplianceFact:
    return ComplianceFact(ref=ref, key=key, value=value, status="confirmed")


def _deployer(*, deepfakes: bool) -> ComplianceInput:
    return ComplianceInput(
        valid_at=date(2026, 12, 1),
        regimes=("aia",),
        facts=(
            _fact("c1", "aia_ctx_role", {"role": "deployer"}),
            _fact("c2", "aia_6_2_annex_iii_use_case", {"point": "4(b)"}),
            _fact("c3", "aia_ctx_interacts_with_persons", {"value": False}),
            _fact("c4", "aia_ctx_generates_synthetic_content", {"value": False}),
            _fact(
                "c5", "aia_ctx_emotion_or_biometric_categorisation", {"value": False}
            ),
            _fact("c6", "aia_ctx_deepfake_or_public_text", {"value": deepfakes}),
        ),
    )


def test_an_obligation_with_no_applicable_element_is_not_applicable():
    verdict = compliance_evaluate(_deployer(deepfakes=False)).obligation("aia_50")
    assert verdict.applicable is False
    assert verdict.status is None
    assert all(e.applicable is False for e in verdict.elements)
    # the sentence says why, paragraph by paragraph, in words
    assert verdict.sentence_de.startswith("Art. 50 KI-VO ist nicht anwendbar")
    assert "Emotionserkennung" in verdict.sentence_de
    assert "Deepfakes" in verdict.sentence_de
    assert "erfüllt" not in verdict.sentence_de


def test_one_applicable_paragraph_keeps_the_obligation_applicable():
    verdict = compliance_evaluate(_deployer(deepfakes=True)).obligation("aia_50")
    assert verdict.applicable is True
    # Art. 50(4) is owed and nothing shows it: offen, not erfüllt
    assert verdict.status == "open"
    assert verdict.missing == ("aia_50_4_deepfake_disclosure",)


def test_no_condition_text_shows_an_internal_key():
    for _obligation, element in element_index().values():
        if element.condition is None:
            continue
        text = element.condition.text_de
        assert text, element.key
        assert not re.search(r"_ctx_|\w+_\w+\s*=|= ?true|\.\w+_", text), (
            element.key,
            text,
        )
