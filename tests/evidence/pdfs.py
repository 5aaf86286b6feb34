"""Test PDFs, generated in code: realistic German letters for the happy path and
one generator per kind of bad input."""

from __future__ import annotations

import io
import random
import zipfile
from typing import Any

import pymupdf
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

fitz: Any = pymupdf

A4 = (595, 842)
MARGIN = 72
FONT = "helv"  # Helvetica with WinAnsi encoding: covers ä ö ü ß § €

LETTERHEAD = (
    "Müller Baustoffe GmbH · Industriestraße 12 · 04109 Leipzig\n"
    "Tel. 0341 123456 · buchhaltung@mueller-baustoffe.example"
)
RECIPIENT = "Schmidt Bau KG\nz. Hd. Herrn Thomas Schmidt\nHauptstraße 5\n10115 Berlin"

REMINDER_PARAGRAPHS = [
    "Zahlungserinnerung zur Rechnung Nr. 2026-0417 vom 26.03.2026",
    "Sehr geehrter Herr Schmidt,",
    "mit unserer Rechnung Nr. 2026-0417 vom 26.03.2026 haben wir Ihnen die "
    "Lieferung von 40 Paletten Kalksandstein für das Bauvorhaben Mühlenweg 3 "
    "berechnet. Die Rechnung war zahlbar bis zum 26.04.2026. Bis heute konnten "
    "wir keinen Zahlungseingang feststellen.",
    "Sicher handelt es sich um ein Versehen. Wir bitten Sie, den offenen Betrag "
    "von 4.250,00 EUR innerhalb von zehn Tagen auf unser Konto bei der "
    "Sparkasse Leipzig (IBAN DE12 8605 5592 1234 5678 90) zu überweisen.",
    "Sollten Sie die Zahlung zwischenzeitlich veranlasst haben, betrachten Sie "
    "dieses Schreiben bitte als gegenstandslos.",
    "Mit freundlichen Grüßen\nMüller Baustoffe GmbH\ni. A. Sabine Krüger",
]

DUNNING_PARAGRAPHS = [
    "Mahnung - Rechnung Nr. 2026-0417",
    "Sehr geehrte Damen und Herren,",
    "trotz unserer Zahlungserinnerung vom 05.05.2026 ist der Rechnungsbetrag "
    "von 4.250,00 EUR noch immer nicht bei uns eingegangen. Sie befinden sich "
    "damit gemäß § 286 Abs. 1 BGB in Verzug.",
    "Wir fordern Sie hiermit letztmalig auf, den Betrag zuzüglich "
    "Verzugszinsen in Höhe von neun Prozentpunkten über dem Basiszinssatz "
    "(§ 288 Abs. 2 BGB) sowie der Pauschale von 40,00 EUR nach § 288 Abs. 5 "
    "BGB bis zum 20.05.2026 zu zahlen.",
    "Den Zugang dieses Schreibens hat unser Bote, Herr Jan Vogel, am "
    "08.05.2026 um 10:15 Uhr durch Einwurf in Ihren Briefkasten bewirkt.",
    "Nach fruchtlosem Fristablauf werden wir unsere Rechtsanwälte mit der "
    "gerichtlichen Durchsetzung der Forderung beauftragen.",
    "Mit freundlichen Grüßen\nMüller Baustoffe GmbH\nppa. Dr. Klaus Müller",
]

FILLER_SENTENCES = [
    "Der Auftraggeber hat die Lieferung am {d}.0{m}.2026 ohne Beanstandung abgenommen.",
    "Die Parteien vereinbarten ein Zahlungsziel von dreißig Tagen nach "
    "Rechnungsstellung.",
    "Mängel der Ware wurden weder gerügt noch sind sie sonst ersichtlich.",
    "Ein Skontoabzug war nur bei Zahlung innerhalb von zehn Tagen zulässig.",
    "Die Schuldnerin hat auf die Zahlungserinnerung vom {d}.0{m}.2026 nicht reagiert.",
    "Nach Auskunft der Bank ist bis zum heutigen Tage kein Geldeingang erfolgt.",
    "Das Bauvorhaben wurde nach Angaben der Bauleitung termingerecht fertiggestellt.",
    "Der Lieferschein Nr. {n} trägt die Unterschrift des Poliers Herrn Weber.",
    "Wir weisen darauf hin, dass weitere Kosten der Rechtsverfolgung entstehen können.",
    "Die Forderung ist weder verjährt noch wurde sie bestritten.",
    "Zwischen den Parteien besteht eine langjährige Geschäftsbeziehung seit "
    "dem Jahr 2019.",
    "Die Rechnung wurde per E-Mail und zusätzlich per Post versandt.",
]


