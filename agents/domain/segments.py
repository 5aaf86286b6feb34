"""Where a quote starts and ends: the sentence (for running text) or the line
(for headings, table rows and letterhead lines) around a match. Quotes are
always slices of the chunk text, so they are verbatim by construction."""

from __future__ import annotations

import re

SHORT_LINE = 65
MAX_QUOTE = 420
_ABBREVIATIONS = {
    "nr", "abs", "bzw", "ggf", "vgl", "ca", "str", "dr", "inkl", "zzgl", "gem",
    "lit", "art", "s", "z.b", "u.a", "d.h", "i.v.m", "no", "mr", "mrs", "st",
    "v", "bspw", "evtl", "usw", "tel", "rn", "az",
}  # fmt: skip
_TERMINAL = re.compile(r"[.!?](?=\s)")
_WORD_BEFORE = re.compile(r"([\w.]+)$")


def _lines(text: str) -> list[tuple[int, int]]:
    bounds, start = [], 0
    for m in re.finditer(r"\n", text):
        bounds.append((start, m.start()))
        start = m.end()
    bounds.append((start, len(text)))
    return bounds


def _is_blank(text: str, line: tuple[int, int]) -> bool:
    return not text[line[0] : line[1]].strip()


def _ends_sentence(text: str, line: tuple[int, int]) -> bool:
    stripped = text[line[0] : line[1]].rstrip()
    return stripped.endswith((".", ":", "!", "?", ";"))


def _standalone(text: str, lines: list[tuple[int, int]], i: int) -> bool:
    """A heading, table row or letterhead line rather than wrapped prose."""
    length = len(" ".join(text[lines[i][0] : lines[i][1]].split()))
    if length >= SHORT_LINE:
        return False
    if i > 0:
        prev = lines[i - 1]
        prev_len = len(" ".join(text[prev[0] : prev[1]].split()))
        if prev_len >= SHORT_LINE and not _ends_sentence(text, prev):
            return False  # the last line of a wrapped paragraph
    return True


def _starts_upper(text: str, line: tuple[int, int]) -> bool:
    stripped = text[line[0] : line[1]].lstrip()
    return bool(stripped) and (stripped[0].isupper() or stripped[0].isdigit())


def _runs_on_across(text: str, lines: list[tuple[int, int]], blank: int) -> bool:
    """A sentence runs on across the blank line ``blank`` (as at the page break
    inside a chunk): the line before it ends no sentence and the line after it
    goes on in lower case."""
    if not 0 < blank < len(lines) - 1 or _is_blank(text, lines[blank - 1]):
        return False
    after = text[lines[blank + 1][0] : lines[blank + 1][1]].lstrip()
    return (
        not _ends_sentence(text, lines[blank - 1])
        and bool(after)
        and after[0].islower()
    )


def _is_boundary(text: str, pos: int) -> bool:
    """Is the punctuation at ``pos`` the end of a sentence?"""
    m = _WORD_BEFORE.search(text, 0, pos)
    word = (m.group(1) if m else "").lower()
    if re.fullmatch(r"\d{1,2}", word):  # "26. April", "1. Mahnung"
        return False
    if re.fullmatch(r"(\d{1,2}\.){1,2}", word + "."):  # inside "26.04."
        return False
    return word.rstrip(".") not in _ABBREVIATIONS


def _strip(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def segment_around(text: str, start: int, end: int) -> tuple[int, int]:
    """Bounds of the sentence or line that contains ``text[start:end]``."""
    lines = _lines(text)
    first = next(i for i, (s, e) in enumerate(lines) if s <= start <= e)
    last = next(i for i, (s, e) in enumerate(lines) if s <= max(end - 1, start) <= e)
    runs_on = (
        last + 2 < len(lines)
        and _is_blank(text, lines[last + 1])
        and _runs_on_across(text, lines, last + 1)
    ) or (
        first >= 2
        and _is_blank(text, lines[first - 1])
        and _runs_on_across(text, lines, first - 1)
    )
    if first == last and _standalone(text, lines, first) and not runs_on:
        return _strip(text, *lines[first])
    # the paragraph: neighbouring prose lines, up to a blank or standalone line
    top = first
    while top > 0:
        if _is_blank(text, lines[top - 1]):
            if top > 1 and _runs_on_across(text, lines, top - 1):
                top -= 2  # the sentence began before the (page) break
                continue
            break
        prev = lines[top - 1]
        if _standalone(text, lines, top - 1) and (
            _standalone(text, lines, top)
            or _ends_sentence(text, prev)
            or text[prev[0] : prev[1]].rstrip().endswith(",")
            or _starts_upper(text, lines[top])
        ):
            break
        top -= 1
    bottom = last
    while bottom + 1 < len(lines):
        if _is_blank(text, lines[bottom + 1]):
            if not _runs_on_across(text, lines, bottom + 1):
                break
            bottom += 2  # the sentence goes on after the (page) break
            continue
        if _ends_sentence(text, lines[bottom]) and lines[bottom][1] >= end:
            break
        if _standalone(text, lines, bottom + 1) and (
            _standalone(text, lines, bottom) or _ends_sentence(text, lines[bottom])
        ):
            break
        bottom += 1
    p_start, p_end = lines[top][0], lines[bottom][1]
    s_start = p_start
    for m in _TERMINAL.finditer(text, p_start, start):
        if _is_boundary(text, m.start()):
            s_start = m.end()
    s_end = p_end
    for m in _TERMINAL.finditer(text, end, p_end):
        if _is_boundary(text, m.start()):
            s_end = m.end()
            break
    if s_end == p_end and p_end < len(text) and text[p_end - 1 : p_end] in ".!?":
        s_end = p_end
    s_start, s_end = _strip(text, s_start, s_end)
    if s_end - s_start > MAX_QUOTE:
        s_start = max(s_start, start - 150)
        s_end = min(s_end, end + 150)
        while s_start > 0 and s_start < start and not text[s_start - 1].isspace():
            s_start += 1
        while s_end < len(text) and s_end > end and not text[s_end].isspace():
            s_end -= 1
        s_start, s_end = _strip(text, s_start, s_end)
    return s_start, s_end
