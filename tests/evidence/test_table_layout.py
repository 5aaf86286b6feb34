"""Tables are read row by row (evidence/domain/table_layout.py): a row is one
block, in it a wrapped cell's lines follow each other, so a quote from the
cell is one passage of the page text; text that is not a table keeps MuPDF's
own blocks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pymupdf
import pytest

from evidence import extraction
from tests.evidence import pdfs

LONG_RISK = (
    "Unauthorised access to the health records of patients stored in the "
    "cloud archive of the clinic"
)
LONG_MEASURE = (
    "Encryption of all records at rest with keys held by the controller, access "
    "logging and quarterly review of the access log"
)


def _story_pdf(html: str, path: Path) -> Any:
    path.write_bytes(pdfs.html_pdf(html))
    return pymupdf.open(str(path))


def _blocks(page: Any) -> list[str]:
    extracted = extraction.extract_page(page, allow_ocr=False)
    return [
        " ".join(extracted.text[b["start"] : b["end"]].split())
        for b in extracted.blocks
    ]


def _plain_blocks(page: Any) -> list[str]:
    text, blocks = extraction.layout_from_dict(
        page.get_text("dict", flags=extraction.TEXT_FLAGS, sort=True)
    )
    return [" ".join(text[b["start"] : b["end"]].split()) for b in blocks]


def test_a_borderless_table_is_read_row_by_row_each_cell_whole(tmp_path: Path) -> None:
    html = (
        "<h2>Risk register</h2><table style='font-size:8pt'>"
        "<tr><th>ID</th><th>Risk</th><th>Measure</th><th>Owner</th></tr>"
        f"<tr><td>R-01</td><td>{LONG_RISK}</td><td>{LONG_MEASURE}</td>"
        "<td>IT security team</td></tr>"
        "<tr><td>R-02</td><td>Loss of availability</td>"
        "<td>Daily backups to a second data centre in Frankfurt with restore "
        "tests every month</td><td>Operations</td></tr></table>"
        "<p>The register is reviewed every quarter by the compliance team.</p>"
    )
    with _story_pdf(html, tmp_path / "t.pdf") as pdf:
        page = pdf[0]
        # the premise: MuPDF alone cuts the wrapped risk cell apart
        assert LONG_RISK not in _plain_blocks(page)
        blocks = _blocks(page)
    assert blocks == [
        "Risk register",
        "ID Risk Measure Owner",
        f"R-01 {LONG_RISK} {LONG_MEASURE} IT security team",
        "R-02 Loss of availability Daily backups to a second data centre in "
        "Frankfurt with restore tests every month Operations",
        "The register is reviewed every quarter by the compliance team.",
    ]


def test_a_ruled_table_with_tight_rows_is_read_by_its_drawn_cells(
    tmp_path: Path,
) -> None:
    """Rows that touch (no padding): only the ruling lines tell the rows
    apart."""
    doc = pymupdf.open()
    page = doc.new_page()
    columns = [72, 120, 400, 460]
    rows = [100, 114, 128, 142]
    cells = [
        ["M-01", "Two-factor sign-in required for all patient accounts", "R-01"],
        ["M-02", "Notifications without health terms in the subject", "R-02"],
        ["M-03", "Separate accounts and release only with consent", "R-03"],
    ]
    for x in columns:
        page.draw_line((x, rows[0]), (x, rows[-1]))
    for y in rows:
        page.draw_line((columns[0], y), (columns[-1], y))
    for r, row in enumerate(cells):
        for c, text in enumerate(row):
            box = pymupdf.Rect(columns[c] + 2, rows[r], columns[c + 1] - 2, rows[r + 1])
            assert page.insert_textbox(box, text, fontsize=8) >= 0
    path = tmp_path / "ruled.pdf"
    doc.save(str(path))
    with pymupdf.open(str(path)) as pdf:
        blocks = _blocks(pdf[0])
    assert blocks == [" ".join(row) for row in cells]


def test_prose_and_a_numbered_list_keep_their_blocks(tmp_path: Path) -> None:
    """No table, no change: a hanging indent after a clause number and a
    justified paragraph are not columns."""
    words = " ".join(
        ["Der Auftragsverarbeiter verarbeitet die Daten nur auf Weisung"] * 6
    )
    html = (
        f"<p style='text-align:justify'>{words}</p>"
        "<ol><li>" + words + "</li><li>Die Weisungen sind zu dokumentieren.</li></ol>"
        "<p>(1) Short clause.</p>"
    )
    with _story_pdf(html, tmp_path / "p.pdf") as pdf:
        page = pdf[0]
        assert _blocks(page) == _plain_blocks(page)


@pytest.mark.parametrize("kind", ["dict", "rawdict"])
def test_the_viewer_and_the_ingestion_read_the_same_lines(
    tmp_path: Path, kind: str
) -> None:
    html = (
        "<table><tr><td>R-01</td>"
        f"<td>{LONG_RISK}</td><td>{LONG_MEASURE}</td></tr></table>"
    )
    with _story_pdf(html, tmp_path / "v.pdf") as pdf:
        page = pdf[0]
        arranged = extraction.page_reading_dict(page, kind)
        extracted = extraction.extract_page(page, allow_ocr=False)
    lines = [
        "".join(
            s.get("text") or "".join(c["c"] for c in s.get("chars", []))
            for s in line["spans"]
        ).rstrip()
        for block in arranged["blocks"]
        for line in block["lines"]
    ]
    stored = [
        extracted.text[line["start"] : line["end"]]
        for block in extracted.blocks
        for line in block["lines"]
    ]
    assert lines == stored


def test_a_page_without_text_blocks_is_left_empty() -> None:
    from evidence.domain.table_layout import table_reading_order

    assert table_reading_order({"blocks": [{"type": 1, "bbox": (0, 0, 1, 1)}]}) == {
        "blocks": []
    }


def test_a_paragraph_right_under_a_ruleless_table_is_not_part_of_its_last_row() -> None:
    """Lines drawn without space between them: the paragraph under the table
    is as wide as the page, no cell's continuation."""
    doc = pymupdf.open()
    page = doc.new_page()
    rows = [("Nettobetrag", "10.460,00 EUR"), ("Gesamtbetrag", "12.447,40 EUR")]
    y = 100.0
    for label, amount in rows:
        page.insert_text((72, y), label, fontsize=10)
        page.insert_text((400, y), amount, fontsize=10)
        y += 12
    paragraph = "Zahlbar bis 03.04.2024 ohne Abzug auf das Konto der Gläubigerin."
    page.insert_text((72, y), paragraph, fontsize=10)
    blocks = _blocks(page)
    assert blocks[-1] == paragraph
    assert "Gesamtbetrag 12.447,40 EUR" in blocks


