"""The compiled regular expressions of the citation parser.

Every step of the parser is an anchored ``re.match`` of one of these at a
known position; ``_CANDIDATE`` and ``_TRIGGER`` find where a citation starts.
"""

from __future__ import annotations

import re

from citations.domain.instruments import REGISTRY, InstrumentInfo, alias_pattern, eu_act

# --- regular expressions ---

# Blanks, an optional comma, blanks. Written so, never as ``\s*,?\s*``: the
# two match the same text, try the same ends in the same order (the longest
# first, as the pattern after them fails) and so give the same match
# everywhere; but where nothing follows a run of n blanks, ``\s*,?\s*``
# tries every split of the run between its two ``\s*`` (n²/2 steps: ~150 s
# for "§ 1" and 80,000 blanks), this one gives back one blank at a time
# (n steps). ``tests/citations/test_parser_linear.py`` holds both forms equal.
_WS_COMMA = r"\s*(?:,\s*)?"

_NUM_VALUE = r"\d{1,4}(?:[a-z](?![a-z.]))?"
_NUM = "(" + _NUM_VALUE + r")(?!\d)(?![,.]\d)"
# a § number may have a spaced letter suffix ("§ 124 a VwGO")
_SEC_NUM_VALUE = r"\d{1,4}(?:[a-z](?![a-z.])|[ ][a-z](?=[ \t]+[A-ZÄÖÜ§]|[,;]|$))?"
_SEC_NUM = "(" + _SEC_NUM_VALUE + r")(?!\d)(?![,.]\d)"
_TRIGGER = re.compile(
    r"(?P<sec>§§?|Paragra(?:f|ph)(?:en)?(?=\s)|\b(?:[Ss]ections?|Secs?\.)(?=\s))\s*(?=\d)"
    r"|\b(?P<art>Artikeln?|Articles?|Artt?\.|Arts\.|Art)\s*(?=\d)"
    r"|\b(?P<rec>Erwägungsgr(?:und|ünde|ünden|undes|unds)|ErwGr?\.?|EG|[Rr]ecitals?)"
    r"\s*(?=\(?\d)"
    r"|\b(?P<anx>Anh(?:ang|änge|\.)|Annex(?:es)?|ANNEX)\s+(?=[IVXL]+\b)"
    r"|\b(?P<rev>points?\s+\((?=[a-z0-9]{1,4}\))|(?:first|second|third|fourth|fifth"
    r"|sixth|seventh|eighth|ninth|tenth|last)\s+subparagraph\s+of\s+(?=Art)"
    r"|points?\s+(?=\d{1,3}(?:\s?\([a-z]{1,3}\))?\s+of\s+Annex\s+[IVXL]+\b))"
    r"|\b(?P<anl>Anlagen?)\s+(?=\d)"
    r"|\b(?P<vv>Nrn?\.|Nrn?|Nummern?|[Nn]os?\.)\s*(?=\d{4}\b)"
    r"|\b(?P<bare>Abs\.|Absatz|Absätze|UAbs\.|Unterabsatz|paragraphs?)\s*(?=\d)"
)
# Literals one of which starts every citation. sre finds a literal prefix
# with a tight loop over its first character (~3 ms for 5 MB, whatever
# follows), but leaves that loop at every occurrence of that character; so
# literals that share their first character share one pass, and the lower-case
# words whose first letter is frequent are found by a rarer one ("recital" and
# "section" by their "c", "subparagraph" by its "paragraph"). One alternation of
# all of them would be tried at every character that starts any (~10x slower).
# A literal may find more places than the trigger accepts, never fewer. Each
# scan's kind says where the citation starts relative to the match (see
# ``parser_input._candidates``); ``parser_reference`` keeps the plain listing
# of every literal, which these scans must equal.
_CANDIDATE_SCANS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("at", re.compile("§")),
    ("at", re.compile("A(?:rt|nh|nnex|bs|nlage|NNEX)")),
    ("at", re.compile("E(?:rw|G)")),
    ("at", re.compile("Sec")),
    ("at", re.compile("U(?:Abs|nterabs)")),
    ("at", re.compile("Paragra")),
    ("paragraph", re.compile("p(?:oint|aragraph)")),  # and "subparagraph"
    ("ction", re.compile("c(?:ital|tion)")),  # "[Rr]ecital", "[Ss]ection"
    ("vv", re.compile("VV|Vergütungsverzeichnis")),
)
_ORDINAL_BEFORE = re.compile(
    r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last)\s+$"
)
_NUMBER = re.compile(r"\s*" + _NUM)
_SEC_NUMBER = re.compile(r"\s*" + _SEC_NUM)
_BOOK_AFTER = re.compile(r"[ ]([IVX]{1,4}|\d{1,2})(?![\w.])")
_REC_NUMBER = re.compile(r"\s*(\()?(\d{1,3})(?(1)\))")
_ANNEX_NUMBER = re.compile(r"\s*([IVXL]{1,6})\b")

