"""Every page of a lived-in case, rendered in German, shows no English status
word and no Python dict dump (``{'date': …}``): stored codes are translated at
display time, JSON values are shown in words."""

from __future__ import annotations

import html
import re
from datetime import timedelta
from typing import Any, Literal

import pytest
from django.urls import reverse
from django.utils import timezone

from agents.models import AgentRun
from agents.services import (
    agent_run_create,
    agent_run_execute,
    agent_runs_recover_stuck,
    envelope_for_extraction,
)
from review.services.decisions import proposal_accept, proposal_reject
from tests.agents.helpers import run_scripted
from tests.evidence.pdfs import document_storage, ingested_document  # noqa: F401
from tests.factories import ClaimFactory, PartyFactory
from tests.review.helpers import make_proposal

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("document_storage")]

#: Status codes as stored; on a German page each must appear translated.
ENGLISH_STATUS = re.compile(
    r"\b(pending|accepted|rejected|superseded|asserted|disputed|evidenced|"
    r"confirmed|withdrawn|queued|running|finished|failed|resolved|not_found|"
    r"unpinned_at_date|bad_unit|not_checked|no_such_\w+|tool_call|"
    r"approval_required|human_review_required|step_limit)\b"
)
DICT_DUMP = re.compile(r"\{'|\{&#x27;|'\}")


def _visible_text(page: str) -> str:
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S | re.I)
    page = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(page)


@pytest.fixture
def lived_in_case(case: Any, reviewer: Any) -> dict[str, Any]:
    PartyFactory(case=case)
    ClaimFactory(case=case)
    document = ingested_document(case)
    run = AgentRun.objects.create(
        case=case,
        provider="rules",
        goal="Tatsachen vorschlagen",
        envelope={},
        status=AgentRun.Status.FINISHED,
    )
    accepted = make_proposal(case, agent_run_id=run.pk)
    fact = proposal_accept(proposal=accepted, reviewer=reviewer)
    rejected = make_proposal(case, value={"date": "2026-05-06"}, agent_run_id=run.pk)
    proposal_reject(proposal=rejected, reviewer=reviewer)
    make_proposal(case, value={"date": "2026-05-07"}, agent_run_id=run.pk)
    return {"case": case, "document": document, "run": run, "fact": fact}


def _pages(data: dict[str, Any]) -> list[str]:
    case = data["case"].pk
    return [
        reverse("cases:list"),
        reverse("evidence:case_documents", kwargs={"case_id": case}),
        reverse("evidence:case_evidence", kwargs={"case_id": case}) + "?q=Mahnung",
        reverse("review:case_review", kwargs={"case_id": case}) + "?status=all",
        reverse("review:case_facts", kwargs={"case_id": case}),
        reverse("review:fact_detail", kwargs={"fact_id": data["fact"].pk}),
        reverse("review:queue") + "?status=all",
        reverse("agents:case_runs", kwargs={"case_id": case}),
        reverse(
            "agents:run_detail", kwargs={"case_id": case, "run_id": data["run"].pk}
        ),
        reverse("ontology:case_requirements", kwargs={"case_id": case}),
    ]


def test_every_page_of_a_case_is_german_without_codes_or_dict_dumps(
    lived_in_case: dict[str, Any], reviewer_client: Any, lawyer_client: Any
) -> None:
    problems = []
    audit = reverse("cases:audit", kwargs={"case_id": lived_in_case["case"].pk})
    for url in [*_pages(lived_in_case), audit]:
        client = lawyer_client if url == audit else reviewer_client
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
        assert response.status_code == 200, url
        text = _visible_text(response.content.decode())
        for match in ENGLISH_STATUS.finditer(text):
            problems.append(f"{url}: English status word {match.group(0)!r}")
        if DICT_DUMP.search(text):
            problems.append(f"{url}: a dict dump: {DICT_DUMP.search(text)!r}")
    assert not problems, "\n".join(problems)


