"""German and English dates and amounts as they appear in letters.

``find_dates`` and ``find_amounts`` return matches with their character
offsets, so that a caller can quote the surrounding text verbatim."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

MONTHS_DE = {
    "januar": 1, "jänner": 1, "februar": 2, "märz": 3, "maerz": 3, "april": 4,
    "mai": 5, "juni": 6, "juli": 7, "august": 8, "september": 9, "oktober": 10,
    "november": 11, "dezember": 12,
}  # fmt: skip
MONTHS_EN = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6,
    "july": 7, "august": 8, "september": 9, "october": 10, "november": 11,
    "december": 12,
}  # fmt: skip
# Abbreviated months, with or without a full stop ("8 Oct 2026" in a mail
# header, "12. Okt. 2026"); looked up with the full names.
_ABBREVIATED_DE = {
    "jan": 1, "feb": 2, "mär": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8,
    "sep": 9, "sept": 9, "okt": 10, "nov": 11, "dez": 12,
}  # fmt: skip
_ABBREVIATED_EN = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8,
    "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
_MONTH_OF_DE = {**_ABBREVIATED_DE, **MONTHS_DE}
_MONTH_OF_EN = {**_ABBREVIATED_EN, **MONTHS_EN}
# longest first, so that "september" is not read as "sep"
_DE_MONTH = "|".join(sorted(_MONTH_OF_DE, key=len, reverse=True))
_EN_MONTH = "|".join(sorted(_MONTH_OF_EN, key=len, reverse=True))

# One alternation, so that other patterns can embed it as ``DATE``.
DATE = (
    r"(?:\d{1,2}\.\s?\d{1,2}\.\s?(?:\d{4}|\d{2})(?!\d)"
    rf"|\d{{1,2}}\.\s?(?:{_DE_MONTH})\b\.?\s+\d{{4}}"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_EN_MONTH})\b\.?\s+\d{{4}}"
    rf"|(?:{_EN_MONTH})\b\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    r"|\d{4}-\d{2}-\d{2}"
    # day first, as in the EU outside Germany ("25/09/2026", Irish and
    # British portals); a four-digit year only, so no fraction or file number
    r"|(?<![\d/])\d{1,2}/\d{1,2}/\d{4}(?![\d/]))"
)
_DATE_RE = re.compile(DATE, re.IGNORECASE)
_NUMERIC = re.compile(r"(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4}|\d{2})$")
_DE_TEXT = re.compile(
    rf"(\d{{1,2}})\.\s?({_DE_MONTH})\b\.?\s+(\d{{4}})$", re.IGNORECASE
)
_EN_DMY = re.compile(
    rf"(\d{{1,2}})(?:st|nd|rd|th)?\s+({_EN_MONTH})\b\.?\s+(\d{{4}})$", re.IGNORECASE
)
_EN_MDY = re.compile(
    rf"({_EN_MONTH})\b\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})$", re.IGNORECASE
)
_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})$")
_SLASH_DMY = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})$")


def parse_date(raw: str) -> dt.date | None:
    """A date written the German, English or ISO way; None if it is none."""
    raw = raw.strip()
    try:
        if m := _NUMERIC.match(raw):
            day, month, year = int(m[1]), int(m[2]), int(m[3])
            if year < 100:
                year += 2000 if year < 70 else 1900
            return dt.date(year, month, day)
        if m := _DE_TEXT.match(raw):
            return dt.date(int(m[3]), _MONTH_OF_DE[m[2].lower()], int(m[1]))
        if m := _EN_DMY.match(raw):
            return dt.date(int(m[3]), _MONTH_OF_EN[m[2].lower()], int(m[1]))
        if m := _EN_MDY.match(raw):
            return dt.date(int(m[3]), _MONTH_OF_EN[m[1].lower()], int(m[2]))
        if m := _ISO.match(raw):
            return dt.date(int(m[1]), int(m[2]), int(m[3]))
        if m := _SLASH_DMY.match(raw):
            # day first; "09/25/2026" (month first) is no valid date here
            # and is refused rather than guessed
            return dt.date(int(m[3]), int(m[2]), int(m[1]))
    except ValueError:
        return None
    return None


@dataclass(frozen=True)
class Found:
    start: int
    end: int


@dataclass(frozen=True)
class FoundDate(Found):
    date: dt.date


@dataclass(frozen=True)
class FoundAmount(Found):
    cents: int
    currency: str


def find_dates(text: str) -> list[FoundDate]:
    found = []
    for m in _DATE_RE.finditer(text):
        parsed = parse_date(m.group(0))
        if parsed is not None:
            found.append(FoundDate(m.start(), m.end(), parsed))
    return found


_CUR = {"€": "EUR", "eur": "EUR", "euro": "EUR", "usd": "USD", "$": "USD",
        "gbp": "GBP", "£": "GBP", "chf": "CHF"}  # fmt: skip
_CUR_BEFORE = r"(?P<c1>EUR|€|USD|\$|GBP|£|CHF)\s?"
_CUR_AFTER = r"\s?(?P<c2>€|EUR|Euro|USD|CHF)(?![A-Za-z])"
_DE_NUM = r"(?P<de>\d{1,3}(?:\.\d{3})+|\d+)(?:,(?P<dec>\d{2})|,[-–]{1,2})?"
_EN_NUM = r"(?P<en>\d{1,3}(?:,\d{3})+|\d+)\.(?P<endec>\d{2})(?!\d)"
# German forms: "1.234,56 €", "EUR 1.234,56", "40,- €"; English: "EUR 1,234.56".
AMOUNT_PATTERNS = (
    re.compile(rf"{_CUR_BEFORE}{_EN_NUM}", re.IGNORECASE),
    re.compile(rf"{_CUR_BEFORE}{_DE_NUM}(?![\d.,]\d)", re.IGNORECASE),
    re.compile(rf"(?<![\d.,]){_DE_NUM}{_CUR_AFTER}", re.IGNORECASE),
)
AMOUNT = (
    r"(?:(?:EUR|€|USD|\$|GBP|£|CHF)\s?\d[\d.,]*\d(?:,[-–]{1,2})?"
    r"|\d[\d.,]*(?:,[-–]{1,2})?\s?(?:€|EUR|Euro|USD|CHF)(?![A-Za-z]))"
)


def find_amounts(text: str) -> list[FoundAmount]:
    found: list[FoundAmount] = []
    taken: list[tuple[int, int]] = []
    for pattern in AMOUNT_PATTERNS:
        for m in pattern.finditer(text):
            if any(s < m.end() and m.start() < e for s, e in taken):
                continue
            groups = m.groupdict()
            symbol = (groups.get("c1") or groups.get("c2") or "").lower()
            currency = _CUR.get(symbol)
            if currency is None:
                continue
            if groups.get("en") is not None:
                units = int(groups["en"].replace(",", ""))
                cents = units * 100 + int(groups["endec"])
            else:
                units = int(groups["de"].replace(".", ""))
                cents = units * 100 + int(groups.get("dec") or 0)
            if cents <= 0:
                continue
            taken.append((m.start(), m.end()))
            found.append(FoundAmount(m.start(), m.end(), cents, currency))
    return sorted(found, key=lambda f: f.start)
