"""The case as the gate sees it (``agents.domain.world.World``), read from the
database and scoped to one case. Lookups are cached for the run: the rules
provider asks about the same chunks many times."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from agents.domain.world import ChunkView
from cases.models import Case, Claim
from cases.selectors import membership_for_user
from evidence.models import Chunk
from ontology.vocabulary import Vocabulary
from review.models import ExtractionProposal
from review.selectors import confirmed_fact_ids, fact_ids_of_case, vocabulary_for_case


def _proposal_key(
    fact_type: str, chunk_id: int, value: Mapping[str, Any]
) -> tuple[str, int, str]:
    return (
        fact_type,
        int(chunk_id),
        json.dumps(value, sort_keys=True, ensure_ascii=False, default=str),
    )


class DjangoWorld:
    def __init__(self, *, case: Case, actor: Any, document_id: int | None = None):
        self.case = case
        self.actor = actor
        self.document_id = document_id
        self.run_id: int | None = None
        self.current_step_id: int | None = None
        self.model_id = ""
        self._chunks: dict[int, ChunkView | None] = {}
        self._chunk_rows: dict[int, Chunk] = {}
        self._vocabulary: Vocabulary | None = None
        self._parties: list[tuple[int, str]] | None = None
        self._proposals: dict[tuple[str, int, str], set[str]] | None = None
        self._fact_types: Mapping[str, str] | None = None

    @property
    def case_id(self) -> int:
        return self.case.pk

    def actor_may_act(self) -> bool:
        membership = membership_for_user(self.actor)
        return (
            membership is not None
            and membership.organisation_id == self.case.organisation_id
        )

    def prime_chunks(self, views: list[ChunkView]) -> None:
        """Chunks the run already read for its prompt: no second query."""
        for view in views:
            self._chunks[view.id] = view

    def case_chunk(self, chunk_id: int) -> ChunkView | None:
        if chunk_id not in self._chunks:
            row = (
                Chunk.objects.filter(pk=chunk_id, case_id=self.case.pk)
                .values("id", "document_id", "text")
                .first()
            )
            self._chunks[chunk_id] = (
                ChunkView(row["id"], row["document_id"], row["text"]) if row else None
            )
        return self._chunks[chunk_id]

    def chunk_row(self, chunk_id: int) -> Chunk:
        """The chunk as a row to point a proposal at (its id, case and
        document only; cached: several proposals come from one chunk)."""
        row = self._chunk_rows.get(chunk_id)
        if row is None:
            row = Chunk.objects.only("id", "case_id", "document_id").get(
                pk=chunk_id, case_id=self.case.pk
            )
            self._chunk_rows[chunk_id] = row
        return row

    def case_chunk_ids(self, *, limit: int) -> list[int]:
        queryset = Chunk.objects.filter(case_id=self.case.pk)
        if self.document_id is not None:
            queryset = queryset.filter(document_id=self.document_id)
        return list(
            queryset.order_by("document_id", "ordinal").values_list("id", flat=True)[
                :limit
            ]
        )

    def vocabulary(self) -> Vocabulary:
        """The case's firm's vocabulary, read once per run (the firm's newest
        extension version when the run starts; never another firm's)."""
        if self._vocabulary is None:
            self._vocabulary = vocabulary_for_case(self.case)
        return self._vocabulary

    def _party_rows(self) -> list[tuple[int, str]]:
        if self._parties is None:
            self._parties = list(self.case.parties.values_list("id", "name"))
        return self._parties

    def party_names(self) -> set[str]:
        return {name for _, name in self._party_rows()}

    def party_ids(self) -> set[int]:
        return {pk for pk, _ in self._party_rows()}

    def _proposal_index(self) -> dict[tuple[str, int, str], set[str]]:
        """(fact type, chunk, value) → call ids of the case's proposals, read
        once per run and kept up to date with the run's own commits
        (``proposal_noted``): the duplicate check is then a lookup, not a
        query per call. A proposal another run makes meanwhile is not seen;
        the review service's supersession handles that overlap."""
        if self._proposals is None:
            index: dict[tuple[str, int, str], set[str]] = {}
            rows = ExtractionProposal.objects.filter(case_id=self.case.pk).values_list(
                "fact_type", "source_chunk_id", "value", "call_id"
            )
            for fact_type, chunk_id, value, call_id in rows.iterator(chunk_size=2000):
                index.setdefault(_proposal_key(fact_type, chunk_id, value), set()).add(
                    call_id
                )
            self._proposals = index
        return self._proposals

    def proposal_exists(
        self, *, fact_type: str, value: Mapping[str, Any], chunk_id: int, call_id: str
    ) -> bool:
        calls = self._proposal_index().get(_proposal_key(fact_type, chunk_id, value))
        return bool(calls and calls - {call_id})

    def proposal_noted(
        self, *, fact_type: str, value: Mapping[str, Any], chunk_id: int, call_id: str
    ) -> None:
        """The run committed (or replayed) this proposal."""
        if self._proposals is not None:
            key = _proposal_key(fact_type, chunk_id, value)
            self._proposals.setdefault(key, set()).add(call_id)

    def fact_types(self) -> Mapping[str, str]:
        if self._fact_types is None:
            self._fact_types = self.vocabulary().value_kinds()
        return self._fact_types

    def confirmed_fact_ids(self) -> set[int]:
        """Confirmed (or evidenced) facts of the case."""
        return set(confirmed_fact_ids(case=self.case))

    def case_fact_ids(self) -> set[int]:
        return fact_ids_of_case(case=self.case)

    def case_claim_ids(self) -> set[int]:
        return set(
            Claim.objects.filter(case_id=self.case.pk).values_list("id", flat=True)
        )