def test_a_failing_table_search_leaves_the_page_readable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MuPDF failing on a page's drawings costs the ruled cells, not the page."""
    doc = pymupdf.open()
    page = doc.new_page()
    for y in (100, 120, 140):
        page.draw_line((72, y), (400, y))
    page.draw_line((72, 100), (72, 140))
    page.draw_line((400, 100), (400, 140))
    page.insert_text((80, 115), "Gesamtbetrag 12.447,40 EUR", fontsize=10)

    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("code=2: damaged path")

    monkeypatch.setattr(pymupdf.Page, "find_tables", broken)
    assert extraction.ruled_table_cells(page) == []
    assert _blocks(page) == ["Gesamtbetrag 12.447,40 EUR"]


def test_a_heading_between_two_tables_stays_between_them(tmp_path: Path) -> None:
    html = (
        "<table style='font-size:8pt'><tr><td>R-01</td><td>Zugang</td></tr>"
        "<tr><td>R-02</td><td>Verlust</td></tr></table>"
        "<p style='font-size:8pt;margin:0'>Maßnahmen</p>"
        "<table style='font-size:8pt'><tr><td>M-01</td><td>Zwei-Faktor</td></tr>"
        "<tr><td>M-02</td><td>Sicherung</td></tr></table>"
    )
    with _story_pdf(html, tmp_path / "h.pdf") as pdf:
        blocks = _blocks(pdf[0])
    assert blocks == [
        "R-01 Zugang",
        "R-02 Verlust",
        "Maßnahmen",
        "M-01 Zwei-Faktor",
        "M-02 Sicherung",
    ]


def test_a_letters_address_field_and_information_block_stay_two_paragraphs() -> None:
    """DIN 5008: the address field and the information block stand side by
    side, line against line; they are two paragraphs, not the rows of a
    table, and a three-column footer is no table either."""
    doc = pymupdf.open()
    page = doc.new_page()
    address = [
        "Schmidt Bau KG",
        "z. Hd. Herrn Thomas Schmidt",
        "Am Hafen 7",
        "04179 Leipzig",
    ]
    info = [
        "Rechnungs-Nr.: MM-2026-0311",
        "Kunden-Nr.: 10087",
        "Leistungsdatum: 24.04.2026",
        "Rechnungsdatum: 28.04.2026",
    ]
    for i, line in enumerate(address):
        page.insert_text((70, 145 + 13 * i), line, fontsize=10)
    for i, line in enumerate(info):
        page.insert_text((360, 142 + 12 * i), line, fontsize=9)
    for column, lines in enumerate(
        (
            ["Müller GmbH", "Nord 14"],
            ["HRB 28471", "Chemnitz"],
            ["IBAN DE41", "BIC CHEK"],
        )
    ):
        for i, line in enumerate(lines):
            page.insert_text((70 + 170 * column, 780 + 10 * i), line, fontsize=8)
    assert _blocks(page) == _plain_blocks(page)
    assert " ".join(info) in _blocks(page)
