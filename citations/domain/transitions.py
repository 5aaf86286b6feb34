"""Transition rules (Überleitungsvorschriften) that decide which wording of an
amended provision governs an older matter — data plus one look-up.

Each rule maps an instrument and the units it amended to the transition
provision, cited as a lawyer cites it. The resolver answer for a citation of
such a unit carries the transition provision as context (resolved against
the pinned text of its own instrument when that is imported), so a reader
sees that the date of the obligation, not only the claim's date, may decide
the applicable wording.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True, slots=True)
class TransitionRule:
    instrument: str  # the amended instrument's official abbreviation
    top: str  # the unit kind of ``units`` ("sec" or "art")
    units: frozenset[str]  # the amended units (top level)
    provision: str  # the transition provision, as cited
    changed_on: date  # the day the amended wording came into force
    note_de: str
    note_en: str


TRANSITION_RULES: tuple[TransitionRule, ...] = (
    TransitionRule(
        instrument="BGB",
        top="sec",
        units=frozenset({"271a", "286", "288", "308", "310"}),
        provision="Art. 229 § 34 EGBGB",
        changed_on=date(2014, 7, 29),
        note_de=(
            "Gesetz zur Bekämpfung von Zahlungsverzug im Geschäftsverkehr: die "
            "seit dem 29.07.2014 geltende Fassung gilt nur für Schuldverhältnisse, "
            "die nach dem 28.07.2014 entstanden sind."
        ),
        note_en=(
            "Late Payment Act: the wording in force since 29 July 2014 applies "
            "only to obligations that arose after 28 July 2014."
        ),
    ),
)


def transition_rules_for(
    *, instrument: str, top: str, unit: str
) -> tuple[TransitionRule, ...]:
    """The transition rules that govern a unit of an instrument (by its
    official abbreviation), in table order."""
    return tuple(
        rule
        for rule in TRANSITION_RULES
        if rule.instrument == instrument and rule.top == top and unit in rule.units
    )
