"""End to end: the OpenAI-compatible provider against the local stub server,
which plays a model that reads the realistic case file (ingested through the
real pipeline) and proposes facts of many kinds. It gets the same vocabulary,
value schemas and tool descriptions as every provider; a badly typed value is
refused with a hint and corrected; every proposal's quote is verbatim."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agents.domain.prompts import DATA_OPEN
from agents.domain.tools import EXTRACTION_TOOLS, TOOL_SPECS
from agents.models import AgentRun
from agents.services import extraction_run_start
from evidence.domain.quotes import quote_span
from ontology.vocabulary import vocabulary_base
from review.models import ExtractionProposal
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
     {"cents": 500, "currency": "EUR"}),
    ("per Einwurf-Einschreiben", "delivery_evidence",
     "Dieses Schreiben geht Ihnen per Einwurf-Einschreiben zu.",
     {"text": "Einwurf-Einschreiben"}),
    ("in den Briefkasten des Empfängers", "reminder_received",
     "Die Sendung wurde am 11.05.2026 in den Briefkasten des Empfängers eingeworfen",
     {"date": "2026-05-11"}),
    ("verweigern jede Zahlung", "refusal_to_pay",
     "Wir werden die Rechnung daher nicht bezahlen und verweigern jede Zahlung "
     "endgültig.", {"date": "2026-05-18"}),
    ("Rechtsanwaltskosten", "damage_item", None,
     {"cents": 45387, "currency": "EUR"}),
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
