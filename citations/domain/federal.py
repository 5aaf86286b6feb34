"""German federal laws by name: the gesetze-im-internet registry as parser vocabulary.

The registry (``de-federal/registry.json`` of the corpus folder, 6,876 laws with
``jurabk`` and ``title``) is read in place by :mod:`citations.corpus.registry`
and handed to :func:`install_law_index`; this module only turns rows into
:class:`InstrumentInfo` and an alias index. One rule decides a law's
instrument key, used both by the import (from a file's ``<jurabk>`` and
``<amtabk>``) and by the parser (from the registry): :func:`federal_info`.

Aliases of a law: its ``jurabk``, its ``amtabk``, the ``jurabk`` without a
trailing year ("UWG 2004" → "UWG") when no other law has that name, its title
when the title is one word ("Verwaltungsverfahrensgesetz"), the genitive of
that title ("des Verwaltungsverfahrensgesetzes"), a Roman book number for the
Sozialgesetzbuch ("SGB X" = "SGB 10"), and the small table of common variants
below.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from citations.domain.instruments import (
    BY_IDENT,
    InstrumentInfo,
    UnitStyle,
    set_law_lookup,
)

# jurabk → the form lawyers cite (becomes the ident and the key)
PREFERRED_IDENT: dict[str, str] = {
    "BGBEG": "EGBGB",
    "KredWG": "KWG",
    "BBauG": "BauGB",
    "TTDSG": "TDDDG",
    "ZPOEG": "EGZPO",
    "HGBEG": "EGHGB",
    "StGBEG": "EGStGB",
    "AktGEG": "EGAktG",
    "InsOEG": "EGInsO",
}
# extra names of a law (by its jurabk) that neither jurabk, amtabk nor title give
EXTRA_ALIASES: dict[str, tuple[str, ...]] = {
    "BGBEG": ("EGBGB", "BGBEG"),
    "KredWG": ("Kreditwesengesetz", "Kreditwesengesetzes", "KredWG"),
    "BBauG": ("Baugesetzbuch", "Baugesetzbuchs", "Baugesetzbuches"),
    "TTDSG": (
        "TTDSG",
        "Telekommunikation-Digitale-Dienste-Datenschutz-Gesetz",
        "Telekommunikation-Telemedien-Datenschutz-Gesetz",
    ),
    "AStG": ("Außensteuergesetz", "Außensteuergesetzes"),
    "UWG 2004": ("UWG", "Gesetz gegen den unlauteren Wettbewerb"),
    "GG": ("Grundgesetz", "Grundgesetzes"),
    "StPO": ("Strafprozessordnung", "Strafprozeßordnung"),
    "AO 1977": ("Abgabenordnung",),
    "BDSG 2018": ("Bundesdatenschutzgesetz", "Bundesdatenschutzgesetzes"),
    "GWB": ("Gesetz gegen Wettbewerbsbeschränkungen", "Kartellgesetz"),
    "RVG": ("Rechtsanwaltsvergütungsgesetz", "Rechtsanwaltsvergütungsgesetzes"),
    "ZAG 2018": ("Zahlungsdiensteaufsichtsgesetz", "Zahlungsdiensteaufsichtsgesetzes"),
    "VAG 2016": ("Versicherungsaufsichtsgesetz", "Versicherungsaufsichtsgesetzes"),
    "WpHG": ("Wertpapierhandelsgesetz", "Wertpapierhandelsgesetzes"),
    "UrhG": ("Urheberrechtsgesetz", "Urheberrechtsgesetzes"),
    "GmbHG": ("GmbH-Gesetz", "GmbH-Gesetzes"),
    "AGG": (
        "Allgemeines Gleichbehandlungsgesetz",
        "Allgemeinen Gleichbehandlungsgesetzes",
    ),
    "FamFG": ("Gesetz über das Verfahren in Familiensachen",),
    "KSchG": ("Kündigungsschutzgesetz", "Kündigungsschutzgesetzes"),
    "BetrVG": ("Betriebsverfassungsgesetz", "Betriebsverfassungsgesetzes"),
    "ArbGG": ("Arbeitsgerichtsgesetz", "Arbeitsgerichtsgesetzes"),
    "HinSchG": ("Hinweisgeberschutzgesetz", "Hinweisgeberschutzgesetzes"),
    "LkSG": ("Lieferkettensorgfaltspflichtengesetz", "Lieferkettengesetz"),
    "GeschGehG": ("Geschäftsgeheimnisgesetz", "Geschäftsgeheimnisgesetzes"),
    "DDG": ("Digitale-Dienste-Gesetz", "Digitale-Dienste-Gesetzes"),
    "BSIG 2025": ("BSI-Gesetz", "BSI-Gesetzes"),
    "RDG": ("Rechtsdienstleistungsgesetz", "Rechtsdienstleistungsgesetzes"),
    "ProdHaftG": ("Produkthaftungsgesetz", "Produkthaftungsgesetzes"),
    "VVG 2008": ("Versicherungsvertragsgesetz", "Versicherungsvertragsgesetzes"),
    "UStG 1980": ("Umsatzsteuergesetz", "Umsatzsteuergesetzes"),
    "EStG": ("Einkommensteuergesetz", "Einkommensteuergesetzes"),
    "ZVG": ("Zwangsversteigerungsgesetz", "Zwangsversteigerungsgesetzes"),
    "BRAO": ("Bundesrechtsanwaltsordnung",),
    "HGB": ("Handelsgesetzbuch", "Handelsgesetzbuchs", "Handelsgesetzbuches"),
    "StGB": ("Strafgesetzbuch", "Strafgesetzbuchs", "Strafgesetzbuches"),
    "InsO": ("Insolvenzordnung",),
    "AktG": ("Aktiengesetz", "Aktiengesetzes"),
    "GVG": ("Gerichtsverfassungsgesetz", "Gerichtsverfassungsgesetzes"),
}
_YEAR = re.compile(r"^(.+?) (?:19|20)\d\d$")
_BOOK = re.compile(r"^(SGB) (\d{1,2})$")
_ROMAN_BOOK = {
    1: "I",
    2: "II",
    3: "III",
    4: "IV",
    5: "V",
    6: "VI",
    7: "VII",
    8: "VIII",
    9: "IX",
    10: "X",
    11: "XI",
    12: "XII",
    13: "XIII",
    14: "XIV",
}
_SLUG = re.compile(r"[^a-z0-9]+")
_TRANSLIT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "§": "p"})
_GENITIVE_TAILS = ("gesetz", "gesetzbuch", "abkommen", "statut")


def ident_for(
    jurabk: str, amtabk: str | None = None, taken: frozenset[str] = frozenset()
) -> str:
    """The citation form of a law: the alias table, else ``amtabk``, else the
    ``jurabk`` without a trailing year ("UWG 2004" → "UWG", as its ``amtabk``
    says) unless another law in ``taken`` is called that."""
    preferred = PREFERRED_IDENT.get(jurabk)
    if preferred:
        return preferred
    if amtabk:
        return amtabk
    ym = _YEAR.match(jurabk)
    if ym and ym.group(1) not in taken:
        return ym.group(1)
    return jurabk


def key_for(ident: str) -> str:
    """A slug key from a citation form: "BGB" → "bgb", "SGB 10" → "sgb-10"."""
    return _SLUG.sub("-", ident.lower().translate(_TRANSLIT)).strip("-")[:40]


def _genitives(title: str) -> tuple[str, ...]:
    if " " in title:
        return ()
    low = title.lower()
    if low.endswith(_GENITIVE_TAILS):
        return (title + "es", title + "s")
    return ()


def federal_info(
    *,
    jurabk: str,
    title: str,
    amtabk: str | None = None,
    unit: UnitStyle = "mixed",
    taken: frozenset[str] = frozenset(),
) -> InstrumentInfo:
    """The instrument of a federal law. A law the static registry knows
    (BGB, EGBGB, ZPO ...) keeps that entry's key and prefix; its names from
    the file are added as aliases."""
    ident = ident_for(jurabk, amtabk, taken)
    names = [ident, jurabk]
    if amtabk:
        names.append(amtabk)
    ym = _YEAR.match(jurabk)
    if ym:
        names.append(ym.group(1))
    bm = _BOOK.match(ident)
    if bm:
        names.append(f"{bm.group(1)} {_ROMAN_BOOK.get(int(bm.group(2)), '')}".strip())
    if " " not in title:
        names.append(title)
        names.extend(_genitives(title))
    names.extend(EXTRA_ALIASES.get(jurabk, ()))
    aliases = tuple(dict.fromkeys(n for n in names if n))
    known = BY_IDENT.get(ident)
    if known is not None:
        merged = tuple(dict.fromkeys((*known.aliases, *aliases)))
        return InstrumentInfo(
            key=known.key,
            ident=known.ident,
            prefix=known.prefix,
            unit=known.unit if unit == "mixed" else unit,
            kind=known.kind,
            name_de=known.name_de if known.name_de != known.ident else title,
            name_en=known.name_en if known.name_en != known.ident else title,
            aliases=merged,
        )
    key = key_for(ident)
    return InstrumentInfo(
        key=key,
        ident=ident,
        prefix=f"de/{key}",
        unit=unit,
        kind="de_statute",
        name_de=title,
        name_en=title,
        aliases=aliases,
    )


@dataclass(slots=True)
class LawIndex:
    """Every federal law by each of its aliases (casefolded)."""

    by_alias: dict[str, InstrumentInfo] = field(default_factory=dict)
    by_key: dict[str, InstrumentInfo] = field(default_factory=dict)
    laws: int = 0

    @classmethod
    def build(cls, rows: Iterable[tuple[str, str]]) -> LawIndex:
        """``rows``: (jurabk, title). An alias two laws share is dropped,
        except a law's own jurabk, which always wins."""
        index = cls()
        rows = list(rows)
        taken = frozenset(j for j, _ in rows)
        jurabks = {j.casefold() for j in taken}
        infos = [
            (jurabk, federal_info(jurabk=jurabk, title=title, taken=taken))
            for jurabk, title in rows
        ]
        index.laws = len(infos)
        owners: dict[str, set[str]] = {}
        for _, info in infos:
            for alias in info.aliases:
                owners.setdefault(alias.casefold(), set()).add(info.key)
        for jurabk, info in infos:
            index.by_key.setdefault(info.key, info)
            index.by_key.setdefault(info.prefix, info)
            for alias in info.aliases:
                folded = alias.casefold()
                own = folded in (info.ident.casefold(), jurabk.casefold())
                if len(owners[folded]) > 1 and not own:
                    continue
                if folded in jurabks and not own:
                    continue
                index.by_alias.setdefault(folded, info)
        return index

    def lookup(self, name: str) -> InstrumentInfo | None:
        """By alias, key or canonical prefix."""
        return self.by_alias.get(name.casefold()) or self.by_key.get(name)


def install_law_index(index: LawIndex | Callable[[], LawIndex] | None) -> None:
    """Make the parser and look-ups know these laws: an index, or a loader
    called on the first look-up (so that importing Django reads no file);
    None forgets them."""
    if index is None:
        set_law_lookup(None)
        return
    if isinstance(index, LawIndex):
        set_law_lookup(index.lookup)
        return
    loader = index
    loaded: list[LawIndex] = []

    def lookup(name: str) -> InstrumentInfo | None:
        if not loaded:
            loaded.append(loader())
        return loaded[0].lookup(name)

    set_law_lookup(lookup)
