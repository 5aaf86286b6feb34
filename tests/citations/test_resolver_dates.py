"""The law in force at the date: several pinned versions per instrument, each
with its validity; a date before every pinned version is ``unpinned_at_date``
(never ``resolved``, never a silent ``not_found``); transition rules as
context; one corpus query per check, not one per citation."""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from citations.corpus.pins import DEFAULT_PINS_PATH
from citations.domain.parser import parse_citations
from citations.domain.resolver import VersionSpan, validity_spans, version_choice
from citations.domain.transitions import transition_rules_for
from citations.errors import CitationInputTooLarge
from citations.models import InstrumentVersion
from citations.services import (
    MAX_CHECK_CHARS,
    CitationChecker,
    citation_input_check,
    citations_check,
    corpus_import,
)
from tests.citations.fixtures import CORPUS_DIR

# --- pure: which version answers a date ---

SPANS = validity_spans(
    [
        (1, "de", date(2002, 1, 1)),
        (2, "de", date(2026, 3, 29)),
        (3, "en", date(2016, 5, 4)),
    ]
)


def test_each_version_is_valid_until_the_day_before_the_next_one():
    by_key = {s.key: s for s in SPANS}
    assert by_key[1].valid_to == date(2026, 3, 28)
    assert by_key[2].valid_to is None
    assert by_key[3].valid_to is None  # another language is another sequence
    assert by_key[1].covers(date(2026, 3, 28)) and not by_key[1].covers(
        date(2026, 3, 29)
    )


@pytest.mark.parametrize(
    ("at", "valid", "later"),
    [
        (date(2024, 6, 1), 1, None),
        (date(2026, 3, 29), 2, None),
        (date(2030, 1, 1), 2, None),
        (date(2001, 12, 31), None, 1),
    ],
)
def test_version_choice_by_date(at, valid, later):
    spans = [s for s in SPANS if s.language == "de"]
    choice = version_choice(spans, at=at, language="de")
    assert (choice.valid.key if choice.valid else None) == valid
    assert (choice.later.key if choice.later else None) == later


def test_before_every_version_the_earliest_in_the_asked_language_is_named():
    spans = [
        VersionSpan(1, "en", date(2020, 1, 1)),
        VersionSpan(2, "de", date(2021, 1, 1)),
        VersionSpan(3, "de", date(2022, 1, 1)),
    ]
    choice = version_choice(spans, at=date(2010, 1, 1), language="de")
    assert choice.valid is None and choice.later is not None
    assert choice.later.key == 2


def test_transition_table_maps_the_2014_late_payment_reform():
    (rule,) = transition_rules_for(instrument="BGB", top="sec", unit="288")
    assert rule.provision == "Art. 229 § 34 EGBGB"
    assert transition_rules_for(instrument="BGB", top="sec", unit="823") == ()
    assert transition_rules_for(instrument="HGB", top="sec", unit="288") == ()


# --- against the real corpus ---


def _one(text: str, at: date):
    (result,) = citations_check(text, at=at)
    return result


@pytest.mark.corpus
@pytest.mark.django_db
def test_bgb_citation_dated_2024_is_unpinned_at_date_with_the_later_text(corpus):
    r = _one("§ 286 Abs. 1 BGB", date(2024, 6, 1))
    assert r.status == "unpinned_at_date"
    assert r.reason is not None and "2026-03-29" in r.reason
    assert "not verified" in r.reason
    assert r.version is not None and r.version.valid_from == date(2026, 3, 29)
    assert r.text and "Mahnung" in r.text
    assert r.to_json()["status"] == "unpinned_at_date"
    # the same citation on a date the pinned text covers resolves
    assert _one("§ 286 Abs. 1 BGB", date(2026, 6, 1)).status == "resolved"


@pytest.mark.corpus
@pytest.mark.django_db
def test_pinned_versions_carry_their_validity(corpus):
    gdpr = InstrumentVersion.objects.filter(instrument__key="gdpr", language="de")
    by_start = {v.valid_from: v.valid_to for v in gdpr}
    assert by_start[date(2016, 5, 4)] == date(2018, 5, 22)
    assert by_start[date(2018, 5, 23)] is None
    r = _one("Art. 4 Nr. 18 DSGVO", date(2017, 1, 1))
    assert r.version is not None and r.version.valid_to == date(2018, 5, 22)


@pytest.fixture
def older_bgb(corpus, tmp_path: Path) -> Path:
    """A temporary corpus folder with the real BGB file and a second pin that
    declares it the consolidation valid from 1.1.2002 (temp dir only)."""
    pins = json.loads(DEFAULT_PINS_PATH.read_text(encoding="utf-8"))
    (current,) = [p for p in pins["pins"] if p["instrument"] == "bgb"]
    older = dict(current, valid_from="2002-01-01", label="BGB, Fassung ab 1.1.2002")
    older["path"] = "bgb-2002/source.xml"
    (tmp_path / "bgb" / "de").mkdir(parents=True)
    (tmp_path / "bgb-2002").mkdir()
    shutil.copyfile(CORPUS_DIR / current["path"], tmp_path / current["path"])
    shutil.copyfile(CORPUS_DIR / current["path"], tmp_path / older["path"])
    pins_path = tmp_path / "pins.json"
    pins_path.write_text(
        json.dumps({"comment": "test", "pins": [current, older]}), encoding="utf-8"
    )
    corpus_import(corpus_dir=tmp_path, pins_path=pins_path, only=["bgb"])
    return tmp_path


