"""Citations resolved against the real pinned corpus: every status."""

from __future__ import annotations

from datetime import date

import pytest

from citations.services import citation_version_info, citations_check

pytestmark = [pytest.mark.corpus, pytest.mark.django_db]


def _one(text: str, **kwargs):
    (result,) = citations_check(text, **kwargs)
    return result


def test_issue_examples_resolve_with_provision_text(corpus) -> None:
    r = _one("Art. 9 Abs. 2 lit. a KI-VO")
    assert r.status == "resolved"
    assert "foreseeable risks" in (r.text or "")
    r = _one("Article 6(1)(f) GDPR")
    assert r.status == "resolved"
    assert "legitimate interests" in (r.text or "")
    r = _one("§ 286 Abs. 2 Nr. 3 BGB")
    assert r.status == "resolved"
    assert r.text == "der Schuldner die Leistung ernsthaft und endgültig verweigert,"
    r = _one("Erwägungsgrund 60 KI-VO")
    assert r.status == "resolved"
    assert "migration" in (r.text or "").lower()


def test_german_citation_of_the_ai_act_falls_back_to_the_english_text(corpus) -> None:
    r = _one("Art. 14 Abs. 4 lit. e KI-VO")
    assert r.status == "resolved"
    assert r.version is not None and r.version.language == "en"
    assert "stop" in (r.text or "")


def test_german_gdpr_citation_uses_the_german_text(corpus) -> None:
    r = _one("Art. 6 Abs. 1 lit. f DSGVO")
    assert r.version is not None and r.version.language == "de"
    assert "berechtigten Interessen" in (r.text or "")


def test_version_is_chosen_by_valid_at_date(corpus) -> None:
    before = _one("Art. 4 Nr. 18 DSGVO", at=date(2017, 1, 1))
    after = _one("Art. 4 Nr. 18 DSGVO", at=date(2019, 1, 1))
    assert before.version is not None and after.version is not None
    assert before.version.valid_from == date(2016, 5, 4)
    assert after.version.valid_from == date(2018, 5, 23)
    assert before.version.sha256 != after.version.sha256
    # the corrigendum changed Art. 4 Nr. 18 to "natürliche oder juristische Person"
    assert "natürliche oder juristische Person" in (after.text or "")
    assert "natürliche oder juristische Person" not in (before.text or "")


def test_date_before_any_pinned_version_is_unpinned_at_date_not_resolved(
    corpus,
) -> None:
    r = _one("Art. 6 DSGVO", at=date(2010, 1, 1))
    assert r.status == "unpinned_at_date"
    assert r.reason is not None and r.reason.startswith("unpinned_at_date")
    # the wording of the earliest pinned version is given, with its date
    assert r.version is not None and r.version.valid_from == date(2016, 5, 4)
    assert r.text


def test_missing_unit_before_any_pinned_version_is_not_found_and_says_why(
    corpus,
) -> None:
    r = _one("Art. 999 DSGVO", at=date(2010, 1, 1))
    assert r.status == "not_found"
    assert r.reason is not None and r.reason.startswith("no_version_at_date")
    assert "no_such_article" in r.reason


def test_not_found_names_the_missing_unit(corpus) -> None:
    cases = {
        "Art. 100 DSGVO": "no_such_article",
        "Art. 6 Abs. 9 DSGVO": "no_such_paragraph",
        "Art. 6 Abs. 1 lit. z DSGVO": "no_such_point",
        "Erwägungsgrund 174 DSGVO": "no_such_recital",
        "Anhang XIV KI-VO": "no_such_annex",
        "§ 286 Abs. 7 BGB": "no_such_paragraph",
        "§ 9999 BGB": "no_such_section",
        "§ 280 Abs. 1 S. 5 BGB": "no_such_sentence",
    }
    for text, reason in cases.items():
        r = _one(text)
        assert r.status == "not_found", text
        assert r.reason is not None and r.reason.startswith(reason), (text, r.reason)
        assert r.text is None


def test_section_number_is_never_matched_as_substring(corpus) -> None:
    r823, r1823 = citations_check("§ 823 BGB und § 1823 BGB")
    assert r823.provision_path == "sec/823"
    assert r1823.provision_path == "sec/1823"
    assert r823.text != r1823.text


