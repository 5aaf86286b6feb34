"""The legal determinations of a compliance assessment (ELEMENTS.md §6):
whether a DPIA is required (Art. 35 Abs. 1, 3, 4 DSGVO), whether an AI system
is high-risk (Art. 6 Abs. 2, 3 KI-VO with Annex III) and the AI Act role
(incl. Art. 25 Abs. 1). Each is three-valued with its basis, the decisive facts
and the bases examined and rejected. Pure: no Django.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from ontology.domain.compliance_facts import FactBase, as_bool


class Determination(BaseModel):
    """A legal determination: its value, the provision that carries it, the
    decisive facts and the bases examined and rejected."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    value: bool | str | None
    basis: str | None
    decisive: tuple[str, ...] = ()
    rejected_bases: tuple[str, ...] = ()
    reason_de: str = ""
    reason_en: str = ""


# ------------------------------------------------------------- determinations
GDPR_35_TRIGGERS = (
    ("gdpr_35_3_a_systematic_evaluation", "Art. 35 Abs. 3 lit. a DSGVO"),
    ("gdpr_35_3_b_large_scale_special_categories", "Art. 35 Abs. 3 lit. b DSGVO"),
    ("gdpr_35_3_c_public_area_monitoring", "Art. 35 Abs. 3 lit. c DSGVO"),
    (
        "gdpr_35_4_authority_list_entry",
        "Art. 35 Abs. 1 und 4 DSGVO (Liste der Aufsichtsbehörde)",
    ),
    ("gdpr_35_1_high_risk", "Art. 35 Abs. 1 DSGVO"),
)


def gdpr_35_required(facts: FactBase) -> Determination:
    """Is a DPIA required (Art. 35 Abs. 1, 3, 4 DSGVO)? A screening note that
    says no while a trigger holds does not carry the answer: it is the
    violation (judged on the element)."""
    carrying: list[tuple[str, str]] = []
    rejected: list[tuple[str, str]] = []
    for key, provision in GDPR_35_TRIGGERS:
        for fact in facts.all(key):
            value = as_bool(fact.value.get("value"))
            if key == "gdpr_35_4_authority_list_entry":
                value = bool(fact.value.get("entry")) if value is None else value
            if value is True:
                carrying.append((fact.ref, provision))
            elif value is False:
                rejected.append((fact.ref, provision))
    screening = facts.first("gdpr_35_screening_note")
    if carrying:
        return Determination(
            key="gdpr_35_required",
            value=True,
            basis=carrying[0][1],
            decisive=tuple(dict.fromkeys(r for r, _ in carrying)),
            rejected_bases=tuple(dict.fromkeys(p for _, p in rejected)),
            reason_de=f"DSFA-Pflicht nach {carrying[0][1]}.",
            reason_en=f"DPIA required under {carrying[0][1]}.",
        )
    if screening is not None and screening.value.get("conclusion") == "not_required":
        return Determination(
            key="gdpr_35_required",
            value=False,
            basis=None,
            decisive=tuple(dict.fromkeys([r for r, _ in rejected] + [screening.ref])),
            reason_de="Keine DSFA-Pflicht: keine Fallgruppe des Art. 35 Abs. 3, kein "
            "Listeneintrag nach Abs. 4, kein hohes Risiko nach Abs. 1; "
            "Schwellwertanalyse verneint die Pflicht.",
            reason_en="No DPIA required: no case of Art. 35(3), no list entry under "
            "Art. 35(4), no high risk under Art. 35(1); the screening says so.",
        )
    return Determination(
        key="gdpr_35_required",
        value=None,
        basis=None,
        reason_de="Ob eine DSFA erforderlich ist, zeigt die Akte nicht.",
        reason_en="The file does not show whether a DPIA is required.",
    )


def annex_iii_provision(point: str) -> str:
    match = re.fullmatch(r"\s*(\d+)\s*(?:\(([a-z])\))?\s*", point)
    if match is None:
        return f"Anhang III Nr. {point}"
    number, letter = match.groups()
    return f"Anhang III Nr. {number}" + (f" lit. {letter}" if letter else "")


