"""The parser's fast path: the common whole citation forms in one pattern.

Most citations in legal text are a single unit with a few subdivisions and
nothing after it that continues the citation ("Artikel 6 Absatz 1 gilt",
"Article 6(1)(a) shall", "§ 286 genannten"). ``_FAST`` recognises such a form
in one anchored match, built from the same sub-patterns the step-by-step
parser uses, in the only order in which the parser would read them (number,
paragraph, sentence, point, subpoint). ``fast_head`` then checks at the end of
the match exactly the conditions under which the step-by-step parser would
stop there too (no further subdivision, ``ff.`` or range; an ordinary word or
closing punctuation), and answers ``None`` for everything else, which the
step-by-step parser then reads. tests/citations/test_parser_fast.py runs both
paths over every labelled set and corpus text and asserts identical output.
"""

from __future__ import annotations

import re

from citations.domain.patterns import (
    _FOLLOWING,
    _NUM,
    _QUICK_END,
    _RANGE,
    _ROMAN_PARA,
    _SEC_NUM,
    _TAIL,
)


def _named(pattern: str, name: str) -> str:
    """``pattern`` (which starts with its capture group) with that group named."""
    assert pattern.startswith("(")
    return f"(?P<{name}>" + pattern[1:]


# Each subdivision is the alternative of ``_TAIL`` that matches it first
# (copied literally: the spans must be the same).
_PARA = (
    r"\s?\(\s*(?P<ppara>\d{1,3}[a-z]?)\s*\)"
    r"|\s*(?:Abs\.|Absatz|Absätze|Absätzen|Abs(?=\s\d))\s*"
    r"(?P<para>\d{1,3}[a-z]?)(?!\d)(?![,.]\d)"
)
_SENT = r"\s*(?:S\.|Satz|Sätze|Sätzen)\s*(?P<sent>\d{1,2})(?!\d)(?![.,]\d)"
_NR = (
    r"\s*(?:Nr\.|Nrn\.|Nummer|Nummern|Ziff\.|Ziffer|Ziffern|Ziff|Nr(?=\s?\d)"
    r"|nos?\.(?=\s?\d))\s*(?P<{0}>\d{{1,3}}[a-z]?|[ivx]{{1,5}}\b)(?!\d)(?![.,]\d)"
)
_LIT = (
    r"\s*(?:lit\.|Buchst\.|Buchstabe|Buchstaben|Bst\.|litera|letters?)\s*"
    r"(?P<{0}>[a-z]{{1,2}})\b\)?"
)
_ENPOINT = (
    r"\s*,?\s*points?\s*(?:\((?P<epoint>[a-z0-9]{1,4})\)"
    r"|(?P<epoint2>\d{1,3})(?!\d)(?![.,]\d))"
)
_POINT = "|".join(
    (
        r"\s?\(\s*(?P<ppoint>[a-z]{1,4})\s*\)",
        _NR.format("npoint"),
        _LIT.format("lpoint"),
        _ENPOINT,
    )
)
_SUBPOINT = "|".join(
    (
        r"\s?\(\s*(?P<psub>\d{1,3}[a-z]?|[a-z]{1,4})\s*\)",
        _NR.format("nsub"),
        _LIT.format("lsub"),
    )
)
_FAST = re.compile(
    r"(?:(?:(?P<sec>§)\s*(?=\d)"
    + _named(_SEC_NUM, "nsec")
    + r"|\b(?P<art>Artikel|Article|Art\.)\s*(?=\d)"
    + _named(_NUM, "nart")
    + f")(?:{_PARA})?"
    # a bare "Absatz 2" / "paragraph 2" after a citation (its unit is that one's)
    + r"|\b(?P<bare>(?:Abs\.|Absatz)\s*(?P<bpara>\d{1,3}[a-z]?)(?!\d)(?![,.]\d)"
    + r"|paragraph\s+(?P<bpara_en>\d{1,3})(?!\d)))"
    + f"(?:{_SENT})?(?:(?:{_POINT})(?:{_SUBPOINT})?)?"
    # "quick": an ordinary word or closing punctuation follows, so the parser
    # stops here; the only subdivisions that can follow such a word ("nos. 3",
    # " a)") are excluded
    + r"(?:(?P<quick>(?![ \t]+(?:nos?\.\s?\d|[a-z]{1,2}\)))(?="
    + _QUICK_END.pattern
    + r"))|)"
)