def test_wrong_unit_is_its_own_finding(corpus) -> None:
    r = _one("§ 44 DSGVO")
    assert r.status == "bad_unit"
    assert r.reason is not None and "articles" in r.reason
    assert _one("Art. 823 BGB").status == "bad_unit"
    assert _one("Erwägungsgrund 3 BGB").status == "bad_unit"


def test_unstated_instrument_is_ambiguous_with_candidates(corpus) -> None:
    r = _one("Erwägungsgrund 60")
    assert r.status == "ambiguous"
    assert set(r.candidates) == {
        "eu/reg/2016/679/recital/60",
        "eu/reg/2024/1689/recital/60",
        "eu/reg/2022/2554/recital/60",
    }
    r = _one("Art. 99 Abs. 2")
    assert r.status == "ambiguous"
    assert r.candidates == (
        "eu/reg/2016/679/art/99/para/2",
        "eu/reg/2024/1689/art/99/para/2",
    )
    r = _one("Art. 6 Abs. 1 lit. f")
    assert r.status == "ambiguous"
    assert r.candidates == ("eu/reg/2016/679/art/6/para/1/point/f",)


def test_annex_point_that_exists_in_several_sections_is_ambiguous(corpus) -> None:
    r = _one("Annex VIII point 1 AI Act")
    assert r.status == "ambiguous"
    assert len(r.candidates) == 3
    assert _one("Annex VIII, Section A, point 1 AI Act").status == "resolved"


def test_instrument_outside_the_corpus_is_not_checked(corpus) -> None:
    for text in ("§ 91 VwGO", "§ 35 VwVfG", "Art. 25 Richtlinie 95/46/EG"):
        r = _one(text)
        assert r.status == "not_checked", text
        assert r.reason is not None and r.reason.startswith("instrument_not_in_corpus")


def test_default_instrument_and_context_binding(corpus) -> None:
    r = _one("Art. 5 Abs. 1 lit. a", default_instrument="gdpr")
    assert r.status == "resolved"
    assert r.citation.canonical == "eu/reg/2016/679/art/5/para/1/point/a"
    first, bare = citations_check(
        "§ 286 Abs. 1 BGB regelt den Verzug. Abs. 2 Nr. 1 ..."
    )
    assert bare.status == "resolved"
    assert bare.provision_path == "sec/286/para/2/point/1"


def test_dora_resolves_in_both_languages(corpus) -> None:
    de = _one("Art. 28 Abs. 4 Buchst. a DORA")
    en = _one("Article 28(4)(a) DORA")
    assert de.status == en.status == "resolved"
    assert de.version is not None and de.version.language == "de"
    assert en.version is not None and en.version.language == "en"
    assert "IKT" in (de.text or "")
    assert "ICT" in (en.text or "")


def test_repealed_section_is_not_found(corpus) -> None:
    r = _one("§ 4 BGB")
    assert r.status == "not_found"
    assert r.reason is not None and r.reason.startswith("repealed")


def test_version_info_is_given_only_for_resolved_citations(corpus) -> None:
    ok = _one("§ 433 BGB")
    info = citation_version_info(ok)
    assert info is not None
    assert info.sha256 == (
        "1cce54f5d6da2a40cd07f853c7d8f006a7a92c88707f5f4d868e95cfa1605230"
    )
    assert info.valid_from == date(2026, 3, 29)
    assert citation_version_info(_one("§ 9999 BGB")) is None


def test_json_shape_is_exactly_the_documented_one(corpus) -> None:
    data = _one("Art. 6 Abs. 1 lit. f DSGVO").to_json()
    assert list(data) == [
        "span",
        "raw",
        "canonical",
        "status",
        "reason",
        "version",
        "excerpt",
        "parts",
        "group",
        "transitions",
    ]
    assert data["span"] == [0, 26]
    assert data["parts"] == {
        "instrument": "32016R0679",
        "article": "6",
        "paragraph": "1",
        "point": "f",
    }
    assert data["version"]["sha256"]
    assert data["excerpt"].startswith("die Verarbeitung ist zur Wahrung")
