"""Date inputs in templates written by hand: ``{{ day|date_input }}`` shows a
date as the page's date input does, ``{% date_placeholder %}`` its format
(``cases.dates``)."""

from __future__ import annotations

from datetime import date

from django import template

from cases.dates import date_placeholder as _placeholder
from cases.dates import date_shown

register = template.Library()


@register.filter
def date_input(day: date | str | None) -> str:
    return date_shown(day)


@register.simple_tag
def date_placeholder() -> str:
    return _placeholder()