# Every alternative of ``_TAIL`` starts with (optional) blanks and a comma and
# one of these beginnings of its keywords, or is a bare letter point "a)":
# checked first, so that the common failure (the word after a citation) is one
# quick look instead of fifteen alternatives. The lookahead is implied by every
# alternative, so it changes no match (``_TAIL_PLAIN`` is the same without it;
# the equality tests compare both at every place of the labelled sets).
_TAIL_FIRST = (
    "(?=" + _WS_COMMA + r"(?:[(§]|\d\.|Ab|U[Aan]|S[.aä]|H[sSab]|Nr|Nu|Zi|no|li|Bu|Bs|le"
    r"|Al|Va|Se|Te|Pa|po|pa|fi|fo|se|si|su|th|te|ei|ni)|[ \t]+[a-z]{1,2}\))"
)
# The alternatives of ``_TAIL`` by name, in the order they are tried (the
# first that matches is taken); each value is in ``v_<name>``.
_TAIL_PARTS: dict[str, str] = {
    "paren": r"\s?\(\s*(?P<v_paren>\d{1,3}[a-z]?|[a-z]{1,4})\s*\)",
    "abs": r"\s*(?:Abs\.|Absatz|Absätze|Absätzen|Abs(?=\s\d))\s*"
    r"(?P<v_abs>\d{1,3}[a-z]?)(?!\d)(?![,.]\d)",
    "uabs": r"\s*(?:UAbs\.|Uabs\.|Unterabs\.|Unterabsatz|Unterabsätze|UA)\s*"
    r"(?P<v_uabs>\d{1,2})(?!\d)",
    "satz": r"\s*(?:S\.|Satz|Sätze|Sätzen)\s*(?P<v_satz>\d{1,2})(?!\d)(?![.,]\d)",
    "hs": _WS_COMMA + r"(?:(?:Hs\.|HS|Halbs\.|Halbsatz|Hbs\.)\s*(?P<v_hs>\d)"
    r"|(?P<v_hs2>\d)\.\s*(?:Hs\.|HS|Halbs\.|Halbsatz|Hbs\.))(?!\d)",
    "nr": r"\s*(?:Nr\.|Nrn\.|Nummer|Nummern|Ziff\.|Ziffer|Ziffern|Ziff|Nr(?=\s?\d)"
    r"|nos?\.(?=\s?\d))\s*"
    r"(?P<v_nr>\d{1,3}[a-z]?|[ivx]{1,5}\b)(?!\d)(?![.,]\d)",
    "lit": r"\s*(?:lit\.|Buchst\.|Buchstabe|Buchstaben|Bst\.|litera|letters?)\s*"
    r"(?P<v_lit>[a-z]{1,2})\b\)?",
    "alt": r"\s*(?:Alt\.|Alternative|Var\.|Variante)\s*(?P<v_alt>\d{1,2})\b",
    "part": _WS_COMMA
    + r"(?:Abschnitt|Section|Teil|Part)\s+(?P<v_part>[A-Z]|\d{1,2})\b",
    "enpoint": _WS_COMMA + r"points?\s*(?:\((?P<v_enpoint>[a-z0-9]{1,4})\)"
    r"|(?P<v_enpoint2>\d{1,3})(?!\d)(?![.,]\d))",
    "ensub": _WS_COMMA + r"(?:(?P<o_ensub>first|second|third|fourth|fifth|sixth"
    r"|seventh|eighth|ninth|tenth)\s+subparagraph|subparagraph\s+(?P<v_ensub>\d{1,2}))"
    r"\b",
    "ensent": _WS_COMMA + r"(?:(?P<o_ensent>first|second|third|fourth|fifth|sixth)"
    r"\s+sentence|sentence\s+(?P<v_ensent>\d{1,2}))\b",
    "enpara": r"\s*(?:paragraph\s+|paras?\.\s*)(?P<v_enpara>\d{1,3})(?!\d)",
    "asec": r"\s+§\s*(?P<v_asec>\d{1,3}[a-z]?)(?!\d)(?![,.]\d)",
    "letp": r"[ \t]+(?P<v_letp>[a-z]{1,2})\)(?!\w)",
}
_TAIL_ALTERNATIVES = "|".join(
    f"(?P<{name}>{part})" for name, part in _TAIL_PARTS.items()
)
_TAIL = re.compile(_TAIL_FIRST + r"(?:" + _TAIL_ALTERNATIVES + r")")
_TAIL_PLAIN = re.compile(_TAIL_ALTERNATIVES)
_ROMAN_PARA = re.compile(r"\s+([IVX]{1,4})(?=[\s,;)]|\.(?:\s|$)|$)")
_ROMAN_SENT = re.compile(r"\s+(\d{1,2})(?=[\s,;)]|\.(?:\s|$)|$)")
_FOLLOWING = re.compile(r"\s*(?:(ff?)\.|(et\s+seqq?\.))")
_RANGE = re.compile(r"\s*(?:bis|–|—|-|to|through)\s*")
# both in one look (their first characters differ, so at most one matches)
_FOLLOWING_OR_RANGE = re.compile(
    r"\s*(?:(?P<ff>(?P<f>ff?)\.|et\s+seqq?\.)|(?:bis|–|—|-|to|through)\s*)"
)
_LIST_SEP = re.compile(r"\s*(?:,|;|(?:und|sowie|oder|and|or)\b|bzw\.|&)\s*")
_JOIN = re.compile(
    _WS_COMMA
    + r"(?:i\.\s?V\.\s?m\.|iVm|i\.V\.|in\s+Verbindung\s+mit|in\s+conjunction\s+with"
    r"|(?:und|sowie|oder|and|or)\b|bzw\.|,|/)\s*"
)
_BARE_VALUE = re.compile(
    r"(\d{1,4}(?:[a-z](?![a-z.]))?)(?!\d)(?![,.]\d)"
    r"|([a-z]|[ivx]{2,4}|(?P<dbl>[a-z])(?P=dbl))\b(?!\.)"
)
_PAREN_VALUE = re.compile(r"\s?\(\s*(\d{1,3}[a-z]?|[a-z]{1,4})\s*\)")
_REV_OF = re.compile(r"\s+of\s+(?=Art)")
_REV_ANNEX = re.compile(
    r"(?P<point>\d{1,3})(?:\s?\((?P<sub>[a-z]{1,3})\))?\s+of\s+Annex\s+"
    r"(?P<annex>[IVXL]+)\b"
)
_EU_ACT = (
    r"(?P<eukind>Verordnung|Durchführungsverordnung|Delegierte\s+Verordnung|VO|"
    r"Regulation|Richtlinie|RL|Directive)\s*(?:\((?:EU|EG|EWG|EC|EEC|EU,\s*Euratom)\)\s*)?"
    r"(?:Nr\.\s*|No\.?\s*)?(?P<eua>\d{2,4})/(?P<eub>\d{1,4})(?:/(?:EU|EG|EWG|EC|EEC))?"
)
_CONTEXT = (
    r"(?P<ctx>dieser\s+Verordnung|this\s+Regulation|der\s+Verordnung|the\s+Regulation"
    r"|that\s+Regulation|that\s+Directive"
    r"|dieser\s+Richtlinie|this\s+Directive|der\s+VO)"
)
_ABBR = (
    r"(?P<abbr>[A-ZÄÖÜ][A-Za-zÄÖÜäöüß]{0,60}(?:-[A-ZÄÖÜa-zäöüß][A-Za-zÄÖÜäöüß]*){0,3})"
    r"(?:[ ](?P<book>[IVX]{1,4}|\d{1,2})(?![\w.]))?"
)
# the old shape of an abbreviation of a statute nobody lists ("XYZG")
_ABBR_SHAPE = re.compile(r"[A-ZÄÖÜ][A-Za-zÄÖÜäöü]{0,8}(?:G|VO|O)")
# what may stand before an instrument's name: "der DSGVO", "of the GDPR"
_INSTRUMENT_HEAD = (
    _WS_COMMA + r"(?:(?:of\s+the|of|to|der|des|dem|the|aus\s+der|aus\s+dem|nach\s+der)"
    r"\s+)?"
)
_INSTRUMENT = re.compile(
    _INSTRUMENT_HEAD
    + r"(?:"
    + _CONTEXT
    + r"|(?P<alias>"
    + alias_pattern()
    + r")|"
    + _EU_ACT
    + r"|"
    + _ABBR
    + r")(?![\w-])"
)
_CONTEXT_WINDOW = 3000
# After a number: an ordinary lower-case word (not one that continues a
# citation) or closing punctuation ends the citation; used as a fast path.
_QUICK_END = re.compile(
    r"(?:[ \t]+(?!(?:und|oder|sowie|bis|bzw|i|iVm|in|and|or|to|through|of|der|des|"
    r"dem|den|the|dieser|diese|this|that|et|ff?|lit|litera|point|points|first|second|"
    r"third|fourth|fifth|sixth|last|sentence|subparagraph|paragraph|para|paras|"
    r"letter|letters|nach|aus|zur|"
    r"zum|im|vom|von|analog|a|aa|bb|cc)\b)[a-zäöüß]{2}"
    r"|[.;:)\]](?![\d)]))"
)
_INSTRUMENT_START = re.compile(_WS_COMMA + "[A-ZÄÖÜdto]")
_EN_ALIASES = frozenset(
    a.casefold()
    for a in (
        "GDPR",
        "EU GDPR",
        "General Data Protection Regulation",
        "AI Act",
        "EU AI Act",
        "Artificial Intelligence Act",
        "AIA",
        "Digital Operational Resilience Act",
        "TFEU",
        "TEU",
        "Charter of Fundamental Rights",
        "Data Act",
        "Digital Services Act",
        "German Civil Code",
        "Basic Law",
        "German Basic Law",
        "German Commercial Code",
        "German Code of Civil Procedure",
        "Code of Civil Procedure",
        "German Criminal Code",
    )
)
# "the German Civil Code (BGB)": the abbreviation after the name
_ABBR_IN_BRACKETS = re.compile(r"\s*\(([A-ZÄÖÜ][\w-]{1,20})\)")
# What may follow a list item for it to count: punctuation, a joiner, an
# instrument or a subdivision keyword; not an ordinary word ("§ 280, 2 Wochen").
_ACCEPT_END = re.compile(
    r"\s*(?:$|[,;.:)\]\"“”'’]|\n|(?:und|sowie|oder|bzw|and|or|i\.\s?V|iVm|in\s+Verbindung"
    r"|in\s+conjunction|bis|to|ff?\.|et\s+seq|Abs|Absatz|UAbs|S\.|Satz|Nr|Nummer|lit"
    r"|Buchst|Alt|Hs|Ziff|point|first|second|third|sentence|subparagraph)\b|\()"
)


