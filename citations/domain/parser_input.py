"""What the parser reads before parsing: where citations may start, and HTML
input made plain without moving any offset."""

from __future__ import annotations

import html
import re

from citations.domain.patterns import _CANDIDATE_SCANS, _ORDINAL_BEFORE, _VV_BEFORE

_START = re.Match.start


def _candidates(text: str) -> list[int]:
    """Every place where a citation may start, ascending."""
    places: list[int] = []
    for kind, pattern in _CANDIDATE_SCANS:
        if kind == "at":
            places.extend(map(_START, pattern.finditer(text)))
        elif kind == "before":
            places.extend([m.start() - 1 for m in pattern.finditer(text, 1)])
        elif kind == "ordinal":
            # "second subparagraph of Article 5" starts at its ordinal
            for m in pattern.finditer(text):
                start = m.start()
                om = _ORDINAL_BEFORE.search(text, max(0, start - 12), start)
                if om is not None:
                    places.append(om.start())
        else:
            # "Nr. 2300 VV RVG" starts before the "VV" that finds it
            for m in pattern.finditer(text):
                start = m.start()
                for vm in _VV_BEFORE.finditer(text, max(0, start - 60), start):
                    places.append(vm.start())
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
