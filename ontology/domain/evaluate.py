"""Evaluate a claim: SHACL decides each condition, this module puts the result
into words.

1. The version of the claim valid at ``context.valid_at`` is chosen.
2. The facts of the fact types its requirements mention become the claim data
   graph (one claim subject, inference applied), validated by the claim file's
   shapes in one pyshacl run.
3. Every failed shape is mapped back to its condition. An alternative is
   *satisfied* when all its conditions hold, *not satisfied* when a condition
   with ``bcl:onFail bcl:Excluded`` fails (an established fact rules it out),
   otherwise *open*. A requirement is satisfied by any satisfied alternative,
   not satisfied when every alternative is, otherwise open.
4. Sentences come from the condition texts, filled with the established facts
   (witnesses). Asserted and disputed facts never satisfy anything; they are
   named as such where their confirmation would change the verdict.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pyshacl import validate as shacl_validate
from rdflib import RDF
from rdflib.namespace import SH

from ontology.domain.case_facts import CaseFacts
from ontology.domain.claims import (
    Alternative,
    ClaimFile,
    ClaimVersion,
    Condition,
    Requirement,
    claim_version_get,
)
from ontology.domain.errors import ClaimDefinitionInvalid
from ontology.domain.facts import (
    FACT_STATUSES,
    ClaimContext,
    FactRecord,
    fact_status_established,
)
from ontology.domain.graph import claim_data_graph, subject_iri
from ontology.domain.results import (
    AlternativeVerdict,
    ClaimEvaluation,
    FactMention,
    MissingItem,
    RequirementVerdict,
    VerdictStatus,
)
from ontology.domain.text import (
    Lang,
    cents_format,
    join,
    value_format,
)
from ontology.domain.vocabulary import (
    Vocabulary,
    fact_type_lineage,
    fact_types_all,
)

LANGS: tuple[Lang, ...] = ("de", "en")
SEGMENT_RE = re.compile(r"\[([^\[\]]*)\]")
PLACEHOLDER_RE = re.compile(r"\{([?a-z0-9_]+)\}")


def conditions_failed(
    *,
    facts: Sequence[FactRecord],
    context: ClaimContext,
    version: ClaimVersion,
    claim_file: ClaimFile,
) -> set[str]:
    """IRIs of the conditions whose SHACL shapes the case violates."""
    data = claim_data_graph(facts=facts, context=context, fact_types=version.fact_types)
    _conforms, report, _text = shacl_validate(
        data, shacl_graph=claim_file.graph, inplace=True
    )
    subject = subject_iri(context.case_key)
    failed: set[str] = set()
    for result in report.subjects(RDF.type, SH.ValidationResult):
        if report.value(result, SH.focusNode) != subject:
            continue
        source = report.value(result, SH.sourceShape)
        condition = claim_file.shape_condition.get(source) if source else None
        if condition is None:
            raise ClaimDefinitionInvalid(
                f"{claim_file.path.name}: shape {source} failed but belongs to no "
                "condition"
            )
        failed.add(condition)
    return failed


def _render(
    template: str,
    case: CaseFacts,
    condition: Condition,
    passed: bool,
    lang: Lang,
    used: list[int],
) -> str | None:
    """Fill placeholders. A ``[...]`` segment disappears when a placeholder in it
    has no value; outside segments a missing value drops the whole text."""

    def value(name: str) -> str | None:
        if name.startswith("?debtor_"):
            kind = case.context.debtor_kind or "unknown"
            return "" if name == f"?debtor_{kind}" else None
        if name.endswith("_sum"):
            facts = case.witnesses(condition, name[: -len("_sum")], passed)
            amounts = [a for f in facts if (a := f.amount_value) is not None]
            if not amounts:
                return None
            currency = amounts[0].currency
            return cents_format(
                sum(a.cents for a in amounts if a.currency == currency), currency, lang
            )
        facts = case.witnesses(condition, name, passed)
        if not facts:
            return None
        used.extend(f.id for f in facts)
        return join([value_format(f.value, lang) for f in facts], lang)

    def fill(text: str) -> str | None:
        missing = False

        def replace(match: re.Match[str]) -> str:
            nonlocal missing
            found = value(match.group(1))
            if found is None:
                missing = True
                return ""
            return found

        result = PLACEHOLDER_RE.sub(replace, text)
        return None if missing else result

    def segment(match: re.Match[str]) -> str:
        return fill(match.group(1)) or ""

    with_segments = SEGMENT_RE.sub(segment, template)
    result = fill(with_segments)
    if result is None:
        return None
    result = result.strip()
    if not result or (template.startswith("[") and not with_segments.strip()):
        return None
    return result


def _fact_label(key: str, lang: Lang) -> str:
    info = fact_types_all().get(key)
    if info is None:
        return key
    return info.label_de if lang == "de" else info.label_en


def _unestablished_sentence(case: CaseFacts, key: str, lang: Lang) -> list[str]:
    sentences = []
    for status in [s for s in FACT_STATUSES if not fact_status_established(s)]:
        facts = [f for f in case.unestablished(key) if f.status == status]
        if not facts:
            continue
        values = join([value_format(f.value, lang) for f in facts], lang)
        label = _fact_label(key, lang)
        if lang == "de":
            verb = (
                "ist nur behauptet, aber weder belegt noch bestätigt"
                if status == "asserted"
                else "ist bestritten"
            )
            sentences.append(
                f"{label} ({values}) {verb} und trägt dieses Merkmal daher nicht."
            )
        else:
            verb = (
                "is only asserted, neither evidenced nor confirmed"
                if status == "asserted"
                else "is disputed"
            )
            sentences.append(
                f"{label} ({values}) {verb} and therefore cannot support this element."
            )
    return sentences


@dataclass
class _AltResult:
    verdict: AlternativeVerdict
    touched: bool
    conclusion: tuple[str, str] | None


def _alternative(alt: Alternative, failed: set[str], case: CaseFacts) -> _AltResult:
    texts: dict[Lang, list[str]] = {"de": [], "en": []}
    supporting: list[int] = []
    missing: dict[str, None] = {}
    mentions: list[FactMention] = []
    mention_keys: dict[str, None] = {}
    touched = False
    conclusion: tuple[str, str] | None = None
    excluded = False
    open_ = False
    ruled_out = any(c.iri in failed and c.on_fail == "excluded" for c in alt.conditions)
    for condition in alt.conditions:
        passed = condition.iri not in failed
        if not passed and ruled_out and condition.on_fail == "missing":
            # an established fact already rules this alternative out: what else
            # is missing for it no longer matters
            continue
        used: list[int] = []
        if passed:
            if condition.on_fail == "excluded":
                for key in condition.fact_types:
                    mention_keys.setdefault(key, None)
            if condition.silent_when_found:
                continue
            for lang in LANGS:
                template = condition.found_de if lang == "de" else condition.found_en
                text = _render(template, case, condition, True, lang, used)
                if text:
                    texts[lang].append(text)
            if used:
                touched = True
            supporting.extend(used)
            continue
        if condition.on_fail == "excluded":
            excluded = True
            touched = True
        else:
            open_ = True
            for key in condition.fact_types:
                missing.setdefault(key, None)
                mention_keys.setdefault(key, None)
            if (
                conclusion is None
                and condition.conclusion_de
                and condition.conclusion_en
            ):
                conclusion = (condition.conclusion_de, condition.conclusion_en)
        for lang in LANGS:
            template = condition.missing_de if lang == "de" else condition.missing_en
            text = _render(template, case, condition, False, lang, used)
            if text is None:  # placeholders without values: say it without them
                text = PLACEHOLDER_RE.sub("", SEGMENT_RE.sub("", template)).strip()
            texts[lang].append(text)
        if condition.on_fail == "excluded":
            supporting.extend(used)
    for key in mention_keys:
        for fact in case.unestablished(key):
            mentions.append(
                FactMention(fact_id=fact.id, fact_type=key, status=fact.status)
            )
            touched = True
        for lang in LANGS:
            texts[lang].extend(_unestablished_sentence(case, key, lang))
    status: VerdictStatus = (
        "not_satisfied" if excluded else "open" if open_ else "satisfied"
    )
    verdict = AlternativeVerdict(
        key=alt.key,
        label_de=alt.label_de,
        label_en=alt.label_en,
        status=status,
        sentence_de=" ".join(texts["de"]),
        sentence_en=" ".join(texts["en"]),
        supporting_fact_ids=tuple(dict.fromkeys(supporting)),
        missing=tuple(
            MissingItem(
                fact_type=k,
                label_de=_fact_label(k, "de"),
                label_en=_fact_label(k, "en"),
            )
            for k in missing
        ),
        legal_basis=alt.legal_basis,
        unestablished=tuple(mentions),
    )
    return _AltResult(verdict=verdict, touched=touched, conclusion=conclusion)


def _alt_name(alt: AlternativeVerdict, legal: tuple[str, ...], lang: Lang) -> str:
    label = alt.label_de if lang == "de" else alt.label_en
    return f"{label} ({legal[0]})" if legal else label


def _requirement(req: Requirement, results: list[_AltResult]) -> RequirementVerdict:
    verdicts = [r.verdict for r in results]
    satisfied = [v for v in verdicts if v.status == "satisfied"]
    parts: dict[Lang, list[str]] = {"de": [], "en": []}
    status: VerdictStatus
    if satisfied:
        status = "satisfied"
        for v in satisfied:
            if len(satisfied) > 1:
                parts["de"].append(f"Zu „{v.label_de}“: {v.sentence_de}")
                parts["en"].append(f"On “{v.label_en}”: {v.sentence_en}")
            else:
                parts["de"].append(v.sentence_de)
                parts["en"].append(v.sentence_en)
    else:
        status = (
            "not_satisfied"
            if all(v.status == "not_satisfied" for v in verdicts)
            else "open"
        )
        touched = [
            r for r in results if r.verdict.status == "not_satisfied" or r.touched
        ]
        shown = touched or results[:1]
        for result in shown:
            v = result.verdict
            if len(shown) > 1:
                parts["de"].append(f"Zu „{v.label_de}“: {v.sentence_de}")
                parts["en"].append(f"On “{v.label_en}”: {v.sentence_en}")
            else:
                parts["de"].append(v.sentence_de)
                parts["en"].append(v.sentence_en)
        rest = [
            (r.verdict, alt.legal_basis)
            for r, alt in zip(results, req.alternatives, strict=True)
            if r not in shown
        ]
        if rest:
            names_de = join([_alt_name(v, lb, "de") for v, lb in rest], "de")
            names_en = join([_alt_name(v, lb, "en") for v, lb in rest], "en")
            parts["de"].append(
                f"Zu den übrigen Alternativen – {names_de} – enthält die Akte keine "
                "festgestellten Tatsachen."
            )
            parts["en"].append(
                f"The file contains no established facts for the other alternatives "
                f"– {names_en}."
            )
    if status == "satisfied":
        parts["de"].append("Dieses Tatbestandsmerkmal ist erfüllt.")
        parts["en"].append("This element is satisfied.")
    elif status == "not_satisfied":
        parts["de"].append("Dieses Tatbestandsmerkmal ist nicht erfüllt.")
        parts["en"].append("This element is not satisfied.")
    else:
        open_shown = [r for r in shown if r.verdict.status == "open"]
        conclusion = open_shown[0].conclusion if len(open_shown) == 1 else None
        if conclusion is not None:
            parts["de"].append(conclusion[0])
            parts["en"].append(conclusion[1])
        else:
            parts["de"].append("Dieses Tatbestandsmerkmal bleibt offen.")
            parts["en"].append("This element remains open.")
    if status == "satisfied":
        supporting = [i for v in satisfied for i in v.supporting_fact_ids]
        missing: list[MissingItem] = []
    else:
        supporting = [i for v in verdicts for i in v.supporting_fact_ids]
        missing = [m for v in verdicts for m in v.missing]
    return RequirementVerdict(
        key=req.key,
        label_de=req.label_de,
        label_en=req.label_en,
        status=status,
        sentence_de=" ".join(p for p in parts["de"] if p),
        sentence_en=" ".join(p for p in parts["en"] if p),
        supporting_fact_ids=tuple(dict.fromkeys(supporting)),
        missing=tuple(dict.fromkeys(missing)),
        legal_basis=req.legal_basis,
        alternatives=tuple(verdicts),
        unestablished=tuple(
            dict.fromkeys(m for v in verdicts for m in v.unestablished)
        ),
    )


def _as_claim_types(
    facts: Sequence[FactRecord],
    claim_types: frozenset[str],
    vocabulary: Vocabulary | None,
) -> list[FactRecord]:
    """A fact of an extension type (a curator's subclass of a core fact type)
    counts as a fact of the nearest broader type the claim knows."""
    result = []
    for fact in facts:
        if fact.fact_type not in claim_types:
            base = next(
                (
                    k
                    for k in fact_type_lineage(fact.fact_type, vocabulary=vocabulary)
                    if k in claim_types
                ),
                None,
            )
            if base is not None:
                fact = fact.model_copy(update={"fact_type": base})
        result.append(fact)
    return result


def claim_evaluate(
    *,
    facts: Sequence[FactRecord],
    context: ClaimContext,
    vocabulary: Vocabulary | None = None,
) -> ClaimEvaluation:
    """Evaluate the claim of ``context`` against the facts (pure function).
    ``vocabulary`` is the case's firm's (its extension terms count as their
    broader core types); without one, the versioned vocabulary alone."""
    version, claim_file = claim_version_get(
        context.claim_type, context.jurisdiction, context.valid_at
    )
    if version.claim_type == "verzugsschaden":
        from ontology.domain.verzug_claim import verzug_evaluate

        core = frozenset(fact_types_all())
        return verzug_evaluate(
            facts=_as_claim_types(facts, core, vocabulary),
            context=context,
            version=version,
        )
    if not version.requirements:  # a compliance checklist: its obligations
        from ontology.domain.compliance_claim import compliance_claim_evaluate

        return compliance_claim_evaluate(facts=facts, context=context, version=version)
    return shaped_claim_evaluate(
        facts=facts,
        context=context,
        version=version,
        claim_file=claim_file,
        vocabulary=vocabulary,
    )


def shaped_claim_evaluate(
    *,
    facts: Sequence[FactRecord],
    context: ClaimContext,
    version: ClaimVersion,
    claim_file: ClaimFile,
    vocabulary: Vocabulary | None = None,
) -> ClaimEvaluation:
    """A claim whose requirements are SHACL shapes (a claim file with
    ``bcl:condition`` node shapes): one pyshacl run decides every condition,
    the condition texts put the result into words. Nothing here knows a
    particular claim; Verzugsschaden and the compliance checklists have their
    own kernel rules."""
    facts = _as_claim_types(facts, version.fact_types, vocabulary)
    relevant = [f for f in facts if f.fact_type in version.fact_types]
    failed = conditions_failed(
        facts=relevant, context=context, version=version, claim_file=claim_file
    )
    case = CaseFacts.of(facts, context)
    verdicts = tuple(
        _requirement(req, [_alternative(alt, failed, case) for alt in req.alternatives])
        for req in version.requirements
    )
    return ClaimEvaluation.for_version(version, context.valid_at, verdicts)
