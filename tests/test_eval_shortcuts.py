"""The evaluator shortcuts of issue 16 give what the evaluator gives.

``cards.low_key`` and the stud hi/lo low key skip pokerkit when the cards hold too few different
ranks of A to 8 for an eight-or-better low (pokerkit would try every combination and find none),
and give pokerkit only the cards of A to 8 (no other card is in a low).
Here the shortcut is compared with pokerkit asked directly, on random deals and on deals built to
sit at the edge (exactly enough low ranks, pairs among them).

The keys are ints (greater is better) read from pokerkit's lookups (``cards.best_entry``) or from
phevaluator (stud and five-card draw high hands): each is compared with the hand pokerkit's
``from_game`` makes of the same cards, by order, on two deals at a time (equal keys exactly when
pokerkit's hands are equal, the greater key exactly for pokerkit's stronger hand), and no key
exactly when pokerkit finds no hand.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import (
    BadugiHand,
    EightOrBetterLowHand,
    OmahaEightOrBetterLowHand,
    RegularLowHand,
    ShortDeckHoldemHand,
    StandardHighHand,
    StandardLowHand,
)

from auditor.replay.cards import category, high_key, low_key, norm, norm_all
from auditor.replay.showdown import EVALUATORS, evaluate

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


def _pk(cls: type, cards: list[str], board: list[str] | None = None) -> object:
    try:
        return cls.from_game("".join(cards), "".join(board or []))  # type: ignore[attr-defined]
    except ValueError:
        return None


def _same_order(a: object, b: object, pa: object, pb: object) -> None:
    """Our keys ``a``, ``b`` order two deals as pokerkit's hands ``pa``, ``pb`` do (None: no hand)."""
    assert (a is None) == (pa is None) and (b is None) == (pb is None)
    if a is not None and b is not None:
        assert (a == b) == (pa == pb)
        assert (a > b) == (pa > pb)  # type: ignore[operator]


def _two(deck: list[str], n: int) -> tuple[list[str], list[str]]:
    return deck[:n], deck[n : 2 * n]


@settings(max_examples=300, deadline=None)
@given(st.permutations(DECK), st.permutations(DECK), st.sampled_from([4, 5]), st.sampled_from([3, 4, 5]))
def test_omaha_low_key_is_pokerkits(d1: list[str], d2: list[str], n_hole: int, n_board: int) -> None:
    h1, b1 = d1[:n_hole], d1[n_hole : n_hole + n_board]
    h2, b2 = d2[:n_hole], d2[n_hole : n_hole + n_board]
    _same_order(low_key("omaha_hilo", h1, b1), low_key("omaha_hilo", h2, b2),
                _pk(OmahaEightOrBetterLowHand, h1, b1), _pk(OmahaEightOrBetterLowHand, h2, b2))  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.permutations(LOWISH), st.sampled_from([4, 5]), st.sampled_from([3, 5]))
def test_omaha_low_key_is_pokerkits_near_the_edge(deck: list[str], n_hole: int, n_board: int) -> None:
    # the same board, two players' hole cards: the comparison that decides a low half
    board = deck[2 * n_hole : 2 * n_hole + n_board]
    h1, h2 = _two(deck, n_hole)
    _same_order(low_key("omaha_hilo", h1, board), low_key("omaha_hilo", h2, board),
                _pk(OmahaEightOrBetterLowHand, h1, board), _pk(OmahaEightOrBetterLowHand, h2, board))  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.permutations(DECK), st.permutations(LOWISH)))
def test_stud_keys_are_pokerkits(deck: list[str]) -> None:
    c1, c2 = _two(deck, 7)
    g1, g2 = evaluate("stud_hilo", c1), evaluate("stud_hilo", c2)
    assert g1 is not None and g2 is not None
    _same_order(g1[0], g2[0], _pk(StandardHighHand, c1), _pk(StandardHighHand, c2))
    _same_order(g1[1], g2[1], _pk(EightOrBetterLowHand, c1), _pk(EightOrBetterLowHand, c2))
    r1, r2 = evaluate("razz", c1), evaluate("razz", c2)
    assert r1 is not None and r2 is not None
    _same_order(r1[0], r2[0], _pk(RegularLowHand, c1), _pk(RegularLowHand, c2))


#: the draw games' pokerkit hand types (``showdown.EVALUATORS``'s documented table)
DRAW_TYPES = {"5card": StandardHighHand, "27_single": StandardLowHand, "27_triple": StandardLowHand,
              "a5_triple": RegularLowHand, "badugi": BadugiHand}  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.permutations(DECK), st.permutations(LOWISH)), st.sampled_from(sorted(DRAW_TYPES)))
def test_draw_keys_are_pokerkits(deck: list[str], game: str) -> None:
    n = EVALUATORS[game][0]
    c1, c2 = _two(deck, n)
    k1, k2 = evaluate(game, c1), evaluate(game, c2)
    _same_order(k1 and k1[0], k2 and k2[0], _pk(DRAW_TYPES[game], c1), _pk(DRAW_TYPES[game], c2))


SHORT = [r + s for r in "6789TJQKA" for s in "shdc"]


@settings(max_examples=300, deadline=None)
@given(st.permutations(SHORT), st.sampled_from([3, 4, 5]))
def test_shortdeck_key_and_category_are_pokerkits(deck: list[str], n_board: int) -> None:
    board = deck[4 : 4 + n_board]
    h1, h2 = deck[:2], deck[2:4]
    p1, p2 = _pk(ShortDeckHoldemHand, h1, board), _pk(ShortDeckHoldemHand, h2, board)
    _same_order(high_key("shortdeck", h1, board), high_key("shortdeck", h2, board), p1, p2)
    text = str(p1).split(" (")[0].lower()
    assert category("shortdeck", h1, board) == {"pair": "one pair"}.get(text, text)


@given(st.lists(st.sampled_from([*DECK, "10h", "10s", "??", "X", "Ahh"]), max_size=8))
def test_norm_all_is_norm_of_each_card(cards: list[str]) -> None:
    assert norm_all(cards) == tuple(norm(c) for c in cards)
