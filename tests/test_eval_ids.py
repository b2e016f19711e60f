"""phevaluator asked with its integer card ids gives what it gives for the card strings.

``cards._high_rank`` (Hold'em and Omaha high hands) and ``cards.high_rank`` (stud and five-card
draw) hand phevaluator its integer ids (``cards.card_ids``, made by phevaluator's own
``Card.to_id``), and rank an Omaha hand of five or six hole cards as the best of phevaluator's
Omaha ranks of each four hole cards.  Each is compared with phevaluator asked with the card strings
(every two hole cards with every three of the board for Omaha, as before the change), on every
showdown the audit evaluates in the fixtures and the shared corpus, and on random deals.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from phevaluator import evaluate_cards, evaluate_omaha_cards
from phevaluator.card import Card

from auditor.audit import audit_hand
from auditor.profiles import for_hand
from auditor.replay import cards, showdown
from auditor.replay.cards import OMAHA_GAMES
from tests.conftest import CORPUS, FIXTURES
from tests.format_helpers import parsed_hands

DECK = [r + s for r in "23456789TJQKA" for s in "shdc"]
#: the integer path, not remembered (``_high_rank`` is an ``lru_cache`` of it)
UNCACHED: Callable[[str, tuple[str, ...], tuple[str, ...]], int] = cards._high_rank.__wrapped__


def by_strings(game: str, hole: tuple[str, ...], board: tuple[str, ...]) -> int:
    """phevaluator's rank of the best high hand asked with the card strings, every two hole cards
    with every three of the board for Omaha (one call for four hole cards and five of the board):
    what ``cards._high_rank`` did before it handed phevaluator integer ids."""
    if game in OMAHA_GAMES:
        if len(hole) == 4 and len(board) == 5:
            return int(evaluate_omaha_cards(*board, *hole))
        return min(int(evaluate_cards(*h, *b)) for h in combinations(hole, 2) for b in combinations(board, 3))
    return int(evaluate_cards(*hole, *board))


def _recorded(folders: list[Path], monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple[Any, ...]], list[Any]]:
    """Every (game, hole, board) ``cards._high_rank`` and every card tuple ``cards.high_rank`` is
    asked about when the hands of ``folders`` are audited (evaluated fresh: nothing remembered)."""
    boards: list[tuple[Any, ...]] = []
    studdraw: list[Any] = []

    def record_board(game: str, hole: tuple[str, ...], board: tuple[str, ...]) -> int:
        boards.append((game, hole, board))
        return UNCACHED(game, hole, board)

    high_rank = cards.high_rank

    def record_cards(got: Any) -> int:
        studdraw.append(tuple(got))
        return high_rank(got)

    monkeypatch.setattr(cards, "_high_rank", record_board)
    monkeypatch.setattr(showdown, "high_rank", record_cards)
    for folder in folders:
        for hand in parsed_hands(folder):
            audit_hand(hand, for_hand(hand.site, None))
    return boards, studdraw


def _check(boards: list[tuple[Any, ...]], studdraw: list[Any]) -> None:
    for game, hole, board in boards:
        assert UNCACHED(game, hole, board) == by_strings(game, hole, board), (
            game,
            hole,
            board,
        )
    for got in studdraw:
        assert cards.high_rank(got) == int(evaluate_cards(*got)), got


def test_ids_are_phevaluators() -> None:
    ids = cards.card_ids()
    assert set(ids) == cards.CARDS
    for c, i in ids.items():
        assert i == Card.to_id(cards.norm(c))
    assert ids["10h"] == ids["Th"] and len(set(ids.values())) == 52


def test_every_fixture_showdown_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    boards, studdraw = _recorded([FIXTURES], monkeypatch)
    games = {g for g, _h, _b in boards}
    assert len(boards) >= 100 and {"holdem", "omaha", "omaha_hilo"} <= games, (len(boards), games)
    assert studdraw
    _check(boards, studdraw)


def test_every_corpus_showdown_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"shared corpus not found at {CORPUS} (set HHAUDIT_CORPUS to its location)")
    boards, studdraw = _recorded([CORPUS], monkeypatch)
    games = {g for g, _h, _b in boards}
    assert len(boards) >= 1000 and {"omaha5", "omaha6", "courchevel"} <= games, (len(boards), games)
    assert len(studdraw) >= 100
    _check(boards, studdraw)


@pytest.mark.parametrize(("game", "hole_cards"), [("holdem", 2), ("omaha", 4), ("omaha_hilo", 4), ("omaha5", 5),
                                                  ("courchevel", 5), ("omaha6", 6)])  # fmt: skip
def test_random_deals_the_same(game: str, hole_cards: int) -> None:
    rng = random.Random(f"{game}-16")
    for _ in range(1500):
        deal = rng.sample(DECK, hole_cards + 5)
        hole = tuple(deal[:hole_cards])
        for n in (3, 4, 5):
            board = tuple(deal[hole_cards : hole_cards + n])
            assert UNCACHED(game, hole, board) == by_strings(game, hole, board)


def test_a_card_twice_keeps_the_two_and_three_rule() -> None:
    """A corrupt record with a card twice (hole and board) is ranked as before: every two hole cards
    with every three of the board (phevaluator's Omaha ranks assume a deck of distinct cards)."""
    hole, board = ("As", "Ah", "Kd", "Kc", "2s"), ("As", "Qh", "Jd", "Tc", "3s")
    want = by_strings("omaha5", hole, board)
    assert UNCACHED("omaha5", hole, board) == want


def test_string_path_can_fail() -> None:
    """The reference differs where the hands differ (the comparison above can fail)."""
    f: Callable[..., int] = by_strings
    board = ("Kd", "Kc", "2s", "7h", "9d")
    assert f("holdem", ("As", "Ah"), board) < f("holdem", ("Qs", "Qh"), board)
