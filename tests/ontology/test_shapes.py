"""The claim files and their SHACL shapes are themselves validated: a broken
file fails loudly at load time instead of producing wrong verdicts."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ontology.domain.claims import (
    CLAIMS_DIR,
    ClaimFile,
    ClaimVersion,
    _check_overlaps,
    claim_file_load,
    claim_files_load,
)
from ontology.domain.errors import ClaimDefinitionInvalid
from ontology.domain.evaluate import shaped_claim_evaluate
from tests.ontology.helpers import ctx, fact

SOURCE = CLAIMS_DIR / "verzugsschaden.ttl"
# a claim file whose requirements are SHACL shapes (no shipped claim has any):
# the generic evaluator's fixture
SHAPES = Path(__file__).parent / "data" / "shaped_claim.ttl"


def broken(tmp_path: Path, old: str, new: str, source: Path = SOURCE) -> Path:
    text = source.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / source.name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_all_shipped_claim_files_load_and_pass_shacl_shacl() -> None:
    files = claim_files_load()
    names = {f.path.name for f in files}
    assert {"verzugsschaden.ttl", "ai_act_high_risk.ttl", "gdpr.ttl", "dora.ttl"} <= (
        names
    )
    for claim_file in files:
        assert claim_file.versions
        # every shipped claim is decided by kernel rules (Verzugsschaden) or
        # element by element (compliance checklists): none carries shapes
        assert not claim_file.shape_condition


@pytest.mark.parametrize(
    ("source", "old", "new", "reason"),
    [
        (SHAPES, "sh:qualifiedMinCount 1 ;", 'sh:qualifiedMinCount "eins" ;',
         "SHACL-SHACL"),
        (SHAPES, "sh:class bfe:due_date .", 'sh:class "due_date" .', "SHACL-SHACL"),
        (SHAPES, "sh:targetClass bc:ClaimSubject ;", 'sh:targetClass "Subject" ;',
         "SHACL"),
        (SHAPES, "SELECT $this WHERE {", "SELECT $this WHERE {{",
         "pyshacl cannot load"),
        (SHAPES, "bcl:factType bft:due_date ;", "bcl:factType bft:due_datum ;",
         "unknown fact"),
        (SOURCE, "bcl:factType bft:payment_term .",
         "bcl:factType bft:zahlungsbedingung .", "unknown fact"),
        (SOURCE, '"§ 286 Abs. 2 Nr. 4 BGB" ;\n    bcl:factType bft:special_reasons .',
         '"§ 286 Abs. 2 Nr. 4 BGB" .', "nor the bcl:factType"),
        (SOURCE, '"§ 271 Abs. 1 BGB"', '"§271 BGB"', "canonical"),
        (SOURCE, '"Fälligkeit"@de, "Claim due"@en', '"Fälligkeit"@de', "label@en"),
        (SHAPES, "bcl:onFail bcl:Missing", "bcl:onFail bcl:Maybe", "onFail"),
        (SHAPES, "{due_date} fällig", "{faellig} fällig", "placeholder"),
        (SOURCE, "vs:v2002 a bcl:ClaimVersion ;", "vs:v2002 a bcl:ClaimVersion ] ;",
         "Turtle"),
    ],
)  # fmt: skip
def test_a_broken_claim_file_fails_loudly(
    tmp_path: Path, source: Path, old: str, new: str, reason: str
) -> None:
    with pytest.raises(ClaimDefinitionInvalid) as info:
        claim_file_load(broken(tmp_path, old, new, source))
    assert reason in info.value.message
    assert info.value.code == "claim_definition_invalid"


def test_overlapping_versions_are_refused(tmp_path: Path) -> None:
    path = broken(
        tmp_path,
        'bcl:validUntil "2014-07-28"^^xsd:date',
        'bcl:validUntil "2014-07-29"^^xsd:date',
    )
    with pytest.raises(ClaimDefinitionInvalid, match="overlap"):
        _check_overlaps([claim_file_load(path)])


def test_every_alternative_is_decided_by_shapes_or_names_its_rules_facts() -> None:
    for claim_file in claim_files_load():
        for version in claim_file.versions:
            for requirement in version.requirements:
                assert requirement.alternatives
                for alternative in requirement.alternatives:
                    assert alternative.conditions or alternative.rule_fact_types
                    assert alternative.fact_types
                    assert alternative.legal_basis


def test_verzugsschaden_keeps_no_shacl_shape_and_no_sparql_constraint() -> None:
    """Its rules live in ontology/domain/verzug.py; the old shapes (among
    them the one SPARQL constraint, 85-90 % of a validation's time) are
    gone, so no claim file carries a SPARQL constraint any more."""
    verzug = next(f for f in claim_files_load() if f.path == SOURCE)
    assert not verzug.shape_condition
    assert "sh:" not in SOURCE.read_text(encoding="utf-8")
    sparql = {
        c.iri
        for f in claim_files_load()
        for v in f.versions
        for r in v.requirements
        for a in r.alternatives
        for c in a.conditions
        if c.uses_sparql
    }
    assert sparql == set()


def _all_citations() -> set[str]:
    found: set[str] = set()
    for claim_file in claim_files_load():
        for v in claim_file.versions:
            found |= set(v.legal_basis)
            found |= {
                c
                for c in (
                    v.interest_basis,
                    v.interest_basis_no_consumer,
                    v.flat_fee_basis,
                )
                if c
            }
            for r in v.requirements:
                found |= set(r.legal_basis)
                for a in r.alternatives:
                    found |= set(a.legal_basis)
    return found


def test_every_legal_basis_parses_as_one_citation_of_a_known_instrument() -> None:
    from citations.domain.parser import parse_citations

    citations = _all_citations()
    assert len(citations) > 20  # the compliance provisions: test_compliance_report
    for text in sorted(citations):
        parsed = parse_citations(text)
        assert len(parsed) == 1 and parsed[0].raw == text, text
        assert parsed[0].instrument is not None, text


def _shaped_version(valid_at: date) -> tuple[ClaimVersion, ClaimFile]:
    claim_file = claim_file_load(SHAPES)
    version = next(
        v
        for v in claim_file.versions
        if v.valid_from <= valid_at
        and (v.valid_until is None or valid_at <= v.valid_until)
    )
    return version, claim_file


def test_a_shaped_claim_is_decided_by_its_shapes_and_put_into_words() -> None:
    """The generic path: one pyshacl run decides the conditions, the
    condition texts are filled from the established facts."""
    version, claim_file = _shaped_version(date(2024, 6, 1))
    due = fact("due_date", "2024-03-15")
    reminder = fact("reminder_sent", "2024-04-02")
    received = fact("reminder_received", "2024-04-04")
    result = shaped_claim_evaluate(
        facts=[due, reminder, received],
        context=ctx(valid_at=date(2024, 6, 1)),
        version=version,
        claim_file=claim_file,
    )
    assert result.version_key == version.version_key
    faellig = result.requirement("faelligkeit")
    assert faellig.status == "satisfied"
    assert "15.03.2024" in faellig.sentence_de
    assert due.id in faellig.supporting_fact_ids
    mahnung = result.requirement("mahnung")
    assert mahnung.status == "satisfied", mahnung.sentence_de
    assert result.requirement("schaden").status == "open"
    assert result.damage is None  # no claim-specific computation on this path


def test_a_failed_excluding_shape_rules_the_alternative_out() -> None:
    """The SPARQL condition: a reminder dated before the due date excludes the
    reminder alternative instead of leaving it open."""
    version, claim_file = _shaped_version(date(2024, 6, 1))
    result = shaped_claim_evaluate(
        facts=[
            fact("due_date", "2024-03-15"),
            fact("reminder_sent", "2024-03-01"),
            fact("reminder_received", "2024-03-02"),
        ],
        context=ctx(valid_at=date(2024, 6, 1)),
        version=version,
        claim_file=claim_file,
    )
    mahnung = result.requirement("mahnung")
    reminder = next(a for a in mahnung.alternatives if a.key == "reminder")
    assert reminder.status == "not_satisfied"
    assert "vor Eintritt der Fälligkeit" in reminder.sentence_de
    assert mahnung.status == "open"  # the other alternatives are only open


def test_unconfirmed_facts_satisfy_no_shape() -> None:
    version, claim_file = _shaped_version(date(2024, 6, 1))
    result = shaped_claim_evaluate(
        facts=[fact("due_date", "2024-03-15", status="asserted")],
        context=ctx(valid_at=date(2024, 6, 1)),
        version=version,
        claim_file=claim_file,
    )
    faellig = result.requirement("faelligkeit")
    assert faellig.status == "open"
    assert "nur behauptet" in faellig.sentence_de
