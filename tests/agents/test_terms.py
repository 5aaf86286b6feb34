"""Unknown document types become term proposals, never vocabulary."""

from __future__ import annotations

import json

from agents.domain.loop import ChunkInput, Episode
from agents.extraction.terms import document_type_terms
from agents.providers.rules import RulesProvider


def test_a_heading_of_an_unknown_document_type_is_a_term_candidate():
    text = (
        "Müller Logistik GmbH\n\n  Lieferschein Nr. 4711 vom 02.03.2026\n\nPosition 1"
    )
    [term] = document_type_terms(7, text)
    assert (term.label, term.kind, term.chunk_id) == (
        "Lieferschein",
        "document_type",
        7,
    )


def test_the_word_inside_a_sentence_or_a_long_line_is_no_heading():
    prose = "Wie im Lieferschein vom 2. März vermerkt, fehlte eine Palette."
    long_line = "Lieferschein " + "x" * 80
    assert list(document_type_terms(1, prose)) == []
    assert list(document_type_terms(1, long_line)) == []


def test_the_rules_provider_proposes_the_term_through_the_gate_once_per_heading():
    chunk = ChunkInput(
        11,
        3,
        "Mahnbescheid.pdf",
        (1,),
        "Amtsgericht Coburg\nMahnbescheid\n\nAntragsteller",
    )
    provider = RulesProvider()
    episode = Episode(messages=[{"role": "user", "content": ""}], chunks=[chunk])
    turn = provider.next_turn(episode=episode, messages=episode.messages)
    terms = [json.loads(c.arguments) for c in turn.calls if c.name == "propose_term"]
    assert terms == [
        {"label": "Mahnbescheid", "kind": "document_type", "source_chunk_id": 11}
    ]
    again = RulesProvider().next_turn(episode=episode, messages=episode.messages)
    ids = {c.call_id for c in turn.calls if c.name == "propose_term"}
    assert ids == {c.call_id for c in again.calls if c.name == "propose_term"}
