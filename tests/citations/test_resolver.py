"""The resolver on a small synthetic tree (pure; no database)."""

from __future__ import annotations

from citations.domain.instruments import BY_KEY
from citations.domain.parser import parse_citations
from citations.domain.resolver import (
    ProvisionIndex,
    ProvisionRef,
    lookup_key,
    resolve_in_index,
    unit_mismatch,
)


def _ref(path: str, text: str = "", repealed: bool = False) -> ProvisionRef:
    kind, label = path.split("/")[-2:]
    return ProvisionRef(path=path, kind=kind, label=label, text=text, repealed=repealed)


INDEX = ProvisionIndex.build(
    [
        _ref("sec/823", "(1) Wer vorsätzlich ..."),
        _ref("sec/823/para/1", "Wer vorsätzlich ..."),
        _ref("sec/1823", "Vormund ..."),
        _ref("sec/286", "Verzug"),
        _ref("sec/286/para/2", "Der Mahnung bedarf es nicht, wenn"),
        _ref("sec/286/para/2/point/1", "Kalender"),
        _ref("sec/286/para/3", "Entgeltforderung; dies gilt nur, wenn"),
        _ref("sec/286/para/3/sent/1", "Erster Teil; zweiter Teil"),
        _ref("sec/4", "(weggefallen)", repealed=True),
        _ref("art/6", "Lawfulness"),
        _ref("art/6/para/1", "Processing shall be lawful"),
        _ref("art/6/para/1/subpara/1", "at least one applies"),
        _ref("art/6/para/1/subpara/1/point/f", "legitimate interests"),
        _ref("art/6/para/1/subpara/2", "Point (f) shall not apply"),
        _ref("art/4", "Definitions"),
        _ref("art/4/point/1", "'personal data' means"),
        _ref("art/4/point/2", "'processing' means"),
        _ref("annex/VIII", "Information"),
        _ref("annex/VIII/part/A", "Section A"),
        _ref("annex/VIII/part/A/point/1", "name of provider A"),
        _ref("annex/VIII/part/B", "Section B"),
        _ref("annex/VIII/part/B/point/1", "name of provider B"),
    ]
)


def _resolve(text: str):
    (citation,) = parse_citations(text)
    return resolve_in_index(citation, INDEX)


def test_exact_section_resolves_with_its_text() -> None:
    outcome = _resolve("§ 823 BGB")
    assert outcome.status == "resolved"
    assert outcome.provision is not None
    assert outcome.provision.path == "sec/823"


def test_a_substring_is_never_a_match() -> None:
    assert _resolve("§ 82 BGB").status == "not_found"
    assert _resolve("§ 1823 BGB").provision.path == "sec/1823"
    assert _resolve("§ 182 BGB").reason == "no_such_section: sec 182"


def test_missing_level_names_the_level() -> None:
    assert _resolve("§ 286 Abs. 9 BGB").reason == "no_such_paragraph: para 9"
    assert _resolve("§ 286 Abs. 2 Nr. 7 BGB").reason == "no_such_point: point 7"
    assert _resolve("§ 286 Abs. 3 S. 4 BGB").reason == "no_such_sentence: sent 4"
    assert _resolve("Art. 7 DSGVO").reason == "no_such_article: art 7"


def test_point_is_found_without_stating_the_subparagraph() -> None:
    outcome = _resolve("Art. 6 Abs. 1 lit. f DSGVO")
    assert outcome.status == "resolved"
    assert outcome.provision.path == "art/6/para/1/subpara/1/point/f"


def test_annex_point_in_two_sections_is_ambiguous_with_candidates() -> None:
    outcome = _resolve("Anhang VIII Nr. 1 KI-VO")
    assert outcome.status == "ambiguous"
    assert outcome.candidates == (
        "annex/VIII/part/A/point/1",
        "annex/VIII/part/B/point/1",
    )
    assert _resolve("Anhang VIII Abschnitt B Nr. 1 KI-VO").status == "resolved"


def test_repealed_section_is_not_found_with_reason() -> None:
    outcome = _resolve("§ 4 BGB")
    assert outcome.status == "not_found"
    assert outcome.reason is not None and outcome.reason.startswith("repealed")


def test_half_sentence_is_cut_at_the_semicolon() -> None:
    outcome = _resolve("§ 286 Abs. 3 S. 1 Hs. 2 BGB")
    assert outcome.status == "resolved"
    assert outcome.provision.text == "zweiter Teil"
    assert _resolve("§ 286 Abs. 3 S. 1 Hs. 3 BGB").status == "not_found"


def test_range_needs_both_ends() -> None:
    assert _resolve("§§ 823 bis 1823 BGB").status == "resolved"
    outcome = _resolve("§ 286 Abs. 2 bis 5 BGB")
    assert outcome.status == "not_found"
    assert outcome.reason == "no_such_paragraph: para 5 (end of range)"


def test_alternative_resolves_to_the_enclosing_provision_and_says_so() -> None:
    outcome = _resolve("§ 286 Abs. 2 Alt. 2 BGB")
    assert outcome.status == "resolved"
    assert outcome.reason is not None and "alternative" in outcome.reason


def test_wrong_unit_for_the_instrument() -> None:
    (c,) = parse_citations("§ 44 DSGVO")
    assert unit_mismatch(c, BY_KEY["gdpr"]) is not None
    (c,) = parse_citations("Art. 823 BGB")
    assert unit_mismatch(c, BY_KEY["bgb"]) is not None
    (c,) = parse_citations("Art. 44 DSGVO")
    assert unit_mismatch(c, BY_KEY["gdpr"]) is None


def test_lookup_key_drops_only_inner_optional_levels() -> None:
    assert lookup_key("art/6/para/1/subpara/1/point/f") == "art/6/para/1/point/f"
    assert lookup_key("art/6/para/1/subpara/2") == "art/6/para/1/subpara/2"
    assert lookup_key("annex/VIII/part/A/point/1") == "annex/VIII/point/1"


def test_article_without_paragraphs_reads_parenthesised_number_as_point() -> None:
    outcome = _resolve("Article 4(1) GDPR")
    assert outcome.status == "resolved"
    assert outcome.provision is not None
    assert outcome.provision.path == "art/4/point/1"
    assert outcome.reason is not None
    assert outcome.reason.startswith("paragraph_read_as_point")
    # an article that has paragraphs never gets this reading
    assert _resolve("Art. 6 Abs. 2 DSGVO").status == "not_found"
    assert _resolve("Article 4(9) GDPR").status == "not_found"
    # the German "Abs." names a paragraph explicitly: no reinterpretation
    assert _resolve("Art. 4 Abs. 1 DSGVO").status == "not_found"
