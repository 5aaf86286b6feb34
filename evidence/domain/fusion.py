"""Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009).

Each ranked list contributes ``weight / (k + rank)`` for every item it holds
(rank starting at 1, weight 1 unless given); items are ordered by the sum.
Scores of the input lists are ignored on purpose: a cosine distance and a
``ts_rank_cd`` are not comparable, ranks are. Pure: no database."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)

#: The constant from the paper; damps the weight of the very first ranks.
RRF_K = 60


@dataclass(frozen=True)
class Fused(Generic[K]):
    key: K
    score: float
    #: 1-based rank of the item in each input list, None where it is absent.
    ranks: tuple[int | None, ...]


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[K]],
    *,
    k: int = RRF_K,
    weights: Sequence[float] | None = None,
    limit: int | None = None,
) -> list[Fused[K]]:
    """Fuse ranked lists of keys (best first). Duplicates inside one list count
    at their best rank only. Ties are broken by the best single rank, then by
    the order of first appearance, so the result is deterministic."""
    if k < 0:
        raise ValueError("k must not be negative")
    if weights is None:
        weights = [1.0] * len(rankings)
    if len(weights) != len(rankings) or any(w < 0 for w in weights):
        raise ValueError("one non-negative weight per ranking")
    ranks: dict[K, list[int | None]] = {}
    order: dict[K, int] = {}
    for list_index, ranking in enumerate(rankings):
        for position, key in enumerate(ranking, start=1):
            if key not in ranks:
                ranks[key] = [None] * len(rankings)
                order[key] = len(order)
            if ranks[key][list_index] is None:
                ranks[key][list_index] = position
    fused = [
        Fused(
            key=key,
            score=sum(
                w / (k + r)
                for w, r in zip(weights, key_ranks, strict=True)
                if r is not None
            ),
            ranks=tuple(key_ranks),
        )
        for key, key_ranks in ranks.items()
    ]
    fused.sort(
        key=lambda f: (
            -f.score,
            min(r for r in f.ranks if r is not None),
            order[f.key],
        )
    )
    return fused if limit is None else fused[:limit]