def test_citation_check_shows_statuses_in_german(reviewer_client: Any) -> None:
    response = reviewer_client.post(
        reverse("citations:check"),
        {"text": "Nach § 286 Abs. 2 BGB und Art. 99999 DSGVO."},
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 200
    text = _visible_text(response.content.decode())
    m = ENGLISH_STATUS.search(text)
    assert not m, text[max(0, m.start() - 300) : m.end() + 100] if m else ""
    assert not DICT_DUMP.search(text)


# -- an agent run's goal and end reason ------------------------------------------

#: English run texts the agents code stores; none may show on a German page.
ENGLISH_RUN_TEXT = re.compile(
    r"Propose the facts|step limit|turn limit|token budget|cost budget|"
    r"provider error|provider failed|worker (?:was|executing)|times in a row|"
    r"resumed after|Every passage|internal error",
    re.I,
)


class _FailingProvider:
    name = "failing"
    call_id_scope: Literal["run", "global"] = "run"

    def next_turn(self, *, episode: Any, messages: Any) -> Any:
        from agents.domain.loop import ProviderError

        raise ProviderError("HTTP 503")


def _finished_run(case: Any, actor: Any) -> AgentRun:
    run, _steps, _provider = run_scripted(case=case, actor=actor, turns=[])
    return run


def _provider_failed_run(case: Any, actor: Any) -> AgentRun:
    envelope = envelope_for_extraction(case=case, actor=actor)
    run = agent_run_create(
        case=case, actor=actor, provider="scripted", envelope=envelope
    )
    return agent_run_execute(run=run, provider=_FailingProvider())


def _budget_run(case: Any, actor: Any) -> AgentRun:
    run, _steps, _provider = run_scripted(
        case=case,
        actor=actor,
        turns=[[("propose_case_fact", "{}")]],
        tokens_per_turn=1000,
        token_budget=500,
    )
    return run


def _worker_lost_run(case: Any, actor: Any, settings: Any) -> AgentRun:
    envelope = envelope_for_extraction(case=case, actor=actor)
    run = agent_run_create(
        case=case, actor=actor, provider="scripted", envelope=envelope
    )
    long_ago = timezone.now() - timedelta(days=1)
    AgentRun.objects.filter(pk=run.pk).update(
        status=AgentRun.Status.RUNNING,
        attempts=int(settings.BELEGT_AGENT_RUN_MAX_ATTEMPTS),
        started_at=long_ago,
        heartbeat_at=long_ago,
    )
    assert agent_runs_recover_stuck()["failed"] == 1
    run.refresh_from_db()
    return run


RUNS = {
    # kind: (make, status, code, German reason, English reason)
    "finished": (
        _finished_run,
        AgentRun.Status.FINISHED,
        "finished",
        "Alle Textstellen wurden gelesen.",
        "Every passage was read.",
    ),
    "provider_failed": (
        _provider_failed_run,
        AgentRun.Status.FAILED,
        "provider_error",
        "Der Modellanbieter ist gescheitert: HTTP 503",
        "The model provider failed: HTTP 503",
    ),
    "budget": (
        _budget_run,
        AgentRun.Status.BUDGET_EXHAUSTED,
        "token_budget",
        "Token-Budget von 500 Tokens aufgebraucht.",
        "Token budget of 500 tokens exhausted.",
    ),
    "worker_lost": (
        _worker_lost_run,
        AgentRun.Status.FAILED,
        "worker_lost",
        "Der ausführende Worker ging 3-mal verloren.",
        "The worker executing the run was lost 3 times.",
    ),
}


def _make_run(kind: str, case: Any, actor: Any, settings: Any) -> AgentRun:
    make = RUNS[kind][0]
    if kind == "worker_lost":
        settings.BELEGT_AGENT_RUN_MAX_ATTEMPTS = 3
        return make(case, actor, settings)  # type: ignore[operator]
    return make(case, actor)  # type: ignore[operator]


def _run_page(client: Any, run: AgentRun, language: str) -> str:
    url = reverse(
        "agents:run_detail", kwargs={"case_id": run.case_id, "run_id": run.pk}
    )
    client.cookies["django_language"] = language  # German is the default
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return " ".join(_visible_text(response.content.decode()).split())


@pytest.mark.parametrize("kind", list(RUNS))
def test_a_run_page_in_german_says_its_goal_and_end_reason_in_german(
    kind: str, case: Any, lawyer: Any, lawyer_client: Any, settings: Any
) -> None:
    ingested_document(case)
    run = _make_run(kind, case, lawyer, settings)
    _make, status, code, german, _english = RUNS[kind]
    assert (run.status, run.reason_code) == (status, code)
    assert run.goal.startswith("Propose the facts")  # the model's prompt stays
    text = _run_page(lawyer_client, run, "de")
    assert "Tatsachen dieses Verzugsschaden-Falls" in text
    assert german in text
    english = ENGLISH_RUN_TEXT.search(text)
    assert english is None, f"English run text {english.group(0)!r} in: {text}"


@pytest.mark.parametrize("kind", list(RUNS))
def test_a_run_page_in_english_says_its_goal_and_end_reason_in_english(
    kind: str, case: Any, lawyer: Any, lawyer_client: Any, settings: Any
) -> None:
    ingested_document(case)
    run = _make_run(kind, case, lawyer, settings)
    text = _run_page(lawyer_client, run, "en")
    assert "Propose the facts of this Verzugsschaden case" in text
    assert RUNS[kind][4] in text
    assert "Tatsachen dieses" not in text


def test_a_run_stored_before_reason_codes_shows_its_texts_as_they_are(
    case: Any, lawyer: Any, lawyer_client: Any
) -> None:
    run = AgentRun.objects.create(
        case=case,
        actor=lawyer,
        provider="rules",
        goal="Alte Zielbeschreibung",
        envelope={},
        status=AgentRun.Status.FAILED,
        reason="the worker was lost 2 times",
    )
    text = _run_page(lawyer_client, run, "de")
    assert "Alte Zielbeschreibung" in text
    assert "the worker was lost 2 times" in text


def test_an_old_run_whose_reason_is_a_bare_status_shows_it_in_words(
    case: Any, lawyer: Any, lawyer_client: Any
) -> None:
    run = AgentRun.objects.create(
        case=case,
        actor=lawyer,
        provider="rules",
        goal="x",
        envelope={},
        status=AgentRun.Status.FINISHED,
        reason="finished",
    )
    text = _run_page(lawyer_client, run, "de")
    assert "Grund für das Ende Beendet" in text
    assert not re.search(r"\bfinished\b", text)


SAMPLE_PARAMS: dict[str, dict[str, Any]] = {
    "finished": {},
    "step_limit": {"limit": 2000},
    "turn_limit": {"limit": 50},
    "token_budget": {"budget": 200000},
    "cost_budget": {"budget": 50},
    "identical_failures": {"check": "chunk_belongs_to_case", "count": 3},
    "provider_error": {"detail": "HTTP 503"},
    "provider_unavailable": {"detail": "BELEGT_LLM_MODEL"},
    "crashed": {"error": "KeyError: 'x'"},
    "worker_lost": {"count": 1},
    "resumed": {"attempt": 2},
}


def test_every_end_reason_code_has_a_german_text_with_its_parameters() -> None:
    from types import SimpleNamespace

    from django.utils import translation

    from agents.templatetags.run_text import REASONS, step_note

    assert set(SAMPLE_PARAMS) == set(REASONS)
    for code, params in SAMPLE_PARAMS.items():
        step = SimpleNamespace(note_code=code, note_params=params, note="stored")
        with translation.override("de"):
            german = step_note(step)
        with translation.override("en"):
            english = step_note(step)
        assert german not in ("stored", english), code
        assert ENGLISH_RUN_TEXT.search(german) is None, german
        for value in params.values():  # numbers with German grouping
            assert str(value) in german.replace(".000", "000"), (code, german)
    with translation.override("de"):
        assert "200.000" in step_note(
            SimpleNamespace(
                note_code="token_budget",
                note_params=SAMPLE_PARAMS["token_budget"],
                note="",
            )
        )
        # Parameters missing from an odd row: the stored text, not an error.
        assert (
            step_note(
                SimpleNamespace(note_code="step_limit", note_params={}, note="old")
            )
            == "old"
        )


# -- gate rejections and value refusals (the rest of item 12) ----------------------

#: English texts of the gate, its policies and the value schema; none may show
#: where a German page says why a call or a value was refused.
ENGLISH_REFUSAL = re.compile(
    r"is not a calendar date|is not a chunk of this case|is not a passage|"
    r"does not occur verbatim|does not occur word for word|Copy the quote|"
    r"has already been proposed|Move on to another|must be an ISO|"
    r"is not a party|is not a number|at most two decimal|lies outside|"
    r"must not be empty|Enter the date|MM/DD|allowed_chunk_ids|Passages of this case|"
    r"The value does not fit",
    re.I,
)


def _refusing_run(case: Any, actor: Any) -> AgentRun:
    """A run whose three calls the gate refuses: a chunk of no case, a quote
    not in its chunk, a date that is no calendar date."""
    import json

    from tests.review.helpers import make_chunk

    chunk = make_chunk(case)
    good = {
        "fact_type": "reminder_sent",
        "source_chunk_id": chunk.pk,
        "quote": "Zahlungserinnerung vom 05.05.2026",
        "value": {"date": "2026-05-05"},
        "confidence": 0.8,
    }
    calls = [
        {**good, "source_chunk_id": 987654},
        {**good, "quote": "steht nicht im Brief"},
        {**good, "value": {"date": "2026-02-31"}},
    ]
    run, _steps, _provider = run_scripted(
        case=case,
        actor=actor,
        turns=[[("propose_case_fact", json.dumps(c)) for c in calls]],
    )
    return run


def _without_verbatim_blocks(page: str) -> str:
    """The page without its ``<pre>`` blocks: what the model proposed and the
    observation it was sent are shown verbatim, in the model's language."""
    return re.sub(r"<pre\b.*?</pre>", " ", page, flags=re.S | re.I)


def test_a_run_page_in_german_says_why_the_gate_refused_each_call(
    case: Any, lawyer: Any, lawyer_client: Any
) -> None:
    run = _refusing_run(case, lawyer)
    codes = list(
        run.step_rows.filter(verdict="rejected").values_list(
            "rejection__code", flat=True
        )
    )
    assert codes == ["chunk_not_in_case", "quote_not_in_chunk", "invalid_value"]
    url = reverse("agents:run_detail", kwargs={"case_id": case.pk, "run_id": run.pk})
    page = lawyer_client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    text = " ".join(_visible_text(_without_verbatim_blocks(page)).split())

    assert "Abschnitt #987654 gehört nicht zu dieser Akte." in text
    assert "Das Zitat steht nicht wörtlich im Abschnitt." in text
    assert "Der Wert passt nicht zur Tatsachenart: 2026-02-31 ist kein" in text
    assert "Abschnitte dieser Akte: #" in text  # the hint, in words
    english = ENGLISH_REFUSAL.search(text)
    assert english is None, text[max(0, english.start() - 200) : english.end() + 80]
    assert not DICT_DUMP.search(text)


def test_a_run_page_in_english_says_why_the_gate_refused_in_english(
    case: Any, lawyer: Any, lawyer_client: Any
) -> None:
    run = _refusing_run(case, lawyer)
    text = _run_page(lawyer_client, run, "en")
    assert "Passage #987654 is not a passage of this case." in text
    assert "The value does not fit the fact type: 2026-02-31 is not a calendar" in text
    assert "gehört nicht zu dieser Akte" not in text


def test_the_model_still_gets_the_english_rejection_without_page_params(
    case: Any, lawyer: Any
) -> None:
    run = _refusing_run(case, lawyer)
    step = run.step_rows.filter(rejection__code="invalid_value").get()
    assert step.observation is not None and step.rejection is not None
    assert step.observation["message"] == "2026-02-31 is not a calendar date"
    assert "params" not in step.observation
    assert step.rejection["params"]["reason"] == "date_not_calendar"


def _edit_refused(client: Any, case: Any, language: str, **typed: str) -> str:
    proposal = make_proposal(case)
    client.cookies["django_language"] = language
    response = client.post(
        reverse("review:proposal_decide", kwargs={"proposal_id": proposal.pk}),
        {"action": "edit", **typed},
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400
    assert 'data-code="invalid_value"' in response.content.decode()
    return " ".join(_visible_text(response.content.decode()).split())


def _panel_refused(client: Any, case: Any, language: str, **typed: str) -> str:
    from tests.review.helpers import make_chunk

    chunk = make_chunk(case)
    client.cookies["django_language"] = language
    response = client.post(
        reverse("review:manual_fact", kwargs={"case_id": case.pk}),
        {
            "chunk": chunk.pk,
            "quote": "Zahlungserinnerung vom 05.05.2026",
            "fact_type": "reminder_sent",
            **typed,
        },
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400
    assert 'data-code="invalid_value"' in response.content.decode()
    return " ".join(_visible_text(response.content.decode()).split())


@pytest.mark.parametrize("show", [_edit_refused, _panel_refused])
def test_a_bad_date_is_refused_in_german_in_the_editor_and_the_panel(
    show: Any, case: Any, reviewer_client: Any
) -> None:
    text = show(reviewer_client, case, "de", date="31.02.2026")
    assert "31.02.2026 ist kein Kalenderdatum." in text
    english = ENGLISH_REFUSAL.search(text)
    assert english is None, text[max(0, english.start() - 200) : english.end() + 80]

    text = show(reviewer_client, case, "de", date="morgen")
    assert "Bitte das Datum als TT.MM.JJJJ eingeben" in text


@pytest.mark.parametrize("show", [_edit_refused, _panel_refused])
def test_a_bad_date_is_refused_in_english_on_english_pages(
    show: Any, case: Any, reviewer_client: Any
) -> None:
    text = show(reviewer_client, case, "en", date="2026-02-31")
    assert "2026-02-31 is not a calendar date." in text
    assert "Kalenderdatum" not in text


def test_an_amount_refusal_in_the_editor_is_german(
    case: Any, reviewer_client: Any
) -> None:
    proposal = make_proposal(
        case,
        fact_type="claim_amount",
        value={"cents": 400000, "currency": "EUR"},
        quote="4.250,00 EUR",
    )
    response = reviewer_client.post(
        reverse("review:proposal_decide", kwargs={"proposal_id": proposal.pk}),
        {"action": "edit", "amount": "4.250,001", "currency": "EUR", "label": ""},
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 400
    text = _visible_text(response.content.decode())
    assert "Höchstens zwei Nachkommastellen." in text
    assert ENGLISH_REFUSAL.search(text) is None


def test_every_value_refusal_code_of_the_schema_has_a_german_text() -> None:
    """A code the value schema raises without a German text would reach a
    German page in English: every ``ValueRule`` code is in the catalogue."""
    from pathlib import Path

    from django.utils import translation

    from ontology.value_messages import MESSAGES

    sources = " ".join(
        Path(p).read_text()
        for p in (
            "ontology/domain/value_kinds.py",
            "ontology/domain/values.py",
            "ontology/domain/vocabulary.py",
            "review/forms.py",
        )
    )
    raised = set(re.findall(r'ValueRule\(\s*"(\w+)"', sources))
    raised |= set(re.findall(r'code="(\w+)"', sources))
    raised |= set(re.findall(r'code, message = "(\w+)"', sources))
    raised |= set(re.findall(r'^\s+"(\w+_out_of_range)",$', sources, re.M))
    assert raised - {"invalid"} <= set(MESSAGES), raised - set(MESSAGES)
    sample = {
        "where": "date",
        "value": "x",
        "max": 2,
        "high": 3,
        "kind": "k",
        "key": "k",
        "choices": ["a"],
    }
    for code, render in MESSAGES.items():
        with translation.override("de"):
            german = render(sample)
        with translation.override("en"):
            english = render(sample)
        assert german != english, code


def _choice_keys() -> set[str]:
    """Every stored choice key of the versioned vocabulary that is not also
    part of a German label ("sonstige Position"; "a" is too short to find)."""
    from ontology.domain.vocabulary import fact_types_all

    keys: set[str] = set()
    labels: list[str] = []
    for info in fact_types_all().values():
        for item in info.record_fields:
            keys.update(item.choices)
            labels += [de for _, de, _ in item.choice_labels]
    return {k for k in keys if len(k) > 2 and not any(k in de for de in labels)}


def test_every_choice_of_the_vocabulary_has_a_german_and_an_english_label() -> None:
    from ontology.domain.vocabulary import fact_types_all

    for info in fact_types_all().values():
        for item in info.record_fields:
            assert [key for key, _, _ in item.choice_labels] == list(item.choices)
            for key, de, en in item.choice_labels:
                assert de and en and de != key, (info.key, item.key, key)


CHOICE_FACTS: list[tuple[str, dict[str, Any]]] = [
    ("reminder_sent", {"date": "2026-03-02", "dispatch": "einwurf_einschreiben"}),
    ("reminder_delivered", {"date": "2026-03-04", "proof": "auslieferungsbeleg"}),
    ("delivery_evidence", {"kind": "sendungsverfolgung_zugestellt"}),
    ("refusal_to_pay", {"date": "2026-03-10", "kind": "voruebergehend"}),
    (
        "fee_note_item",
        {
            "kind": "geschaeftsgebuehr",
            "net": {"cents": 10_000, "currency": "EUR"},
            "vv_no": "2300",
        },
    ),
]


def test_choice_values_show_as_german_labels_on_desk_requirements_and_forms(
    case: Any, reviewer: Any, reviewer_client: Any
) -> None:
    ClaimFactory(case=case)
    for fact_type, value in CHOICE_FACTS:
        proposal = make_proposal(case, fact_type=fact_type, value=value)
        fact = proposal_accept(proposal=proposal, reviewer=reviewer)
        assert fact.value == value  # the stored value keeps the keys
    make_proposal(case, fact_type="reminder_sent", value=CHOICE_FACTS[0][1])
    keys = _choice_keys()
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, keys))) + r")\b")
    pages = [
        reverse("review:case_review", kwargs={"case_id": case.pk}) + "?status=all",
        reverse("review:case_facts", kwargs={"case_id": case.pk}),
        reverse("ontology:case_requirements", kwargs={"case_id": case.pk}),
        reverse("review:manual_fact", kwargs={"case_id": case.pk})
        + "?fact_type=reminder_sent",
        reverse("review:manual_fact", kwargs={"case_id": case.pk})
        + "?fact_type=fee_note_item",
    ]
    problems = []
    for url in pages:
        response = reviewer_client.get(url, HTTP_ACCEPT_LANGUAGE="de")
        assert response.status_code == 200, url
        text = _visible_text(response.content.decode())
        problems += [f"{url}: key {m.group(0)!r}" for m in pattern.finditer(text)]
        if "2300" in text and "Nr. VV RVG" not in text:
            problems.append(f"{url}: a bare VV number")
    assert not problems, "\n".join(problems)
    form = reviewer_client.get(pages[3], HTTP_ACCEPT_LANGUAGE="de").content.decode()
    # the option's value stays the key, its text is the label
    assert '<option value="einwurf_einschreiben">Einwurf-Einschreiben</option>' in form
    shown = reviewer_client.get(pages[2], HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Einwurf-Einschreiben" in shown
