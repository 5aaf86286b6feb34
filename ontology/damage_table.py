"""The damage table of a Verzugsschaden claim: THE one computation
(``ontology.domain.verzug_claim.verzug_damage``, a ``DamageComputation``)
arranged as rows in one language — every item with its kind, net and gross
amount and why it is or is not recoverable, the interest per base-rate period
with days and rate, the Pauschale of § 288 Abs. 5 BGB as what it is (added,
credited against the legal fees, or excluded), the total, Verzug from which
date and the Stichtag.

The Requirements tab, the report preview, the .docx and the .xlsx all render
this table; none of them adds or rounds anything itself. The report keeps the
computation it was built on (``Report.summary``), so an issued report shows
the figures it was issued with. Words come from the gettext catalogue, in the
language asked for (the page's, or the report's)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ontology.domain.results import DamageComputation, DamageItem
from ontology.domain.text import cents_format, date_format, percent_points_format

Lang = Literal["de", "en"]


@dataclass(frozen=True)
class ItemRow:
    """One item of damage: ``amount_cents`` is what it adds to the total."""

    fact_id: int
    label: str
    net_cents: int | None
    gross_cents: int | None
    amount_cents: int
    recoverable: bool
    reason: str
    incurred_on: date | None
    net: str
    gross: str
    amount: str
    recoverable_word: str
    incurred: str
    url: str = ""  # the fact's page, where the surface links facts


@dataclass(frozen=True)
class InterestRow:
    """One base-rate period: its days at its rate; the amount rounded to the
    cent for reading (the total is rounded once, at the end)."""

    start: date
    end: date
    days: int
    base_rate: Decimal
    annual_rate: Decimal
    amount_cents: int
    start_text: str
    end_text: str
    base_rate_text: str
    annual_rate_text: str
    amount: str


@dataclass(frozen=True)
class SummaryRow:
    """A line of the result: an amount (``cents``), a day, or words only."""

    key: str  # default_from, stichtag, interest, items, pauschale, total
    label: str
    cents: int | None = None
    day: date | None = None
    shown: str = ""
    note: str = ""


@dataclass(frozen=True)
class DamageTable:
    lang: Lang
    currency: str
    title: str
    headers: dict[str, str]
    items: tuple[ItemRow, ...]
    interest_title: str
    interest: tuple[InterestRow, ...]
    summary: tuple[SummaryRow, ...]
    total_cents: int
    default_from: date | None
    stichtag: date | None
    method: str
    notes: tuple[str, ...]
    sources: tuple[str, ...] = ()  # of the Basiszinssatz table

    def row(self, key: str) -> SummaryRow:
        return next(r for r in self.summary if r.key == key)


def _headers() -> dict[str, str]:
    return {
        "item": _("Item"),
        "incurred": _("Incurred on"),
        "net": _("Net"),
        "gross": _("Gross"),
        "amount": _("Recoverable amount"),
        "recoverable": _("Recoverable"),
        "reason": _("Reason"),
        "from": _("From"),
        "date_from": _("Date / from"),
        "to": _("To"),
        "days": _("Days"),
        "base_rate": _("Basiszinssatz"),
        "annual_rate": _("Rate p.a."),
        "interest": _("Interest"),
        "position": _("Position"),
        "value": _("Amount or date"),
        "section": _("Section"),
        "note": _("Note"),
        "section_items": _("Items of damage"),
        "section_interest": _("Default interest"),
        "section_result": _("Result"),
    }


def _kind_label(item: DamageItem) -> str:
    if item.kind == "fee_note_item":
        labels = {
            "geschaeftsgebuehr": _("Geschäftsgebühr (lawyer's fee)"),
            "auslagenpauschale": _("Auslagenpauschale (lawyer's expenses)"),
            "umsatzsteuer": _("Umsatzsteuer on the lawyer's fees"),
            "sonstige": _("Other item of the lawyer's fee note"),
        }
        label = labels.get(item.item_kind, _("Item of the lawyer's fee note"))
        if item.text:
            label += " " + _("(No. %(number)s VV RVG)") % {"number": item.text}
        return label
    if item.text:
        return item.text
    return _("Other item of damage")


def _reason(item: DamageItem) -> str:
    reasons = {
        "net": _(
            "net amount: the creditor can deduct input VAT; lawyer instructed "
            "after default began"
        ),
        "gross": _(
            "gross amount: the creditor cannot deduct input VAT; lawyer "
            "instructed after default began"
        ),
        "net_no_vat_deduction": _(
            "the fee note gives no gross amount; lawyer instructed after default began"
        ),
        "vat_deductible": _(
            "not recoverable: the creditor can deduct the VAT as input tax"
        ),
        "vat_in_gross": _("already contained in the gross amounts"),
        "vat_not_deductible": _("the creditor cannot deduct input VAT"),
        "instructed_before_default": _(
            "not recoverable: the lawyer was instructed before default began; "
            "the letter that puts the debtor in default is no damage caused by "
            "the delay"
        ),
        "instruction_not_evidenced": _(
            "not recoverable: that and when the lawyer was instructed is not "
            "established"
        ),
        "no_amount": _("not recoverable: the item has no amount"),
        "arose_in_default": _("arose during default"),
        "arose_before_default": _(
            "not recoverable: arose before default began (§ 280 Abs. 2 BGB)"
        ),
    }
    return reasons.get(item.reason, item.reason)


def _pauschale_row(damage: DamageComputation, money: str) -> SummaryRow | None:
    status = damage.pauschale_status
    label = _("Flat fee (Pauschale, § 288 Abs. 5 S. 1 BGB)")
    if status in ("added", "offset", "partly_offset"):
        fee = cents_format(damage.pauschale_cents, damage.currency, _lang())
        offset = cents_format(damage.pauschale_offset_cents, damage.currency, _lang())
        notes = {
            "added": _(
                "%(fee)s; no legal fees to credit it against (§ 288 Abs. 5 S. 3 "
                "BGB): added in full"
            ),
            "offset": _(
                "%(fee)s; credited in full against the legal fees (§ 288 Abs. 5 "
                "S. 3 BGB): nothing added"
            ),
            "partly_offset": _(
                "%(fee)s; %(offset)s credited against the legal fees (§ 288 Abs. 5 "
                "S. 3 BGB): the rest is added"
            ),
        }
        return SummaryRow(
            key="pauschale",
            label=label,
            cents=damage.pauschale_added_cents,
            shown=money,
            note=notes[status] % {"fee": fee, "offset": offset},
        )
    if status == "consumer":
        note = _("excluded: the debtor is a consumer (§ 288 Abs. 5 S. 1 BGB)")
    elif status == "old_law":
        note = _(
            "excluded: the obligation arose before 29 July 2014 (Art. 229 § 34 EGBGB)"
        )
    else:
        return None
    return SummaryRow(key="pauschale", label=label, shown="—", note=note)


def _vat_basis(basis: str) -> str:
    if not basis:
        return ""
    if basis.startswith("netto"):
        return _("lawyer's fees net (the creditor deducts input VAT)")
    return _("lawyer's fees gross (no input VAT deduction)")


def _lang() -> Lang:
    return "de" if (translation.get_language() or "de").startswith("de") else "en"


def damage_table(
    damage: DamageComputation,
    *,
    lang: Lang,
    fact_url: Callable[[int], str] | None = None,
) -> DamageTable:
    """The table of ``damage`` in ``lang``. Every figure is the computation's;
    only the interest per period is rounded here, for reading. ``fact_url``
    links each item to its fact (the Requirements tab)."""
    with translation.override(lang):
        return _table(damage, lang, fact_url)


def _table(
    damage: DamageComputation, lang: Lang, fact_url: Callable[[int], str] | None
) -> DamageTable:
    currency = damage.currency

    def money(cents: int | None) -> str:
        return "" if cents is None else cents_format(cents, currency, lang)

    def day(value: date | None) -> str:
        return date_format(value, lang) if value is not None else ""

    yes, no = pgettext("recoverable", "yes"), pgettext("recoverable", "no")
    items = tuple(
        ItemRow(
            fact_id=item.fact_id,
            label=_kind_label(item),
            net_cents=item.net_cents,
            gross_cents=item.gross_cents,
            amount_cents=item.cents,
            recoverable=item.recoverable,
            reason=_reason(item),
            incurred_on=item.incurred_on,
            net=money(item.net_cents),
            gross=money(item.gross_cents),
            amount=money(item.cents),
            recoverable_word=yes if item.recoverable else no,
            incurred=day(item.incurred_on),
            url=fact_url(item.fact_id) if fact_url is not None else "",
        )
        for item in damage.items
    )
    interest = damage.interest
    periods: tuple[InterestRow, ...] = ()
    interest_title = ""
    method = ""
    if interest is not None:
        periods = tuple(
            InterestRow(
                start=p.start,
                end=p.end,
                days=p.days,
                base_rate=p.base_rate_pa,
                annual_rate=p.annual_rate,
                amount_cents=int(
                    p.interest_cents_exact.quantize(Decimal(1), rounding=ROUND_HALF_UP)
                ),
                start_text=day(p.start),
                end_text=day(p.end),
                base_rate_text=percent_points_format(float(p.base_rate_pa), lang),
                annual_rate_text=percent_points_format(float(p.annual_rate), lang),
                amount=money(
                    int(
                        p.interest_cents_exact.quantize(
                            Decimal(1), rounding=ROUND_HALF_UP
                        )
                    )
                ),
            )
            for p in interest.periods
        )
        interest_title = _(
            "Default interest on %(principal)s (%(basis)s, %(points)s percentage "
            "points above the Basiszinssatz)"
        ) % {
            "principal": money(interest.principal_cents),
            "basis": damage.interest_basis or "",
            "points": interest.points,
        }
        method = interest.method_de if lang == "de" else interest.method_en
    summary: list[SummaryRow] = [
        SummaryRow(
            key="default_from",
            label=_("In default (Verzug) since"),
            day=damage.default_start,
            shown=day(damage.default_start),
        ),
        SummaryRow(
            key="stichtag",
            label=_("Stichtag"),
            day=damage.valid_at,
            shown=day(damage.valid_at),
        ),
    ]
    if interest is not None:
        summary.append(
            SummaryRow(
                key="interest",
                label=_("Default interest from %(start)s to %(end)s")
                % {"start": day(interest.start), "end": day(interest.end)},
                cents=interest.interest_cents,
                shown=money(interest.interest_cents),
                note=_("rounded once, at the end"),
            )
        )
    summary.append(
        SummaryRow(
            key="items",
            label=_("Recoverable items of damage"),
            cents=damage.items_cents,
            shown=money(damage.items_cents),
            note=_vat_basis(damage.vat_basis),
        )
    )
    pauschale = _pauschale_row(damage, money(damage.pauschale_added_cents))
    if pauschale is not None:
        summary.append(pauschale)
    summary.append(
        SummaryRow(
            key="total",
            label=_("Total recoverable"),
            cents=damage.total_cents,
            shown=money(damage.total_cents),
        )
    )
    return DamageTable(
        lang=lang,
        currency=currency,
        title=_("Damage calculation"),
        headers=_headers(),
        items=items,
        interest_title=interest_title,
        interest=periods,
        summary=tuple(summary),
        total_cents=damage.total_cents,
        default_from=damage.default_start,
        stichtag=damage.valid_at,
        method=method,
        notes=tuple(damage.notes_de if lang == "de" else damage.notes_en),
        sources=tuple(interest.sources) if interest is not None else (),
    )
