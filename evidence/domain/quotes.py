"""What counts as the same quote, and where it lies. Pure; the one quote matcher.

The gate checks a proposed quote with it, the review page highlights with it,
the evidence selectors find a quote's page with it, and the refuters look for
a finding's quotations with it. A quote occurs in a text when both read the
same after normalisation:

- Unicode canonical equivalence (NFC): "ü" precomposed equals "u" + U+0308;
- the invisible characters PDF text layers insert are ignored: soft hyphen
  U+00AD, zero-width space, non-joiner and joiner U+200B..U+200D, word joiner
  U+2060, byte-order mark U+FEFF;
- typographic ligatures read as their letters: ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ;
- every run of whitespace (spaces, no-break spaces, tabs, line breaks) is one
  space; whitespace at either end of the quote does not count;
- a word hyphenated at a line end reads as the whole word,
  "Verzugs-\\nschaden" == "Verzugsschaden"; before a capital the hyphen is part
  of the word and only the line break goes, "E-\\nMail" == "E-Mail"; a line
  break right after a soft hyphen is inside the word too ("Verzugs" U+00AD
  "\\nschaden" == "Verzugsschaden"). A hyphen or soft hyphen before a mere
  space is no hyphenation: "Verzugs- und Schadensersatz" keeps its space.

Everything else must match exactly, case included: the gate promises that a
quote is verbatim, and "Zahlung" is not "zahlung". ``ignore_case=True``
(Unicode case folding, so "STRASSE" == "Straße") exists for callers that look
for prose rather than evidence: a finding that quotes a provision inside
running text may capitalise its first word, and a term label is a concept name
that the letter may spell in capitals.

A match is reported as a span (start, end) of the ORIGINAL text, so callers
slice or highlight exactly what matched. A match never begins or ends inside a
character that normalisation expanded (a ligature, a decomposed letter) or in
front of a combining mark: "e" is not found in "é", nor "f" in "ﬁ"."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

Span = tuple[int, int]
BoxT = tuple[float, float, float, float]

SOFT_HYPHEN = "\u00ad"
INVISIBLE = frozenset("\u00ad\u200b\u200c\u200d\u2060\ufeff")
LIGATURES: Mapping[str, str] = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
}
_HYPHENS = frozenset("-\u2010")
_LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


@dataclass(frozen=True, slots=True)
class _Folded:
    """A text in matching form (canonically decomposed) with, per character,
    the index of the original character it came from. ``joins`` maps a
    position where a line-end hyphen was removed to that hyphen's index."""

    text: str
    origin: tuple[int, ...]
    joins: Mapping[int, int]


