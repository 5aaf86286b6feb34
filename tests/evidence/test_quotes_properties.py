"""Property-based: any piece of a chunk text, however a model or a PDF text
layer re-breaks, re-hyphenates or decorates it, is found at its own span; the
span reads as the quote; and what is not in the text is not found.

The quote is a substring of the chunk, then transformed the ways real quotes
differ from their text layer: whitespace runs re-broken (spaces, line breaks,
no-break spaces, tabs), zero-width characters and soft hyphens inserted,
ligatures typed as letters, words hyphenated at a line end, and Unicode
decomposed (NFD). The few
transformations that change what a text says are left out, each for its
reason: the whitespace right after a hyphen keeps its kind ("Verzugs- und" is
not "Verzugs-\\nund", which is one hyphenated word), a soft hyphen is not put
right before a line break (there it marks a hyphenated word), and a word is
hyphenated only before a small letter (before a capital the hyphen is part of
the word: "E-\\nMail" is "E-Mail")."""

from __future__ import annotations

import unicodedata

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from evidence.domain.quotes import LIGATURES, quote_normalise, quote_spans

LETTERS = "abcdefghijklmnopqrstuvwxyzäöüßABCDEFGHIJKLMNOPÄÖÜéﬁﬂﬀ"
OTHERS = "0123456789 .,;:§-–„“()€/"
WHITESPACE = [" ", "\n", "  ", "\u00a0", "\t", " \n ", "\r\n", "\n\n"]
ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"
HYPHENS = "-\u2010"
SOFT = "\u00ad"
CHUNK_CHARS = LETTERS + OTHERS + "\n\u00a0" + ZERO_WIDTH + SOFT + "-\n"

QUICK = settings(max_examples=200, deadline=None)

chunk_texts = st.text(alphabet=CHUNK_CHARS, min_size=1, max_size=160)


def _is_ws(char: str) -> bool:
    return char.isspace() or char in ZERO_WIDTH


def _before(text: str, at: int) -> str:
    """The visible character before ``at`` (zero-width characters skipped)."""
    at -= 1
    while at >= 0 and text[at] in ZERO_WIDTH:
        at -= 1
    return text[at] if at >= 0 else ""


def _breaks_after(text: str, at: int) -> bool:
    """A whitespace run with a line break starts at ``at`` (zero-width
    characters skipped)."""
    end = at
    while end < len(text) and _is_ws(text[end]):
        end += 1
    return any(c in "\n\r" for c in text[at:end])


@st.composite
def rebroken(draw: st.DrawFn, text: str) -> str:
    """Every run of whitespace (with the zero-width characters in it) replaced
    by another run, except after a hyphen or soft hyphen."""
    out: list[str] = []
    i = 0
    while i < len(text):
        if not text[i].isspace():
            out.append(text[i])
            i += 1
            continue
        j = i
        while j < len(text) and _is_ws(text[j]):
            j += 1
        if _before(text, i) in HYPHENS + SOFT:
            out.append(text[i:j])
        else:
            out.append(draw(st.sampled_from(WHITESPACE)))
        i = j
    return "".join(out)


@st.composite
def decorated(draw: st.DrawFn, text: str) -> str:
    """Zero-width characters and soft hyphens put in between characters."""
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(text)))
        char = draw(st.sampled_from(ZERO_WIDTH + SOFT))
        if char == SOFT and _breaks_after(text, at):
            continue
        text = text[:at] + char + text[at:]
    return text


@st.composite
def unligatured(draw: st.DrawFn, text: str) -> str:
    """Some ligatures typed as their letters ("ﬁ" as "fi")."""
    return "".join(
        LIGATURES[c] if c in LIGATURES and draw(st.booleans()) else c for c in text
    )


@st.composite
def hyphenated(draw: st.DrawFn, text: str) -> str:
    """Words broken at a line end with a hyphen, before a small letter."""
    places = [
        i
        for i in range(1, len(text))
        if unicodedata.category(text[i - 1]).startswith("L") and text[i].islower()
    ]
    if not places:
        return text
    for at in sorted(draw(st.sets(st.sampled_from(places), max_size=3)), reverse=True):
        text = (
            text[:at]
            + draw(st.sampled_from(["-\n", "-\n  ", "\u2010\r\n"]))
            + text[at:]
        )
    return text


@st.composite
def chunk_and_piece(draw: st.DrawFn) -> tuple[str, int, int]:
    text = draw(chunk_texts)
    start = draw(st.integers(0, len(text) - 1))
    end = draw(st.integers(start + 1, len(text)))
    piece = text[start:end]
    # A piece that holds nothing but the hyphen of a hyphenated word (the text
    # reads the word without it) is not a quote of anything.
    assume(quote_normalise(piece).strip("".join(HYPHENS)) != "")
    return text, start, end


def _found_within(text: str, quote: str, start: int, end: int) -> bool:
    """Some match lies inside ``start..end`` and reads as the quote."""
    wanted = quote_normalise(quote)
    return any(
        start <= s and e <= end and quote_normalise(text[s:e]) == wanted
        for s, e in quote_spans(text, quote)
    )


@QUICK
@given(chunk_and_piece())
def test_any_substring_of_a_chunk_is_found_at_its_span(
    case: tuple[str, int, int],
) -> None:
    text, start, end = case
    assert _found_within(text, text[start:end], start, end)


@QUICK
@given(chunk_and_piece(), st.data())
def test_a_rebroken_decorated_hyphenated_substring_is_found_at_its_span(
    case: tuple[str, int, int], data: st.DataObject
) -> None:
    text, start, end = case
    quote = data.draw(rebroken(text[start:end]))
    quote = data.draw(decorated(quote))
    quote = data.draw(unligatured(quote))
    quote = data.draw(hyphenated(quote))
    if data.draw(st.booleans()):
        quote = unicodedata.normalize("NFD", quote)
    assert _found_within(text, quote, start, end)


@QUICK
@given(chunk_texts, st.text(alphabet=CHUNK_CHARS, min_size=1, max_size=30))
def test_every_span_found_reads_as_the_quote(text: str, quote: str) -> None:
    for ignore_case in (False, True):
        wanted = quote_normalise(quote, ignore_case=ignore_case)
        for s, e in quote_spans(text, quote, ignore_case=ignore_case):
            assert quote_normalise(text[s:e], ignore_case=ignore_case) == wanted


@QUICK
@given(chunk_and_piece(), st.data())
def test_a_substring_with_one_letter_changed_or_recased_is_not_found(
    case: tuple[str, int, int], data: st.DataObject
) -> None:
    text, start, end = case
    piece = text[start:end]
    places = [i for i, c in enumerate(piece) if c.isalpha()]
    assume(places)
    at = data.draw(st.sampled_from(places))
    other = data.draw(st.sampled_from([piece[at].swapcase(), "x", "Q", "ö"]))
    quote = piece[:at] + other + piece[at + 1 :]
    wanted = quote_normalise(quote)
    assume(wanted not in quote_normalise(text))
    assume(wanted.rstrip(HYPHENS) not in quote_normalise(text))
    assert quote_spans(text, quote) == []


@QUICK
@given(chunk_texts, st.text(alphabet=LETTERS + OTHERS, min_size=1, max_size=12))
def test_a_random_text_that_is_no_substring_is_not_found(text: str, quote: str) -> None:
    wanted = quote_normalise(quote)
    assume(wanted and wanted not in quote_normalise(text))
    assume(wanted.rstrip(HYPHENS) not in quote_normalise(text))
    assert quote_spans(text, quote) == []
