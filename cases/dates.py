"""Dates a user types, in the page's language: the one reading and writing of
a date input for every form and filter.

A browser's ``<input type=date>`` shows its own locale's format, so a German
page would show "05/08/2026" on an English browser. Belegt's date inputs are
text inputs instead: German pages show and take TT.MM.JJJJ (also T.M.JJJJ),
English pages MM/DD/YYYY; both always take ISO (YYYY-MM-DD), which is never
ambiguous and is what an English page shows.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

_GERMAN = re.compile(r"^(\d{1,2})\.(\d{1,2})\.(\d{4})$")
_US = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")
_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")


class NotACalendarDay(ValueError):
    """Typed in a date's form, but no day of the calendar (31.02.2026)."""


def page_is_english() -> bool:
    return (get_language() or "de").startswith("en")


def typed_date_parts(text: str) -> tuple[int, int, int] | None:
    """(year, month, day) of a typed date in one of the page's forms, or None
    when the text is in no date form at all."""
    cleaned = text.strip()
    if german := _GERMAN.match(cleaned):
        day, month, year = (int(g) for g in german.groups())
    elif (us := _US.match(cleaned)) and page_is_english():
        month, day, year = (int(g) for g in us.groups())
    elif iso := _ISO.match(cleaned):
        year, month, day = (int(g) for g in iso.groups())
    else:
        return None
    return year, month, day


def typed_date(text: str) -> dt.date | None:
    """The day a user typed; None for text in no date form. Raises
    NotACalendarDay for a date form that names no day (31.02.2026)."""
    parts = typed_date_parts(text)
    if parts is None:
        return None
    try:
        return dt.date(*parts)
    except ValueError:
        raise NotACalendarDay(text.strip()) from None


def date_placeholder() -> str:
    return "YYYY-MM-DD" if page_is_english() else "TT.MM.JJJJ"


def date_shown(day: dt.date | str | None) -> str:
    """A date as the page's date input shows it (05.05.2026 on a German page,
    ISO on an English one); text that is no ISO date is shown as it is."""
    if day is None or day == "":
        return ""
    if isinstance(day, str):
        try:
            parsed = dt.date.fromisoformat(day)
        except ValueError:
            return day
    else:
        parsed = day
    return parsed.isoformat() if page_is_english() else parsed.strftime("%d.%m.%Y")


class LocalDateInput(forms.TextInput):
    """A text input for a date in the page's form, with its placeholder."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        base = {"inputmode": "numeric", "autocomplete": "off", "size": 10}
        super().__init__({**base, **(attrs or {})})

    def get_context(
        self, name: str, value: Any, attrs: dict[str, Any] | None
    ) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        context["widget"]["attrs"].setdefault("placeholder", date_placeholder())
        return context

    def format_value(self, value: Any) -> str | None:
        if isinstance(value, dt.date):
            return date_shown(value)
        return super().format_value(value)


class LocalDateField(forms.DateField):
    """A form's date field: typed in the page's form (``typed_date``)."""

    widget = LocalDateInput
    default_error_messages = {
        "invalid": _("Enter the date as %(format)s."),
        "not_a_day": _("%(value)s is not a day of the calendar."),
    }

    def to_python(self, value: Any) -> dt.date | None:
        if value in self.empty_values:
            return None
        if isinstance(value, dt.datetime):
            return value.date()
        if isinstance(value, dt.date):
            return value
        try:
            day = typed_date(str(value))
        except NotACalendarDay as exc:
            raise forms.ValidationError(
                self.error_messages["not_a_day"],
                code="not_a_day",
                params={"value": str(exc)},
            ) from None
        if day is None:
            raise forms.ValidationError(
                self.error_messages["invalid"],
                code="invalid",
                params={"format": date_placeholder()},
            )
        return day