def _write(page: Any, text: str, rect: Any, fontsize: float = 10.5) -> float:
    """Write text into rect; return the height used."""
    used = page.insert_textbox(rect, text, fontsize=fontsize, fontname=FONT)
    if used < 0:
        raise ValueError(f"text does not fit: {text[:40]!r}")
    return float(rect.height - used)


def _letter_page(doc: Any, paragraphs: list[str], date_line: str) -> Any:
    page = doc.new_page(width=A4[0], height=A4[1])
    width = A4[0] - 2 * MARGIN
    y = 40.0
    y += _write(page, LETTERHEAD, fitz.Rect(MARGIN, y, MARGIN + width, y + 30), 8)
    y += 30
    y += _write(page, RECIPIENT, fitz.Rect(MARGIN, y, MARGIN + 250, y + 70))
    y += 20
    _write(page, date_line, fitz.Rect(MARGIN + 300, y, MARGIN + width, y + 20))
    y += 30
    for paragraph in paragraphs:
        height = _fit_height(paragraph, width)
        y += _write(page, paragraph, fitz.Rect(MARGIN, y, MARGIN + width, y + height))
        y += 14
    return page


def _fit_height(text: str, width: float, fontsize: float = 10.5) -> float:
    chars_per_line = max(1, int(width / (fontsize * 0.5)))
    lines = sum(1 + len(line) // chars_per_line for line in text.split("\n"))
    return lines * fontsize * 1.45 + 12


def _bytes(doc: Any) -> bytes:
    """Deterministic bytes: fixed dates and no fresh file ID, so the same
    generator gives the same SHA-256 every time."""
    metadata = dict(doc.metadata or {})
    metadata.update(
        creationDate="D:20260505090000+02'00'", modDate="D:20260505090000+02'00'"
    )
    doc.set_metadata(metadata)
    return bytes(doc.tobytes(garbage=3, deflate=True, no_new_id=True))


def html_pdf(html: str, *, margin: float = 60) -> bytes:
    """HTML laid out on A4 pages by PyMuPDF's Story, as a word processor
    would print it: paragraphs, headings and tables (without rules)."""
    story = fitz.Story(html=html)
    out = io.BytesIO()
    writer = fitz.DocumentWriter(out)
    mediabox = fitz.paper_rect("a4")
    more = 1
    while more:
        device = writer.begin_page(mediabox)
        more, _ = story.place(mediabox + (margin, margin, -margin, -margin))
        story.draw(device)
        writer.end_page()
    writer.close()
    return out.getvalue()


def reminder_letter() -> bytes:
    """A one-page payment reminder (Zahlungserinnerung)."""
    doc = fitz.open()
    _letter_page(doc, REMINDER_PARAGRAPHS, "Leipzig, 05.05.2026")
    doc.set_metadata({"title": "Zahlungserinnerung", "author": "Müller Baustoffe"})
    return _bytes(doc)


def dunning_letter() -> bytes:
    """A one-page dunning letter (Mahnung) with the delivery of the letter."""
    doc = fitz.open()
    _letter_page(doc, DUNNING_PARAGRAPHS, "Leipzig, 08.05.2026")
    return _bytes(doc)


CROSS_PAGE_HEAD = (
    "Wir fordern Sie daher auf, den Gesamtbetrag von 4.290,00 EUR einschließlich "
    "der Mahnkosten spätestens bis zum"
)
CROSS_PAGE_TAIL = (
    "31.05.2026 auf das oben genannte Konto zu überweisen, da wir andernfalls "
    "ohne weitere Ankündigung Klage erheben."
)
CROSS_PAGE_SENTENCE = CROSS_PAGE_HEAD + " " + CROSS_PAGE_TAIL


def letter_with_sentence_across_pages() -> bytes:
    """Two pages; one sentence starts at the foot of page 1 and ends on page 2."""
    doc = fitz.open()
    page = _letter_page(doc, DUNNING_PARAGRAPHS[:4], "Leipzig, 21.05.2026")
    width = A4[0] - 2 * MARGIN
    _write(
        page,
        CROSS_PAGE_HEAD,
        fitz.Rect(MARGIN, A4[1] - 120, MARGIN + width, A4[1] - 60),
    )
    second = doc.new_page(width=A4[0], height=A4[1])
    y = 72.0
    for paragraph in [CROSS_PAGE_TAIL, *DUNNING_PARAGRAPHS[5:]]:
        height = _fit_height(paragraph, width)
        y += _write(second, paragraph, fitz.Rect(MARGIN, y, MARGIN + width, y + height))
        y += 14
    return _bytes(doc)


RUNNING_HEADER = "Müller Baustoffe GmbH · Industriestraße 12 · 04109 Leipzig"
RUNNING_FOOTER = (
    "Sparkasse Leipzig · IBAN DE12 8605 5592 1234 5678 90 · "
    "Geschäftsführer Dr. Klaus Müller"
)
INITIALS_LINE = "KM/sk"


def _running_parts(page: Any, number: int, total: int) -> None:
    """The letterhead line on top, the bank line, the initials and "Seite n von
    m" at the foot: what a house style repeats on every page."""
    width = A4[0] - 2 * MARGIN
    _write(page, RUNNING_HEADER, fitz.Rect(MARGIN, 28, MARGIN + width, 44), 8)
    _write(
        page,
        RUNNING_FOOTER,
        fitz.Rect(MARGIN, A4[1] - 52, MARGIN + width, -38 + A4[1]),
        7,
    )
    _write(
        page, INITIALS_LINE, fitz.Rect(MARGIN, A4[1] - 36, MARGIN + 80, A4[1] - 24), 7
    )
    _write(
        page,
        f"Seite {number} von {total}",
        fitz.Rect(A4[0] - MARGIN - 90, A4[1] - 36, A4[0] - MARGIN, A4[1] - 24),
        7,
    )


def letter_with_running_footer_across_pages() -> bytes:
    """Two pages in a house style with a running header and footer; one
    sentence starts at the foot of page 1 (above the footer) and ends on page 2
    (below the header)."""
    doc = fitz.open()
    page = _letter_page(doc, DUNNING_PARAGRAPHS[:4], "Leipzig, 21.05.2026")
    width = A4[0] - 2 * MARGIN
    _write(
        page,
        CROSS_PAGE_HEAD,
        fitz.Rect(MARGIN, A4[1] - 110, MARGIN + width, A4[1] - 70),
    )
    _running_parts(page, 1, 2)
    second = doc.new_page(width=A4[0], height=A4[1])
    _running_parts(second, 2, 2)
    y = 80.0
    for paragraph in [CROSS_PAGE_TAIL, *DUNNING_PARAGRAPHS[5:]]:
        height = _fit_height(paragraph, width)
        y += _write(second, paragraph, fitz.Rect(MARGIN, y, MARGIN + width, y + height))
        y += 14
    return _bytes(doc)


def scanned(pdf: bytes, dpi: int = 200) -> bytes:
    """Every page of ``pdf`` rendered to an image on a page without a text
    layer (what a scanner makes of a printed letter)."""
    source = fitz.open(stream=pdf, filetype="pdf")
    doc = fitz.open()
    for original in source:
        pixmap = original.get_pixmap(dpi=dpi)
        page = doc.new_page(width=A4[0], height=A4[1])
        page.insert_image(page.rect, stream=pixmap.tobytes("png"))
    return _bytes(doc)


def case_file(pages: int, *, seed: int = 7) -> bytes:
    """A long file of German case-file prose, about 1,500 characters a page."""
    rng = random.Random(seed)
    doc = fitz.open()
    width = A4[0] - 2 * MARGIN
    for number in range(1, pages + 1):
        page = doc.new_page(width=A4[0], height=A4[1])
        y = 60.0
        heading = f"Anlage K{number} - Vermerk zum Sachstand (Blatt {number})"
        y += _write(page, heading, fitz.Rect(MARGIN, y, MARGIN + width, y + 24), 12)
        y += 12
        for _paragraph in range(3):
            sentences = [
                rng.choice(FILLER_SENTENCES).format(
                    d=rng.randint(10, 28),
                    m=rng.randint(1, 9),
                    n=rng.randint(1000, 9999),
                )
                for _ in range(rng.randint(3, 5))
            ]
            text = " ".join(sentences)
            height = _fit_height(text, width)
            y += _write(page, text, fitz.Rect(MARGIN, y, MARGIN + width, y + height))
            y += 14
    return _bytes(doc)


def many_pages(pages: int) -> bytes:
    """Many short pages, fast to generate (for the page limit)."""
    doc = fitz.open()
    for number in range(1, pages + 1):
        page = doc.new_page(width=A4[0], height=A4[1])
        page.insert_text((72, 72), f"Blatt {number}", fontsize=11, fontname=FONT)
    return bytes(doc.tobytes(garbage=1, no_new_id=True))


def truncated() -> bytes:
    data = dunning_letter()
    return data[: len(data) // 2]


def encrypted() -> bytes:
    doc = fitz.open(stream=reminder_letter(), filetype="pdf")
    return bytes(
        doc.tobytes(
            encryption=fitz.PDF_ENCRYPT_AES_256,
            user_pw="geheim",
            owner_pw="noch-geheimer",
        )
    )


def zero_pages() -> bytes:
    """A syntactically valid PDF whose page tree is empty (PyMuPDF refuses to
    write one, so the bytes are assembled by hand)."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [] /Count 0 >>",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(
        b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n"
        % (len(objects) + 1, xref)
    )
    return out.getvalue()


def _rendered(pdf: bytes, dpi: int = 150) -> Any:
    doc = fitz.open(stream=pdf, filetype="pdf")
    return doc[0].get_pixmap(dpi=dpi)


def jpeg_image() -> bytes:
    """A photo of a letter: a real JPEG (to be renamed .pdf)."""
    return bytes(_rendered(reminder_letter(), dpi=60).tobytes("jpeg"))


def zip_archive() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("mahnung.pdf", dunning_letter())
        archive.writestr("notiz.txt", "Bitte Anlagen beachten.")
    return buffer.getvalue()


SCANNED_SENTENCE = "Mahnung"


def image_only(dpi: int = 200) -> bytes:
    """A scan: the dunning letter rendered to an image, placed on a page with
    no text layer."""
    pixmap = _rendered(dunning_letter(), dpi=dpi)
    doc = fitz.open()
    page = doc.new_page(width=A4[0], height=A4[1])
    page.insert_image(page.rect, stream=pixmap.tobytes("png"))
    return _bytes(doc)


def with_empty_page() -> bytes:
    """A letter followed by a blank page."""
    doc = fitz.open(stream=reminder_letter(), filetype="pdf")
    doc.new_page(width=A4[0], height=A4[1])
    return _bytes(doc)


JS_MARKER = "SKRIPT-AUSGEFUEHRT"
EMBEDDED_MARKER = "GEHEIMER-ANHANG-INHALT"


def with_javascript_and_attachment() -> bytes:
    """A letter whose opening would run JavaScript (writing a marker into a form
    field) and that carries an embedded file."""
    doc = fitz.open(stream=reminder_letter(), filetype="pdf")
    page = doc[0]
    widget = fitz.Widget()
    widget.field_name = "status"
    widget.field_type = fitz.PDF_WIDGET_TYPE_TEXT
    widget.rect = fitz.Rect(72, 780, 300, 800)
    widget.field_value = ""
    page.add_widget(widget)
    catalog = doc.pdf_catalog()
    script = f"this.getField('status').value = '{JS_MARKER}'; app.alert('{JS_MARKER}');"
    js_xref = doc.get_new_xref()
    doc.update_object(js_xref, f"<< /S /JavaScript /JS ({script}) >>")
    doc.xref_set_key(catalog, "OpenAction", f"{js_xref} 0 R")
    doc.embfile_add(
        "anhang.txt", EMBEDDED_MARKER.encode(), filename="anhang.txt", desc="Anhang"
    )
    return _bytes(doc)


# --- fixtures shared by the ingest tests (import them into a test module) -------


@pytest.fixture
def document_storage(settings: Any, tmp_path: Any) -> Any:
    """Each test stores document bytes in its own folder."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def as_upload(name: str, data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="application/pdf")


def ingested_document(case: Any) -> Any:
    """A ready one-page document of ``case`` (for tenancy and viewer tests)."""
    from evidence.services.ingest import documents_upload, source_document_ingest

    [outcome] = documents_upload(
        actor=None,
        case=case,
        uploads=[as_upload("mahnung.pdf", dunning_letter())],
        dispatch=False,
    )
    document = stored_document(outcome)
    source_document_ingest(document=document)
    return document


def stored_document(outcome: Any) -> Any:
    """The document of an upload outcome that must have one."""
    assert outcome.document is not None, outcome.message
    return outcome.document
