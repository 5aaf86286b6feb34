"""Running headers and footers of a document. Pure: no database.

A letter that goes over a page break carries, between the two halves of a
sentence, the foot of page 1 ("Seite 1 von 2", the bank details of the
letterhead, an initials line) and the head of page 2 (the letterhead again,
"- 2 -"). Read as one stream, those lines would sit inside the sentence, which
then is neither found by search nor quotable verbatim. This module finds them
so that the chunker leaves them out of the text flow; the page text keeps them
(pages are immutable evidence), and so does the viewer.

A block is *running* when it is part of the first or last blocks of its page
(the layout sorts blocks top to bottom), lies in the top or bottom band of the
page, and either

- reads like a page mark: a page number ("3", "- 3 -", "Seite 1 von 2",
  "Page 2 of 5", "2/3"), a continuation mark ("./.", "…", "b.w."), or an
  initials line ("KM/sk"); or
- recurs in the same band on another page of the document, compared with its
  digits masked (so "Seite 1 von 3" and "Seite 2 von 3" are the same) and,
  for OCR noise, by similarity (``SIMILAR``).

Only an unbroken run of running blocks from the top or the bottom counts: a
body paragraph that happens to sit low on the page stops the run, so text
above it is never dropped. The first page keeps its header and the last page
its footer in the flow (there is no sentence for them to interrupt, and the
sender's letterhead stays searchable once)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

# Share of the page height that counts as the top or the bottom band.
TOP_BAND = 0.2
BOTTOM_BAND = 0.85
# At most this many blocks from either end of a page can be running.
MAX_BLOCKS = 3
# A running block is short: a letterhead, a page mark, a bank line.
MAX_CHARS = 400
MAX_LINES = 6
# Digit-masked texts at least this similar are the same running block (OCR).
SIMILAR = 0.85
# Recurring blocks lie at the same height (share of the page) on their pages.
SAME_HEIGHT = 0.03
# Distinct keys compared by similarity per band (bounds a 2,000-page file).
MAX_FUZZY_KEYS = 64

_PAGE_MARK = re.compile(
    r"""^(?:
        (?:seite|page|blatt|bl\.|s\.|p\.)?\s*[-–—]?\s*\d{1,4}\s*[-–—]?
            (?:\s*(?:von|of|/|aus)\s*\d{1,4})?
      | \d{1,4}\s*/\s*\d{1,4}
      | \.\s*/\s*\.{1,2}
      | …|\.{3}
      | b\.\s*w\.?
      | [a-zäöü]{1,4}\s*/\s*[a-zäöü]{1,4}
    )$""",
    re.VERBOSE | re.IGNORECASE,
)
_DIGITS = re.compile(r"\d+")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class BlockBox:
    """One layout block of a page: its characters in the page text and its
    vertical extent."""

    start: int
    end: int
    top: float
    bottom: float


@dataclass(frozen=True)
class PageLayout:
    number: int
    height: float
    text: str
    blocks: tuple[BlockBox, ...] = ()


@dataclass(frozen=True)
class PageFlow:
    """The part of a page's text that joins the document's text flow
    (``start..end``), and the running blocks left out of it."""

    number: int
    start: int
    end: int
    left_out: tuple[tuple[int, int], ...] = ()


def _key(text: str) -> str:
    return _DIGITS.sub("#", _SPACE.sub(" ", text).strip().casefold())


def is_page_mark(text: str) -> bool:
    """Whether a block reads like a page number, a continuation mark or an
    initials line."""
    return bool(_PAGE_MARK.match(_SPACE.sub(" ", text).strip()))


@dataclass(frozen=True)
class _Candidate:
    page: int
    index: int
    band: str  # "top" or "bottom"
    key: str
    mark: bool
    position: float  # top of the block as a share of the page height


def _candidates(page: PageLayout) -> list[_Candidate]:
    if page.height <= 0 or not page.blocks:
        return []
    found: list[_Candidate] = []
    ends = (
        ("top", range(min(MAX_BLOCKS, len(page.blocks)))),
        (
            "bottom",
            range(len(page.blocks) - 1, max(-1, len(page.blocks) - 1 - MAX_BLOCKS), -1),
        ),
    )
    for band, indices in ends:
        for index in indices:
            block = page.blocks[index]
            in_band = (
                block.bottom <= page.height * TOP_BAND
                if band == "top"
                else block.top >= page.height * BOTTOM_BAND
            )
            text = page.text[block.start : block.end]
            if (
                not in_band
                or len(text) > MAX_CHARS
                or text.count("\n") >= MAX_LINES
                or not text.strip()
            ):
                break
            found.append(
                _Candidate(
                    page.number,
                    index,
                    band,
                    _key(text),
                    is_page_mark(text),
                    block.top / page.height,
                )
            )
    return found


def _recurring(candidates: list[_Candidate]) -> set[tuple[int, int]]:
    """(page, block index) of the candidates whose key recurs in its band on
    another page, exactly or (for OCR noise) by similarity."""
    recurring: set[tuple[int, int]] = set()
    for band in ("top", "bottom"):
        pages_by_key: dict[str, set[int]] = {}
        for c in candidates:
            if c.band == band:
                pages_by_key.setdefault(c.key, set()).add(c.page)
        if not pages_by_key:
            continue
        # Merge similar keys (a few distinct ones only: the rest stay exact).
        keys = sorted(pages_by_key, key=lambda k: (-len(pages_by_key[k]), k))
        groups: dict[str, str] = {key: key for key in keys}
        representatives: list[str] = []
        for key in keys:
            for rep in representatives:
                if abs(len(rep) - len(key)) > max(len(rep), len(key)) * 0.2:
                    continue
                matcher = SequenceMatcher(None, rep, key, autojunk=False)
                if (
                    matcher.real_quick_ratio() >= SIMILAR
                    and matcher.quick_ratio() >= SIMILAR
                    and matcher.ratio() >= SIMILAR
                ):
                    groups[key] = rep
                    break
            else:
                if len(representatives) < MAX_FUZZY_KEYS:
                    representatives.append(key)
        members: dict[str, list[_Candidate]] = {}
        for c in candidates:
            if c.band == band:
                members.setdefault(groups[c.key], []).append(c)
        for group in members.values():
            # Same text at the same height of another page: a running block.
            # A closing formula that ends two letters at different heights
            # is body text, not a footer.
            group.sort(key=lambda c: (c.position, c.page))
            for i, a in enumerate(group):
                if _partner(group, i, 1) or _partner(group, i, -1):
                    recurring.add((a.page, a.index))
    return recurring


def _partner(group: list[_Candidate], at: int, step: int) -> bool:
    """Whether the nearest member of another page in direction ``step`` (the
    group is sorted by height) lies at the same height."""
    a = group[at]
    j = at + step
    while 0 <= j < len(group) and group[j].page == a.page:
        j += step
    return 0 <= j < len(group) and abs(group[j].position - a.position) <= SAME_HEIGHT


def page_flows(pages: Sequence[PageLayout]) -> list[PageFlow]:
    """Per page (in page order), the range of its text that joins the
    document's flow, without the running headers and footers between pages.
    Deterministic (chunking, and so re-ingestion, depends on it)."""
    ordered = sorted(pages, key=lambda page: page.number)
    per_page = {page.number: _candidates(page) for page in ordered}
    recurring = _recurring([c for found in per_page.values() for c in found])
    flows: list[PageFlow] = []
    for position, page in enumerate(ordered):
        running = {
            c.index
            for c in per_page[page.number]
            if c.mark or (c.page, c.index) in recurring
        }
        first, last = 0, len(page.blocks) - 1
        if position > 0:  # the first page keeps its header
            while first <= last and first in running:
                first += 1
        if position < len(ordered) - 1:  # the last page keeps its footer
            while last >= first and last in running:
                last -= 1
        if not page.blocks:
            flows.append(PageFlow(page.number, 0, len(page.text)))
            continue
        left_out = tuple(
            (block.start, block.end)
            for index, block in enumerate(page.blocks)
            if index < first or index > last
        )
        if first > last:
            flows.append(PageFlow(page.number, 0, 0, left_out))
            continue
        flows.append(
            PageFlow(
                page.number,
                page.blocks[first].start,
                page.blocks[last].end,
                left_out,
            )
        )
    return flows
