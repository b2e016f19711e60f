"""The pots' short path (``pots._one_layer``: one pot when there is no dead money, every player still
in has put in the most and nobody folded all-in below it) gives exactly the layers of the general
layering (``pots._layers``) whenever it answers: on every fixture hand, on every hand of the shared
corpus, and on any contributions, folds and all-ins (hypothesis), in both pot-boundary modes."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.profiles import for_hand
from auditor.replay import replay
from auditor.replay.betting import Player
from auditor.replay.pots import _layers, _one_layer
from tests.conftest import FIXTURES, corpus_dir
from tests.format_helpers import parsed_hands

MODES = ("merge", "allin_boundaries")


def _levels(players: dict[str, Player]) -> dict[str, int]:
    """What :func:`auditor.replay.pots.build` layers: each dealt player's contribution, the
    uncalled part of the largest taken off."""
    level = {n: p.live_total + p.ante_total for n, p in players.items() if p.dealt}
    ranked = sorted(level.values(), reverse=True)
    if len(ranked) >= 2 and ranked[0] > ranked[1]:
        top = next(n for n, v in level.items() if v == ranked[0])
        level[top] = ranked[1]
    return level


def _agree(players: dict[str, Player], level: dict[str, int], dead: int, mode: str) -> bool:
    """The short path equals the general layering when it answers; whether it answered."""
    short = _one_layer(players, level, dead, mode)
    if short is not None:
        assert short == _layers(players, level, dead, mode), (level, mode)
    return short is not None


def _check_folder(folder: Path) -> tuple[int, int]:
    hands = short = 0
    for hand in parsed_hands(folder):
        t = replay(hand, for_hand(hand.site, None))
        level = _levels(t.players)
        for mode in MODES:
            for dead in (0, 5):
                short += _agree(t.players, level, dead, mode)
        hands += 1
    return hands, short


def test_short_path_on_every_fixture_hand() -> None:
    hands, short = _check_folder(FIXTURES)
    assert hands > 100 and short > hands  # (it answers for most hands without dead money)


@pytest.mark.parametrize("site", ["pokerstars", "ggpoker", "winamax", "ipoker", "partypoker", "ongame"])
def test_short_path_on_every_corpus_hand(site: str) -> None:
    hands, short = _check_folder(corpus_dir(site))
    assert hands > 50 and short > 0


seat = st.tuples(
    st.integers(0, 6),  # contribution (small: equal levels are common)
    st.booleans(),  # folded
    st.sampled_from([False, False, True]),  # all-in
)


@settings(max_examples=600, deadline=None)
@given(seats=st.lists(seat, min_size=1, max_size=9), dead=st.sampled_from([0, 0, 0, 3]), mode=st.sampled_from(MODES))
def test_short_path_agrees_with_the_layering(seats: list[tuple[int, bool, bool]], dead: int, mode: str) -> None:
    players: dict[str, Player] = {}
    for i, (v, folded, all_in) in enumerate(seats):
        n = f"P{i}"
        players[n] = Player(n, i + 1, 100, 100 - v, float(i + 1), v, v, folded=folded, all_in=all_in, dealt=True)
    level = {n: p.live_total for n, p in players.items()}
    _agree(players, level, dead, mode)


def test_short_path_answers_the_plain_case() -> None:
    players = {n: Player(n, i, 100, 90, float(i), 10, 10, dealt=True) for i, n in enumerate(["a", "b", "c"])}
    players["c"].folded = True
    players["c"].live_total = 4
    level = {n: p.live_total for n, p in players.items()}
    for mode in MODES:
        assert _one_layer(players, level, 0, mode) == [[24, ["a", "b"], 0, 10, 3, 0]]
        assert _one_layer(players, level, 2, mode) is None  # dead money: the general layering