# group of a value -> (level, parenthesised, German keyword, English keyword)
_STEPS: tuple[tuple[str, str, bool, int, int], ...] = (
    ("bpara", "para", False, 1, 0),
    ("bpara_en", "para", False, 0, 1),
    ("ppara", "para", True, 0, 0),
    ("para", "para", False, 1, 0),
    ("sent", "sent", False, 1, 0),
    ("ppoint", "point", True, 0, 0),
    ("npoint", "point", False, 1, 0),
    ("lpoint", "point", False, 1, 0),
    ("epoint", "point", True, 0, 1),
    ("epoint2", "point", True, 0, 1),
    ("psub", "subpoint", True, 0, 0),
    ("nsub", "subpoint", False, 1, 0),
    ("lsub", "subpoint", False, 1, 0),
)
_LIT_GROUPS = frozenset({"lpoint", "lsub"})
_GROUPS = tuple(step[0] for step in _STEPS)


# end, the unit (None for a bare "Absatz 2": the citation before's), the
# levels below it, parenthesised kinds, lit kinds, lang_de, lang_en, quick (the
# parser stops here at once: an ordinary word or closing punctuation follows)
FastHead = tuple[
    int, tuple[str, str] | None, dict[str, str], list[str], set[str], int, int, bool
]


def fast_head(text: str, start: int) -> FastHead | None:
    """The whole citation starting at ``start`` when it has a form the fast
    path reads exactly as the step-by-step parser does, else ``None``.

    ``levels`` are the subdivisions below the unit. When ``quick`` is false
    the caller must still make sure that no list, joiner or instrument follows
    (what the parser would read next)."""
    m = _FAST.match(text, start)
    if m is None:
        return None
    end = m.end()
    quick = m.group("quick") is not None
    # what the step-by-step parser reads next must end the citation here
    if not quick and (
        _TAIL.match(text, end) is not None
        or _FOLLOWING.match(text, end) is not None
        or _RANGE.match(text, end) is not None
    ):
        return None
    top: tuple[str, str] | None
    if m.group("bare") is not None:
        top = None
        de = en = 0
    else:
        if m.group("sec") is not None:
            number_end = m.end("nsec")
            top = ("sec", m.group("nsec").replace(" ", ""))
            de, en = 1, 0
        else:
            number_end = m.end("nart")
            top = ("art", m.group("nart"))
            word = m.group("art")
            de = int(word == "Artikel")
            en = int(word == "Article")
        if number_end == end:
            if not quick and _ROMAN_PARA.match(text, number_end) is not None:
                return None  # "§ 823 I": read step by step
            return end, top, {}, [], set(), de, en, quick
        # the parser stops right after the number on a closing word ("nos.")
        # and reads a Roman paragraph there first
        if text[number_end].isspace() and (
            _QUICK_END.match(text, number_end) is not None
            or _ROMAN_PARA.match(text, number_end) is not None
        ):
            return None
    levels: dict[str, str] = {}
    paren: list[str] = []
    lit: set[str] = set()
    for (group, level, in_paren, german, english), value in zip(
        _STEPS, m.group(*_GROUPS), strict=True
    ):
        if value is None:
            continue
        levels[level] = value
        if in_paren:
            paren.append(level)
        de += german
        en += english
        if group in _LIT_GROUPS:
            lit.add(level)
    return end, top, levels, paren, lit, de, en, quick