def _uncaptured(pattern: re.Pattern[str] | str, tag: str) -> str:
    """The source of ``pattern`` with its groups made non-capturing, to stand
    in a check inside a longer pattern: sre saves and restores every group
    mark at each alternative, so a check with none is faster (a group that
    a backreference names stays, its name prefixed by ``tag``)."""
    source = pattern if isinstance(pattern, str) else pattern.pattern
    referenced = set(re.findall(r"\(\?P=(\w+)\)", source))
    out: list[str] = []
    i, n, in_class = 0, len(source), False
    while i < n:
        c = source[i]
        if c == "\\":
            out.append(source[i : i + 2])
            i += 2
        elif in_class:
            in_class = c != "]"
            out.append(c)
            i += 1
        elif c == "[":
            # a "]" right after "[" or "[^" is part of the class
            j = i + 1 + (source[i + 1 : i + 2] == "^")
            j += source[j : j + 1] == "]"
            out.append(source[i:j])
            in_class = True
            i = j
        elif source.startswith("(?P<", i):
            j = source.index(">", i)
            name = source[i + 4 : j]
            out.append(f"(?P<{tag}_{name}>" if name in referenced else "(?:")
            i = j + 1
        elif source.startswith("(?P=", i):
            j = source.index(")", i)
            out.append(f"(?P={tag}_{source[i + 4 : j]})")
            i = j + 1
        elif c == "(" and source[i + 1 : i + 2] != "?":
            out.append("(?:")
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


