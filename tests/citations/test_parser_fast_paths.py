"""The parser's faster steps give exactly what their plainer originals give.

``citations.domain.parser_reference`` keeps each step of the parser that was
made faster in its first form; here both parsers read the labelled sets,
slices of the pinned corpus and generated text, and must agree on every
citation (spans, levels, instrument, group, everything a ``Citation`` holds).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citations.domain.citation import Citation, citation_new
from citations.domain.instruments import REGISTRY
from citations.domain.parser import _Parser, parse_citations
from citations.domain.parser_input import _candidates
from citations.domain.parser_reference import (
    _candidates_reference,
    parse_citations_reference,
)
from citations.domain.patterns import (
    _BARE_VALUE,
    _EU_MENTION,
    _INSTRUMENT,
    _INSTRUMENT_CAN_START,
    _JOIN,
    _LIST_SEP,
    _NOTHING_FOLLOWS,
    _PAREN_VALUE,
    _TAIL,
    _TAIL_PLAIN,
    _TRIGGER,
)
from tests.citations.fixtures import CORPUS_DIR, CORPUS_PRESENT, SKIP_REASON
from tests.citations.test_parser_properties import TOKENS

DATA = Path(__file__).parent / "data"

_ALIASES = sorted({a for info in REGISTRY for a in info.aliases})
_MENTION_TOKENS = [
    *_ALIASES,
    "Verordnung (EU) 2016/679",
    "Regulation (EU) 2024/1689",
    "Richtlinie 95/46/EG",
    "Directive (EU) 2022/2555",
    "Durchführungsverordnung (EU) 2019/1150",
    "VO",
    "RL",
    "dieser Verordnung",
    "this Regulation",
    "-",
    "X",
    "Datenschutz",
    "der",
    "\n",
    " ",
]
_mention_text = st.lists(st.sampled_from(_MENTION_TOKENS), max_size=30).map(
    lambda parts: " ".join(parts)
)
_glued_mention_text = st.lists(st.sampled_from(_MENTION_TOKENS), max_size=30).map(
    "".join
)


def _assert_same(text: str) -> None:
    fast = parse_citations(text)
    reference = parse_citations_reference(text)
    assert fast == reference, text


def _labelled_texts() -> list[str]:
    texts = []
    for path in [*sorted(DATA.glob("*.jsonl")), *sorted(DATA.glob("*/*.jsonl"))]:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                texts.append(json.loads(line)["text"])
    return texts


def _corpus_slices(size: int = 6_000, per_document: int = 12) -> list[str]:
    """Slices of every pinned document's provision texts (EU acts in German
    and English, the BGB and the federal laws), as the benchmark reads them."""
    from citations.corpus.pins import PinsFile
    from citations.corpus.readers import read_document

    slices: list[str] = []
    for pin in PinsFile.load().pins:
        doc = read_document(pin.format, CORPUS_DIR / pin.path)
        text = "\n\n".join(u.text for u in doc.units if u.text)
        step = max(size, len(text) // per_document)
        slices.extend(text[i : i + size] for i in range(0, len(text), step))
    return slices


def test_fast_parser_equals_reference_parser_on_the_labelled_sets() -> None:
    texts = _labelled_texts()
    assert len(texts) > 300  # dev, blind and the issue-15 sentences
    for text in texts:
        _assert_same(text)


def test_fast_parser_equals_reference_parser_on_the_labelled_sets_as_one_text() -> None:
    # one long text: later sentences see earlier acts and citations
    _assert_same("\n".join(_labelled_texts()))
    _assert_same(" ".join(_labelled_texts()))


@pytest.mark.corpus
def test_fast_parser_equals_reference_parser_on_corpus_slices() -> None:
    if not CORPUS_PRESENT:
        pytest.skip(SKIP_REASON)
    slices = _corpus_slices()
    found = 0
    for text in slices:
        fast = parse_citations(text)
        assert fast == parse_citations_reference(text)
        found += len(fast)
    assert found > 1_000  # the slices are dense with citations


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(TOKENS + _MENTION_TOKENS), max_size=50).map(" ".join))
def test_fast_parser_equals_reference_parser_on_token_soup(text: str) -> None:
    _assert_same(text)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(TOKENS + _MENTION_TOKENS), max_size=50).map("".join))
def test_fast_parser_equals_reference_parser_on_glued_tokens(text: str) -> None:
    _assert_same(text)


def _mention_spans(text: str, begin: int, end: int) -> tuple[list, list]:
    parser = _Parser(text, None)
    fast = [(m.span(), m.groupdict()) for m in parser._eu_mentions(begin, end)]
    reference = [
        (m.span(), m.groupdict()) for m in _EU_MENTION.finditer(text, begin, end)
    ]
    return fast, reference


@settings(max_examples=400, deadline=None)
@given(_mention_text, st.integers(0, 40), st.integers(0, 40))
def test_eu_mention_scan_finds_what_finditer_finds(
    text: str, cut_start: int, cut_end: int
) -> None:
    begin = min(cut_start, len(text))
    end = max(begin, len(text) - cut_end)
    fast, reference = _mention_spans(text, begin, end)
    assert fast == reference


@settings(max_examples=300, deadline=None)
@given(_glued_mention_text, st.integers(0, 40), st.integers(0, 40))
def test_eu_mention_scan_finds_what_finditer_finds_in_glued_names(
    text: str, cut_start: int, cut_end: int
) -> None:
    begin = min(cut_start, len(text))
    end = max(begin, len(text) - cut_end)
    fast, reference = _mention_spans(text, begin, end)
    assert fast == reference


def test_eu_mention_scan_stops_where_finditer_stops() -> None:
    # a name cut by the end of the window, a name inside a longer one, and
    # two names back to back
    text = "Die EU-DSGVO und DSGVODORA sowie Verordnung (EU) 2016/679 und GDPR"
    for end in range(len(text) + 1):
        for begin in (0, 4, 5, 20):
            fast, reference = _mention_spans(text, min(begin, end), end)
            assert fast == reference
    assert _mention_spans(text, 0, len(text))[0]  # it does find names


def _tail_matches(text: str, pos: int) -> tuple[object, object]:
    fast = _TAIL.match(text, pos)
    plain = _TAIL_PLAIN.match(text, pos)
    return (
        None if fast is None else (fast.span(), fast.lastgroup, fast.groupdict()),
        None if plain is None else (plain.span(), plain.lastgroup, plain.groupdict()),
    )


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=30).map(" ".join))
def test_tail_with_its_first_character_check_matches_what_the_plain_tail_matches(
    text: str,
) -> None:
    for pos in range(len(text) + 1):
        fast, plain = _tail_matches(text, pos)
        assert fast == plain, (text, pos)


# every keyword of every _TAIL alternative, and look-alikes that share its start
_TAIL_TOKENS = [
    "Abs.",
    "Absatz",
    "Absätze",
    "Absätzen",
    "Abs",
    "Abschnitt",
    "Alt.",
    "Alternative",
    "UAbs.",
    "Uabs.",
    "Unterabs.",
    "Unterabsatz",
    "Unterabsätze",
    "UA",
    "Un",
    "S.",
    "Satz",
    "Sätze",
    "Sätzen",
    "Sa",
    "Hs.",
    "HS",
    "Halbs.",
    "Halbsatz",
    "Hbs.",
    "Hb",
    "Nr.",
    "Nrn.",
    "Nummer",
    "Nummern",
    "Nr",
    "Nu",
    "Ziff.",
    "Ziffer",
    "Ziffern",
    "Ziff",
    "Zi",
    "no.",
    "nos.",
    "no",
    "lit.",
    "litera",
    "li",
    "Buchst.",
    "Buchstabe",
    "Buchstaben",
    "Bu",
    "Bst.",
    "letter",
    "letters",
    "le",
    "Var.",
    "Variante",
    "Va",
    "Section",
    "Se",
    "Teil",
    "Te",
    "Part",
    "Pa",
    "point",
    "points",
    "po",
    "paragraph",
    "paras.",
    "para.",
    "pa",
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "fi",
    "fo",
    "se",
    "si",
    "su",
    "th",
    "te",
    "ei",
    "ni",
    "subparagraph",
    "sentence",
    "§",
    "a)",
    "b)",
    "iv)",
    "(a)",
    "(1)",
    "(",
    ")",
    ",",
    ".",
    "1",
    "2",
    "12",
    "a",
    "b",
    "x",
    "A",
    "B",
    " ",
    "\t",
    "\n",
]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(_TAIL_TOKENS), max_size=12).map("".join),
    st.lists(st.sampled_from(_TAIL_TOKENS), max_size=12).map(" ".join),
)
def test_tail_first_character_check_changes_no_match_on_every_tail_keyword(
    glued: str, spaced: str
) -> None:
    for text in (glued, spaced):
        for pos in range(len(text) + 1):
            fast, plain = _tail_matches(text, pos)
            assert fast == plain, (text, pos)


def test_tail_first_character_check_changes_no_match_on_the_labelled_sets() -> None:
    text = "\n".join(_labelled_texts())
    matched = 0
    for pos in range(len(text) + 1):
        fast, plain = _tail_matches(text, pos)
        assert fast == plain, text[pos : pos + 40]
        matched += fast is not None
    assert matched > 1_000


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=40).map(" ".join))
def test_candidate_scan_finds_the_places_a_plain_listing_finds(text: str) -> None:
    assert _candidates(text) == _candidates_reference(text)


def test_candidate_scan_finds_the_places_a_plain_listing_finds_in_the_sets() -> None:
    text = "\n".join(_labelled_texts())
    assert _candidates(text) == _candidates_reference(text)
    assert len(_candidates(text)) > 500


# every literal of the candidate scans, pieces of them and the letters they
# are found by, glued in any order ("subsubparagraph", "ecitalection", "§§")
_LITERAL_TOKENS = [
    "§",
    "Art",
    "Anh",
    "Annex",
    "ANNEX",
    "Abs",
    "Anlage",
    "Erw",
    "EG",
    "Recital",
    "recital",
    "ecital",
    "cital",
    "Section",
    "section",
    "ection",
    "ction",
    "Sec",
    "point",
    "subparagraph",
    "sub",
    "paragraph",
    "Paragra",
    "UAbs",
    "Unterabs",
    "VV",
    "Vergütungsverzeichnis",
    "Nr. 2300 ",
    "second ",
    "last ",
    "A",
    "E",
    "U",
    "e",
    "c",
    "p",
    " ",
    "\n",
]


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from(_LITERAL_TOKENS), max_size=20).map("".join),
    st.lists(st.sampled_from(_LITERAL_TOKENS), max_size=20).map(" ".join),
)
def test_candidate_scan_finds_the_places_a_plain_listing_finds_in_glued_literals(
    glued: str, spaced: str
) -> None:
    for text in (glued, spaced):
        assert _candidates(text) == _candidates_reference(text), text


def test_citation_built_by_its_slot_setters_is_the_dataclass_value() -> None:
    values: tuple[Any, ...] = (
        3,
        20,
        "Art. 6 Abs. 1 DSGVO",
        (("art", "6"), ("para", "1")),
        frozenset({"art", "para"}),
        REGISTRY[0],
        "stated",
        "de",
        "8",
        "ff",
        True,
        frozenset({"para"}),
        4,
    )
    fast = citation_new(*values)
    plain = Citation(*values)
    assert type(fast) is Citation
    assert fast == plain
    assert hash(fast) == hash(plain)
    assert repr(fast) == repr(plain)
    assert tuple(getattr(fast, f.name) for f in dataclasses.fields(fast)) == values
    assert dataclasses.replace(fast, group=5) == dataclasses.replace(plain, group=5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.start = 4  # type: ignore[misc]


def _steps_find_nothing(text: str, pos: int) -> bool:
    """What ``_NOTHING_FOLLOWS`` promises, by the steps it stands for."""
    sm = _LIST_SEP.match(text, pos)
    if sm is not None and (
        _PAREN_VALUE.match(text, sm.end()) or _BARE_VALUE.match(text, sm.end())
    ):
        return False
    if _INSTRUMENT.match(text, pos) is not None:
        return False
    jm = _JOIN.match(text, pos)
    return jm is None or not (
        _TRIGGER.match(text, jm.end()) or _TAIL.match(text, jm.end())
    )


def _assert_nothing_follows_holds(text: str) -> int:
    held = 0
    for pos in range(len(text) + 1):
        if _NOTHING_FOLLOWS.match(text, pos):
            assert _steps_find_nothing(text, pos), (text[pos : pos + 40], pos)
            held += 1
        if _INSTRUMENT.match(text, pos):
            assert _INSTRUMENT_CAN_START.match(text, pos), text[pos : pos + 40]
    return held


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(TOKENS + _MENTION_TOKENS), max_size=30).map(" ".join),
    st.lists(st.sampled_from(TOKENS + _TAIL_TOKENS), max_size=30).map("".join),
)
def test_where_nothing_follows_the_list_instrument_and_join_steps_find_nothing(
    spaced: str, glued: str
) -> None:
    _assert_nothing_follows_holds(spaced)
    _assert_nothing_follows_holds(glued)


def test_where_nothing_follows_the_steps_find_nothing_in_the_labelled_sets() -> None:
    text = "\n".join(_labelled_texts())
    assert _assert_nothing_follows_holds(text) > 10_000


# a unit, its subdivisions in any order (the usual one among them) and what
# may follow: the forms the one-match reading of a usual unit takes or leaves
_UNIT_HEADS = ["§", "§§", "Art.", "Art", "Artikel", "Artikeln", "Article", "Articles"]
_UNIT_PARTS = [
    "Abs. 1",
    "Absatz 2",
    "Abs 3",
    "UAbs. 1",
    "Unterabsatz 2",
    "S. 2",
    "Satz 1",
    "Nr. 3",
    "Nr 4",
    "Ziff. 2",
    "no. 5",
    "lit. a",
    "Buchstabe B",
    "Buchst. c)",
    "(1)",
    "(a)",
    "(ii)",
    " (2)",
    "a)",
    "Hs. 1",
    "Alt. 2",
    "II",
    "ff.",
    "f.",
    "bis 5",
    "– 7",
]
_UNIT_ENDS = [
    "gilt",
    "shall",
    "und der",
    "und 5",
    "oder b",
    ", the",
    ", 2",
    "der DSGVO",
    "BGB",
    "of this Regulation",
    "i.V.m. § 5",
    ".",
    ";",
    ")",
    "",
    "sowie Art. 7",
    "and paragraph 2",
    "Abs. 4",
    "und Art",
    ", Die",
]


@st.composite
def unit_texts(draw: st.DrawFn, befores: list[str]) -> str:
    """A unit ("§ 286 Abs. 1 S. 2 Nr. 3", "Art 5 (1) lit a") with what may
    stand before and after it: the texts both equality tests read."""
    before = draw(st.sampled_from(befores))
    head = draw(st.sampled_from(_UNIT_HEADS))
    gap = draw(st.sampled_from(["", " "]))
    number = draw(st.sampled_from(["5", "286", "12a", "124 a", "1.2"]))
    parts = draw(st.lists(st.sampled_from(_UNIT_PARTS), max_size=4))
    space = draw(st.sampled_from(["", " "]))
    end = draw(st.sampled_from(_UNIT_ENDS))
    body = "".join(p if p.startswith(("(", " (")) else " " + p for p in parts)
    return f"{before}{head}{gap}{number}{body}{space}{end} weiter"


@settings(max_examples=600, deadline=None)
@given(unit_texts(["", "DSGVO, ", "nach ", "(", "BGB "]))
def test_fast_parser_equals_reference_parser_on_units_and_their_subdivisions(
    text: str,
) -> None:
    _assert_same(text)
    _assert_same(text + " Abs. 2 gilt")  # a bare unit after it reads its last
