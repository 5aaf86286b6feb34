"""Issue 15's surface-form classes through the parser (pure; no database)."""

from __future__ import annotations

import pytest

from citations.domain.instruments import law_lookup
from citations.domain.parser import parse_citations
from tests.citations.fixtures import CORPUS_PRESENT, SKIP_REASON
from tests.citations.surface_forms_15 import (
    BLIND15_CLASSES,
    ISSUE15,
    NEGATIVE15,
    REGISTRY_FORMS,
)


def _check(text: str, expected: list[tuple[str, str | None]]) -> None:
    found = parse_citations(text)
    assert [(c.raw, c.canonical) for c in found] == expected
    for c in found:
        assert text[c.start : c.end] == c.raw


@pytest.mark.parametrize(("text", "expected"), ISSUE15, ids=lambda v: str(v)[:60])
def test_issue15_form_is_found_with_span_and_canonical_id(
    text: str, expected: list[tuple[str, str | None]]
) -> None:
    _check(text, expected)


@pytest.mark.parametrize(
    ("text", "expected"), BLIND15_CLASSES, ids=lambda v: str(v)[:60]
)
def test_form_class_the_blind_set_showed_is_found_with_its_act(
    text: str, expected: list[tuple[str, str | None]]
) -> None:
    _check(text, expected)


@pytest.mark.parametrize("text", NEGATIVE15)
def test_issue15_look_alike_yields_nothing(text: str) -> None:
    assert parse_citations(text) == []


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("text", "expected"), REGISTRY_FORMS, ids=lambda v: str(v)[:60]
)
def test_any_federal_law_is_parsed_by_its_registry_name(
    text: str, expected: list[tuple[str, str | None]]
) -> None:
    if not CORPUS_PRESENT:
        pytest.skip(SKIP_REASON)
    _check(text, expected)


def test_a_statute_list_stays_one_citation_group() -> None:
    found = parse_citations("Nach §§ 280, 288 BGB und Art. 6 DSGVO; ferner § 1 BGB.")
    groups = [c.group for c in found]
    assert groups[0] == groups[1]
    assert len(set(groups)) == len(groups) - 1


@pytest.mark.corpus
def test_a_registry_law_not_pinned_keeps_its_instrument() -> None:
    if not CORPUS_PRESENT:
        pytest.skip(SKIP_REASON)
    info = law_lookup("VwVfG")
    assert info is not None and info.prefix == "de/vwvfg"
    (c,) = parse_citations("§ 35 VwVfG")
    assert c.instrument is not None and c.instrument.prefix == info.prefix


def test_a_law_has_one_key_whichever_alias_names_it_even_without_the_registry() -> None:
    from citations.corpus import corpus_dir_default
    from citations.corpus.registry import law_index_install
    from citations.domain.federal import install_law_index

    install_law_index(None)
    try:
        for text, key in [
            ("Art. 229 § 34 BGBEG", "de/egbgb/art/229/asec/34"),
            ("Art. 229 § 34 EGBGB", "de/egbgb/art/229/asec/34"),
            ("§ 32 KredWG", "de/kwg/sec/32"),
            ("§ 32 KWG", "de/kwg/sec/32"),
        ]:
            (c,) = parse_citations(text)
            assert c.canonical == key, text
    finally:
        law_index_install(corpus_dir=corpus_dir_default())
