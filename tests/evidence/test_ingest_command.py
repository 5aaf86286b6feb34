"""``manage.py ingest``: one line per file, in-process by default."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from cases.models import Case
from evidence.models import DocumentIngestion
from tests.evidence import pdfs
from tests.evidence.pdfs import document_storage  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("document_storage")]


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def run(*args):
    from io import StringIO

    out = StringIO()
    try:
        call_command("ingest", *args, stdout=out)
    except CommandError as exc:
        return out.getvalue(), exc
    return out.getvalue(), None


def test_ingests_in_process_and_prints_a_line_per_file(tmp_path, case):
    files = [
        write(tmp_path, "mahnung.pdf", pdfs.dunning_letter()),
        write(tmp_path, "scan.pdf", pdfs.image_only()),
        write(tmp_path, "kopie.pdf", pdfs.dunning_letter()),
        write(tmp_path, "foto.pdf", pdfs.jpeg_image()),
    ]
    output, error = run("--case", case.reference, *files)
    lines = output.strip().splitlines()
    assert len(lines) == 4
    assert lines[0].startswith("stored") and "ready" in lines[0]
    assert "pages=1 ocr_pages=0" in lines[0]
    assert lines[1].startswith("stored") and "ocr_pages=1" in lines[1]
    assert lines[2].startswith("duplicate") and "mahnung.pdf" in lines[2]
    assert lines[3].startswith("refused") and "not_pdf" in lines[3]
    assert error is not None  # a refused file makes the exit status non-zero
    assert DocumentIngestion.objects.filter(stage="ready").count() == 2


def test_create_opens_the_case(tmp_path, firm):
    path = write(tmp_path, "a.pdf", pdfs.reminder_letter())
    output, error = run("--case", "7 C 12/26", "--create", "--firm", firm.slug, path)
    assert error is None, output
    case = Case.objects.get(reference="7 C 12/26")
    assert case.documents.count() == 1


def test_unknown_case_without_create_is_an_error(tmp_path, firm):
    path = write(tmp_path, "a.pdf", pdfs.reminder_letter())
    with pytest.raises(CommandError, match="--create"):
        call_command("ingest", "--case", "nope", path)
