"""Issue 15 answers against the pinned corpus: federal laws, pending
amendments, Anlagen, articles with §§, Satz as an EU subparagraph."""

from __future__ import annotations

import pytest

from citations.services import citations_check

pytestmark = [pytest.mark.corpus, pytest.mark.django_db]


def _one(text: str):
    (result,) = citations_check(text)
    return result


def test_an_answer_against_a_version_with_pending_amendments_says_so(corpus) -> None:
    r = _one("§ 91 ZPO")
    assert r.status == "resolved"
    assert r.version is not None and len(r.version.pending_amendments) == 3
    assert r.reason is not None
    assert (
        "Änderung durch Art. 8 G v. 10.12.2025 I Nr. 320 noch nicht eingearbeitet"
        in (r.reason)
    )
    assert r.to_json()["version"]["pending_amendments"] == list(
        r.version.pending_amendments
    )


def test_an_answer_against_a_version_without_pending_amendments_is_plain(
    corpus,
) -> None:
    r = _one("§ 433 BGB")
    assert r.status == "resolved" and r.reason is None


def test_fee_numbers_of_the_vv_rvg_resolve(corpus) -> None:
    r = _one("Nr. 2300 VV RVG")
    assert r.status == "resolved"
    assert "Geschäftsgebühr" in (r.text or "")
    r = _one("Nr. 7002 VV RVG")
    assert r.status == "resolved"
    assert "Post- und Telekommunikationsdienstleistungen" in (r.text or "")
    assert _one("Nr. 9999 VV RVG").status == "not_found"


def test_an_anlage_of_a_statute_resolves_with_the_section_it_belongs_to(
    corpus,
) -> None:
    anlage, section = citations_check("Anlage 1 zu § 2 Abs. 2 RVG")
    assert anlage.status == "resolved"
    assert "Vergütungsverzeichnis" in anlage.heading
    assert section.status == "resolved"
    assert section.citation.canonical == "de/rvg/sec/2/para/2"
    assert anlage.citation.group == section.citation.group


def test_a_section_inside_an_article_resolves(corpus) -> None:
    r = _one("Art. 229 § 34 EGBGB")
    assert r.status == "resolved"
    assert "29. Juli 2014" in (r.text or "")
    assert _one("Art. 229 § 99 EGBGB").status == "not_found"


def test_satz_of_an_eu_paragraph_is_its_subparagraph(corpus) -> None:
    for text in (
        "Art. 17 Abs. 3 S. 1 lit. b DSGVO",
        "Art. 9 Abs. 2 Satz 1 Buchst. a DS-GVO",
        "Art. 17 III 1 lit. b DSGVO",
        "Art. 28 para. 3 lit. a GDPR",
        "Article 17 paragraph 1 letter d GDPR",
    ):
        assert _one(text).status == "resolved", text


def test_pinned_federal_laws_resolve_by_their_common_names(corpus) -> None:
    for text in (
        "§ 1 UWG",
        "§ 3 UWG 2004",
        "Art. 3 Abs. 1 GG",
        "Art. 1 Abs. 1 EGBGB",
        "§ 91 ZPO",
    ):
        assert _one(text).status == "resolved", text
    assert _one("§ 9999 ZPO").status == "not_found"


def test_a_federal_law_without_pinned_text_is_not_checked(corpus) -> None:
    for text in ("§ 35 VwVfG", "§ 44 SGB X", "§ 34 BauGB", "§ 1 Außensteuergesetz"):
        r = _one(text)
        assert r.status == "not_checked", text
        assert r.reason is not None and r.reason.startswith("instrument_not_in_corpus")


def test_a_sentence_of_a_paragraph_divided_into_numbers_resolves(corpus) -> None:
    # § 520 Abs. 3 ZPO: two sentences, the second introducing Nr. 1–4; the
    # corpus splits such a paragraph into its numbers, not its sentences
    r = _one("§ 520 Abs. 3 S. 2 Nr. 2 ZPO")
    assert r.status == "resolved"
    assert r.provision_path == "sec/520/para/3/point/2"
    assert "sentence_of_listed_unit" in (r.reason or "")
    assert _one("§ 520 Abs. 3 S. 5 Nr. 2 ZPO").status == "not_found"


def test_a_definition_beyond_the_last_is_flagged_as_a_missing_point(corpus) -> None:
    # Article 3 AI Act has numbered points (definitions), no paragraphs
    assert _one("Article 3(63) AI Act").provision_path == "art/3/point/63"
    r = _one("Article 3(99) AI Act")
    assert r.status == "not_found"
    assert (r.reason or "").startswith("no_such_point_for_paragraph: point 99")
