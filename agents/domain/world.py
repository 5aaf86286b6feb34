"""What the gate and the policy evaluators may know about the case: a port the
Django side implements (``agents.world.DjangoWorld``) and tests can fake.

Every lookup is scoped to the run's case. A chunk of another case is simply
not found, so an answer never tells a model whether an id exists elsewhere."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ontology.domain.vocabulary import Vocabulary


@dataclass(frozen=True)
class ChunkView:
    id: int
    document_id: int
    text: str


class World(Protocol):
    @property
    def case_id(self) -> int: ...

    def actor_may_act(self) -> bool:
        """The envelope's actor is a member of the case's firm."""
        ...

    def case_chunk(self, chunk_id: int) -> ChunkView | None: ...

    def case_chunk_ids(self, *, limit: int) -> list[int]:
        """Some chunk ids of this case (the run's document first), for hints."""
        ...

    def vocabulary(self) -> Vocabulary:
        """The case's firm's vocabulary (versioned types plus its extension)."""
        ...

    def fact_types(self) -> Mapping[str, str]:
        """Fact type key → value kind, from the firm's vocabulary."""
        ...

    def party_names(self) -> set[str]: ...

    def party_ids(self) -> set[int]: ...

    def proposal_exists(
        self, *, fact_type: str, value: Mapping[str, Any], chunk_id: int, call_id: str
    ) -> bool:
        """Another proposal (one with a different call id) says the same."""
        ...

    def confirmed_fact_ids(self) -> set[int]: ...

    def case_fact_ids(self) -> set[int]: ...

    def case_claim_ids(self) -> set[int]: ...
