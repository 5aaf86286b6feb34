"""Reciprocal rank fusion: pure unit tests."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evidence.domain.fusion import RRF_K, reciprocal_rank_fusion


def test_item_in_both_lists_beats_items_in_one():
    fused = reciprocal_rank_fusion([["a", "b", "c"], ["d", "b", "e"]])
    assert fused[0].key == "b"
    assert fused[0].score == pytest.approx(2 / (RRF_K + 2))
    assert fused[0].ranks == (2, 2)


def test_scores_are_sums_of_reciprocal_ranks():
    fused = {f.key: f for f in reciprocal_rank_fusion([["a", "b"], ["b"]], k=10)}
    assert fused["a"].score == pytest.approx(1 / 11)
    assert fused["b"].score == pytest.approx(1 / 12 + 1 / 11)
    assert fused["a"].ranks == (1, None)
    assert fused["b"].ranks == (2, 1)


def test_one_empty_list_keeps_the_order_of_the_other():
    fused = reciprocal_rank_fusion([[], [3, 1, 2]])
    assert [f.key for f in fused] == [3, 1, 2]
    assert all(f.ranks[0] is None for f in fused)


def test_ties_break_by_best_single_rank_then_first_appearance():
    # x is first in list one, y first in list two: equal scores, equal best
    # rank; x appeared first.
    fused = reciprocal_rank_fusion([["x", "z"], ["y", "w"]])
    assert [f.key for f in fused][:2] == ["x", "y"]


def test_duplicates_inside_one_list_count_once_at_their_best_rank():
    fused = reciprocal_rank_fusion([["a", "a", "b"]], k=0)
    assert [(f.key, f.score, f.ranks) for f in fused] == [
        ("a", 1.0, (1,)),
        ("b", pytest.approx(1 / 3), (3,)),
    ]


def test_limit_cuts_the_fused_list():
    assert len(reciprocal_rank_fusion([list(range(20)), list(range(20))], limit=5)) == 5


def test_negative_k_is_refused():
    with pytest.raises(ValueError):
        reciprocal_rank_fusion([["a"]], k=-1)


@given(
    st.lists(st.lists(st.integers(0, 30), max_size=15), min_size=1, max_size=4),
)
def test_fusion_holds_every_item_once_in_descending_score(rankings):
    fused = reciprocal_rank_fusion(rankings)
    keys = [f.key for f in fused]
    assert sorted(keys) == sorted({key for ranking in rankings for key in ranking})
    scores = [f.score for f in fused]
    assert scores == sorted(scores, reverse=True)


def test_weights_scale_each_lists_contribution():
    fused = {
        f.key: f.score
        for f in reciprocal_rank_fusion([["a"], ["b"]], k=0, weights=[0.3, 1.0])
    }
    assert fused == {"a": pytest.approx(0.3), "b": pytest.approx(1.0)}
    # a weak list's first place loses against a strong list's first place
    assert [
        f.key for f in reciprocal_rank_fusion([["a"], ["b"]], weights=[0.3, 1])
    ] == [
        "b",
        "a",
    ]


@pytest.mark.parametrize("weights", [[1.0], [1.0, -0.1]])
def test_weights_must_match_the_lists_and_not_be_negative(weights):
    with pytest.raises(ValueError):
        reciprocal_rank_fusion([["a"], ["b"]], weights=weights)
