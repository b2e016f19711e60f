"""Awards of the games without a board: seven-card stud, stud hi/lo, razz and the draw games.

Hands are ranked by maintained evaluators (nothing here ranks a hand): the high hands of stud and
five-card draw by ``phevaluator`` (the best five of up to seven cards, as pokerkit's
``StandardHighHand`` ranks them), the others by pokerkit's hand types' lookups
(``cards.best_entry``: each five-card combination the hand type's ``from_game`` tries):

=================  ==========================================================
stud               ``phevaluator`` (``StandardHighHand``: best five of seven)
stud hi/lo         the same, and ``EightOrBetterLowHand`` (8 or better)
razz               ``RegularLowHand`` (ace-to-five low, best five of seven)
5 card draw        ``phevaluator`` (``StandardHighHand``)
2-7 single/triple  ``StandardLowHand`` (deuce-to-seven: straights, flushes count)
A-5 triple draw    ``RegularLowHand``
badugi             ``BadugiHand``
=================  ==========================================================

Ties split equally.  The odd chip: in stud games (no button) it goes to the tied player with the
highest card by suit (clubs, diamonds, hearts, spades), in draw games to the first tied player
clockwise from the button, as in flop games; in stud hi/lo the odd chip of a pot goes to the high
half (Robert's Rules of Poker v11, Split pot games; TDA 2026 Rule 22 (2024: 20)).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from auditor import model as M
from auditor.replay.cards import LOW_RANKS, best_entry, entry_key, high_rank, known, low_ranks, norm_all
from auditor.replay.draw import draw_variant
from auditor.replay.stud import STUD_GAMES, card_value

NO_BOARD_GAMES = frozenset({*STUD_GAMES, "draw"})

Key = Callable[[tuple[str, ...]], Any]


def _phe_high(cards: tuple[str, ...]) -> Any:
    """The best high hand of five to seven cards (greater is better): phevaluator's rank (1 is a
    royal flush), the order of pokerkit's ``StandardHighHand``; phevaluator is handed its integer
    card ids (:func:`auditor.replay.cards.high_rank`)."""
    return -high_rank(cards)


def _pk(hand_type: str, low: bool) -> Key:
    """The key of the best hand of pokerkit's ``hand_type`` among every five of the cards."""

    def key(cards: tuple[str, ...]) -> Any:
        return entry_key(best_entry(hand_type, combinations(cards, 5), low), low)

    return key


def _badugi(cards: tuple[str, ...]) -> Any:
    """The best badugi (``BadugiHand.from_game``: the most cards of different suits and ranks
    first, then the lowest)."""
    for n in range(4, 0, -1):
        best = best_entry("BadugiHand", combinations(cards, n), True)
        if best is not None:
            return entry_key(best, True)
    return None


def _low8(key: Key) -> Key:
    """An eight-or-better low key that asks the evaluator only when five different ranks of A to 8
    are among the cards (otherwise there is no low: the evaluator would find none), and only about
    those cards (a card above 8 is in no low)."""

    def low(cards: tuple[str, ...]) -> Any:
        low = tuple(c for c in cards if c[0] in LOW_RANKS)
        return key(low) if low_ranks(low) >= 5 else None  # (the others can be in no low)

    return low


#: game (or draw variant) -> (cards a showdown hand holds, high-or-only key, low key or None)
EVALUATORS: dict[str, tuple[int, Key, Key | None]] = {
    "stud": (7, _phe_high, None),
    "stud_hilo": (7, _phe_high, _low8(_pk("EightOrBetterLowHand", True))),
    "razz": (7, _pk("RegularLowHand", True), None),
    "5card": (5, _phe_high, None),
    "27_single": (5, _pk("StandardLowHand", True), None),
    "27_triple": (5, _pk("StandardLowHand", True), None),
    "a5_triple": (5, _pk("RegularLowHand", True), None),
    "badugi": (4, _badugi, None),
}


def game_key(hand: M.Hand) -> str | None:
    """The evaluator's name for the hand's game, or None when it is not evaluated."""
    if hand.game in STUD_GAMES:
        return hand.game
    if hand.game == "draw":
        return draw_variant(hand)
    return None


def evaluate(game: str, cards: Sequence[str]) -> tuple[Any, Any] | None:
    """(key, low key) of a shown hand; None when the hand cannot be evaluated (unknown cards or
    not the game's number of cards).  Keys compare greater for the better hand; the low key is None
    when the hand has no qualifying low."""
    n, high, low = EVALUATORS[game]
    cards_t = norm_all(cards)
    if not known(cards_t) or len(cards_t) != n or len(set(cards_t)) != n:
        return None
    h = high(cards_t)
    if h is None:
        return None
    return h, (low(cards_t) if low is not None else None)


def odd_chip_order(hand: M.Hand, winners: list[str], shown: dict[str, tuple[str, ...]],
                   clockwise: Callable[[list[str]], list[str]]) -> list[str]:  # fmt: skip
    """The order the odd chips go in: stud by the highest card by suit, draw clockwise."""
    if hand.game not in STUD_GAMES:
        return clockwise(winners)
    return sorted(winners, key=lambda n: max(card_value(c) for c in shown[n]), reverse=True)


def best(keys: dict[str, Any]) -> list[str]:
    """The players whose key is the best (ties)."""
    top = max(keys.values())
    return [n for n, v in keys.items() if not v < top]


def award_pot(t: Any, pot: Any, amount: int, contenders: list[str], shown: dict[str, tuple[str, ...]],
              profile: Any, clockwise: Callable[[list[str]], list[str]],
              evaluated: dict[tuple[str, ...], Any] | None = None) -> list[Any] | None:  # fmt: skip
    """The awards of one contested pot of a stud or draw hand (``pots.Award``), or None when a
    contender's hand cannot be evaluated (then the award is not judged).  ``evaluated``: the
    hand's cards already evaluated (a hand contesting several pots is ranked once)."""
    from auditor.replay.pots import Award, split

    hand: M.Hand = t.hand
    game = game_key(hand)
    if game is None:
        return None
    if evaluated is None:
        evaluated = {}
    keys: dict[str, tuple[Any, Any] | None] = {}
    for n in contenders:
        cards = shown[n]
        if cards not in evaluated:
            evaluated[cards] = evaluate(game, cards)
        keys[n] = evaluated[cards]
    if any(v is None for v in keys.values()):
        return None
    highs = {n: v[0] for n, v in keys.items() if v is not None}
    lows = {n: v[1] for n, v in keys.items() if v is not None and v[1] is not None}
    unit = t.facts.odd_chip_unit
    hi_w = odd_chip_order(hand, best(highs), shown, clockwise)
    why = "best low hand" if game in ("razz", "27_single", "27_triple", "a5_triple", "badugi") else "best hand"
    if not lows:
        return [Award(pot.label, 1, "all", amount, tuple(hi_w), tuple(split(amount, hi_w, unit)), why)]
    lo_w = odd_chip_order(hand, best(lows), shown, clockwise)
    if profile.hilo_identical_even and set(hi_w) == set(lo_w):
        return [Award(pot.label, 1, "all", amount, tuple(hi_w), tuple(split(amount, hi_w, unit)),
                      "the same hands win high and low")]  # fmt: skip
    units = amount // unit
    high_half = (units - units // 2) * unit + amount % unit
    low_half = amount - high_half
    return [
        Award(pot.label, 1, "high", high_half, tuple(hi_w), tuple(split(high_half, hi_w, unit)), "best high hand"),
        Award(pot.label, 1, "low", low_half, tuple(lo_w), tuple(split(low_half, lo_w, unit)), "best low hand"),
    ]
