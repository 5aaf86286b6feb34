"""Running headers and footers are left out of the text flow between pages (pure)."""

from __future__ import annotations

import time

import pytest

from evidence.domain.chunking import ChunkingConfig, PageInput, chunk_pages
from evidence.domain.quotes import quote_page_ranges, quote_span
from evidence.domain.running import BlockBox, PageLayout, is_page_mark, page_flows

HEIGHT = 842.0


def _page(number: int, blocks: list[tuple[str, float]]) -> PageLayout:
    """A page from (text, top) blocks, 12 pt per line, in the given order."""
    parts: list[str] = []
    boxes: list[BlockBox] = []
    offset = 0
    for text, top in blocks:
        if parts:
            parts.append("\n\n")
            offset += 2
        lines = text.count("\n") + 1
        boxes.append(BlockBox(offset, offset + len(text), top, top + 12 * lines))
        parts.append(text)
        offset += len(text)
    return PageLayout(
        number=number, height=HEIGHT, text="".join(parts), blocks=tuple(boxes)
    )


HEAD = "Die Beklagte wird aufgefordert, den Betrag von 4.290,00 EUR bis zum"
TAIL = "31.05.2026 zu überweisen."
SENTENCE = f"{HEAD} {TAIL}"


def _letter(footer: str = "Seite {n} von 2", header: str = "Kanzlei Roth · Berlin"):
    first = _page(
        1,
        [
            (header, 30),
            ("Sehr geehrte Damen und Herren,", 200),
            (HEAD, 700),
            (footer.format(n=1), 800),
        ],
    )
    second = _page(
        2,
        [
            (header, 30),
            (TAIL, 90),
            ("Mit freundlichen Grüßen", 140),
            (footer.format(n=2), 800),
        ],
    )
    return [first, second]


def _chunks(layouts: list[PageLayout]) -> list[str]:
    flows = {flow.number: flow for flow in page_flows(layouts)}
    inputs = [
        PageInput(
            number=page.number,
            text=page.text,
            flow=(flows[page.number].start, flows[page.number].end),
        )
        for page in layouts
    ]
    return [c.text for c in chunk_pages(inputs, ChunkingConfig(400, 60))]


@pytest.mark.parametrize(
    "text",
    ["3", "- 3 -", "Seite 1 von 2", "Page 2 of 5", "2/3", "./.", "…", "b.w.", "KM/sk"],
)
def test_page_marks_are_recognised(text):
    assert is_page_mark(text)


@pytest.mark.parametrize(
    "text", ["Zahlbar bis 26.04.2026", "Seite 1 von 2 der Anlage K3 enthält", "EUR 40"]
)
def test_body_text_is_no_page_mark(text):
    assert not is_page_mark(text)


def test_sentence_across_a_page_break_skips_footer_and_header():
    chunks = _chunks(_letter())
    whole = [c for c in chunks if quote_span(c, SENTENCE)]
    assert whole, chunks
    assert "Seite 1 von 2" not in whole[0]


def test_running_parts_stay_on_the_page_text_and_at_the_documents_ends():
    layouts = _letter()
    assert "Seite 1 von 2" in layouts[0].text  # the page keeps it
    flows = page_flows(layouts)
    assert flows[0].start == 0  # the first page keeps its header
    assert flows[1].end == len(layouts[1].text)  # the last page its footer
    assert flows[0].left_out and flows[1].left_out


def test_a_page_number_alone_is_left_out_without_repetition():
    layouts = _letter(footer="- {n} -", header="Unique heading {n}")
    layouts = [layouts[0], _page(2, [(TAIL, 90), ("Ende.", 140)])]
    whole = [c for c in _chunks(layouts) if quote_span(c, SENTENCE)]
    assert whole and "- 1 -" not in whole[0]


def test_body_paragraph_low_on_a_page_is_not_a_footer():
    """A paragraph in the bottom band that recurs nowhere stays in the flow."""
    layouts = _letter()
    flows = page_flows(layouts)
    head_at = layouts[0].text.index(HEAD)
    assert flows[0].start <= head_at < flows[0].end


def test_closing_formula_at_different_heights_is_not_running():
    """Two letters in one file end with the same formula low on their pages,
    at different heights: body text, kept in the flow."""
    closing = "Mit freundlichen Grüßen\nMüller Baustoffe GmbH"
    first = _page(1, [("Erster Brief.", 100), (closing, 720)])
    second = _page(2, [("Zweiter Brief.", 100), (closing, 770)])
    third = _page(3, [("Anlage.", 100)])
    flows = page_flows([first, second, third])
    assert flows[0].end == len(first.text)
    assert flows[1].end == len(second.text)


def test_ocr_noise_in_a_repeated_letterhead_is_still_recognised():
    first = _page(
        1, [("Kanzlei Roth & Partner, Unter den Linden 5", 30), ("Text.", 200)]
    )
    second = _page(
        2, [("Kanzlei Rotb & Partner, Unter den Lindeu 5", 31), ("Mehr.", 200)]
    )
    third = _page(
        3, [("Kanzlei Roth & Partner. Unter den Linden 5", 30), ("Ende.", 200)]
    )
    flows = page_flows([first, second, third])
    assert flows[1].start == second.text.index("Mehr.")
    assert flows[2].start == third.text.index("Ende.")


def test_page_with_only_running_parts_adds_nothing_to_the_flow():
    layouts = _letter()
    blank = _page(2, [("Kanzlei Roth · Berlin", 30), ("Seite 2 von 3", 800)])
    last = _page(3, [("Kanzlei Roth · Berlin", 30), ("Schluss.", 90)])
    flows = page_flows([layouts[0], blank, last])
    assert flows[1].start == flows[1].end == 0


def test_empty_and_blockless_pages_do_not_break_detection():
    flows = page_flows([PageLayout(1, HEIGHT, ""), PageLayout(2, 0.0, "Text")])
    assert [(f.start, f.end) for f in flows] == [(0, 0), (0, 4)]


def test_quote_across_the_break_maps_to_both_pages():
    layouts = _letter()
    flows = {flow.number: flow for flow in page_flows(layouts)}
    inputs = [
        PageInput(
            page.number,
            page.text,
            flow=(flows[page.number].start, flows[page.number].end),
        )
        for page in layouts
    ]
    chunk = next(
        c
        for c in chunk_pages(inputs, ChunkingConfig(400, 60))
        if quote_span(c.text, SENTENCE)
    )
    ranges = quote_page_ranges(
        chunk_text=chunk.text,
        spans=[span.as_json() for span in chunk.spans],
        page_texts={page.number: page.text for page in layouts},
        quote=SENTENCE,
    )
    assert [r.page for r in ranges] == [1, 2]
    assert layouts[0].text[ranges[0].start : ranges[0].end] == HEAD
    assert layouts[1].text[ranges[1].start : ranges[1].end] == TAIL


def test_two_thousand_pages_are_detected_quickly():
    pages = [
        _page(
            n,
            [
                ("Amtsgericht Leipzig · Az. 12 C 345/26", 30),
                (
                    f"Blatt {n}: Die Zeugin bestätigt den Zugang am {n % 28 + 1}.05.",
                    300,
                ),
                (f"Seite {n} von 2000", 800),
            ],
        )
        for n in range(1, 2001)
    ]
    started = time.perf_counter()
    flows = page_flows(pages)
    assert time.perf_counter() - started < 5
    assert all(f.left_out for f in flows)
    assert all(
        "Die Zeugin" in pages[i].text[f.start : f.end] for i, f in enumerate(flows)
    )
