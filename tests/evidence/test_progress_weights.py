"""The progress bar tells the truth: stages are weighted by their measured
cost, so a text PDF is not at 70 % before its embedding ("Durchsuchbar
machen") starts, and a scanned one spends its time in "Texterkennung"."""

from __future__ import annotations

from django.utils import translation

from evidence.models import DocumentIngestion

Stage = DocumentIngestion.Stage


def _at(stage: str, **counts: int) -> DocumentIngestion:
    return DocumentIngestion(stage=stage, **counts)


def test_text_pdf_is_barely_started_when_embedding_begins() -> None:
    pages_read = _at(Stage.EMBEDDINGS, pages=20, chunks=22, embedded=0)
    assert pages_read.progress_percent(20) < 5


def test_embedding_fills_the_bar_in_proportion() -> None:
    half = _at(Stage.EMBEDDINGS, pages=20, chunks=22, embedded=11)
    assert 45 <= half.progress_percent(20) <= 55
    nearly = _at(Stage.EMBEDDINGS, pages=20, chunks=22, embedded=21)
    assert nearly.progress_percent(20) >= 90


def test_scanned_pages_weigh_in_the_ocr_stage() -> None:
    # 10 pages, all scanned: half recognised is a large share of the work.
    half_ocr = _at(Stage.OCR, pages=5, ocr_pages=5)
    assert 25 <= half_ocr.progress_percent(10) <= 75


def test_the_bar_never_goes_back_across_stages() -> None:
    steps = [
        _at(Stage.STORED),
        _at(Stage.PAGES, pages=10),
        _at(Stage.CHUNKS, pages=10),
        _at(Stage.EMBEDDINGS, pages=10, chunks=11, embedded=0),
        _at(Stage.EMBEDDINGS, pages=10, chunks=11, embedded=11),
        _at(Stage.READY, pages=10, chunks=11, embedded=11),
    ]
    percents = [s.progress_percent(10) for s in steps]
    assert percents == sorted(percents) and percents[-1] == 100


def test_stage_names_are_german_words_for_lawyers() -> None:
    with translation.override("de"):
        assert str(Stage.OCR.label) == "Texterkennung"
        assert str(Stage.EMBEDDINGS.label) == "Durchsuchbar machen"
