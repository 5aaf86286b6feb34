"""What reading tables row by row costs (evidence/domain/table_layout.py).

Generates pages of prose, of tables without rules and of ruled tables, and
times, on the same pages in one process, MuPDF's ``get_text("dict")`` alone
(the baseline) and ``page_reading_dict`` (the same call, the search for ruled
tables on pages that draw lines, and the reordering). Prints ms per page and
the ratio against the baseline, per kind of page.

Run: ``.venv/bin/python benchmarks/table_layout.py [--pages 20 --repeat 5]``.
Timings swing on a shared machine: compare the ratios within one run.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

PROSE = (
    "Der Auftragsverarbeiter verarbeitet die personenbezogenen Daten "
    "ausschließlich auf dokumentierte Weisung des Verantwortlichen, auch in Bezug "
    "auf die Übermittlung an ein Drittland; er unterstützt den Verantwortlichen "
    "bei der Erfüllung seiner Pflichten aus den Artikeln 32 bis 36 DSGVO. "
)
CELL = (
    "Unbefugter Zugriff auf Befunde durch Übernahme eines Patientenkontos, bewertet "
    "nach Eintrittswahrscheinlichkeit und Schwere"
)


def _ruled_pdf(pages: int, path: Path, pymupdf: Any) -> None:
    doc = pymupdf.open()
    for _ in range(pages):
        page = doc.new_page()
        columns = [60, 110, 380, 440, 535]
        rows = [60 + 28 * i for i in range(26)]
        for x in columns:
            page.draw_line((x, rows[0]), (x, rows[-1]))
        for y in rows:
            page.draw_line((columns[0], y), (columns[-1], y))
        for r in range(len(rows) - 1):
            texts = [f"R-{r:02d}", CELL, "mittel", "hoch"]
            for c, text in enumerate(texts):
                box = pymupdf.Rect(
                    columns[c] + 2, rows[r] + 1, columns[c + 1] - 2, rows[r + 1]
                )
                page.insert_textbox(box, text, fontsize=8)
    doc.save(str(path))


def _time(pages: list[Any], call: Any, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for page in pages:
            call(page)
        best = min(best, time.perf_counter() - start)
    return best / len(pages) * 1000


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    import django

    django.setup()
    import pymupdf

    from evidence.extraction import TEXT_FLAGS, page_reading_dict
    from tests.evidence import pdfs

    rows = "".join(
        f"<tr><td>R-{i:02d}</td><td>{CELL}</td><td>mittel</td><td>hoch</td></tr>"
        for i in range(18 * args.pages)
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "prose.pdf").write_bytes(
            pdfs.html_pdf(f"<p>{PROSE * 12}</p>" * (4 * args.pages))
        )
        (folder / "table.pdf").write_bytes(
            pdfs.html_pdf(f"<table style='font-size:8pt'>{rows}</table>")
        )
        _ruled_pdf(args.pages, folder / "ruled.pdf", pymupdf)
        sys.stdout.write(
            "kind      pages  get_text(dict) ms/page  reading order ms/page  ratio\n"
        )
        for kind in ("prose", "table", "ruled"):
            with pymupdf.open(str(folder / f"{kind}.pdf")) as pdf:
                pages = [pdf[i] for i in range(min(args.pages, pdf.page_count))]
                base = _time(
                    pages,
                    lambda p: p.get_text("dict", flags=TEXT_FLAGS, sort=True),
                    args.repeat,
                )
                ours = _time(pages, page_reading_dict, args.repeat)
                ratio = ours / base
                sys.stdout.write(
                    f"{kind:8} {len(pages):6}  {base:22.2f}  {ours:21.2f}"
                    f"  {ratio:5.1f}x\n"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
