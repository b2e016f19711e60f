"""The evaluator shortcuts of issue 16 give what the evaluator gives.

``cards.low_key`` and the stud hi/lo low key skip pokerkit when the cards hold too few different
ranks of A to 8 for an eight-or-better low (pokerkit would try every combination and find none),
and give pokerkit only the cards of A to 8 (no other card is in a low).
Here the shortcut is compared with pokerkit asked directly, on random deals and on deals built to
sit at the edge (exactly enough low ranks, pairs among them).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import EightOrBetterLowHand, OmahaEightOrBetterLowHand

from auditor.replay.cards import low_key
from auditor.replay.showdown import evaluate

DECK = [r + s for r in "23456789TJQKA" for s in "shdc"]
LOWISH = [r + s for r in "A2345689TK" for s in "sh"]  # low ranks, pairs and a few high cards


def _pk_omaha_low(hole: list[str], board: list[str]) -> object:
    try:
        return OmahaEightOrBetterLowHand.from_game("".join(hole), "".join(board))
    except ValueError:
        return None


def _pk_low(cards: list[str]) -> object:
    try:
        return EightOrBetterLowHand.from_game("".join(cards))
    except ValueError:
        return None


@settings(max_examples=300, deadline=None)
@given(st.permutations(DECK), st.sampled_from([4, 5]), st.sampled_from([3, 4, 5]))
def test_omaha_low_key_is_pokerkits(deck: list[str], n_hole: int, n_board: int) -> None:
    hole, board = deck[:n_hole], deck[n_hole : n_hole + n_board]
    _same(low_key("omaha_hilo", hole, board), _pk_omaha_low(hole, board))


@settings(max_examples=300, deadline=None)
@given(st.permutations(LOWISH), st.sampled_from([4, 5]), st.sampled_from([3, 5]))
def test_omaha_low_key_is_pokerkits_near_the_edge(deck: list[str], n_hole: int, n_board: int) -> None:
    hole, board = deck[:n_hole], deck[n_hole : n_hole + n_board]
    _same(low_key("omaha_hilo", hole, board), _pk_omaha_low(hole, board))


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.permutations(DECK), st.permutations(LOWISH)))
def test_stud_low_key_is_pokerkits(deck: list[str]) -> None:
    cards = deck[:7]
    got = evaluate("stud_hilo", cards)
    assert got is not None
    _same(got[1], _pk_low(cards))


def _same(got: object, want: object) -> None:
    """Equal keys made of the same cards (pokerkit compares hands by rank only)."""
    assert got == want
    assert getattr(got, "cards", None) == getattr(want, "cards", None)
