"""Compliance obligations judged element by element (issue 17).

``compliance_evaluate`` takes the facts of an assessment as of its Stichtag and
returns, per obligation of the claim ontology (``compliance_catalogue``):
applicability first (an obligation that does not apply says so and why), then
each element's status with the reason (``finding``) and the facts that carry
it, and the obligation's verdict: *erfüllt* only when every applicable element
is evidenced, *nicht erfüllt* as soon as one element is shown missing or
violated, *offen* otherwise. The sentence names each missing or violated
element with its provision. Which facts count is ``compliance_facts``;
determinations and applicability are ``compliance_rules``. Pure: no Django.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from ontology.domain.compliance_catalogue import (
    ElementDef,
    ObligationDef,
    obligations_catalogue,
)
from ontology.domain.compliance_facts import (
    ComplianceFact,
    ComplianceInput,
    FactBase,
    as_bool,
    as_int,
    as_list,
    fact_subject,
    parse_date,
    parse_datetime,
)
from ontology.domain.compliance_rules import (
    Applicability,
    Context,
    Determination,
    determinations,
    obligation_applicability,
    subject_documents,
    subjects_of,
)
from ontology.domain.compliance_sentences import element_sentences, obligation_sentences
from ontology.domain.results import STATUS_LABELS, VerdictStatus

__all__ = [
    "CONTRACT_CODES",
    "ComplianceAssessment",
    "ComplianceFact",
    "ComplianceInput",
    "Determination",
    "ElementVerdict",
    "ObligationVerdict",
    "compliance_evaluate",
]

# the status codes of the scenario contract (ELEMENTS.md) for the shared
# verdict vocabulary of results.py
CONTRACT_CODES: dict[str, str] = {
    "satisfied": "erfuellt",
    "not_satisfied": "nicht_erfuellt",
    "open": "offen",
}
INITIAL_HOURS_AFTER_CLASSIFICATION = 4  # RTS under Art. 20 DORA (assumption, §7)
INITIAL_HOURS_AFTER_AWARENESS = 24
INTERMEDIATE_HOURS = 72
MIN_LOG_RETENTION_MONTHS = 6  # Art. 26 Abs. 6 KI-VO
ART_10_5_CONDITIONS = ("a", "b", "c", "d", "e", "f")
_DPIA = "gdpr_35_1_dpia_before_processing"
DATED_AGAINST = {
    _DPIA: ("gdpr_ctx_processing_start", "date"),
    "aia_6_4_assessment_documented": ("aia_ctx_system", "placed_on_market"),
    "aia_11_1_drawn_up_before_market": ("aia_ctx_system", "placed_on_market"),
    "aia_26_7_worker_information": ("aia_ctx_first_use", "date"),
    "aia_27_1_before_first_use": ("aia_ctx_first_use", "date"),
}


# status, finding, decisive fact refs, details (deadline, missing conditions …)
Judgement = tuple[VerdictStatus, str, list[str], dict[str, Any]]


class ElementVerdict(BaseModel):
    """One element of an obligation: applicable or not, its status, the reason
    code (ELEMENTS.md §4), the facts that carry it and a sentence."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    label_de: str
    label_en: str
    provision_de: str
    provision_en: str
    applicable: bool | None
    status: VerdictStatus | None
    finding: str
    decisive: tuple[str, ...] = ()
    sentence_de: str = ""
    sentence_en: str = ""
    details: dict[str, Any] = {}

    @property
    def code(self) -> str | None:
        return CONTRACT_CODES[self.status] if self.status else None


class ObligationVerdict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    subject: str | None
    claim_type: str
    label_de: str
    label_en: str
    provision_de: str
    provision_en: str
    applicable: bool | None
    applicability_reason_de: str
    applicability_reason_en: str
    applicability_decisive: tuple[str, ...]
    status: VerdictStatus | None
    elements: tuple[ElementVerdict, ...]
    violated: tuple[str, ...]
    missing: tuple[str, ...]
    sentence_de: str
    sentence_en: str

    @property
    def code(self) -> str | None:
        return CONTRACT_CODES[self.status] if self.status else None

    @property
    def status_de(self) -> str:
        return STATUS_LABELS[self.status][0] if self.status else "nicht anwendbar"

    def element(self, key: str) -> ElementVerdict:
        return next(e for e in self.elements if e.key == key)


