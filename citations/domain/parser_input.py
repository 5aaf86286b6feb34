"""What the parser reads before parsing: where citations may start, and HTML
input made plain without moving any offset."""

from __future__ import annotations

import html
import re

from citations.domain.patterns import _CANDIDATE_SCANS, _ORDINAL_BEFORE, _VV_BEFORE

_START = re.Match.start


def _candidates(text: str) -> list[int]:
    """Every place where a citation may start, ascending: where one of the
    trigger's literals occurs (the same places as the plain listing of every
    literal, ``parser_reference._candidates_reference``)."""
    places: list[int] = []
    for kind, pattern in _CANDIDATE_SCANS:
        if kind == "at":
            places.extend(map(_START, pattern.finditer(text)))
        elif kind == "paragraph":
            for m in pattern.finditer(text):
                start = m.start()
                places.append(start)
                sub = start >= 3 and m.end() - start == 9
                if sub and text[start - 3 : start] == "sub":
                    # "second subparagraph of Article 5" starts at its ordinal
                    om = _ORDINAL_BEFORE.search(text, max(0, start - 15), start - 3)
                    if om is not None:
                        places.append(om.start())
        elif kind == "ction":
            # "recital", "section": the word starts two before its "c"
            for m in pattern.finditer(text, 2):
                start = m.start()
                if text[start - 1] == "e":
                    places.append(start - 2)
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