# Where an instrument may be named: after the words that may stand before a
# name, a context word ("dieser Verordnung") or the first character of an
# alias, an EU act's kind word or an abbreviation (a capital, or the first
# character of an alias that starts otherwise). Implied by every match of
# ``_INSTRUMENT``.
_INSTRUMENT_FIRST = "".join(
    sorted(
        {a[0] for i in REGISTRY for a in i.aliases}
        - set("ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ")
    )
)
_INSTRUMENT_CAN_START = re.compile(
    _INSTRUMENT_HEAD
    + "(?:"
    + _uncaptured(_CONTEXT, "inst")
    + "|[A-ZÄÖÜ"
    + re.escape(_INSTRUMENT_FIRST)
    + "])"
)
# After an item that none of these can continue, the chain ends there: no
# list item after a list separator (``_list_next``), no instrument
# (``_instrument``), no unit or subdivision after a joiner (``_chain``). Each
# part is the negation of the pattern that step matches (or of one implied by
# it), so where this matches those steps find nothing; where it does not, the
# parser takes those steps. Most citations end so ("Artikel 21 und der",
# "Article 5, the"), and one look replaces about ten.
_NOTHING_FOLLOWS = re.compile(
    "(?!(?>"
    + _LIST_SEP.pattern
    + ")(?:"
    + _PAREN_VALUE.pattern
    + "|"
    + _uncaptured(_BARE_VALUE, "list")
    + "))(?!"
    + _INSTRUMENT_CAN_START.pattern
    + ")(?!(?>"
    + _JOIN.pattern
    + ")(?:"
    + _uncaptured(_TRIGGER, "join")
    + "|"
    + _uncaptured(_TAIL, "join")
    + "))"
)


