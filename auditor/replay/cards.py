"""Hand evaluation adapter: maintained evaluators, not a hand-written one.

* High hands of Hold'em and Omaha (4, 5 and 6 cards, Courchevel) use ``phevaluator`` (a perfect
  hash evaluator in C): Omaha takes exactly two hole cards and three board cards.
* Eight-or-better lows and short deck (6+) use ``pokerkit``'s hand types.

Every function returns a *key*: a value where greater means a better hand (for lows: a better
low), comparable only with keys of the same game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any

from phevaluator import evaluate_cards, evaluate_omaha_cards

HILO_GAMES = frozenset({"omaha_hilo", "omaha5_hilo", "courchevel_hilo"})
OMAHA_GAMES = frozenset({"omaha", "omaha5", "omaha6", "courchevel", *HILO_GAMES})
EVALUATED_GAMES = frozenset({"holdem", "shortdeck", *OMAHA_GAMES})

# phevaluator ranks: 1 (royal flush) .. 7462 (7-5-4-3-2 high); category boundaries
_CATEGORIES = (
    (10, "straight flush"),
    (166, "four of a kind"),
    (322, "full house"),
    (1599, "flush"),
    (1609, "straight"),
    (2467, "three of a kind"),
    (3325, "two pair"),
    (6185, "one pair"),
    (7462, "high card"),
)


def norm(card: str) -> str:
    """``10h`` → ``Th``; other cards as printed."""
    return "T" + card[2:] if card.startswith("10") else card


HOLE_CARDS = {"holdem": 2, "shortdeck": 2, "omaha": 4, "omaha_hilo": 4, "omaha5": 5, "omaha5_hilo": 5,
              "courchevel": 5, "courchevel_hilo": 5, "omaha6": 6}  # fmt: skip


RANKS = frozenset("23456789TJQKA")
SUITS = frozenset("shdc")


#: every real card as printed: rank and suit ("Th"), a ten also as "10h"
CARDS = frozenset({r + s for r in RANKS for s in SUITS} | {"10" + s for s in SUITS})


def known(cards: Sequence[str]) -> bool:
    """Every card is a real card (rank and suit known, a ten printed "10h" too): only such hands are evaluated."""
    return bool(cards) and CARDS.issuperset(cards)


@lru_cache(maxsize=65536)
def _high_rank(game: str, hole: tuple[str, ...], board: tuple[str, ...]) -> int:
    """phevaluator rank (lower is better) of the best high hand."""
    if game in OMAHA_GAMES:
        if len(hole) == 4 and len(board) == 5:
            return int(evaluate_omaha_cards(*board, *hole))
        return min(int(evaluate_cards(*h, *b)) for h in combinations(hole, 2) for b in combinations(board, 3))
    return int(evaluate_cards(*hole, *board))


def high_key(game: str, hole: Sequence[str], board: Sequence[str]) -> Any:
    """Key of the best high hand (greater is better), or None when it cannot be evaluated."""
    hole_t, board_t = tuple(norm(c) for c in hole), tuple(norm(c) for c in board)
    if not (known(hole_t) and known(board_t)) or len(hole_t) != HOLE_CARDS.get(game, 2) or not 3 <= len(board_t) <= 5:
        return None  # to win, all hole cards must be tabled (more than the game deals: H004, not evaluated)
    if game == "shortdeck":
        from pokerkit import ShortDeckHoldemHand

        return ShortDeckHoldemHand.from_game("".join(hole_t), "".join(board_t))
    if game not in EVALUATED_GAMES or (game in OMAHA_GAMES and len(board_t) < 3):
        return None
    return -_high_rank(game, hole_t, board_t)


LOW_RANKS = frozenset("A2345678")


def low_ranks(cards: Iterable[str]) -> int:
    """How many different ranks of an eight-or-better low (A to 8) ``cards`` hold (normalised
    cards).  A low needs five: fewer, and no evaluator is asked (it would find none)."""
    return len({c[0] for c in cards if c[0] in LOW_RANKS})


def low_key(game: str, hole: Sequence[str], board: Sequence[str]) -> Any:
    """Key of the best qualifying eight-or-better low (greater is better), or None (no low)."""
    if game not in HILO_GAMES:
        return None
    hole_t, board_t = tuple(norm(c) for c in hole), tuple(norm(c) for c in board)
    if not (known(hole_t) and known(board_t)):
        return None
    if not (low_ranks(board_t) >= 3 and low_ranks(hole_t) >= 2):
        return None  # no two hole and three board cards of five different ranks 8 or lower: no low
    from pokerkit import OmahaEightOrBetterLowHand

    try:
        # only cards of A to 8 can be in a low: the others are left out (pokerkit tries every two
        # hole and three board cards; the combinations that remain come in the same order)
        return OmahaEightOrBetterLowHand.from_game("".join(c for c in hole_t if c[0] in LOW_RANKS),
                                                   "".join(c for c in board_t if c[0] in LOW_RANKS))  # fmt: skip
    except ValueError:
        return None


def category(game: str, hole: Sequence[str], board: Sequence[str]) -> str | None:
    """The category of the best high hand ("two pair", "a flush" ...) for comparing with what a site printed."""
    key = high_key(game, hole, board)
    if key is None:
        return None
    if game == "shortdeck":
        text = str(key).split(" (")[0].lower()
        return {"pair": "one pair"}.get(text, text)
    rank = -int(key)
    return next(name for bound, name in _CATEGORIES if rank <= bound)
