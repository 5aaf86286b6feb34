"""What the parser reads before parsing: where citations may start, and HTML
input made plain without moving any offset."""

from __future__ import annotations

import html
import re

from citations.domain.patterns import _CANDIDATE, _ORDINAL_BEFORE, _VV_BEFORE


def _candidates(text: str) -> list[int]:
    """Every place where a citation may start, ascending."""
    places: list[int] = []
    add = places.append
    for cm in _CANDIDATE.finditer(text):
        start = cm.start()
        literal = cm.group()
        if literal == "ecital" or literal == "ection":
            if start > 0:
                add(start - 1)
        elif literal == "subparagraph":
            # "second subparagraph of Article 5" starts at its ordinal
            om = _ORDINAL_BEFORE.search(text, max(0, start - 12), start)
            if om is not None:
                add(om.start())
        elif literal[0] == "V":
            # "Nr. 2300 VV RVG" starts before the "VV" that finds it
            for vm in _VV_BEFORE.finditer(text, max(0, start - 60), start):
                add(vm.start())
        else:
            add(start)
    return sorted(set(places))


_HTML_HINT = re.compile(r"&(?:#\d{1,6}|#x[0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});|<[a-zA-Z/!]")
_ENTITY = re.compile(r"&(?:#\d{1,6}|#x[0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});")
_HIDDEN = re.compile(r"<(script|style)\b[^>]*>.*?</\1\s*>", re.S | re.I)
_TAG = re.compile(r"<[a-zA-Z/!][^<>]{0,500}>")


def _same_length_plain(text: str) -> str:
    """HTML in the input: entities decoded ("&sect;" → "§"), tags and the
    content of <script>/<style> blanked, each padded with spaces to its
    original length, so that every offset still points at the input."""

    def pad(m: re.Match[str], value: str) -> str:
        return value + " " * (len(m.group()) - len(value))

    def entity(m: re.Match[str]) -> str:
        value = html.unescape(m.group())
        if len(value) != 1:
            value = " "
        if value in ("\xa0", "\u202f"):
            value = " "
        return pad(m, value)

    text = _HIDDEN.sub(lambda m: " " * len(m.group()), text)
    text = _TAG.sub(lambda m: " " * len(m.group()), text)
    return _ENTITY.sub(entity, text)
