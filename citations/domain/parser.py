"""Find legal citations in running German and English text.

One pass of a compiled trigger regex finds where a citation may start (``§``,
``Art.``, ``Artikel``, ``Article``, ``Erwägungsgrund``, ``recital``, ``Anhang``,
``Annex``, ``point (x) of``, a bare ``Abs.`` after a citation); from there a
small hand-written parser reads numbers, subdivisions, lists, ranges, ``ff.``,
``i.V.m.`` chains and the instrument, each step an anchored ``re.match``.

What the parser promises:

- ``text[c.start:c.end] == c.raw`` for every citation, and spans never overlap;
- ``parts`` holds only what the text states (the instrument may come from the
  group, "dieser Verordnung" or the caller's default and says so in
  ``instrument_source``); ``levels`` is the bound path used for resolution;
- lists become separate citations, a range stays one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

from citations.domain.instruments import (
    InstrumentInfo,
    alias_pattern,
    eu_act,
    instrument_by_alias,
    unknown_statute,
)

Lang = Literal["de", "en"]

# Hierarchy of levels: the order of the canonical path.
LEVEL_ORDER: dict[str, int] = {
    "art": 0,
    "sec": 0,
    "recital": 0,
    "annex": 0,
    "part": 1,
    "para": 2,
    "subpara": 3,
    "sent": 4,
    "half": 5,
    "point": 6,
    "subpoint": 7,
    "subsubpoint": 8,
    "alt": 9,
}
TOP_LEVELS = ("art", "sec", "recital", "annex")
PART_KEYS: dict[str, str] = {
    "art": "article",
    "sec": "section",
    "para": "paragraph",
    "subpara": "subparagraph",
    "sent": "sentence",
    "point": "point",
    "subpoint": "subpoint",
    "alt": "alternative",
    "recital": "recital",
    "annex": "annex",
}
PARTS_ORDER = (
    "instrument",
    "article",
    "section",
    "paragraph",
    "subparagraph",
    "sentence",
    "point",
    "subpoint",
    "alternative",
    "recital",
    "annex",
    "range_end",
    "following",
)

_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "erster": 1,
    "zweiter": 2,
    "dritter": 3,
    "vierter": 4,
}


def roman_to_int(value: str) -> int:
    total = 0
    prev = 0
    for ch in reversed(value.upper()):
        n = _ROMAN[ch]
        total = total - n if n < prev else total + n
        prev = max(prev, n)
    return total


def int_to_roman(value: int) -> str:
    out = []
    for n, s in (
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ):
        while value >= n:
            out.append(s)
            value -= n
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Citation:
    """One citation found in a text."""

    start: int
    end: int
    raw: str
    levels: tuple[tuple[str, str], ...]
    stated: frozenset[str]
    instrument: InstrumentInfo | None
    instrument_source: str | None
    lang: Lang
    range_end: str | None = None
    following: str | None = None
    context_bound: bool = False
    parenthesised: frozenset[str] = frozenset()

    @property
    def top(self) -> str:
        return self.levels[0][0]

    @property
    def path(self) -> str:
        """The provision path inside the instrument, e.g. ``art/6/para/1``."""
        segs = [f"{k}/{v}" for k, v in self.levels]
        path = "/".join(segs)
        if self.range_end is not None:
            path += f"-{self.range_end}"
        if self.following is not None:
            path += self.following
        return path

    @property
    def canonical(self) -> str | None:
        if self.instrument is None:
            return None
        return f"{self.instrument.prefix}/{self.path}"

    @property
    def parts(self) -> dict[str, str | None]:
        values: dict[str, str | None] = {
            "instrument": self.instrument.ident if self.instrument else None
        }
        for kind, value in self.levels:
            key = PART_KEYS.get(kind)
            if key is not None and kind in self.stated:
                values[key] = value
        if self.range_end is not None:
            values["range_end"] = self.range_end
        if self.following is not None:
            values["following"] = self.following
        return {k: values[k] for k in PARTS_ORDER if k in values}


@dataclass(slots=True)
class _Item:
    start: int
    end: int
    levels: dict[str, str]
    stated: set[str]
    lang_de: int = 0
    lang_en: int = 0
    paren_kinds: list[str] = field(default_factory=list)
    lit_kinds: set[str] = field(default_factory=set)
    range_end: str | None = None
    following: str | None = None
    instrument: InstrumentInfo | None = None
    instrument_source: str | None = None
    context_bound: bool = False
    quick: bool = False

    def deepest(self) -> tuple[str, str]:
        kind = max(self.levels, key=lambda k: LEVEL_ORDER[k])
        return kind, self.levels[kind]

    def inherit(self, below: str, start: int) -> _Item:
        """A new list item sharing every level above ``below``."""
        rank = LEVEL_ORDER[below]
        levels = {k: v for k, v in self.levels.items() if LEVEL_ORDER[k] < rank}
        stated = {k for k in self.stated if k in levels}
        return _Item(
            start=start,
            end=start,
            levels=levels,
            stated=stated,
            lang_de=self.lang_de,
            lang_en=self.lang_en,
            paren_kinds=[k for k in self.paren_kinds if k in levels],
            lit_kinds={k for k in self.lit_kinds if k in levels},
            context_bound=self.context_bound,
        )


# --- regular expressions ---

_NUM = r"(\d{1,4}(?:[a-z](?![a-z.]))?)(?!\d)(?![,.]\d)"
_TRIGGER = re.compile(
    r"(?P<sec>§§?)\s*(?=\d)"
    r"|\b(?P<art>Artikeln?|Articles?|Artt?\.|Arts\.|Art)\s*(?=\d)"
    r"|\b(?P<rec>Erwägungsgr(?:und|ünde|ünden|undes|unds)|ErwGr?\.?|EG|[Rr]ecitals?)"
    r"\s*(?=\(?\d)"
    r"|\b(?P<anx>Anh(?:ang|änge|\.)|Annex(?:es)?|ANNEX)\s+(?=[IVXL]+\b)"
    r"|\b(?P<rev>points?\s+\((?=[a-z0-9]{1,4}\))|(?:first|second|third|fourth|fifth"
    r"|sixth|seventh|eighth|ninth|tenth|last)\s+subparagraph\s+of\s+(?=Art))"
    r"|\b(?P<bare>Abs\.|Absatz|Absätze|UAbs\.|Unterabsatz|paragraphs?)\s*(?=\d)"
)
_CANDIDATE = re.compile(
    r"§|Art|Erw|EG|ecital|Anh|Annex|ANNEX|points?\s+\(|subparagraph|UAbs|Abs"
    r"|Unterabs|paragraph"
)
_ORDINAL_BEFORE = re.compile(
    r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last)\s+$"
)
_NUMBER = re.compile(r"\s*" + _NUM)
_REC_NUMBER = re.compile(r"\s*\(?(\d{1,3})\)?")
_ANNEX_NUMBER = re.compile(r"\s*([IVXL]{1,6})\b")

_TAIL = re.compile(
    r"(?P<paren>\s?\(\s*(?P<v_paren>\d{1,3}[a-z]?|[a-z]{1,4})\s*\))"
    r"|(?P<abs>\s*(?:Abs\.|Absatz|Absätze|Absätzen|Abs(?=\s\d))\s*"
    r"(?P<v_abs>\d{1,3}[a-z]?)(?!\d)(?![,.]\d))"
    r"|(?P<uabs>\s*(?:UAbs\.|Uabs\.|Unterabs\.|Unterabsatz|Unterabsätze|UA)\s*"
    r"(?P<v_uabs>\d{1,2})(?!\d))"
    r"|(?P<satz>\s*(?:S\.|Satz|Sätze|Sätzen)\s*(?P<v_satz>\d{1,2})(?!\d)(?![.,]\d))"
    r"|(?P<hs>\s*(?:Hs\.|HS|Halbs\.|Halbsatz|Hbs\.)\s*(?P<v_hs>\d)(?!\d))"
    r"|(?P<nr>\s*(?:Nr\.|Nrn\.|Nummer|Nummern|Ziff\.|Ziffer|Ziffern|Ziff)\s*"
    r"(?P<v_nr>\d{1,3}[a-z]?|[ivx]{1,5}\b)(?!\d)(?![.,]\d))"
    r"|(?P<lit>\s*(?:lit\.|Buchst\.|Buchstabe|Buchstaben|Bst\.|litera)\s*"
    r"(?P<v_lit>[a-z]{1,2})\b\)?)"
    r"|(?P<alt>\s*(?:Alt\.|Alternative|Var\.|Variante)\s*(?P<v_alt>\d{1,2})\b)"
    r"|(?P<part>\s*,?\s*(?:Abschnitt|Section|Teil|Part)\s+(?P<v_part>[A-Z]|\d{1,2})\b)"
    r"|(?P<enpoint>\s*,?\s*points?\s*(?:\((?P<v_enpoint>[a-z0-9]{1,4})\)"
    r"|(?P<v_enpoint2>\d{1,3})(?!\d)(?![.,]\d)))"
    r"|(?P<ensub>\s*,?\s*(?:(?P<o_ensub>first|second|third|fourth|fifth|sixth"
    r"|seventh|eighth|ninth|tenth)\s+subparagraph|subparagraph\s+(?P<v_ensub>\d{1,2}))"
    r"\b)"
    r"|(?P<ensent>\s*,?\s*(?:(?P<o_ensent>first|second|third|fourth|fifth|sixth)"
    r"\s+sentence|sentence\s+(?P<v_ensent>\d{1,2}))\b)"
    r"|(?P<enpara>\s*paragraph\s+(?P<v_enpara>\d{1,3})(?!\d))"
    r"|(?P<letp>[ \t]+(?P<v_letp>[a-z]{1,2})\)(?!\w))"
)
_ROMAN_PARA = re.compile(r"\s+([IVX]{1,4})(?=[\s,;)]|\.(?:\s|$)|$)")
_ROMAN_SENT = re.compile(r"\s+(\d{1,2})(?=[\s,;)]|\.(?:\s|$)|$)")
_FOLLOWING = re.compile(r"\s*(?:(ff?)\.|(et\s+seqq?\.))")
_RANGE = re.compile(r"\s*(?:bis|–|—|-|to|through)\s*")
_LIST_SEP = re.compile(r"\s*(?:,|(?:und|sowie|oder|and|or)\b|bzw\.|&)\s*")
_JOIN = re.compile(
    r"\s*,?\s*(?:i\.\s?V\.\s?m\.|iVm|i\.V\.|in\s+Verbindung\s+mit|in\s+conjunction\s+with"
    r"|(?:und|sowie|oder|and|or)\b|bzw\.|,|/)\s*"
)
_BARE_VALUE = re.compile(
    r"(\d{1,4}(?:[a-z](?![a-z.]))?)(?!\d)(?![,.]\d)"
    r"|([a-z]|[ivx]{2,4}|(?P<dbl>[a-z])(?P=dbl))\b(?!\.)"
)
_PAREN_VALUE = re.compile(r"\s?\(\s*(\d{1,3}[a-z]?|[a-z]{1,4})\s*\)")
_REV_OF = re.compile(r"\s+of\s+(?=Art)")
_EU_ACT = (
    r"(?P<eukind>Verordnung|Durchführungsverordnung|Delegierte\s+Verordnung|VO|"
    r"Regulation|Richtlinie|RL|Directive)\s*(?:\((?:EU|EG|EWG|EC|EEC|EU,\s*Euratom)\)\s*)?"
    r"(?:Nr\.\s*|No\.?\s*)?(?P<eua>\d{2,4})/(?P<eub>\d{1,4})(?:/(?:EU|EG|EWG|EC|EEC))?"
)
_CONTEXT = (
    r"(?P<ctx>dieser\s+Verordnung|this\s+Regulation|der\s+Verordnung|the\s+Regulation"
    r"|dieser\s+Richtlinie|this\s+Directive|der\s+VO)"
)
_ABBR = r"(?P<abbr>[A-ZÄÖÜ][A-Za-zÄÖÜäöü]{0,8}(?:G|VO|O))"
_INSTRUMENT = re.compile(
    r"\s*,?\s*(?:(?:of\s+the|of|to|der|des|dem|the|aus\s+der|aus\s+dem|nach\s+der)"
    r"\s+)?"
    r"(?:"
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
    r"dem|den|the|dieser|diese|this|et|ff?|lit|litera|point|points|first|second|"
    r"third|fourth|fifth|sixth|last|sentence|subparagraph|paragraph|nach|aus|zur|"
    r"zum|im|vom|von|analog|a|aa|bb|cc)\b)[a-zäöüß]{2}"
    r"|[.;:)\]](?![\d)]))"
)
_INSTRUMENT_START = re.compile(r"\s*,?\s*[A-ZÄÖÜdto]")
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
    )
)
# What may follow a list item for it to count: punctuation, a joiner, an
# instrument or a subdivision keyword; not an ordinary word ("§ 280, 2 Wochen").
_ACCEPT_END = re.compile(
    r"\s*(?:$|[,;.:)\]\"“”'’]|\n|(?:und|sowie|oder|bzw|and|or|i\.\s?V|iVm|in\s+Verbindung"
    r"|in\s+conjunction|bis|to|ff?\.|et\s+seq|Abs|Absatz|UAbs|S\.|Satz|Nr|Nummer|lit"
    r"|Buchst|Alt|Hs|Ziff|point|first|second|third|sentence|subparagraph)\b|\()"
)


_EU_MENTION = re.compile(r"(?P<alias>" + alias_pattern() + r")(?![\w-])|" + _EU_ACT)


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


def _lit_value(value: str) -> str:
    return value.lower()


class _Parser:
    def __init__(self, text: str, default_instrument: InstrumentInfo | None) -> None:
        self.text = text
        self.default = default_instrument
        self.results: list[Citation] = []
        self.last_eu: InstrumentInfo | None = None
        self.last_item: _Item | None = None
        self._eu_scanned = 0
        self._eu_named: InstrumentInfo | None = None

    # -- entry point --
    def run(self) -> list[Citation]:
        pos = 0
        text = self.text
        # A literal prefilter finds candidate positions fast (sre scans literal
        # alternations quickly); the full trigger is matched only there.
        for cm in _CANDIDATE.finditer(text):
            start = cm.start()
            literal = cm.group()
            if literal == "ecital":
                start -= 1
            elif literal == "subparagraph":
                om = _ORDINAL_BEFORE.search(text, max(0, start - 12), start)
                if om is None:
                    continue
                start = om.start()
            if start < pos:
                continue
            m = _TRIGGER.match(text, start)
            if m is None:
                continue
            items = self._chain(m)
            if not items:
                continue
            pos = items[-1].end
            for item in items:
                self.results.append(self._freeze(item))
            self.last_item = items[-1]
        return self.results

    # -- a chain: items joined by lists and i.V.m., sharing a trailing instrument --
    def _chain(self, m: re.Match[str]) -> list[_Item]:
        items = self._head(m)
        if not items:
            return []
        if len(items) == 1 and items[0].quick:
            self._bind_without_instrument(items[0])
            return items
        done: list[_Item] = []
        pending = list(items)
        while True:
            pos = pending[-1].end if pending else done[-1].end
            inst = self._instrument(pos) if pending else None
            if inst is not None:
                info, source, end, lang = inst
                for it in pending:
                    it.instrument = info
                    it.instrument_source = source
                    if lang == "en":
                        it.lang_en += 1
                    elif lang == "de":
                        it.lang_de += 1
                pending[-1].end = end
                done.extend(pending)
                pending = []
                pos = end
            jm = _JOIN.match(self.text, pos)
            if jm is None:
                break
            tm = _TRIGGER.match(self.text, jm.end())
            if tm is None or tm.lastgroup == "bare":
                # a joiner followed by a subdivision keyword continues the last item
                prev = (pending or done)[-1]
                more = self._keyword_item(prev, jm.end())
                if more is None:
                    break
                pending.extend(more)
                continue
            prev_top = next(iter((pending or done)[-1].levels))
            if (tm.lastgroup == "sec") != (prev_top == "sec"):
                # "Erwägungsgrund 60, § 91 ZPO": a § and an article/recital
                # never share one trailing instrument
                break
            more = self._head(tm)
            if not more:
                break
            pending.extend(more)
        if pending:
            for it in pending:
                self._bind_without_instrument(it)
            done.extend(pending)
        return done

    def _bind_without_instrument(self, item: _Item) -> None:
        if item.instrument is not None:
            return
        if self.default is not None:
            item.instrument = self.default
            item.instrument_source = "default"

    # -- heads --
    def _head(self, m: re.Match[str]) -> list[_Item]:
        kind = m.lastgroup
        if kind == "sec":
            return self._numbered(m, "sec", de=1)
        if kind == "art":
            word = m.group("art")
            if word == "Art" and not self._art_without_dot_ok(m.end()):
                return []
            en = word.startswith("Article")
            de = word.startswith("Artikel")
            return self._numbered(m, "art", de=int(de), en=int(en))
        if kind == "rec":
            return self._recital(m)
        if kind == "anx":
            return self._annex(m)
        if kind == "rev":
            return self._reverse(m)
        if kind == "bare":
            return self._bare(m)
        return []

    def _art_without_dot_ok(self, pos: int) -> bool:
        nm = _NUMBER.match(self.text, pos)
        if nm is None:
            return False
        after = nm.end()
        return bool(
            _TAIL.match(self.text, after) or self._instrument(after) is not None
        )

    def _numbered(
        self, m: re.Match[str], top: str, *, de: int = 0, en: int = 0
    ) -> list[_Item]:
        nm = _NUMBER.match(self.text, m.end())
        if nm is None:
            return []
        item = _Item(
            start=m.start(),
            end=nm.end(),
            levels={top: nm.group(1)},
            stated={top},
            lang_de=de,
            lang_en=en,
        )
        if _QUICK_END.match(self.text, item.end):
            # "Article 6 shall", "§ 286 genannten": nothing can follow
            item.quick = True
            return [item]
        return self._item_and_list(item, roman_ok=True)

    def _recital(self, m: re.Match[str]) -> list[_Item]:
        word = m.group("rec")
        nm = _REC_NUMBER.match(self.text, m.end())
        if nm is None:
            return []
        en = word.lower().startswith("recital")
        item = _Item(
            start=m.start(),
            end=nm.end(),
            levels={"recital": nm.group(1)},
            stated={"recital"},
            lang_de=int(not en),
            lang_en=int(en),
        )
        items = self._item_and_list(item, roman_ok=False)
        if word == "EG" and self._instrument(items[-1].end) is None:
            return []  # "EG 47" is a recital only with an instrument after it
        return items

    def _annex(self, m: re.Match[str]) -> list[_Item]:
        word = m.group("anx")
        nm = _ANNEX_NUMBER.match(self.text, m.end())
        if nm is None:
            return []
        en = word.lower().startswith("annex")
        item = _Item(
            start=m.start(),
            end=nm.end(),
            levels={"annex": nm.group(1).upper()},
            stated={"annex"},
            lang_de=int(not en),
            lang_en=int(en),
        )
        return self._item_and_list(item, roman_ok=False)

    def _reverse(self, m: re.Match[str]) -> list[_Item]:
        """English "point (f) of Article 6(1)", "second subparagraph of Article 5"."""
        text = self.text
        pre: list[tuple[str, str, int, int]] = []
        word = m.group("rev")
        if word.startswith("point"):
            pos = m.start() + len(word) - 1
            while True:
                pm = _PAREN_VALUE.match(text, pos)
                if pm is None:
                    break
                pre.append(("point", pm.group(1), pm.start(1) - 1, pm.end()))
                pos = pm.end()
                sm = _LIST_SEP.match(text, pos)
                if sm is None or _PAREN_VALUE.match(text, sm.end()) is None:
                    break
                pos = sm.end()
            om = _REV_OF.match(text, pos)
            if om is None or not pre:
                return []
            pos = om.end()
        else:
            value = _ORDINALS.get(word.split()[0])
            if value is None:
                return []
            pre.append(("subpara", str(value), m.start(), m.end()))
            pos = m.end()
        am = _TRIGGER.match(text, pos)
        if am is None or am.lastgroup != "art":
            return []
        heads = self._numbered(am, "art", en=1)
        if not heads:
            return []
        base = heads[0]
        out: list[_Item] = []
        for i, (kind, label, p_start, p_end) in enumerate(pre):
            item = _Item(
                start=m.start() if i == 0 else p_start,
                end=base.end if i == len(pre) - 1 else p_end,
                levels=dict(base.levels),
                stated=set(base.stated),
                lang_en=1,
            )
            if kind not in item.levels:
                item.levels[kind] = label
                item.stated.add(kind)
            out.append(item)
        return out

    def _bare(self, m: re.Match[str]) -> list[_Item]:
        """A bare "Abs. 2" binds to the citation just before it."""
        prev = self.last_item
        if prev is None or prev.end > m.start():
            return []
        gap = self.text[prev.end : m.start()]
        if len(gap) > 300 or "\n\n" in gap:
            return []
        top = next(iter(prev.levels))
        if top not in ("art", "sec"):
            return []
        item = _Item(
            start=m.start(),
            end=m.start(),
            levels={top: prev.levels[top]},
            stated=set(),
            lang_de=prev.lang_de,
            lang_en=prev.lang_en,
            instrument=prev.instrument,
            instrument_source="context" if prev.instrument else None,
            context_bound=True,
        )
        tm = _TAIL.match(self.text, m.start())
        if tm is None:
            word = m.group("bare")
            if not word.startswith("paragraph"):
                return []
            nm = _NUMBER.match(self.text, m.end())
            if nm is None:
                return []
            item.levels["para"] = nm.group(1)
            item.stated.add("para")
            item.end = nm.end()
            item.lang_en += 1
        return self._item_and_list(item, roman_ok=False)

    def _keyword_item(self, prev: _Item, pos: int) -> list[_Item] | None:
        """After a joiner: "Abs. 2", "lit. b" continue the previous item's parents."""
        tm = _TAIL.match(self.text, pos)
        if tm is None or tm.lastgroup not in _KEYWORD_CONTINUATIONS:
            return None
        kind = _TAIL_KIND[tm.lastgroup]
        if kind == "point" and "point" in prev.levels and tm.lastgroup == "lit":
            kind = "point" if "point" in prev.lit_kinds else "subpoint"
        if not any(LEVEL_ORDER[k] < LEVEL_ORDER[kind] for k in prev.levels):
            return None
        new = prev.inherit(kind, pos)
        new.instrument = prev.instrument
        new.instrument_source = "context" if prev.instrument else None
        self._tail(new, roman_ok=False)
        if new.end == pos or not self._accept_end(new.end):
            return None
        return [new, *self._list_rest(new)]

    def _list_rest(self, item: _Item) -> list[_Item]:
        items = [item]
        while True:
            nxt = self._list_next(items[-1])
            if nxt is None:
                return items[1:]
            items.append(nxt)

    # -- tail and lists --
    def _item_and_list(self, item: _Item, *, roman_ok: bool) -> list[_Item]:
        self._tail(item, roman_ok=roman_ok)
        items = [item]
        while True:
            last = items[-1]
            nxt = self._list_next(last)
            if nxt is None:
                break
            items.append(nxt)
        return items

    def _tail(self, item: _Item, *, roman_ok: bool) -> None:
        text = self.text
        pos = item.end
        if roman_ok:
            rm = _ROMAN_PARA.match(text, pos)
            if rm is not None and "para" not in item.levels:
                item.levels["para"] = str(roman_to_int(rm.group(1)))
                item.stated.add("para")
                pos = rm.end()
                item.lang_de += 1
                sm = _ROMAN_SENT.match(text, pos)
                if sm is not None and self._accept_end(sm.end()):
                    item.levels["sent"] = sm.group(1)
                    item.stated.add("sent")
                    pos = sm.end()
        while True:
            tm = _TAIL.match(text, pos)
            if tm is None:
                break
            if not self._apply_tail(item, tm):
                break
            pos = tm.end()
        fm = _FOLLOWING.match(text, pos)
        if fm is not None and item.range_end is None:
            item.following = fm.group(1) or "ff"
            pos = fm.end()
        else:
            rg = _RANGE.match(text, pos)
            if rg is not None:
                kind, value = item.deepest()
                vm = self._value_for(kind, rg.end())
                if vm is not None and self._range_ok(kind, value, vm[0]):
                    item.range_end = vm[0]
                    pos = vm[1]
        item.end = pos

    def _range_ok(self, kind: str, start: str, end: str) -> bool:
        if kind == "annex":
            return roman_to_int(end) > roman_to_int(start)
        a = re.match(r"\d+", start)
        b = re.match(r"\d+", end)
        if a and b:
            return int(b.group()) >= int(a.group()) and end != start
        if a or b:
            return False
        return end > start

    def _value_for(self, kind: str, pos: int) -> tuple[str, int] | None:
        text = self.text
        if kind == "annex":
            am = _ANNEX_NUMBER.match(text, pos)
            return (am.group(1), am.end()) if am else None
        pm = _PAREN_VALUE.match(text, pos)
        if pm is not None:
            return pm.group(1), pm.end()
        vm = _BARE_VALUE.match(text, pos)
        if vm is None:
            return None
        if vm.group(1):
            return vm.group(1), vm.end()
        return vm.group(2), vm.end()

    def _apply_tail(self, item: _Item, tm: re.Match[str]) -> bool:
        group = tm.lastgroup or ""
        levels = item.levels
        if group == "paren":
            value = tm.group("v_paren")
            kind = self._paren_kind(item, value)
            if kind is None:
                return False
            item.paren_kinds.append(kind)
            return self._set(item, kind, value)
        if group == "abs":
            item.lang_de += 1
            return self._set(item, "para", tm.group("v_abs"))
        if group == "uabs":
            item.lang_de += 1
            return self._set(item, "subpara", tm.group("v_uabs"))
        if group == "satz":
            item.lang_de += 1
            return self._set(item, "sent", tm.group("v_satz"))
        if group == "hs":
            item.lang_de += 1
            return self._set(item, "half", tm.group("v_hs"))
        if group == "nr":
            item.lang_de += 1
            kind = "subpoint" if "point" in levels else "point"
            if (
                levels.get("annex") is None
                and kind == "subpoint"
                and "subpoint" in levels
            ):
                return False
            return self._set(item, kind, tm.group("v_nr"))
        if group == "lit":
            item.lang_de += 1
            kind = "subpoint" if "point" in levels else "point"
            item.lit_kinds.add(kind)
            return self._set(item, kind, _lit_value(tm.group("v_lit")))
        if group == "letp":
            # "Art. 5 (1) a)": a bare "a)" only after a paragraph or point
            if "para" not in levels and "point" not in levels:
                return False
            kind = "subpoint" if "point" in levels else "point"
            item.lit_kinds.add(kind)
            return self._set(item, kind, tm.group("v_letp"))
        if group == "alt":
            item.lang_de += 1
            return self._set(item, "alt", tm.group("v_alt"))
        if group == "part":
            if "annex" not in levels:
                return False
            return self._set(item, "part", tm.group("v_part"))
        if group == "enpoint":
            item.lang_en += 1
            kind = "subpoint" if "point" in levels else "point"
            ok = self._set(item, kind, tm.group("v_enpoint") or tm.group("v_enpoint2"))
            if ok:
                item.paren_kinds.append(kind)
            return ok
        if group == "ensub":
            item.lang_en += 1
            value = tm.group("o_ensub")
            num = str(_ORDINALS[value]) if value else tm.group("v_ensub")
            return self._set(item, "subpara", num)
        if group == "ensent":
            item.lang_en += 1
            value = tm.group("o_ensent")
            num = str(_ORDINALS[value]) if value else tm.group("v_ensent")
            return self._set(item, "sent", num)
        if group == "enpara":
            item.lang_en += 1
            return self._set(item, "para", tm.group("v_enpara"))
        return False

    def _paren_kind(self, item: _Item, value: str) -> str | None:
        levels = item.levels
        top = next(iter(levels))
        if top in ("recital",):
            return None
        if top == "annex":
            order = ("point", "subpoint", "subsubpoint")
        elif value[0].isdigit() and "para" not in levels and "point" not in levels:
            return "para"
        else:
            order = ("point", "subpoint", "subsubpoint")
        for kind in order:
            if kind not in levels:
                return kind
        return None

    def _set(self, item: _Item, kind: str, value: str) -> bool:
        if kind in item.levels:
            return False
        deepest_rank = max(LEVEL_ORDER[k] for k in item.levels)
        # "S. 1 Abs. 2": out of order means this is not a continuation
        if (
            LEVEL_ORDER[kind] <= deepest_rank
            and kind != "alt"
            and not (kind == "subpara" and "point" not in item.levels)
        ):
            return False
        item.levels[kind] = value
        item.stated.add(kind)
        return True

    def _list_next(self, last: _Item) -> _Item | None:
        """Continue a list: "Abs. 1, 2", "lit. a und b", "§§ 280, 286", "(a), (b)"."""
        text = self.text
        sm = _LIST_SEP.match(text, last.end)
        if sm is None:
            return None
        pos = sm.end()
        pm = _PAREN_VALUE.match(text, pos)
        if pm is not None and pos > last.end:
            value = pm.group(1)
            if "recital" in last.levels and value.isdigit():
                new = last.inherit("recital", pos)
                new.levels["recital"] = value
                new.stated.add("recital")
                new.end = pm.end()
                return new if self._accept_end(new.end) else None
            kind = self._paren_list_kind(last, value)
            if kind is None:
                return None
            new = last.inherit(kind, pos)
            new.levels[kind] = value
            new.stated.add(kind)
            new.paren_kinds.append(kind)
            new.end = pm.end()
            self._tail(new, roman_ok=False)
            return new if self._accept_end(new.end) else None
        vm = _BARE_VALUE.match(text, pos)
        if vm is None:
            return None
        deep_kind, deep_value = last.deepest()
        if vm.group(2):  # a letter: continues a lit./point list
            if deep_kind not in ("point", "subpoint") or not deep_value.isalpha():
                return None
            if deep_kind not in last.lit_kinds and deep_kind not in last.paren_kinds:
                return None
            new = last.inherit(deep_kind, pos)
            new.levels[deep_kind] = vm.group(2)
            new.stated.add(deep_kind)
            new.lit_kinds = set(last.lit_kinds)
            new.end = vm.end()
            # "lit. a), b)": the closing bracket style of the list goes along
            if text[last.end - 1] == ")" and text[new.end : new.end + 1] == ")":
                new.end += 1
            return new if self._accept_end(new.end) else None
        value = vm.group(1)
        after = vm.end()
        top = next(iter(last.levels))
        followed_by_sub = bool(_TAIL.match(text, after))
        kind = top
        if (
            deep_kind != top
            and not followed_by_sub
            and deep_value[:1].isdigit()
            and value[:1].isdigit()
            and int(re.match(r"\d+", value).group())  # type: ignore[union-attr]
            <= 30
            and int(re.match(r"\d+", value).group())  # type: ignore[union-attr]
            > int(re.match(r"\d+", deep_value).group())  # type: ignore[union-attr]
        ):
            kind = deep_kind
        if kind == "annex":
            return None
        new = last.inherit(kind, pos)
        new.levels[kind] = value
        new.stated.add(kind)
        new.end = after
        if kind == top:
            new.paren_kinds = []
            new.lit_kinds = set()
            self._tail(new, roman_ok=top in ("art", "sec"))
        else:
            self._tail(new, roman_ok=False)
        if not self._accept_end(new.end):
            return None
        return new

    def _paren_list_kind(self, last: _Item, value: str) -> str | None:
        if not last.paren_kinds:
            return None
        for kind in reversed(last.paren_kinds):
            current = last.levels[kind]
            if current[:1].isdigit() == value[:1].isdigit():
                return kind
        return None

    def _accept_end(self, pos: int) -> bool:
        if pos >= len(self.text):
            return True
        if _ACCEPT_END.match(self.text, pos):
            return True
        return self._instrument(pos) is not None

    # -- instruments --
    def _instrument(
        self, pos: int
    ) -> tuple[InstrumentInfo | None, str, int, Lang | None] | None:
        if _INSTRUMENT_START.match(self.text, pos) is None:
            return None  # cheap rejection before the long alias alternation
        im = _INSTRUMENT.match(self.text, pos)
        if im is None:
            return None
        if im.group("ctx") is not None:
            bound = self._last_eu_mention(pos) or self.default
            lang: Lang = "en" if im.group("ctx")[0] in "tT" else "de"
            return bound, "context", im.end(), lang
        alias = im.group("alias")
        if alias is not None:
            info = instrument_by_alias(re.sub(r"\s+", " ", alias))
            if info is None:
                return None
            if info.kind.startswith("eu_"):
                self.last_eu = info
            lang2: Lang | None = "en" if alias.casefold() in _EN_ALIASES else None
            if lang2 is None and alias != "DORA":
                lang2 = "de"
            return info, "stated", im.end(), lang2
        if im.group("eukind") is not None:
            info = _eu_from_match(im)
            self.last_eu = info
            en = im.group("eukind") in ("Regulation", "Directive")
            return info, "stated", im.end(), "en" if en else "de"
        abbr = im.group("abbr")
        if abbr is not None:
            return unknown_statute(abbr), "stated", im.end(), "de"
        return None

    def _last_eu_mention(self, pos: int) -> InstrumentInfo | None:
        """The EU act named last before ``pos`` ("die Verordnung (EU) 2016/679
        ... dieser Verordnung"), in a citation or in plain prose. Scans each
        part of the text once, and only the last few thousand characters before
        ``pos`` (earlier acts are still known from the citations that named
        them)."""
        begin = max(self._eu_scanned, pos - _CONTEXT_WINDOW)
        for m in _EU_MENTION.finditer(self.text, begin, pos):
            if m.group("alias") is not None:
                info = instrument_by_alias(re.sub(r"\s+", " ", m.group("alias")))
                if info is not None and info.kind.startswith("eu_"):
                    self._eu_named = info
            else:
                self._eu_named = _eu_from_match(m)
        self._eu_scanned = max(self._eu_scanned, pos)
        return self._eu_named or self.last_eu

    # -- output --
    def _freeze(self, item: _Item) -> Citation:
        levels = tuple(item.levels.items())
        if len(levels) > 1 and any(
            LEVEL_ORDER[a[0]] > LEVEL_ORDER[b[0]]
            for a, b in zip(levels, levels[1:], strict=False)
        ):
            levels = tuple(sorted(levels, key=lambda kv: LEVEL_ORDER[kv[0]]))
        if item.instrument is not None and item.instrument_source is None:
            item.instrument_source = "stated"
        lang: Lang = "en" if item.lang_en > item.lang_de else "de"
        start = item.start
        end = item.end
        # trailing whitespace/punctuation never belongs to the span
        while end > start and self.text[end - 1] in " \t\n\xa0,":
            end -= 1
        return Citation(
            start=start,
            end=end,
            raw=self.text[start:end],
            levels=levels,
            stated=frozenset(item.stated),
            instrument=item.instrument,
            instrument_source=item.instrument_source,
            lang=lang,
            range_end=item.range_end,
            following=item.following,
            context_bound=item.context_bound,
            parenthesised=frozenset(item.paren_kinds),
        )


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


def parse_citations(
    text: str, *, default_instrument: InstrumentInfo | None = None
) -> list[Citation]:
    """Every citation in ``text``, in order, with non-overlapping spans."""
    return _Parser(text, default_instrument).run()


def with_instrument(citation: Citation, instrument: InstrumentInfo) -> Citation:
    return replace(citation, instrument=instrument, instrument_source="default")
