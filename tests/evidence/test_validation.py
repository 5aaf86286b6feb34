"""Upload validation: every kind of bad input is refused with its own code and
a message naming the file and the reason, before anything is stored."""

from __future__ import annotations

import pytest
from django.utils import translation

from evidence import validation
from tests.evidence import pdfs


def refusal(name: str, data: bytes) -> validation.UploadRefused:
    with pytest.raises(validation.UploadRefused) as caught:
        validation.validate_pdf(filename=name, data=data)
    return caught.value


def test_german_letter_is_accepted_without_active_content():
    checked = validation.validate_pdf(filename="m.pdf", data=pdfs.dunning_letter())
    assert checked.page_count == 1
    assert not checked.has_javascript
    assert not checked.has_embedded_files


def test_truncated_pdf_is_refused_as_damaged():
    error = refusal("abgeschnitten.pdf", pdfs.truncated())
    assert error.code == "damaged"
    assert "abgeschnitten.pdf" in error.message


def test_garbage_after_pdf_header_is_refused_as_damaged():
    error = refusal("kaputt.pdf", b"%PDF-1.7\n" + b"\x00garbage" * 200 + b"\n%%EOF\n")
    assert error.code == "damaged"


def test_encrypted_pdf_is_refused():
    error = refusal("geheim.pdf", pdfs.encrypted())
    assert error.code == "encrypted"


def test_zero_page_pdf_is_refused():
    error = refusal("leer.pdf", pdfs.zero_pages())
    assert error.code == "no_pages"


@pytest.mark.parametrize(
    ("make", "detected"),
    [(pdfs.jpeg_image, "JPEG"), (pdfs.zip_archive, "ZIP")],
)
def test_renamed_non_pdf_is_refused_naming_its_real_type(make, detected):
    error = refusal("scan.pdf", make())
    assert error.code == "not_pdf"
    assert error.hint == {"detected_type": detected}
    assert detected in error.message


def test_text_file_without_pdf_signature_is_refused():
    error = refusal("notiz.pdf", b"Sehr geehrte Damen und Herren")
    assert error.code == "not_pdf"


def test_empty_file_is_refused():
    assert refusal("nichts.pdf", b"").code == "empty_file"


def test_file_over_the_size_limit_is_refused_before_reading(settings):
    settings.BELEGT_MAX_UPLOAD_BYTES = 1000
    with pytest.raises(validation.UploadRefused) as caught:
        validation.check_declared_size(filename="gross.pdf", size=5000)
    assert caught.value.code == "file_too_large"
    assert refusal("gross.pdf", pdfs.dunning_letter()).code == "file_too_large"


def test_pages_over_the_limit_are_refused(settings):
    settings.BELEGT_MAX_PAGES = 20
    error = refusal("akte.pdf", pdfs.many_pages(30))
    assert error.code == "too_many_pages"
    assert "30" in error.message and "20" in error.message


def test_real_3000_page_pdf_is_over_the_default_limit(settings):
    assert settings.BELEGT_MAX_PAGES == 2000
    error = refusal("gesamtakte.pdf", pdfs.many_pages(3000))
    assert error.code == "too_many_pages"
    assert "3000" in error.message


def test_javascript_and_embedded_file_are_flagged_not_refused():
    checked = validation.validate_pdf(
        filename="formular.pdf", data=pdfs.with_javascript_and_attachment()
    )
    assert checked.has_javascript
    assert checked.has_embedded_files


def test_refusal_message_follows_the_active_language():
    with translation.override("en"):
        english = refusal("scan.pdf", pdfs.jpeg_image()).message
    with translation.override("de"):
        german = refusal("scan.pdf", pdfs.jpeg_image()).message
    assert "is not a PDF" in english
    assert english != german