def aia_high_risk(facts: FactBase) -> Determination:
    """Art. 6 Abs. 2 with Annex III, the exceptions of Art. 6 Abs. 3 and the
    profiling rule of its third subparagraph."""
    annex = facts.first("aia_6_2_annex_iii_use_case")
    if annex is None:
        return Determination(
            key="aia_high_risk",
            value=None,
            basis=None,
            reason_de="Die Akte zeigt keinen Anwendungsfall nach Anhang III.",
            reason_en="The file shows no Annex III use case.",
        )
    point = annex.value.get("point")
    if not point:
        return Determination(
            key="aia_high_risk",
            value=False,
            basis=None,
            decisive=(annex.ref,),
            reason_de="Kein Anwendungsfall nach Anhang III KI-VO.",
            reason_en="No Annex III use case.",
        )
    basis = f"Art. 6 Abs. 2 i.V.m. {annex_iii_provision(str(point))} KI-VO"
    exception = facts.first("aia_6_3_exception_claimed")
    profiling = facts.first("aia_6_3_profiling")
    profiles = profiling is not None and as_bool(profiling.value.get("value")) is True
    if exception is not None:
        condition = str(exception.value.get("condition", ""))
        exception_basis = f"Art. 6 Abs. 3 UAbs. 2 lit. {condition} KI-VO"
        if profiles and profiling is not None:
            return Determination(
                key="aia_high_risk",
                value=True,
                basis=basis,
                decisive=(annex.ref, profiling.ref),
                rejected_bases=(exception_basis,),
                reason_de="Das System erstellt Profile natürlicher Personen: es gilt "
                "stets als hochriskant (Art. 6 Abs. 3 UAbs. 3 KI-VO); die Ausnahme "
                f"nach {exception_basis} greift nicht.",
                reason_en="The system profiles natural persons: always high-risk "
                "(Art. 6(3) third subparagraph AI Act); the exception fails.",
            )
        decisive = [annex.ref, exception.ref] + ([profiling.ref] if profiling else [])
        return Determination(
            key="aia_high_risk",
            value=False,
            basis=exception_basis,
            decisive=tuple(decisive),
            reason_de=f"Anhang-III-Fall, aber die Ausnahme nach {exception_basis} "
            "greift.",
            reason_en=f"Annex III use case, but the exception of {exception_basis} "
            "applies.",
        )
    return Determination(
        key="aia_high_risk",
        value=True,
        basis=basis,
        decisive=(annex.ref,),
        reason_de=f"Hochrisiko-KI-System nach {basis}.",
        reason_en=f"High-risk AI system under {basis}.",
    )


def aia_role(facts: FactBase) -> tuple[Determination, Determination]:
    """The AI Act role; a deployer that modifies a system under Art. 25 Abs. 1
    is a provider."""
    modification = facts.first("aia_25_1_provider_by_modification")
    if modification is not None:
        ground = str(modification.value.get("ground", ""))
        basis = f"Art. 25 Abs. 1 lit. {ground} KI-VO"
        reason_de = f"Die Organisation gilt als Anbieter ({basis})."
        reason_en = f"The organisation is deemed a provider ({basis})."
        return (
            Determination(
                key="aia_role",
                value="provider",
                basis=basis,
                decisive=(modification.ref,),
                reason_de=reason_de,
                reason_en=reason_en,
            ),
            Determination(
                key="aia_provider_role",
                value=True,
                basis=basis,
                decisive=(modification.ref,),
                reason_de=reason_de,
                reason_en=reason_en,
            ),
        )
    fact = facts.first("aia_ctx_role")
    role = fact.value.get("role") if fact is not None else None
    if fact is None or role not in ("provider", "deployer"):
        unknown = (
            "Rolle nicht belegt (kein aia_ctx_role): ob Anbieter- oder "
            "Betreiberpflichten gelten, ist offen."
        )
        unknown_en = (
            "Role not evidenced: whether provider or deployer duties apply is open."
        )
        return (
            Determination(
                key="aia_role",
                value=None,
                basis=None,
                reason_de=unknown,
                reason_en=unknown_en,
            ),
            Determination(
                key="aia_provider_role",
                value=None,
                basis=None,
                reason_de=unknown,
                reason_en=unknown_en,
            ),
        )
    label = "Anbieter" if role == "provider" else "Betreiber"
    return (
        Determination(
            key="aia_role",
            value=str(role),
            basis="Art. 3 Nr. 3 KI-VO" if role == "provider" else "Art. 3 Nr. 4 KI-VO",
            decisive=(fact.ref,),
            reason_de=f"Rolle: {label}.",
            reason_en=f"Role: {role}.",
        ),
        Determination(
            key="aia_provider_role",
            value=role == "provider",
            basis="Art. 3 Nr. 3 KI-VO" if role == "provider" else None,
            decisive=(fact.ref,),
            reason_de=f"Rolle: {label}.",
            reason_en=f"Role: {role}.",
        ),
    )


def determinations(
    facts: FactBase, regimes: tuple[str, ...]
) -> dict[str, Determination]:
    result: dict[str, Determination] = {}
    if "gdpr" in regimes:
        result["gdpr_35_required"] = gdpr_35_required(facts)
    if "aia" in regimes:
        result["aia_high_risk"] = aia_high_risk(facts)
        role, provider_role = aia_role(facts)
        result["aia_role"] = role
        result["aia_provider_role"] = provider_role
    return result