def _reorder(chars: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Canonical ordering of combining marks (as NFD does across characters),
    carrying each mark's origin with it."""
    out: list[tuple[str, int]] = []
    run: list[tuple[str, int]] = []
    for item in chars:
        if unicodedata.combining(item[0]):
            run.append(item)
            continue
        if run:
            out.extend(sorted(run, key=lambda m: unicodedata.combining(m[0])))
            run = []
        out.append(item)
    out.extend(sorted(run, key=lambda m: unicodedata.combining(m[0])))
    return out


def _is_letter(char: str) -> bool:
    return unicodedata.category(char)[0] in "LM"


_SPECIAL = re.compile(r"[^\x00-\x7f]")  # only these need work per character
# Runs of whitespace and soft hyphens, except a single plain space (kept as it
# is, which spares the common case any work).
_RUN = re.compile(r"[\s\u00ad]{2,}|[^\S ]|\u00ad")
_EDGE = "".join(c for c in map(chr, range(0x3000 + 1)) if c.isspace()) + SOFT_HYPHEN


def _per_char(text: str, origin: list[int], *, casefold: bool) -> tuple[str, list[int]]:
    """Each character replaced by its matching form (invisible characters
    dropped, ligatures spelt out, canonically decomposed, case-folded if asked),
    carrying its origin; combining marks in canonical order. ASCII characters
    stay as they are (without folding: none needs decomposition), and are
    copied in slices."""
    parts: list[str] = []
    origins: list[int] = []
    last = 0
    special = re.compile(r"[^\x00-\x7f]|[A-Z]") if casefold else _SPECIAL
    for match in special.finditer(text):
        at = match.start()
        parts.append(text[last:at])
        origins.extend(origin[last:at])
        char = text[at]
        if char in INVISIBLE and char != SOFT_HYPHEN:
            piece = ""
        else:
            piece = unicodedata.normalize("NFD", LIGATURES.get(char, char))
            if casefold:
                piece = unicodedata.normalize("NFD", piece.casefold())
        parts.append(piece)
        origins.extend([origin[at]] * len(piece))
        last = at + 1
    parts.append(text[last:])
    origins.extend(origin[last:])
    folded = "".join(parts)
    if any(
        unicodedata.combining(folded[m.start()])
        and m.start() > 0
        and unicodedata.combining(folded[m.start() - 1])
        for m in _SPECIAL.finditer(folded)
    ):  # two marks in a row: put them in canonical order
        pairs = _reorder(list(zip(folded, origins, strict=True)))
        folded, origins = "".join(c for c, _ in pairs), [o for _, o in pairs]
    return folded, origins


@functools.lru_cache(maxsize=256)
def _fold(text: str, *, ignore_case: bool) -> _Folded:
    """The matching form of ``text``. Cached: the gate checks several quotes
    against the same chunk text in one run, and folding is the matcher's cost
    (the result is immutable and depends on the text alone)."""
    chars, origin = _per_char(text, list(range(len(text))), casefold=False)
    # whitespace at either end does not count
    lo = len(chars) - len(chars.lstrip(_EDGE))
    chars, origin = chars[lo:].rstrip(_EDGE), origin[lo:]
    origin = origin[: len(chars)]

    parts: list[str] = []
    origins: list[int] = []
    joins: dict[int, int] = {}
    count = 0  # characters emitted so far
    before = ""  # the character emitted before the current segment
    last = 0
    for match in _RUN.finditer(chars):
        a, b = match.span()
        segment = chars[last:a]  # visible characters, none of them a space
        if segment:
            before = parts[-1][-1] if parts and parts[-1] else before
            parts.append(segment)
            origins.extend(origin[last:a])
            count += len(segment)
        last = b
        run = match.group()
        if not any(c.isspace() for c in run):
            continue  # soft hyphens alone are invisible
        broken = any(c in _LINE_BREAKS for c in run)
        prev, nxt = chars[a - 1], chars[b]
        prev2 = segment[-2] if len(segment) >= 2 else before
        if broken and run[0] == SOFT_HYPHEN:
            continue  # "Verzugs\u00ad\nschaden": hyphenated at a soft hyphen
        if (
            broken
            and prev in _HYPHENS
            # after a letter, or first: a quote may begin at the hyphen
            and (count == 1 or _is_letter(prev2))
            and _is_letter(nxt)
        ):
            if nxt.islower():  # "Verzugs-\nschaden": one word
                parts[-1] = parts[-1][:-1]
                joins[count - 1] = origins.pop()
                count -= 1
            continue  # else "E-\nMail": the hyphen stays, the line break goes
        parts.append(" ")
        origins.append(origin[a])
        count += 1
    parts.append(chars[last:])
    origins.extend(origin[last:])
    folded = "".join(parts)

    if ignore_case:  # after the hyphenation, which depends on the case
        cased = folded.casefold()
        if len(cased) == len(folded) and unicodedata.is_normalized("NFD", cased):
            return _Folded(
                text=cased, origin=tuple(origins), joins=MappingProxyType(joins)
            )
        cased, origins = _per_char(folded, origins, casefold=True)
        if joins:  # a join's position moves where folding lengthened the text
            moved = _positions(folded, cased)
            joins = {moved[k]: hyphen for k, hyphen in joins.items()}
        folded = cased
    return _Folded(text=folded, origin=tuple(origins), joins=MappingProxyType(joins))


def _positions(before: str, after: str) -> dict[int, int]:
    """Where each character of ``before`` begins in its case-folded form."""
    moved: dict[int, int] = {}
    at = 0
    for position, char in enumerate(before):
        moved[position] = at
        at += len(unicodedata.normalize("NFD", char.casefold()))
    moved[len(before)] = at
    return moved


def quote_normalise(text: str, *, ignore_case: bool = False) -> str:
    """The text as the matcher reads it (NFC, see the module docstring): two
    strings are the same quote exactly when their normalisations are equal."""
    return unicodedata.normalize("NFC", _fold(text, ignore_case=ignore_case).text)


def _clean_cut(folded: _Folded, start: int, end: int) -> bool:
    """The folded range starts and ends between original characters, and not
    in front of a combining mark."""
    text, origin = folded.text, folded.origin
    if unicodedata.combining(text[start]):
        return False
    if start > 0 and origin[start - 1] == origin[start]:
        return False
    return end == len(text) or (
        origin[end] != origin[end - 1] and not unicodedata.combining(text[end])
    )


def _occurrences(folded: _Folded, needle: str) -> list[tuple[int, int]]:
    found: list[tuple[int, int]] = []
    pos = folded.text.find(needle)
    while pos >= 0:
        end = pos + len(needle)
        if _clean_cut(folded, pos, end):
            found.append((pos, end))
        pos = folded.text.find(needle, pos + 1)
    return found


def _original(folded: _Folded, start: int, end: int) -> Span:
    covered = folded.origin[start:end]
    return min(covered), max(covered) + 1


def quote_spans(text: str, quote: str, *, ignore_case: bool = False) -> list[Span]:
    """Every place ``quote`` occurs in ``text``, as spans of the original
    text, in order. An empty (or whitespace-only) quote occurs nowhere."""
    needle = _fold(quote, ignore_case=ignore_case).text
    if not needle:
        return []
    folded = _fold(text, ignore_case=ignore_case)
    spans = [_original(folded, s, e) for s, e in _occurrences(folded, needle)]
    # A quote cut off at a line-end hyphen ("Verzugs-" of "Verzugs-\nschaden")
    # ends where the text's hyphen was removed: it still occurs, hyphen included.
    if len(needle) >= 2 and needle[-1] in _HYPHENS and _is_letter(needle[-2]):
        for s, e in _occurrences(folded, needle[:-1]):
            if e in folded.joins:
                spans.append((_original(folded, s, e)[0], folded.joins[e] + 1))
    return sorted(set(spans))


def quote_span(text: str, quote: str, *, ignore_case: bool = False) -> Span | None:
    """The first place ``quote`` occurs in ``text`` (see ``quote_spans``), or
    None if it does not occur."""
    spans = quote_spans(text, quote, ignore_case=ignore_case)
    return spans[0] if spans else None


# ------------------------------------------------------------ quote on pages
@dataclass(frozen=True, slots=True)
class PageRange:
    """Characters ``start..end`` of page ``page``'s text."""

    page: int
    start: int
    end: int


def quote_page_ranges(
    *,
    chunk_text: str,
    spans: Sequence[Mapping[str, Any]],
    page_texts: Mapping[int, str],
    quote: str,
) -> list[PageRange]:
    """Where a chunk's quote lies on its pages: one range per page it covers
    (two for a quote across a page break), in page order; empty if it is found
    nowhere.

    The quote is found in the chunk text (what the gate checked) and mapped to
    the pages through the chunk's spans: each span's slice of its page text is
    located in the chunk text, which tells where the page break is. If that
    alignment fails (a page text that no longer matches), or the quote is not
    in the chunk (a link without a quote of its own), each span's page is
    searched instead."""
    found = quote_span(chunk_text, quote)
    if found is not None:
        ranges = _map_to_pages(chunk_text, spans, page_texts, found)
        if ranges is not None:
            return ranges
    for span in spans:
        page = int(span.get("page", 0))
        page_text = page_texts.get(page, "")
        window = (int(span.get("start", 0)), int(span.get("end", len(page_text))))
        hits = quote_spans(page_text, quote)
        inside = [h for h in hits if window[0] <= h[0] and h[1] <= window[1]]
        if inside or hits:
            start, end = (inside or hits)[0]
            return [PageRange(page, start, end)]
    return []


def _map_to_pages(
    chunk_text: str,
    spans: Sequence[Mapping[str, Any]],
    page_texts: Mapping[int, str],
    found: Span,
) -> list[PageRange] | None:
    ranges: list[PageRange] = []
    cursor = 0
    for span in spans:
        page, start, end = int(span["page"]), int(span["start"]), int(span["end"])
        piece = page_texts.get(page, "")[start:end]
        at = chunk_text.find(piece, cursor) if piece else -1
        if at < 0:
            return None
        cursor = at + len(piece)
        lo, hi = max(found[0], at), min(found[1], cursor)
        if lo < hi:
            ranges.append(PageRange(page, start + lo - at, start + hi - at))
    return ranges


def range_boxes(
    *, blocks: Sequence[Mapping[str, Any]], start: int, end: int
) -> list[BoxT]:
    """Boxes covering characters ``start..end`` of the page text: the parts of
    the layout lines (``Page.blocks``) the range covers, cut horizontally in
    proportion to the characters (exact enough to mark a quote)."""
    boxes: list[BoxT] = []
    for block in blocks:
        if block.get("end", 0) <= start or block.get("start", 0) >= end:
            continue
        for line in block.get("lines", []):
            line_start, line_end = int(line["start"]), int(line["end"])
            lo, hi = max(start, line_start), min(end, line_end)
            if hi <= lo or line_end <= line_start:
                continue
            x0, y0, x1, y1 = (float(v) for v in line["bbox"])
            width = x1 - x0
            length = line_end - line_start
            boxes.append(
                (
                    x0 + width * (lo - line_start) / length,
                    y0,
                    x0 + width * (hi - line_start) / length,
                    y1,
                )
            )
    return boxes