def _step(name: str, tag: str) -> str:
    """The ``_TAIL`` alternative ``name`` as one step of a longer pattern:
    its value in group ``tag``, and atomic (what it matched is never given
    back, as when the parser matches it on its own)."""
    return "(?>" + _TAIL_PARTS[name].replace(f"(?P<v_{name}>", f"(?P<{tag}>") + ")"


# Subdivisions in their usual order, each at most once: "(1)(a)(i)" or
# "Abs. 1 UAbs. 2 S. 3 Nr. 4 lit. a". Each step is the ``_TAIL`` alternative
# that ``_TAIL`` itself takes there (their keywords start differently), and in
# this order each goes deeper than the one before, so ``_tail`` would take it.
_USUAL_GERMAN = (
    "?+".join(_step(name, name) for name in ("abs", "uabs", "satz", "nr", "lit")) + "?+"
)
_USUAL_SUBDIVISIONS = (
    "(?:"
    + _step("paren", "p1")
    + "(?:"
    + _step("paren", "p2")
    + "(?:"
    + _step("paren", "p3")
    + ")?+)?+|"
    + _USUAL_GERMAN
    + ")"
)
# After the usual subdivisions: nothing ``_tail`` would read (no further
# subdivision, no "ff." or range), and whether the chain ends there (the
# checks of ``_item_and_list``).
_USUAL_END = (
    "(?!"
    + _uncaptured(_TAIL, "end")
    + ")(?!"
    + _uncaptured(_FOLLOWING_OR_RANGE, "end")
    + ")(?:(?P<quick_end>(?="
    + _QUICK_END.pattern
    + "))|(?P<nothing>"
    + _uncaptured(_NOTHING_FOLLOWS, "end")
    + "))?"
)


def _usual_unit(head: str, number: str) -> re.Pattern[str]:
    """A unit's number and what ``_numbered`` and ``_tail`` read after it, in
    one match, where that is the usual: an ordinary word right after the
    number (``quick``), or the usual subdivisions and then nothing more to
    read (no Roman paragraph first). With ``head``, from the trigger's word
    on."""
    return re.compile(
        head
        + r"(?>\s*(?P<num>"
        + number
        + r")(?!\d)(?![,.]\d))(?:(?P<quick>(?="
        + _QUICK_END.pattern
        + "))|(?!"
        + _ROMAN_PARA.pattern
        + ")"
        + _USUAL_SUBDIVISIONS
        + _USUAL_END
        + ")"
    )


