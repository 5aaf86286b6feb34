"""The instruments the parser knows by name.

An instrument known here is not necessarily in the corpus: the resolver answers
``not_checked`` for those. The registry below (EU acts and the German statutes
cited most) and the federal-law index installed by :mod:`citations.domain.federal`
(every federal law of gesetze-im-internet) are the parser's vocabulary; the
corpus (database) is what can be checked.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

# "mixed": a law whose text is not pinned, so whether it has §§ or articles is
# not known (no wrong-unit verdict for it).
UnitStyle = Literal["article", "section", "mixed"]


@dataclass(frozen=True, slots=True)
class InstrumentInfo:
    """One legal instrument.

    ``ident`` is what ``parts["instrument"]`` shows: the CELEX number for EU acts,
    the official abbreviation for German statutes. ``prefix`` starts every
    canonical identifier of a provision of this instrument.
    """

    key: str
    ident: str
    prefix: str
    unit: UnitStyle
    kind: str
    name_de: str
    name_en: str
    aliases: tuple[str, ...] = field(default=())
    eli: str | None = None
    celex: str | None = None


def _eu(
    key: str,
    year: int,
    number: int,
    kind: str,
    name_de: str,
    name_en: str,
    aliases: tuple[str, ...],
) -> InstrumentInfo:
    letter = {"reg": "R", "dir": "L"}[kind]
    celex = f"3{year}{letter}{number:04d}"
    return InstrumentInfo(
        key=key,
        ident=celex,
        prefix=f"eu/{kind}/{year}/{number}",
        unit="article",
        kind=f"eu_{kind}",
        name_de=name_de,
        name_en=name_en,
        aliases=aliases,
        eli=f"http://data.europa.eu/eli/{kind}/{year}/{number}/oj",
        celex=celex,
    )


def _de(
    abbr: str, name: str, aliases: tuple[str, ...] = (), unit: UnitStyle = "section"
) -> InstrumentInfo:
    return InstrumentInfo(
        key=abbr.lower(),
        ident=abbr,
        prefix=f"de/{abbr.lower()}",
        unit=unit,
        kind="de_statute",
        name_de=name,
        name_en=name,
        aliases=(abbr, *aliases),
    )


REGISTRY: tuple[InstrumentInfo, ...] = (
    _eu(
        "gdpr",
        2016,
        679,
        "reg",
        "Datenschutz-Grundverordnung",
        "General Data Protection Regulation",
        (
            "DSGVO",
            "DS-GVO",
            "EU-DSGVO",
            "GDPR",
            "EU GDPR",
            "Datenschutz-Grundverordnung",
            "Datenschutzgrundverordnung",
            "General Data Protection Regulation",
        ),
    ),
    _eu(
        "ai-act",
        2024,
        1689,
        "reg",
        "KI-Verordnung",
        "Artificial Intelligence Act",
        (
            "KI-VO",
            "KI-Verordnung",
            "KIVO",
            "AI Act",
            "EU AI Act",
            "AIA",
            "Artificial Intelligence Act",
            "KI-Gesetz",
        ),
    ),
    _eu(
        "dora",
        2022,
        2554,
        "reg",
        "Verordnung über die digitale operationale Resilienz im Finanzsektor",
        "Digital Operational Resilience Act",
        (
            "DORA",
            "DORA-Verordnung",
            "DORA-VO",
            "Digital Operational Resilience Act",
        ),
    ),
    _eu(
        "nis2",
        2022,
        2555,
        "dir",
        "NIS-2-Richtlinie",
        "NIS 2 Directive",
        ("NIS2", "NIS-2", "NIS 2", "NIS2-RL", "NIS-2-Richtlinie"),
    ),
    _eu(
        "dsa",
        2022,
        2065,
        "reg",
        "Gesetz über digitale Dienste",
        "Digital Services Act",
        ("DSA", "Digital Services Act"),
    ),
    _eu(
        "data-act",
        2023,
        2854,
        "reg",
        "Datenverordnung",
        "Data Act",
        ("Data Act", "Datenverordnung"),
    ),
    _eu(
        "dpd",
        1995,
        46,
        "dir",
        "Datenschutzrichtlinie",
        "Data Protection Directive",
        ("DSRL", "Datenschutzrichtlinie", "Data Protection Directive"),
    ),
    InstrumentInfo(
        key="tfeu",
        ident="12016E",
        prefix="eu/treaty/tfeu",
        unit="article",
        kind="eu_treaty",
        name_de="Vertrag über die Arbeitsweise der Europäischen Union",
        name_en="Treaty on the Functioning of the European Union",
        aliases=("AEUV", "TFEU"),
    ),
    InstrumentInfo(
        key="teu",
        ident="12016M",
        prefix="eu/treaty/teu",
        unit="article",
        kind="eu_treaty",
        name_de="Vertrag über die Europäische Union",
        name_en="Treaty on European Union",
        aliases=("EUV", "TEU"),
    ),
    InstrumentInfo(
        key="charter",
        ident="12016P",
        prefix="eu/charter",
        unit="article",
        kind="eu_treaty",
        name_de="Charta der Grundrechte der Europäischen Union",
        name_en="Charter of Fundamental Rights of the European Union",
        aliases=("GRCh", "Charta der Grundrechte", "Charter of Fundamental Rights"),
    ),
    _de(
        "BGB",
        "Bürgerliches Gesetzbuch",
        (
            "Bürgerliches Gesetzbuch",
            "Bürgerlichen Gesetzbuchs",
            "Bürgerlichen Gesetzbuches",
            "German Civil Code",
        ),
    ),
    _de(
        "EGBGB",
        "Einführungsgesetz zum Bürgerlichen Gesetzbuche",
        ("BGBEG",),
        unit="article",
    ),
    _de(
        "GG",
        "Grundgesetz",
        ("Grundgesetz", "Grundgesetzes", "Basic Law", "German Basic Law"),
        unit="article",
    ),
    _de(
        "HGB",
        "Handelsgesetzbuch",
        ("Handelsgesetzbuch", "Handelsgesetzbuchs", "German Commercial Code"),
    ),
    _de(
        "ZPO",
        "Zivilprozessordnung",
        (
            "Zivilprozessordnung",
            "German Code of Civil Procedure",
            "Code of Civil Procedure",
        ),
    ),
    _de(
        "StGB",
        "Strafgesetzbuch",
        ("Strafgesetzbuch", "Strafgesetzbuchs", "German Criminal Code"),
    ),
    _de("StPO", "Strafprozessordnung"),
    _de("BDSG", "Bundesdatenschutzgesetz", ("Bundesdatenschutzgesetz",)),
    _de("TDDDG", "Telekommunikation-Digitale-Dienste-Datenschutz-Gesetz"),
    _de("TTDSG", "Telekommunikation-Telemedien-Datenschutz-Gesetz"),
    _de("UWG", "Gesetz gegen den unlauteren Wettbewerb"),
    _de("AGG", "Allgemeines Gleichbehandlungsgesetz"),
    _de("GmbHG", "GmbH-Gesetz"),
    _de("AktG", "Aktiengesetz"),
    _de("InsO", "Insolvenzordnung"),
    _de("VwVfG", "Verwaltungsverfahrensgesetz"),
    _de("UrhG", "Urheberrechtsgesetz"),
    _de("KWG", "Kreditwesengesetz", ("KredWG",)),
    _de("ZAG", "Zahlungsdiensteaufsichtsgesetz"),
    _de("GVG", "Gerichtsverfassungsgesetz"),
    _de("RVG", "Rechtsanwaltsvergütungsgesetz"),
    _de("BRAO", "Bundesrechtsanwaltsordnung"),
    _de("ArbGG", "Arbeitsgerichtsgesetz"),
    _de("KSchG", "Kündigungsschutzgesetz"),
    _de("BetrVG", "Betriebsverfassungsgesetz"),
    _de("EStG", "Einkommensteuergesetz"),
    _de("UStG", "Umsatzsteuergesetz"),
    _de("AO", "Abgabenordnung"),
    _de("SGB", "Sozialgesetzbuch"),
    _de("WEG", "Wohnungseigentumsgesetz"),
    _de("ProdHaftG", "Produkthaftungsgesetz"),
    _de("VVG", "Versicherungsvertragsgesetz"),
)

BY_KEY: dict[str, InstrumentInfo] = {i.key: i for i in REGISTRY}
BY_IDENT: dict[str, InstrumentInfo] = {i.ident: i for i in REGISTRY}
BY_PREFIX: dict[str, InstrumentInfo] = {i.prefix: i for i in REGISTRY}
_BY_ALIAS: dict[str, InstrumentInfo] = {}
for _info in REGISTRY:
    for _alias in _info.aliases:
        _BY_ALIAS[_alias.casefold()] = _info


_LAW_LOOKUP: list[Callable[[str], InstrumentInfo | None]] = []


def set_law_lookup(lookup: Callable[[str], InstrumentInfo | None] | None) -> None:
    """Install the look-up of every federal law by name (see ``federal``)."""
    _LAW_LOOKUP.clear()
    if lookup is not None:
        _LAW_LOOKUP.append(lookup)


def law_lookup(name: str) -> InstrumentInfo | None:
    """A federal law by alias, key or prefix from the installed index."""
    return _LAW_LOOKUP[0](name) if _LAW_LOOKUP else None


def static_alias(alias: str) -> InstrumentInfo | None:
    """An instrument of the static registry by one of its names."""
    return _BY_ALIAS.get(alias.casefold())


def instrument_by_alias(alias: str) -> InstrumentInfo | None:
    return _BY_ALIAS.get(alias.casefold()) or law_lookup(alias)


def instrument_lookup(value: str) -> InstrumentInfo | None:
    """Find an instrument by key, CELEX/abbreviation, canonical prefix or alias."""
    return (
        BY_KEY.get(value)
        or BY_IDENT.get(value)
        or BY_PREFIX.get(value)
        or _BY_ALIAS.get(value.casefold())
        or law_lookup(value)
    )


def eu_act(kind: str, year: int, number: int) -> InstrumentInfo:
    """An EU act named by its number: the registry entry, or an ad-hoc one
    (so that "Verordnung (EU) 2019/1150" still gets a CELEX and a canonical id)."""
    prefix = f"eu/{kind}/{year}/{number}"
    known = BY_PREFIX.get(prefix)
    if known is not None:
        return known
    return _eu(prefix, year, number, kind, prefix, prefix, ())


def unknown_statute(abbr: str) -> InstrumentInfo:
    """A German statute the registry does not know, by its abbreviation."""
    known = BY_IDENT.get(abbr) or law_lookup(abbr)
    if known is not None:
        return known
    return InstrumentInfo(
        key=abbr.lower(),
        ident=abbr,
        prefix=f"de/{abbr.lower()}",
        unit="section",
        kind="de_statute",
        name_de=abbr,
        name_en=abbr,
        aliases=(abbr,),
    )


def alias_pattern() -> str:
    """A regex alternation of every alias, longest first, for the parser."""
    aliases = sorted({a for i in REGISTRY for a in i.aliases}, key=len, reverse=True)
    return "|".join(re.escape(a).replace(r"\ ", r"\s+") for a in aliases)