class ComplianceAssessment(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    valid_at: dt.date
    obligations: tuple[ObligationVerdict, ...]
    determinations: dict[str, Determination]
    ignored_facts: dict[str, str]
    awaiting_review: tuple[str, ...]
    after_stichtag: tuple[str, ...]

    def obligation(self, key: str, subject: str | None = None) -> ObligationVerdict:
        return next(
            o for o in self.obligations if o.key == key and o.subject == subject
        )


# ------------------------------------------------------------------- elements
class _Judge:
    """Judges the elements of one obligation for one subject."""

    def __init__(
        self,
        obligation: ObligationDef,
        ctx: Context,
        subject: str | None,
        single_subject: bool,
    ) -> None:
        self.obligation = obligation
        self.ctx = ctx
        self.facts = ctx.facts
        self.subject = subject
        self.single_subject = single_subject
        self.documents: frozenset[str] = (
            subject_documents(obligation, self.facts, subject)
            if subject is not None
            else frozenset()
        )

    def _mine(self, fact: ComplianceFact) -> bool:
        own = fact_subject(fact)
        if self.subject is None or own == self.subject:
            return True
        if own is not None:
            return False
        if self.single_subject:
            return True
        return fact.value.get("doc") in self.documents

    def element_facts(self, key: str) -> list[ComplianceFact]:
        return [f for f in self.facts.all(key) if self._mine(f)]

    def instrument(self) -> ComplianceFact | None:
        key = self.obligation.instrument
        if key is None:
            return None
        for fact in self.element_facts(key):
            if as_bool(fact.value.get("complete")) is True:
                return fact
        return None

    # -- applicability of one element
    def applies(self, element: ElementDef) -> tuple[bool | None, tuple[str, ...]]:
        cond = element.condition
        if cond is None:
            return True, ()
        if cond.role is not None:
            role = self.ctx.role()
            if role is None:
                return None, ()
            if role != cond.role:
                return False, ()
        fact = self.facts.first(cond.fact)
        if fact is None:
            return None, ()
        if cond.fact == "gdpr_28_2_prior_authorisation":
            present = fact.value.get("state") == "present"
            return present and fact.value.get("kind") in cond.values, (fact.ref,)
        raw = fact.value.get(cond.field)
        if isinstance(raw, list) or cond.field == "bases":
            hit = any(v in as_list(raw) for v in cond.values)
        else:
            flag = as_bool(raw)
            if flag is None:
                return None, (fact.ref,)
            hit = str(flag).lower() in cond.values
        if hit and cond.not_obvious and as_bool(fact.value.get("obvious")) is True:
            hit = False
        return hit, (fact.ref,)

    # -- status of one applicable element
    def judge(self, element: ElementDef) -> Judgement:
        key = element.key
        if element.shape.startswith("derived:"):
            return self._derived(element)
        if element.shape == "submission":
            return self._submission(element)
        facts = self.element_facts(key)
        if key == _DPIA and self._processing_begun() is False:
            # a DPIA not carried out yet is not late before the processing
            # begins: Art. 35(1) asks for it "prior to the processing"
            facts = [f for f in facts if f.value.get("state") != "absent"]
        for fact in facts:
            if fact.value.get("state") in ("absent", "contradicted"):
                return "not_satisfied", str(fact.value["state"]), [fact.ref], {}
        special = self._gdpr_35_special(element)
        if special is not None:
            return special
        for fact in facts:
            if fact.value.get("state") != "present":
                continue
            failed = self._shape_rule(element, fact)
            if failed is not None:
                return failed
        present = [f for f in facts if f.value.get("state") == "present"]
        if present:
            return "satisfied", "evidenced", [present[0].ref], {}
        instrument = None if element.outside_instrument else self.instrument()
        if instrument is not None:
            return "not_satisfied", "absent_in_document", [instrument.ref], {}
        if any(self._mine(f) for f in self.facts.pending.get(key, ())):
            return "open", "awaiting_review", [], {}
        return "open", "not_evidenced", [], {}

    def _gdpr_35_special(self, element: ElementDef) -> Judgement | None:
        if self.obligation.key != "gdpr_35":
            return None
        det = self.ctx.determinations.get("gdpr_35_required")
        if det is None or det.value is not True:
            return None
        # what shows that no DPIA exists: a screening note denying the duty
        # the law imposes, or the DPIA not carried out while the processing
        # runs (ELEMENTS.md §7)
        screening = self.facts.first("gdpr_35_screening_note")
        if (
            screening is not None
            and screening.value.get("conclusion") != "not_required"
        ):
            screening = None
        not_done = next(
            (
                f
                for f in self.element_facts(_DPIA)
                if f.value.get("state") == "absent" and self._processing_begun()
            ),
            None,
        )
        shown = screening or not_done
        if shown is None:
            return None
        if element.key == _DPIA:
            if screening is None:
                return None
            return (
                "not_satisfied",
                "screening_contradicts_law",
                [screening.ref, *det.decisive],
                {},
            )
        dpia_exists = self.instrument() is not None or any(
            f.value.get("state") == "present"
            for e in self.obligation.elements
            for f in self.element_facts(e.key)
        )
        # Art. 35(2): the DPO's advice is sought "when carrying out" the DPIA;
        # with no DPIA carried out it was not sought on one, as the Art. 35(7)
        # content is not there (the element applies only where a DPO is
        # designated; applicability is decided before this rule).
        if (
            element.key.startswith("gdpr_35_7_")
            or element.key == "gdpr_35_2_dpo_advice"
        ) and not dpia_exists:
            return "not_satisfied", "no_assessment", [shown.ref], {}
        return None

    def _processing_begun(self) -> bool | None:
        """Whether the processing had begun by the Stichtag (None: unknown)."""
        start = self.facts.first("gdpr_ctx_processing_start")
        begins = parse_date(start.value.get("date")) if start is not None else None
        return None if begins is None else begins <= self.ctx.valid_at

    def _shape_rule(
        self, element: ElementDef, fact: ComplianceFact
    ) -> Judgement | None:
        value = fact.value
        if element.key in DATED_AGAINST:
            ctx_key, name = DATED_AGAINST[element.key]
            reference = self.facts.first(ctx_key)
            done = parse_date(value.get("date"))
            limit = parse_date(reference.value.get(name)) if reference else None
            if done and limit and reference and done > limit:
                return (
                    "not_satisfied",
                    "late",
                    [fact.ref, reference.ref],
                    {"date": value.get("date"), "deadline": reference.value.get(name)},
                )
        if element.shape == "retention":
            months = as_int(value.get("retention_months"))
            if months is not None and months < MIN_LOG_RETENTION_MONTHS:
                return (
                    "not_satisfied",
                    "insufficient",
                    [fact.ref],
                    {"retention_months": months},
                )
        if element.shape == "review_date":
            micro, _ = self.facts.flag("dora_ctx_microenterprise")
            last = parse_date(value.get("last_review"))
            if micro is not True and last is not None:
                try:
                    due = last.replace(year=last.year + 1)
                except ValueError:  # 29 February
                    due = last.replace(year=last.year + 1, day=28)
                if due < self.ctx.valid_at:
                    return (
                        "not_satisfied",
                        "overdue",
                        [fact.ref],
                        {"last_review": value.get("last_review")},
                    )
        if element.shape == "conditions":
            met = set(as_list(value.get("conditions_met")))
            missing = [c for c in ART_10_5_CONDITIONS if c not in met]
            if missing:
                return (
                    "not_satisfied",
                    "insufficient",
                    [fact.ref],
                    {"missing_conditions": missing},
                )
        if (
            element.key == "dora_30_3_e_monitoring_audit_rights"
            and as_bool(value.get("delegated_to_independent_third_party")) is True
        ):
            micro, micro_refs = self.facts.flag("dora_ctx_microenterprise")
            if micro is not True:
                return "not_satisfied", "insufficient", [fact.ref, *micro_refs], {}
        return None

    def _derived(self, element: ElementDef) -> Judgement:
        if element.key == "gdpr_6_1_f_not_public_task":
            value, decisive = self.facts.flag("gdpr_ctx_public_authority_task")
            if value is False:
                return "satisfied", "evidenced", decisive, {}
            if value is True:
                return "not_satisfied", "contradicted", decisive, {}
            return "open", "not_evidenced", [], {}
        register = next(
            (
                f
                for f in self.element_facts("dora_28_3_register_maintained")
                if f.value.get("state") == "present"
            ),
            None,
        )
        if register is None:
            return "open", "not_evidenced", [], {}
        if element.key == "dora_28_3_cif_distinguished":
            flag = as_bool(register.value.get("distinguishes_cif"))
            if flag is True:
                return "satisfied", "evidenced", [register.ref], {}
            if flag is False:
                return "not_satisfied", "absent", [register.ref], {}
            return "open", "not_evidenced", [], {}
        entries = {e.casefold() for e in as_list(register.value.get("entries"))}
        arrangements = self.facts.all("dora_ctx_ict_arrangement")
        missing = [
            a
            for a in arrangements
            if str(a.value.get("provider", "")).casefold() not in entries
        ]
        if missing:
            return (
                "not_satisfied",
                "incomplete",
                [register.ref, *(a.ref for a in missing)],
                {"missing_arrangements": [a.value.get("provider") for a in missing]},
            )
        return (
            "satisfied",
            "evidenced",
            [register.ref, *(a.ref for a in arrangements)],
            {},
        )

    def _submission(self, element: ElementDef) -> Judgement:
        incident = next(
            (
                f
                for f in self.facts.all("dora_ctx_incident")
                if as_bool(f.value.get("major")) is True
            ),
            None,
        )
        facts = self.element_facts(element.key)
        for fact in facts:
            if fact.value.get("state") == "absent":
                return "not_satisfied", "absent", [fact.ref], {}
        if incident is None:
            return "open", "not_evidenced", [], {}
        deadline = self._deadline(element.key, incident)
        submitted = next(
            (
                f
                for f in facts
                if f.value.get("state") == "present"
                and parse_datetime(f.value.get("submitted_at")) is not None
            ),
            None,
        )
        details: dict[str, Any] = {
            "deadline": deadline.isoformat(timespec="minutes") if deadline else None,
            "submitted_at": submitted.value.get("submitted_at") if submitted else None,
        }
        later = [
            f.ref
            for f in self.facts.after_stichtag.get(element.key, ())
            if self._mine(f)
        ]
        if later:
            details["ignored_after_stichtag"] = later
        if submitted is not None:
            at = parse_datetime(submitted.value.get("submitted_at"))
            if deadline is None and at is not None:
                # the earlier report's time is not evidenced: the report is in
                # time if it beat the earliest limit that report can have set
                # (it came after the classification); later, it is open
                earliest = self._earliest_deadline(element.key, incident)
                if earliest is not None and at <= earliest:
                    return (
                        "satisfied",
                        "in_time",
                        [submitted.ref, incident.ref],
                        details,
                    )
                return "open", "not_evidenced", [submitted.ref, incident.ref], details
            if deadline is None or at is None:
                return "satisfied", "evidenced", [submitted.ref, incident.ref], details
            if at <= deadline:
                return "satisfied", "in_time", [submitted.ref, incident.ref], details
            return "not_satisfied", "late", [submitted.ref, incident.ref], details
        if deadline is not None and deadline.date() >= self.ctx.valid_at:
            return "open", "not_yet_due", [incident.ref], details
        if any(self._mine(f) for f in self.facts.pending.get(element.key, ())):
            return "open", "awaiting_review", [], details
        return "open", "not_evidenced", [], details

    def _earliest_deadline(
        self, key: str, incident: ComplianceFact
    ) -> dt.datetime | None:
        """The earliest limit of an intermediate or final report whose earlier
        report is not evidenced: counted from the classification, before
        which no earlier report can have been made."""
        classified = parse_datetime(incident.value.get("classified_at"))
        if classified is None or key == "dora_19_4_a_initial_notification":
            return None
        if key == "dora_19_4_b_intermediate_report":
            return classified + dt.timedelta(hours=INTERMEDIATE_HOURS)
        return _month_later(classified)

    def _deadline(self, key: str, incident: ComplianceFact) -> dt.datetime | None:
        """The time limits the scenarios assume for the RTS under Art. 20 DORA."""
        if key == "dora_19_4_a_initial_notification":
            classified = parse_datetime(incident.value.get("classified_at"))
            aware = parse_datetime(incident.value.get("aware_at"))
            limits = []
            if classified:
                limits.append(
                    classified + dt.timedelta(hours=INITIAL_HOURS_AFTER_CLASSIFICATION)
                )
            if aware:
                limits.append(aware + dt.timedelta(hours=INITIAL_HOURS_AFTER_AWARENESS))
            return min(limits) if limits else None
        previous_key = (
            "dora_19_4_a_initial_notification"
            if key == "dora_19_4_b_intermediate_report"
            else "dora_19_4_b_intermediate_report"
        )
        previous = next(
            (
                parse_datetime(f.value.get("submitted_at"))
                for f in self.element_facts(previous_key)
                if f.value.get("state") == "present"
            ),
            None,
        )
        if previous is None:
            return None
        if key == "dora_19_4_b_intermediate_report":
            return previous + dt.timedelta(hours=INTERMEDIATE_HOURS)
        return _month_later(previous)


def _month_later(at: dt.datetime) -> dt.datetime:
    """The same day and time one month later (the last day of a shorter
    month)."""
    month = at.month % 12 + 1
    year = at.year + (at.month == 12)
    day = min(at.day, 28 if month == 2 else 30 if month in (4, 6, 9, 11) else 31)
    return at.replace(year=year, month=month, day=day)


# ------------------------------------------------------------------ assembly
def _obligation(
    obligation: ObligationDef, ctx: Context, subject: str | None, single: bool
) -> ObligationVerdict:
    applicability = obligation_applicability(obligation, ctx, subject)
    judge = _Judge(obligation, ctx, subject, single)
    elements: list[ElementVerdict] = []
    for element in obligation.elements:
        common: dict[str, Any] = {
            "key": element.key,
            "label_de": element.label_de,
            "label_en": element.label_en,
            "provision_de": element.provision_de,
            "provision_en": element.provision_en,
        }
        if applicability.applicable is False:
            elements.append(
                ElementVerdict(
                    **common, applicable=False, status=None, finding="not_applicable"
                )
            )
            continue
        applies, condition_refs = judge.applies(element)
        if applicability.applicable is None or applies is None:
            de, en = element_sentences(element, "applicability_open", {})
            elements.append(
                ElementVerdict(
                    **common,
                    applicable=None,
                    status="open",
                    finding="applicability_open",
                    sentence_de=de,
                    sentence_en=en,
                )
            )
            continue
        if applies is False:
            elements.append(
                ElementVerdict(
                    **common,
                    applicable=False,
                    status=None,
                    finding="not_applicable",
                    decisive=condition_refs,
                    sentence_de=f"{element.provision_de}: nicht anwendbar "
                    f"({element.condition.text_de if element.condition else ''}).",
                    sentence_en=f"{element.provision_en}: not applicable.",
                )
            )
            continue
        element_status, finding, decisive, details = judge.judge(element)
        de, en = element_sentences(element, finding, details)
        elements.append(
            ElementVerdict(
                **common,
                applicable=True,
                status=element_status,
                finding=finding,
                decisive=tuple(dict.fromkeys(decisive)),
                sentence_de=de,
                sentence_en=en,
                details=details,
            )
        )
    if (
        applicability.applicable is True
        and elements
        and all(e.applicable is False for e in elements)
    ):
        # Every paragraph's own condition fails (Art. 50: no provider duty,
        # no emotion recognition, no deep fake): nothing is owed, so nothing
        # is fulfilled either; "erfüllt" would report a duty that was met
        # where none exists.
        applicability = _none_applies(applicability, elements)
    judged = [e for e in elements if e.status is not None]
    status: VerdictStatus | None
    if applicability.applicable is False:
        status = None
    elif any(e.status == "not_satisfied" for e in judged):
        status = "not_satisfied"
    elif any(e.status == "open" for e in judged) or applicability.applicable is None:
        status = "open"
    else:
        status = "satisfied"
    de, en = obligation_sentences(obligation, applicability, status, elements)
    return ObligationVerdict(
        key=obligation.key,
        subject=subject,
        claim_type=obligation.claim_type,
        label_de=obligation.label_de,
        label_en=obligation.label_en,
        provision_de=obligation.provision_de,
        provision_en=obligation.provision_en,
        applicable=applicability.applicable,
        applicability_reason_de=applicability.reason_de,
        applicability_reason_en=applicability.reason_en,
        applicability_decisive=applicability.decisive,
        status=status,
        elements=tuple(elements),
        violated=tuple(e.key for e in elements if e.status == "not_satisfied"),
        # an element whose applicability is open is not "missing": the file
        # does not yet show that it is owed at all
        missing=tuple(
            e.key for e in elements if e.status == "open" and e.applicable is True
        ),
        sentence_de=de,
        sentence_en=en,
    )


def _none_applies(
    applicability: Applicability, elements: Sequence[ElementVerdict]
) -> Applicability:
    """The obligation applies in general, but none of its elements does: it
    is not applicable, for the elements' reasons."""
    reasons_de = "; ".join(e.sentence_de.rstrip(".") for e in elements)
    reasons_en = "; ".join(e.sentence_en.rstrip(".") for e in elements)
    return Applicability(
        applicable=False,
        reason_de=f"Keines ihrer Elemente ist anwendbar ({reasons_de}).",
        reason_en=f"None of its elements applies ({reasons_en}).",
        decisive=tuple(
            dict.fromkeys(
                (*applicability.decisive, *(r for e in elements for r in e.decisive))
            )
        ),
    )


def compliance_evaluate(data: ComplianceInput) -> ComplianceAssessment:
    """Judge every obligation of the assessment's regimes, element by element."""
    facts = FactBase.build(data)
    ctx = Context(facts=facts, determinations=determinations(facts, data.regimes))
    systems: dict[str, Context] = {}

    def context_of(obligation: ObligationDef, subject: str | None) -> Context:
        # An AI system of several is classified, and its duties judged, on
        # its own facts and those of the organisation (role, policies), never
        # on another system's Annex III point or Art. 6(3) exception.
        if obligation.regime != "aia" or subject is None:
            return ctx
        if subject not in systems:
            own = facts.for_subject(subject)
            systems[subject] = Context(
                facts=own, determinations=determinations(own, data.regimes)
            )
        return systems[subject]

    verdicts: list[ObligationVerdict] = []
    for obligation in obligations_catalogue().values():
        if obligation.regime not in data.regimes:
            continue
        subjects = subjects_of(obligation, facts)
        for subject in subjects:
            verdicts.append(
                _obligation(
                    obligation,
                    context_of(obligation, subject),
                    subject,
                    len(subjects) == 1,
                )
            )
    return ComplianceAssessment(
        valid_at=data.valid_at,
        obligations=tuple(verdicts),
        determinations=ctx.determinations,
        ignored_facts=dict(facts.ignored),
        awaiting_review=tuple(
            f.ref for pending in facts.pending.values() for f in pending
        ),
        after_stichtag=tuple(
            f.ref for later in facts.after_stichtag.values() for f in later
        ),
    )