# a bare "Absatz 2 Satz 1" (``_bare``): the German subdivisions from its
# keyword on, and then nothing more to read
_USUAL_BARE = re.compile(_USUAL_GERMAN + _USUAL_END)
# after the trigger's word (``_numbered``)
_USUAL_SEC = _usual_unit("", _SEC_NUM_VALUE)
_USUAL_ART = _usual_unit("", _NUM_VALUE)
# from the trigger's word on, the words of ``_TRIGGER`` for one § or article
# (as it matches them: "§" not "§§", "Artikel" not "Artikeln", "Art." with its
# period, after no letter or digit)
_USUAL_SEC_UNIT = _usual_unit("§(?!§)", _SEC_NUM_VALUE)
_USUAL_ART_UNIT = _usual_unit(
    r"(?<!\w)(?P<word>Artikel(?!n)|Article(?!s)|Art\.)", _NUM_VALUE
)

_EU_MENTION = re.compile(r"(?P<alias>" + alias_pattern() + r")(?![\w-])|" + _EU_ACT)
# Where an EU mention may start: the first letter of an alias or of an EU act's
# kind word. sre tries ``_EU_MENTION`` (an alternation that starts with a group,
# so it has no prefix to scan for) at every character; matching it only at
# these letters finds the same mentions several times faster.
_EU_MENTION_FIRST = re.compile(
    "["
    + re.escape(
        "".join(
            sorted(
                {a[0] for i in REGISTRY for a in i.aliases}
                | set("VDR")  # Verordnung, Durchführungs-, Delegierte, VO,
                # Regulation, Richtlinie, RL, Directive
            )
        )
    )
    + "]"
)


def _eu_from_match(m: re.Match[str]) -> InstrumentInfo:
    word = m.group("eukind")
    a, b = m.group("eua"), m.group("eub")
    directive = word in ("Richtlinie", "RL", "Directive")
    if len(a) == 4 and int(a) >= 1950:
        year, number = int(a), int(b)
    elif len(b) == 4 and not directive:
        year, number = int(b), int(a)
    else:
        y = int(a)
        year = y + (1900 if y >= 50 else 2000) if y < 100 else y
        number = int(b)
    return eu_act("dir" if directive else "reg", year, number)


_DIGITS = re.compile(r"\d+")
_VV_NO = re.compile(r"\d{4}")


def _lit_value(value: str) -> str:
    return value.lower()


_LATER_ACT = re.compile(
    r"\b(?:under|of|in|to|nach|der|des)\s+(?:the\s+)?(?P<alias>"
    + alias_pattern()
    + r")(?![\w-])"
)
# "Nr. 2300 VV RVG", "Nrn. 3100, 3104 VV RVG", "Nr. 7002 RVG-VV"
_VV = re.compile(
    r"(?P<nos>\d{4}(?:\s*(?:,|und|bis|–|-)\s*\d{4})*)\s*"
    r"(?:VV[ -]?(?:zum\s+)?RVG|RVG[ -]VV|VV(?![\w-])|des\s+Vergütungsverzeichnisses"
    r"(?:\s+(?:zum|des)\s+RVG)?)"
)
_VV_BEFORE = re.compile(r"\b(?:Nrn?\.?|Nummern?|[Nn]os?\.)\s*\d{4}")
# "Anlage 1 zu § 2 Abs. 2 RVG": the place of the Anlage is part of its name
# (the optional bracket written as the comma of ``_WS_COMMA``, for the same
# reason)
_ANLAGE_TO = re.compile(
    r"\s*(?:\(\s*)?zu\s+(?P<to>§\s*(?P<sec>\d{1,4}[a-z]?)"
    r"(?:\s*(?:Abs\.|Absatz)\s*(?P<para>\d{1,2}))?)\s*\)?"
)
_ANLAGE_NUMBER = re.compile(r"\s*(\d{1,2}[a-z]?)(?!\d)")

_TAIL_KIND: dict[str, str] = {
    "abs": "para",
    "uabs": "subpara",
    "satz": "sent",
    "hs": "half",
    "nr": "point",
    "lit": "point",
    "alt": "alt",
    "enpoint": "point",
    "ensub": "subpara",
    "ensent": "sent",
    "enpara": "para",
}


_KEYWORD_CONTINUATIONS = frozenset({"abs", "uabs", "lit", "enpoint", "ensub", "enpara"})
