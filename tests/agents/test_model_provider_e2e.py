"""End to end: the OpenAI-compatible provider against the local stub server,
which plays a model that reads the realistic case file (ingested through the
real pipeline) and proposes facts of many kinds. It gets the same vocabulary,
value schemas and tool descriptions as every provider; a badly typed value is
refused with a hint and corrected; every proposal's quote is verbatim.

A second played model reads a small generated case file
(``tests.agents.verzug_case``) and proposes every Verzugsschaden fact kind of
the vocabulary (the list is read from the vocabulary at test time, so a new
kind without a hand-written reading fails), plus one badly typed value per
record kind, which the gate refuses with the schema's hint."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agents.domain.prompts import DATA_OPEN, extraction_episode
from agents.domain.tools import EXTRACTION_TOOLS, TOOL_SPECS
from agents.models import AgentRun
from agents.services import extraction_run_start
from evidence.domain.quotes import quote_span
from ontology.vocabulary import (
    FactTypeInfo,
    FactValueInvalid,
    fact_types_all,
    fact_value_validate,
    vocabulary_base,
)
from review.models import ExtractionProposal
from tests.agents import verzug_case
from tests.agents.conftest import make_document
from tests.agents.stub_llm import chat_answer, chunks_in_prompt, stub_llm, tool_call

pytestmark = pytest.mark.django_db

# (marker the model recognises in a chunk, fact type, verbatim quote, value);
# no quote: the model copies the table row the marker starts (its amount is
# printed "€" or "EUR" depending on the fonts of the machine that made the PDF).
READINGS: list[tuple[str, str, str | None, dict[str, Any]]] = [
    ("Rechnungsdatum", "invoice_issued", "Rechnungsdatum: 26.03.2026",
     {"date": "2026-03-26"}),
    ("Kaufvertrag vom", "contract_concluded",
     "gemäß unserem Kaufvertrag vom 02.03.2026", {"date": "2026-03-02"}),
    ("Der Rechnungsbetrag ist zahlbar", "due_date",
     "Der Rechnungsbetrag ist zahlbar bis zum 26.04.2026", {"date": "2026-04-26"}),
    ("Rechnungsbetrag  ", "claim_amount", None,
     {"cents": 425000, "currency": "EUR"}),
    ("1. Mahnung", "reminder_sent", "Leipzig, 08.05.2026 1. Mahnung",
     {"date": "2026-05-08"}),
    ("Mahnkosten  ", "damage_item", None,
     {"amount": {"cents": 500, "currency": "EUR"}, "text": "Mahnkosten"}),
    ("per Einwurf-Einschreiben", "delivery_evidence",
     "Dieses Schreiben geht Ihnen per Einwurf-Einschreiben zu.",
     {"kind": "behauptung_gläubiger"}),
    ("in den Briefkasten des Empfängers", "reminder_received",
     "Die Sendung wurde am 11.05.2026 in den Briefkasten des Empfängers eingeworfen",
     {"date": "2026-05-11"}),
    ("verweigern jede Zahlung", "refusal_to_pay",
     "Wir werden die Rechnung daher nicht bezahlen und verweigern jede Zahlung "
     "endgültig.", {"date": "2026-05-18", "kind": "endgueltig"}),
    ("Rechtsanwaltskosten", "damage_item", None,
     {"amount": {"cents": 45387, "currency": "EUR"},
      "text": "Rechtsanwaltskosten"}),
    ("Verzugszinsen in Höhe", "interest_claimed",
     "Verzugszinsen in Höhe von 9 Prozentpunkten über dem Basiszinssatz",
     {"text": "9 Prozentpunkte über dem Basiszinssatz"}),
]  # fmt: skip
WRONG_DUE_DATE = {"date": "26.04.2026"}  # German notation: the schema refuses it


class PlayedModel:
    """Answers like a tool-calling model: on an episode's data it proposes
    what it recognises (once with a wrongly typed due date); after the tool
    results it corrects a refused value once, then finishes."""

    def __init__(self) -> None:
        self.counter = 0
        self.corrected: set[str] = set()
        self.pending: dict[str, dict[str, Any]] = {}

    def _call(self, args: dict[str, Any]) -> dict[str, Any]:
        self.counter += 1
        call_id = f"call_{self.counter}"
        self.pending[call_id] = args
        return tool_call(call_id, "propose_case_fact", args)

    def __call__(self, request: dict[str, Any]) -> tuple[int, Any]:
        messages = request["messages"]
        last = messages[-1]
        if last["role"] == "user" and DATA_OPEN in (last.get("content") or ""):
            calls = []
            for chunk in chunks_in_prompt(request):
                for marker, fact_type, quote, value in READINGS:
                    if marker not in chunk["text"]:
                        continue
                    wrong = fact_type == "due_date" and not self.corrected
                    if quote is None:
                        quote = next(
                            line.strip()
                            for line in chunk["text"].splitlines()
                            if marker in line
                        )
                    calls.append(
                        self._call(
                            {
                                "fact_type": fact_type,
                                "source_chunk_id": chunk["chunk_id"],
                                "quote": quote,
                                "value": WRONG_DUE_DATE if wrong else value,
                                "confidence": 0.85,
                            }
                        )
                    )
            if not calls:
                return 200, chat_answer(content="Nichts Einschlägiges.")
            return 200, chat_answer(tool_calls=calls)
        fixes = []
        for message in messages:
            if message["role"] != "tool":
                continue
            observation = json.loads(message["content"])
            call_id = message["tool_call_id"]
            if observation.get("code") == "invalid_value" and call_id not in (
                self.corrected
            ):
                self.corrected.add(call_id)
                args = dict(self.pending[call_id])
                args["value"] = {"date": "2026-04-26"}
                fixes.append(self._call(args))
        if fixes:
            return 200, chat_answer(tool_calls=fixes)
        return 200, chat_answer(content="Fertig.")


@pytest.fixture
def llm_settings(settings):
    settings.BELEGT_LLM_MODEL = "stub-model-7b"
    settings.BELEGT_LLM_API_KEY = "sk-test-123"
    settings.BELEGT_LLM_RETRIES = 1
    settings.BELEGT_LLM_TIMEOUT = 10.0
    return settings


def test_stub_model_proposes_many_fact_kinds_through_the_same_gate(
    ingested_case, lawyer, llm_settings
):
    model = PlayedModel()
    with stub_llm([model] * 200) as stub:
        llm_settings.BELEGT_LLM_BASE_URL = stub.base_url
        run = extraction_run_start(
            case=ingested_case, actor=lawyer, provider="openai", run_async=False
        )
    assert run.status == AgentRun.Status.FINISHED, run.reason

    # The same tool descriptions and vocabulary as every provider.
    first = stub.requests[0]
    offered = {t["function"]["name"]: t["function"] for t in first["tools"]}
    assert set(offered) == set(EXTRACTION_TOOLS)
    for name, function in offered.items():
        assert function["parameters"] == TOOL_SPECS[name].json_schema()
    system = first["messages"][0]["content"]
    for key in vocabulary_base().value_kinds():
        assert key in system

    proposals = list(
        ExtractionProposal.objects.filter(case=ingested_case).select_related(
            "source_chunk"
        )
    )
    found = {(p.fact_type, json.dumps(p.value, sort_keys=True)) for p in proposals}
    expected = {(ft, json.dumps(v, sort_keys=True)) for _m, ft, _q, v in READINGS}
    assert expected <= found, expected - found
    assert len({ft for ft, _ in found}) >= 10  # many kinds, not one
    for proposal in proposals:
        assert quote_span(proposal.source_chunk.text, proposal.quote) is not None
        assert proposal.model_id == "stub-model-7b"

    # The wrongly typed due date was refused with a hint, then corrected.
    assert run.rejections_by_code.get("invalid_value") == 1
    refused = run.step_rows.get(rejection__code="invalid_value")
    assert refused.rejection is not None
    assert refused.rejection["failed_policy"] == "value_valid_for_fact_type"
    assert ExtractionProposal.objects.filter(
        case=ingested_case, fact_type="due_date", value={"date": "2026-04-26"}
    ).exists()
    assert not ExtractionProposal.objects.filter(value=WRONG_DUE_DATE).exists()


# --------------------------------------------------------------------------
# Every Verzugsschaden fact kind of the vocabulary, on a small generated file.

CLAIM_TYPE = "verzugsschaden"


def _claim_kinds() -> dict[str, FactTypeInfo]:
    """The vocabulary's fact kinds of the claim type, read at test time: a
    kind added to fact_types.ttl without a played reading fails the test."""
    return {
        key: info
        for key, info in fact_types_all().items()
        if CLAIM_TYPE in info.claim_types
    }


def _record_kinds() -> dict[str, FactTypeInfo]:
    """One fact kind (the first by key) per record value kind."""
    result: dict[str, FactTypeInfo] = {}
    for _key, info in sorted(_claim_kinds().items()):
        if info.value_schema.is_record:
            result.setdefault(info.value_kind, info)
    return result


class EveryKindModel:
    """Reads the chunks of the prompt and proposes each hand-written reading
    from the chunk that holds its quote; right after the first reading of a
    record kind it also sends that kind's badly typed value. After the tool
    results it keeps what the gate answered and finishes."""

    def __init__(self) -> None:
        self.counter = 0
        self.played: dict[str, dict[str, Any]] = {}  # call id -> arguments
        self.bad_calls: dict[str, str] = {}  # record kind -> call id
        self.observations: dict[str, dict[str, Any]] = {}

    def _call(self, args: dict[str, Any]) -> dict[str, Any]:
        self.counter += 1
        call_id = f"call_{self.counter}"
        self.played[call_id] = args
        return tool_call(call_id, "propose_case_fact", args)

    def __call__(self, request: dict[str, Any]) -> tuple[int, Any]:
        last = request["messages"][-1]
        if last["role"] == "user" and DATA_OPEN in (last.get("content") or ""):
            kinds = _claim_kinds()
            calls = []
            for chunk in chunks_in_prompt(request):
                for fact_type, quote, value in verzug_case.READINGS:
                    if quote_span(chunk["text"], quote) is None:
                        continue
                    args = {
                        "fact_type": fact_type,
                        "source_chunk_id": chunk["chunk_id"],
                        "quote": quote,
                        "value": value,
                        "confidence": 0.8,
                    }
                    calls.append(self._call(args))
                    # Alternating with good calls keeps the circuit breaker
                    # (same policy failing N times in a row) out of the way.
                    record = kinds[fact_type].value_kind
                    bad = verzug_case.BAD_RECORD_VALUES.get(record)
                    if bad is not None and record not in self.bad_calls:
                        calls.append(self._call({**args, "value": bad}))
                        self.bad_calls[record] = f"call_{self.counter}"
            if not calls:
                return 200, chat_answer(content="Nichts Einschlägiges.")
            return 200, chat_answer(tool_calls=calls)
        for message in request["messages"]:
            if message["role"] == "tool":
                self.observations[message["tool_call_id"]] = json.loads(
                    message["content"]
                )
        return 200, chat_answer(content="Fertig.")


@pytest.fixture
def verzug_file(case, parties, claim):
    for filename, pages in verzug_case.CASE_FILE:
        make_document(case, filename=filename, pages=pages)
    return case


def test_every_verzugsschaden_kind_has_a_hand_written_reading_and_bad_record():
    kinds = _claim_kinds()
    assert len(kinds) >= 40  # the agreed vocabulary, not an empty filter
    read = {fact_type for fact_type, _q, _v in verzug_case.READINGS}
    assert set(kinds) - read == set(), "kinds without a played call"
    assert read - set(kinds) == set(), "readings of kinds the vocabulary lacks"
    assert set(verzug_case.BAD_RECORD_VALUES) == set(_record_kinds())
    texts = [text for _name, pages in verzug_case.CASE_FILE for text in pages]
    for fact_type, quote, value in verzug_case.READINGS:
        assert any(quote_span(t, quote) for t in texts), (fact_type, quote)
        # Each hand-written value is a valid value of its kind ...
        assert fact_value_validate(fact_type=fact_type, value=value) == value
    for record, info in _record_kinds().items():
        # ... and each bad one is refused by the same schema.
        with pytest.raises(FactValueInvalid):
            fact_value_validate(
                fact_type=info.key, value=verzug_case.BAD_RECORD_VALUES[record]
            )


def test_stub_model_proposes_every_verzugsschaden_kind_through_the_gate(
    verzug_file, lawyer, llm_settings
):
    model = EveryKindModel()
    with stub_llm([model] * 50) as stub:
        llm_settings.BELEGT_LLM_BASE_URL = stub.base_url
        run = extraction_run_start(
            case=verzug_file, actor=lawyer, provider="openai", run_async=False
        )
    assert run.status == AgentRun.Status.FINISHED, run.reason
    kinds = _claim_kinds()

    # The description sent is the one every provider's episode carries
    # (prompts.extraction_episode from the vocabulary the gate checks
    # against), and it lists every kind with its value kind; record kinds
    # also with their shape.
    first = stub.requests[0]
    system = first["messages"][0]["content"]
    same = extraction_episode(
        chunks=[], fact_types=vocabulary_base().value_kinds(), goal="-"
    )
    assert system == same.messages[0]["content"]
    for key, info in kinds.items():
        assert f"{key}: {info.value_kind}" in system, key
        if info.value_schema.is_record:
            assert f"- {key} takes {info.value_schema.hint()}\n" in system, key
    offered = {t["function"]["name"]: t for t in first["tools"]}
    assert offered["propose_case_fact"] == TOOL_SPECS["propose_case_fact"].openai_tool()

    # Every kind was played, and every reading landed as a pending proposal
    # with its typed value, from the chunk holding its verbatim quote.
    played = {args["fact_type"] for args in model.played.values()}
    assert set(kinds) <= played, set(kinds) - played
    proposals = list(
        ExtractionProposal.objects.filter(case=verzug_file).select_related(
            "source_chunk"
        )
    )
    landed = {
        (p.fact_type, p.quote, json.dumps(p.value, sort_keys=True)): p
        for p in proposals
    }
    for fact_type, quote, value in verzug_case.READINGS:
        reading = (fact_type, quote, json.dumps(value, sort_keys=True))
        assert reading in landed, reading
        proposal = landed[reading]
        assert proposal.status == ExtractionProposal.Status.PENDING
        assert quote_span(proposal.source_chunk.text, quote) is not None
        assert proposal.model_id == "stub-model-7b"
    assert len(proposals) == len(verzug_case.READINGS)

    # One badly typed value per record kind: refused with the schema's hint
    # (the shape of the kind, or the choices of the field it got wrong).
    assert set(model.bad_calls) == set(_record_kinds())
    for record, call_id in model.bad_calls.items():
        args = model.played[call_id]
        observation = model.observations[call_id]
        assert observation["status"] == "rejected", (record, observation)
        assert observation["code"] == "invalid_value", (record, observation)
        assert observation["failed_policy"] == "value_valid_for_fact_type"
        schema = kinds[args["fact_type"]].value_schema
        with pytest.raises(FactValueInvalid) as refused:
            schema.admit(args["value"])
        assert observation["hint"] == refused.value.hint, record
        choices = [list(f.choices) for f in schema.fields if f.choices]
        assert observation["hint"] == schema.hint() or any(
            observation["hint"] == f"one of: {c}" for c in choices
        ), (record, observation["hint"])
    assert run.rejections_by_code == {"invalid_value": len(model.bad_calls)}
    refused_pairs = {
        (
            model.played[c]["fact_type"],
            json.dumps(model.played[c]["value"], sort_keys=True),
        )
        for c in model.bad_calls.values()
    }
    stored_pairs = {
        (p.fact_type, json.dumps(p.value, sort_keys=True)) for p in proposals
    }
    assert not refused_pairs & stored_pairs