@pytest.mark.corpus
@pytest.mark.django_db
def test_an_older_consolidation_with_its_own_pin_is_chosen_by_date(older_bgb):
    versions = InstrumentVersion.objects.filter(instrument__key="bgb").order_by(
        "valid_from"
    )
    assert [(v.valid_from, v.valid_to) for v in versions] == [
        (date(2002, 1, 1), date(2026, 3, 28)),
        (date(2026, 3, 29), None),
    ]
    in_2024 = _one("§ 286 Abs. 1 BGB", date(2024, 6, 1))
    assert in_2024.status == "resolved"
    assert in_2024.version is not None
    assert in_2024.version.label == "BGB, Fassung ab 1.1.2002"
    assert in_2024.version.valid_to == date(2026, 3, 28)
    in_2026 = _one("§ 286 Abs. 1 BGB", date(2026, 6, 1))
    assert in_2026.version is not None and in_2026.version.valid_from == date(
        2026, 3, 29
    )
    before = _one("§ 286 Abs. 1 BGB", date(2001, 6, 1))
    assert before.status == "unpinned_at_date"
    assert before.version is not None and before.version.valid_from == date(2002, 1, 1)


@pytest.mark.corpus
@pytest.mark.django_db
def test_transition_rule_is_context_when_the_egbgb_is_imported(corpus):
    parsed = parse_citations("Art. 229 § 34 EGBGB")
    egbgb = InstrumentVersion.objects.filter(
        instrument__aliases__contains=["EGBGB"]
    ).exists()
    if not egbgb or len(parsed) != 1:
        pytest.skip("the EGBGB (BGBEG) is not imported or its Art. 229 § 34 not parsed")
    r = _one("§ 288 Abs. 2 BGB", date(2024, 6, 1))
    assert [c.provision for c in r.transitions] == ["Art. 229 § 34 EGBGB"]
    assert r.transitions[0].text and "28. Juli 2014" in r.transitions[0].text
    assert r.to_json()["transitions"][0]["provision"] == "Art. 229 § 34 EGBGB"


@pytest.mark.corpus
@pytest.mark.django_db
def test_no_transition_context_is_invented_for_other_provisions(corpus):
    assert _one("§ 823 Abs. 1 BGB", date(2024, 6, 1)).transitions == ()


@pytest.mark.corpus
@pytest.mark.django_db
def test_a_long_text_is_checked_with_one_query_not_one_per_citation(corpus):
    text = " ".join(
        f"Nach § {n} BGB und Art. {n % 99 + 1} DSGVO gilt das." for n in range(1, 120)
    )
    CitationChecker().resolve_many(parse_citations(text), at=date(2026, 6, 1))  # warm
    with CaptureQueriesContext(connection) as queries:
        results = citations_check(text, at=date(2024, 6, 1))
    assert len(results) > 200
    assert len(queries) == 1, [q["sql"][:80] for q in queries]


# --- input size and rate ---


def test_input_above_the_cap_is_refused_with_the_numbers():
    citation_input_check("x" * MAX_CHECK_CHARS)
    with pytest.raises(CitationInputTooLarge) as exc:
        citation_input_check("x" * (MAX_CHECK_CHARS + 1))
    assert exc.value.code == "citation_input_too_large"
    assert f"{MAX_CHECK_CHARS:,}" in exc.value.message


@pytest.mark.django_db
def test_api_refuses_a_too_large_text_with_400_and_code(lawyer_client):
    response = lawyer_client.post(
        reverse("citations-api:check"),
        {"text": "§ 1 BGB " * (MAX_CHECK_CHARS // 8 + 1)},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "citation_input_too_large"


@pytest.mark.django_db
def test_page_refuses_a_too_large_text_with_a_message(lawyer_client):
    response = lawyer_client.post(
        reverse("citations:check"), {"text": "x" * (MAX_CHECK_CHARS + 1)}
    )
    assert response.status_code == 400
    assert "Split it into parts" in response.content.decode() or "Teile" in (
        response.content.decode()
    )


@pytest.mark.django_db
def test_checks_are_rate_limited_per_user_across_page_and_api(
    settings, lawyer_client, reviewer_client
):
    settings.CITATION_CHECK_RATE = "2/min"
    cache.clear()
    api = reverse("citations-api:check")
    page = reverse("citations:check")
    body = {"text": "kein Zitat"}
    assert lawyer_client.post(page, body).status_code == 200
    assert (
        lawyer_client.post(api, body, content_type="application/json").status_code
        == 200
    )
    third = lawyer_client.post(api, body, content_type="application/json")
    assert third.status_code == 429 and third.json()["code"] == "throttled"
    assert lawyer_client.post(page, body).status_code == 429
    # another user has their own allowance
    assert reviewer_client.post(page, body).status_code == 200
    cache.clear()


@pytest.mark.corpus
@pytest.mark.django_db
def test_transition_provision_is_resolved_against_its_own_pinned_text(
    corpus, monkeypatch
):
    """The mechanism without the EGBGB: a rule naming an imported provision is
    resolved at the asked date and given with its text and version."""
    from citations import services
    from citations.domain.transitions import TransitionRule

    rule = TransitionRule(
        instrument="BGB",
        top="sec",
        units=frozenset({"286"}),
        provision="Art. 6 Abs. 1 DSGVO",
        changed_on=date(2014, 7, 29),
        note_de="Test",
        note_en="Test",
    )
    monkeypatch.setattr(
        services,
        "transition_rules_for",
        lambda **kw: (rule,) if kw["unit"] == "286" else (),
    )
    r = _one("§ 286 Abs. 1 BGB", date(2026, 6, 1))
    (context,) = r.transitions
    assert context.status == "resolved" and context.text
    assert context.version is not None and context.version.valid_from == date(
        2018, 5, 23
    )
    assert _one("§ 280 Abs. 1 BGB", date(2026, 6, 1)).transitions == ()
