"""The Python steps read a long run of blanks in time linear in its length.

``\\s*,?\\s*`` (blanks, an optional comma, blanks) took n²/2 steps where
nothing followed a run of n blanks: ``parse_citations("§ 1" + " " * 80_000 +
"BGB")`` took ~150 s on the Python steps and in the reference parser. The
patterns now write it ``\\s*(?:,\\s*)?`` (``patterns._WS_COMMA``), which matches
the same everywhere; the first tests hold the two forms equal, the last ones
parse such texts within a hard limit far above what they take now (~0.05 s
each) and far below what they took (minutes).
"""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citations.domain import parser_sentence, patterns
from citations.domain.parser import _Parser
from citations.domain.parser_reference import _ReferenceParser
from citations.domain.patterns import _WS_COMMA
from tests.citations.test_parser_fast_paths import _labelled_texts

_OLD_WS_COMMA = r"\s*,?\s*"
_OLD_ANLAGE_TO = r"\s*\(?\s*zu"
_NEW_ANLAGE_TO = r"\s*(?:\(\s*)?zu"

# every pattern that held the quadratic form, with the form it had
_CHANGED: list[tuple[str, re.Pattern[str]]] = [
    (name, pattern)
    for name, pattern in [
        *((n, getattr(patterns, n)) for n in dir(patterns)),
        *((n, getattr(parser_sentence, n)) for n in dir(parser_sentence)),
    ]
    if isinstance(pattern, re.Pattern)
    and (_WS_COMMA in pattern.pattern or _NEW_ANLAGE_TO in pattern.pattern)
]


def _old_form(pattern: re.Pattern[str]) -> re.Pattern[str]:
    source = pattern.pattern.replace(_WS_COMMA, _OLD_WS_COMMA)
    return re.compile(source.replace(_NEW_ANLAGE_TO, _OLD_ANLAGE_TO), pattern.flags)


_PAIRS = [(name, new, _old_form(new)) for name, new in _CHANGED]


def test_every_pattern_with_blanks_and_a_comma_uses_the_linear_form() -> None:
    names = {name for name, _ in _CHANGED}
    assert {
        "_TAIL",
        "_TAIL_PLAIN",
        "_JOIN",
        "_INSTRUMENT",
        "_INSTRUMENT_START",
        "_INSTRUMENT_CAN_START",
        "_NOTHING_FOLLOWS",
        "_USUAL_SEC",
        "_USUAL_ART",
        "_USUAL_BARE",
        "_ANLAGE_TO",
        "_OWN_NAME",
    } <= names
    for _, pattern in _CHANGED:
        assert _OLD_WS_COMMA not in pattern.pattern
        assert _OLD_ANLAGE_TO not in pattern.pattern


def _assert_same_matches(text: str, positions: range | list[int]) -> None:
    for name, new, old in _PAIRS:
        for pos in positions:
            a, b = new.match(text, pos), old.match(text, pos)
            if a is None or b is None:
                assert a is b, (name, text, pos)
                continue
            assert a.span() == b.span(), (name, text, pos)
            assert a.groupdict() == b.groupdict(), (name, text, pos)
            assert a.groups() == b.groups(), (name, text, pos)


_TOKENS = [
    " ",
    "  ",
    "\n",
    "\t",
    "\xa0",
    ",",
    ", ",
    " ,",
    "(",
    ")",
    "zu",
    "§",
    "2",
    "Abs.",
    "1",
    "Hs.",
    "2.",
    "point",
    "(a)",
    "first",
    "second",
    "subparagraph",
    "sentence",
    "Teil",
    "Part",
    "A",
    "of",
    "the",
    "der",
    "des",
    "to",
    "BGB",
    "DSGVO",
    "GDPR",
    "dieser",
    "Verordnung",
    "Regulation (EU) 2016/679",
    "i.V.m.",
    "und",
    "/",
    "xyz",
    "Art.",
    "a)",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_TOKENS), max_size=14).map("".join))
def test_the_linear_form_matches_what_the_quadratic_form_matched(text: str) -> None:
    _assert_same_matches(text, range(len(text) + 1))


def test_the_linear_form_matches_what_the_quadratic_form_matched_in_the_sets() -> None:
    texts = _labelled_texts()
    assert len(texts) > 300
    for text in texts:
        # where a step starts: after a word, at a blank, comma or bracket
        places = [
            i
            for i in range(1, len(text) + 1)
            if not text[i - 1].isspace()
            and (i == len(text) or text[i] in " ,(\n\t\xa0")
        ]
        _assert_same_matches(text, places)


# (text, the raw text of the citations the Python steps find in it)
_LONG_BLANKS = 80_000
_SLOW_TEXTS = [
    ("§ 1" + " " * _LONG_BLANKS + "BGB", ["§ 1" + " " * _LONG_BLANKS + "BGB"]),
    ("§ 1" + "\n" * _LONG_BLANKS + "xyz", ["§ 1"]),
    ("Art. 5 (1)" + " " * _LONG_BLANKS + "(", ["Art. 5 (1)"]),
    ("§ 1 i.V.m." + "\t" * _LONG_BLANKS + "xyz", ["§ 1"]),
    ("§ 1" + " ," * _LONG_BLANKS, ["§ 1"]),
    ("Anlage 1" + " " * _LONG_BLANKS + "zu § x", []),
]
# what the texts above take now is ~0.05 s each; with the quadratic form
# they took from 40 s to minutes each. The limit leaves room for a slow,
# busy machine and still fails on any quadratic step.
_LIMIT_S = 5.0


@pytest.mark.parametrize("parser", [_Parser, _ReferenceParser], ids=["steps", "ref"])
@pytest.mark.parametrize("text,raws", _SLOW_TEXTS, ids=range(len(_SLOW_TEXTS)))
def test_python_steps_read_a_long_run_of_blanks_in_linear_time(
    parser: type[_Parser], text: str, raws: list[str]
) -> None:
    begin = time.process_time()
    found = parser(text, None).run()
    took = time.process_time() - begin
    assert [c.raw for c in found] == raws
    assert took < _LIMIT_S, f"{took:.1f} s for {len(text):,} characters"
