"""Determinations and applicability of the compliance obligations.

The legal determinations (ELEMENTS.md §6: DPIA required, high-risk AI system,
the AI Act role incl. Art. 25) and, per obligation, whether it applies on the
Stichtag and why (§5, §7, §10). Each answer is three-valued: ``True``,
``False`` or ``None`` (the file does not show it), with the facts that carry
it and a reason in German and English. Pure: no Django.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from ontology.domain.compliance_catalogue import ObligationDef
from ontology.domain.compliance_determinations import (
    Determination,
    annex_iii_provision,
    determinations,
)
from ontology.domain.compliance_facts import (
    FactBase,
    as_bool,
    as_list,
    fact_subject,
    parse_date,
)

__all__ = [
    "Applicability",
    "Context",
    "Determination",
    "determinations",
    "obligation_applicability",
    "subjects_of",
]

GDPR_FROM = dt.date(2018, 5, 25)  # Art. 99 Abs. 2 DSGVO
DORA_FROM = dt.date(2025, 1, 17)  # Art. 64 UAbs. 2 DORA
AIA_FROM = dt.date(2026, 8, 2)  # Art. 113 UAbs. 2 KI-VO
AIA_PUBLIC_AUTHORITIES = dt.date(2030, 8, 2)  # Art. 111 Abs. 2 S. 2 KI-VO

PROVIDER_OBLIGATIONS = frozenset(
    {"aia_9", "aia_10", "aia_11", "aia_12", "aia_13", "aia_14", "aia_15", "aia_17"}
)
DEPLOYER_OBLIGATIONS = frozenset({"aia_26", "aia_27"})


@dataclass(frozen=True)
class Applicability:
    applicable: bool | None
    reason_de: str
    reason_en: str
    decisive: tuple[str, ...] = ()


@dataclass
class Context:
    """The facts plus the determinations the obligations depend on."""

    facts: FactBase
    determinations: dict[str, Determination] = field(default_factory=dict)

    @property
    def valid_at(self) -> dt.date:
        return self.facts.valid_at

    def role(self) -> str | None:
        det = self.determinations.get("aia_role")
        return det.value if det is not None and isinstance(det.value, str) else None


# -------------------------------------------------------------- applicability
def _yes(reason_de: str, reason_en: str, *decisive: str) -> Applicability:
    return Applicability(True, reason_de, reason_en, tuple(decisive))


def _no(reason_de: str, reason_en: str, *decisive: str) -> Applicability:
    return Applicability(False, reason_de, reason_en, tuple(decisive))


def _open(reason_de: str, reason_en: str, *decisive: str) -> Applicability:
    return Applicability(None, reason_de, reason_en, tuple(decisive))


def _gdpr(
    obligation: ObligationDef, ctx: Context, subject: str | None
) -> Applicability:
    facts = ctx.facts
    role_fact = facts.first("gdpr_ctx_role")
    role = role_fact.value.get("role") if role_fact else None
    role_refs = [role_fact.ref] if role_fact else []
    key = obligation.key
    if key in ("gdpr_6_1_f", "gdpr_13", "gdpr_35") and role == "processor":
        return _no(
            f"Rolle Auftragsverarbeiter: {obligation.provision_de} verpflichtet den "
            "Verantwortlichen.",
            f"Processor: {obligation.provision_en} binds the controller.",
            *role_refs,
        )
    if key == "gdpr_6_1_f":
        basis = facts.first("gdpr_ctx_legal_basis")
        if basis is None:
            return _open(
                "Die Akte zeigt nicht, worauf die Verarbeitung gestützt ist.",
                "The file does not show the legal basis relied on.",
            )
        if "6_1_f" in as_list(basis.value.get("bases")):
            return _yes(
                "Verarbeitung auf Art. 6 Abs. 1 UAbs. 1 lit. f DSGVO gestützt.",
                "Processing based on Art. 6(1)(f) GDPR.",
                basis.ref,
            )
        return _no(
            "Die Verarbeitung ist nicht auf Art. 6 Abs. 1 UAbs. 1 lit. f gestützt.",
            "The processing is not based on Art. 6(1)(f) GDPR.",
            basis.ref,
        )
    if key == "gdpr_13":
        informed, informed_refs = facts.flag("gdpr_ctx_data_subject_has_information")
        if informed is True:
            return _no(
                "Die betroffenen Personen verfügen bereits über die Informationen "
                "(Art. 13 Abs. 4 DSGVO).",
                "The data subjects already have the information (Art. 13(4) GDPR).",
                *informed_refs,
            )
        collection = facts.first("gdpr_ctx_collection")
        source = collection.value.get("source") if collection else None
        if source == "from_third_party" and collection is not None:
            return _no(
                "Daten bei Dritten erhoben: Art. 14 DSGVO, nicht Art. 13.",
                "Data obtained from third parties: Art. 14 GDPR, not Art. 13.",
                collection.ref,
            )
        if role == "controller" and source == "from_data_subject" and collection:
            return _yes(
                "Verantwortlicher, Erhebung bei der betroffenen Person.",
                "Controller collecting from the data subject.",
                *role_refs,
                collection.ref,
            )
        return _open(
            "Rolle oder Art der Erhebung nicht belegt.",
            "Role or manner of collection not evidenced.",
        )
    if key in ("gdpr_28_3", "gdpr_28_sub"):
        ctx_key = (
            "gdpr_ctx_processing_on_behalf"
            if key == "gdpr_28_3"
            else "gdpr_ctx_subprocessor_engaged"
        )
        # the processor's own facts where the obligation is judged per
        # processor; any one "yes" carries (one processor engaging another
        # is enough for Art. 28(2) and (4), whatever the others do)
        said = [
            (as_bool(f.value.get("value")), f.ref)
            for f in facts.all(ctx_key)
            if subject is None or f.value.get("processor") in (subject, None)
        ]
        yes = [ref for flag, ref in said if flag is True]
        value = (
            True
            if yes
            else False
            if said and all(flag is False for flag, _ in said)
            else None
        )
        decisive = yes[:1] if yes else [ref for _, ref in said]
        what_de = (
            "Verarbeitung im Auftrag"
            if key == "gdpr_28_3"
            else "Weiterer Auftragsverarbeiter eingesetzt"
        )
        what_en = (
            "processing on behalf" if key == "gdpr_28_3" else "sub-processor engaged"
        )
        if value is True:
            return _yes(f"{what_de}.", f"{what_en.capitalize()}.", *decisive)
        if value is False:
            return _no(f"Nicht belegt: {what_de} – nein.", f"No {what_en}.", *decisive)
        return _open(
            f"Die Akte zeigt nicht: {what_de}.", f"The file does not show: {what_en}."
        )
    # gdpr_35
    det = ctx.determinations["gdpr_35_required"]
    if det.value is True:
        return _yes(
            det.reason_de or f"DSFA-Pflicht nach {det.basis}.",
            det.reason_en,
            *det.decisive,
        )
    if det.value is False:
        return _no(det.reason_de, det.reason_en, *det.decisive)
    return _open(det.reason_de, det.reason_en)


def _aia_time(obligation: ObligationDef, ctx: Context) -> Applicability | None:
    if ctx.valid_at < AIA_FROM:
        return _no(
            f"{obligation.provision_de} gilt erst ab 02.08.2026 (Art. 113 KI-VO).",
            f"{obligation.provision_en} applies only from 2 August 2026 (Art. 113).",
        )
    if obligation.key in ("aia_50", "aia_6_4"):
        return None
    system = ctx.facts.first("aia_ctx_system")
    if system is None:
        return None
    placed = parse_date(system.value.get("placed_on_market"))
    if placed is None or placed >= AIA_FROM:
        return None
    if as_bool(system.value.get("significant_change_after_2026_08_02")) is True:
        return None
    public = as_bool(system.value.get("intended_for_public_authorities")) is True
    if public and ctx.valid_at >= AIA_PUBLIC_AUTHORITIES:
        return None
    return _no(
        "Vor dem 02.08.2026 in Verkehr gebracht, keine wesentliche Konzeptänderung "
        "seither (Art. 111 Abs. 2 KI-VO).",
        "Placed on the market before 2 August 2026 without significant change "
        "since (Art. 111(2) AI Act).",
        system.ref,
    )


def _aia(obligation: ObligationDef, ctx: Context) -> Applicability:
    key = obligation.key
    timed = _aia_time(obligation, ctx)
    if timed is not None:
        return timed
    role_det = ctx.determinations["aia_role"]
    role = ctx.role()
    high = ctx.determinations["aia_high_risk"]
    if role is None:
        return _open(role_det.reason_de, role_det.reason_en)
    role_refs = role_det.decisive
    if key == "aia_50":
        return _yes(
            "Transparenzpflichten nach Art. 50 KI-VO, je Absatz nach Rolle und "
            "Merkmal; Stichtag nach dem 02.08.2026.",
            "Art. 50 AI Act transparency duties by paragraph, role and trigger.",
            *role_refs,
        )
    if key == "aia_6_4":
        exception = ctx.facts.first("aia_6_3_exception_claimed")
        if role == "provider" and high.value is False and exception is not None:
            return _yes(
                "Anbieter beruft sich auf Art. 6 Abs. 3, die Ausnahme greift.",
                "The provider relies on Art. 6(3) and the exception applies.",
                *role_refs,
                exception.ref,
            )
        if role == "provider" and high.value is None:
            return _open(high.reason_de, high.reason_en)
        return _no(
            "Art. 6 Abs. 4 setzt einen Anbieter voraus, der sich tragfähig auf die "
            "Ausnahme nach Art. 6 Abs. 3 beruft; das ist nicht der Fall.",
            "Art. 6(4) needs a provider relying validly on the Art. 6(3) exception.",
            *high.decisive,
        )
    wanted = "provider" if key in PROVIDER_OBLIGATIONS else "deployer"
    if role != wanted:
        label = "Anbieter" if role == "provider" else "Betreiber"
        return _no(
            f"Die Organisation ist {label}; {obligation.provision_de} verpflichtet "
            f"den {'Anbieter' if wanted == 'provider' else 'Betreiber'}.",
            f"The organisation is a {role}; {obligation.provision_en} binds the "
            f"{wanted}.",
            *role_refs,
        )
    if high.value is None:
        return _open(high.reason_de, high.reason_en)
    if high.value is False:
        return _no(
            f"Kein Hochrisiko-KI-System ({high.basis or 'kein Anhang-III-Fall'}).",
            f"Not a high-risk AI system ({high.basis or 'no Annex III use case'}).",
            *high.decisive,
        )
    if key == "aia_27":
        return _aia_27(ctx, role_refs, high)
    label = "Anbieter" if wanted == "provider" else "Betreiber"
    return _yes(
        f"{label} eines Hochrisiko-KI-Systems ({high.basis}).",
        f"{wanted.capitalize()} of a high-risk AI system ({high.basis}).",
        *role_refs,
        *high.decisive,
    )


def _aia_27(
    ctx: Context, role_refs: tuple[str, ...], high: Determination
) -> Applicability:
    annex = ctx.facts.first("aia_6_2_annex_iii_use_case")
    point = str(annex.value.get("point") or "") if annex else ""
    if point.replace(" ", "") in ("5(b)", "5(c)"):
        return _yes(
            f"Betreiber eines Systems nach {annex_iii_provision(point)} KI-VO "
            "(Art. 27 Abs. 1 KI-VO).",
            f"Deployer of an Annex III point {point} system (Art. 27(1) AI Act).",
            *role_refs,
            *high.decisive,
        )
    public, public_refs = ctx.facts.flag("aia_ctx_public_body")
    if point.startswith("2"):
        return _no(
            "Systeme nach Anhang III Nr. 2 sind von Art. 27 ausgenommen.",
            "Annex III point 2 systems are excluded from Art. 27.",
            *high.decisive,
        )
    if public is True:
        return _yes(
            "Einrichtung des öffentlichen Rechts oder private Einrichtung mit "
            "öffentlichen Diensten (Art. 27 Abs. 1 KI-VO).",
            "Body governed by public law or private entity providing public services.",
            *role_refs,
            *public_refs,
        )
    if public is False:
        return _no(
            "Private Betreiberin ohne öffentliche Dienste, kein System nach Anhang III "
            "Nr. 5 lit. b oder c (Art. 27 Abs. 1 KI-VO).",
            "Private deployer without public services, no Annex III point 5(b)/(c) "
            "system (Art. 27(1) AI Act).",
            *public_refs,
        )
    return _open(
        "Nicht belegt, ob der Betreiber öffentliche Stelle oder Erbringer "
        "öffentlicher Dienste ist.",
        "Not evidenced whether the deployer is a public body or provides public "
        "services.",
    )


def _dora(
    obligation: ObligationDef, ctx: Context, subject: str | None
) -> Applicability:
    facts = ctx.facts
    key = obligation.key
    if ctx.valid_at < DORA_FROM:
        return _no(
            "DORA gilt erst ab 17.01.2025 (Art. 64 DORA).",
            "DORA applies from 17 January 2025 (Art. 64).",
        )
    entity = facts.first("dora_ctx_entity")
    if entity is None:
        return _open(
            "Nicht belegt, ob die Organisation ein Finanzunternehmen nach Art. 2 "
            "Abs. 1 DORA ist.",
            "Not evidenced whether the organisation is a financial entity.",
        )
    point = str(entity.value.get("art_2_1_point") or "")
    kind = str(entity.value.get("type") or "")
    if point == "u" or kind == "ict_third_party_service_provider":
        return _no(
            "IKT-Drittdienstleister (Art. 2 Abs. 1 lit. u DORA), kein "
            f"Finanzunternehmen: {obligation.provision_de} verpflichtet "
            "Finanzunternehmen.",
            "ICT third-party service provider, not a financial entity: "
            f"{obligation.provision_en} binds financial entities.",
            entity.ref,
        )
    excluded = entity.value.get("art_2_3_excluded")
    if excluded:
        return _no(
            f"Ausgenommen nach Art. 2 Abs. 3 lit. {excluded} DORA: DORA gilt nicht.",
            f"Excluded under Art. 2(3)({excluded}) DORA.",
            entity.ref,
        )
    if key == "dora_5_6" and as_bool(entity.value.get("art_16_1")) is True:
        return _no(
            "Unternehmen nach Art. 16 Abs. 1 DORA: Art. 5–15 gelten nicht "
            "(vereinfachter Rahmen).",
            "Art. 16(1) entity: Articles 5 to 15 do not apply (simplified framework).",
            entity.ref,
        )
    base = f"Finanzunternehmen nach Art. 2 Abs. 1 lit. {point} DORA"
    base_en = f"Financial entity under Art. 2(1)({point}) DORA"
    if key in ("dora_5_6", "dora_17_18"):
        return _yes(f"{base}.", f"{base_en}.", entity.ref)
    if key == "dora_19":
        incidents = facts.all("dora_ctx_incident")
        major = [f for f in incidents if as_bool(f.value.get("major")) is True]
        if major:
            return _yes(
                "Schwerwiegender IKT-bezogener Vorfall.",
                "Major ICT-related incident.",
                major[0].ref,
            )
        if incidents:
            return _no(
                "Der Vorfall ist nicht schwerwiegend; Art. 19 Abs. 1 betrifft nur "
                "schwerwiegende IKT-bezogene Vorfälle.",
                "The incident is not major; Art. 19(1) covers major incidents only.",
                *[f.ref for f in incidents],
            )
        return _open(
            "Die Akte zeigt keinen als schwerwiegend eingestuften Vorfall.",
            "The file shows no incident classified as major.",
        )
    arrangements = facts.all("dora_ctx_ict_arrangement")
    if key == "dora_28_3":
        if arrangements or facts.first("dora_28_3_register_maintained"):
            return _yes(
                f"{base} mit vertraglichen Vereinbarungen über IKT-Dienstleistungen.",
                f"{base_en} with contractual arrangements on ICT services.",
                entity.ref,
            )
        return _open(
            "Keine vertragliche Vereinbarung über IKT-Dienstleistungen belegt.",
            "No contractual arrangement on ICT services evidenced.",
        )
    if key == "dora_28_8":
        cif = [a for a in arrangements if as_bool(a.value.get("supports_cif")) is True]
        if cif:
            return _yes(
                "IKT-Dienstleistung unterstützt kritische oder wichtige Funktionen.",
                "ICT service supports critical or important functions.",
                *[a.ref for a in cif],
            )
        if arrangements and all(
            as_bool(a.value.get("supports_cif")) is False for a in arrangements
        ):
            return _no(
                "Keine IKT-Dienstleistung unterstützt kritische oder wichtige "
                "Funktionen.",
                "No ICT service supports critical or important functions.",
                *[a.ref for a in arrangements],
            )
        return _open(
            "Nicht belegt, ob eine IKT-Dienstleistung kritische oder wichtige "
            "Funktionen unterstützt.",
            "Not evidenced whether an ICT service supports critical functions.",
        )
    # dora_30_2 / dora_30_3: per contract
    arrangement = next(
        (a for a in arrangements if a.value.get("provider") == subject), None
    )
    if arrangement is None:
        return _open(
            "Kein Vertrag über IKT-Dienstleistungen belegt.",
            "No contract on ICT services evidenced.",
        )
    if key == "dora_30_2":
        return _yes(
            "Vertrag über IKT-Dienstleistungen.",
            "Contract on ICT services.",
            arrangement.ref,
        )
    cif_flag = as_bool(arrangement.value.get("supports_cif"))
    if cif_flag is True:
        return _yes(
            "Der Vertrag unterstützt kritische oder wichtige Funktionen.",
            "The contract supports critical or important functions.",
            arrangement.ref,
        )
    if cif_flag is False:
        return _no(
            "Der Dienst unterstützt keine kritische oder wichtige Funktion.",
            "The service supports no critical or important function.",
            arrangement.ref,
        )
    return _open(
        "Nicht belegt, ob der Dienst kritische oder wichtige Funktionen unterstützt.",
        "Not evidenced whether the service supports critical functions.",
    )


def obligation_applicability(
    obligation: ObligationDef, ctx: Context, subject: str | None
) -> Applicability:
    """Whether the obligation applies on the Stichtag, and why."""
    if obligation.regime == "gdpr":
        if ctx.valid_at < GDPR_FROM:
            return _no(
                "Die DSGVO gilt erst ab 25.05.2018 (Art. 99 Abs. 2 DSGVO).",
                "The GDPR applies from 25 May 2018.",
            )
        return _gdpr(obligation, ctx, subject)
    if obligation.regime == "aia":
        return _aia(obligation, ctx)
    return _dora(obligation, ctx, subject)


def subjects_of(obligation: ObligationDef, facts: FactBase) -> list[str | None]:
    """The subjects an obligation is judged for: one per ICT contract for
    Art. 30 DORA; one per processor for Art. 28(3) GDPR where the controller
    has several (each processing on behalf is governed by its own contract
    "binding on the processor with regard to the controller"), and for
    Art. 28(2) and (4) (each processor engages sub-processors, or not, under
    its own authorisation); one per AI
    system for every AI Act obligation where the dossier describes several
    (classification, Art. 6(3) exception and duties attach to a system:
    Art. 6, 16, 26 KI-VO); otherwise one without a subject."""
    if obligation.regime == "aia":
        systems = list(
            dict.fromkeys(
                s for f in facts.all("aia_ctx_system") if (s := fact_subject(f))
            )
        )
        subjects: list[str | None] = [*systems]
        return subjects if len(subjects) > 1 else [None]
    if obligation.key in ("dora_30_2", "dora_30_3"):
        providers = [
            str(a.value.get("provider"))
            for a in facts.all("dora_ctx_ict_arrangement")
            if a.value.get("provider")
        ]
        return list(dict.fromkeys(providers)) or [None]
    if obligation.key == "gdpr_28_3":
        processors: list[str | None] = list(
            dict.fromkeys(
                str(f.value.get("processor"))
                for f in facts.all("gdpr_ctx_processing_on_behalf")
                if f.value.get("processor") and as_bool(f.value.get("value")) is True
            )
        )
        # one processor: the obligation has one subject, unnamed (a fact
        # without a subject belongs to it, ELEMENTS.md §3)
        return processors if len(processors) > 1 else [None]
    if obligation.key == "gdpr_28_sub":
        # the processors the file says engage, or do not engage, others:
        # each gets its own verdict where there are several; one such
        # processor is the obligation's one subject
        engaging: list[str | None] = list(
            dict.fromkeys(
                str(f.value.get("processor"))
                for f in facts.all("gdpr_ctx_subprocessor_engaged")
                if f.value.get("processor")
            )
        )
        return engaging if len(engaging) > 1 else [None]
    return [None]


def subject_documents(
    obligation: ObligationDef, facts: FactBase, subject: str
) -> frozenset[str]:
    """The dossier documents that are the subject's own instrument: its ICT
    contract (Art. 30 DORA) or its processor contract (Art. 28(3) GDPR). A
    fact found there without a subject of its own belongs to it; a clause of
    a framework contract shared by several processors belongs to each."""
    documents = {
        str(a.value["contract_doc"])
        for a in facts.all("dora_ctx_ict_arrangement")
        if a.value.get("provider") == subject and a.value.get("contract_doc")
    }
    if obligation.instrument is not None:
        documents |= {
            str(f.value["doc"])
            for f in facts.all(obligation.instrument)
            if f.value.get("subject") == subject and f.value.get("doc")
        }
    return frozenset(documents)
