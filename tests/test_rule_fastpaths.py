"""The short paths of the pots and of the card rules give exactly what the general ones give.

* :func:`auditor.rules.hand.dealt` (H002, H004) first reads the card events by type, in no record
  order, and answers "nothing found" only when no order could find anything; otherwise it returns
  :func:`~auditor.rules.hand.dealt_in_order`'s findings.  Both are compared on every fixture and
  corpus hand, and on hands whose cards are redrawn from a small pool (hypothesis), so that cards
  clash, repeat on the boards or go unknown ("xx") in every order.
* :func:`auditor.replay.pots.build` awards a hand of one pot that one player can win without
  :func:`~auditor.replay.pots._award`; the general award of the same pots gives the same awards,
  contenders, shown cards and payments on every fixture and corpus hand.
* A single best high hand's award skips the split: :func:`~auditor.replay.pots.split` of an amount
  to one winner is the whole amount, in any chip unit.
* D001's remembered description categories are the computed ones, and the memory is bounded.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor import model as M
from auditor.profiles import for_hand
from auditor.replay import Trace, replay
from auditor.replay.pots import PotTrace, _award, build, split
from auditor.rules import awards
from auditor.rules.hand import dealt, dealt_in_order
from tests.conftest import FIXTURES, corpus_dir
from tests.format_helpers import parsed_hands


def _as_dicts(found: list[Any]) -> list[dict[str, Any]]:
    return [f.as_dict() for f in found]


def _general_award(t: Trace, pt: PotTrace) -> tuple[Any, ...]:
    """What :func:`_award` (the general path) records and pays for ``pt``'s pots, on a fresh trace."""
    fresh = PotTrace(pt.contributions, pt.dead, pt.house, pt.expected_returns, pt.printed_returns, list(pt.pots),
                     pt.total_expected, pt.claim, pt.rake, pt.fees, boards=pt.boards)  # fmt: skip
    paid = _award(t, fresh, t.profile, fresh.pots, record=True)
    return fresh.awards, fresh.contenders, fresh.hole, paid


def _check_folder(folder: Path) -> int:
    n = 0
    for hand in parsed_hands(folder):
        t = replay(hand, for_hand(hand.site, None))
        assert _as_dicts(dealt(t)) == _as_dicts(dealt_in_order(t)), (hand.path, hand.hand_id)
        pt = build(t, t.profile)
        awards_, contenders, hole, paid = _general_award(t, pt)
        assert (pt.awards, pt.contenders, pt.hole, pt.expected_paid) == (awards_, contenders, hole, paid), (
            hand.path, hand.hand_id)  # fmt: skip
        n += 1
    return n


def test_short_paths_on_every_fixture_hand() -> None:
    assert _check_folder(FIXTURES) > 100


@pytest.mark.corpus
def test_short_paths_on_every_corpus_hand() -> None:
    assert _check_folder(corpus_dir()) > 1000


def _cardparsed_hands() -> list[M.Hand]:
    """Fixture hands of a game with a deck check and hole cards, that show cards at a showdown."""
    out = []
    for hand in parsed_hands(FIXTURES / "sites"):
        if hand.game in ("holdem", "omaha", "omaha_hilo") and any(type(e) is M.Show for e in hand.events):
            out.append(hand)
    return out[:40]


_CARD_HANDS: list[M.Hand] = []
#: a few cards (clashes in almost every hand), or the deck and an unknown card (clashes in some)
POOLS = (["Ah", "Kd", "7c", "7c", "2s", "Th", "xx", "9d", "Qs", "3h"],
         [r + s for r in "23456789TJQKA" for s in "shdc"] + ["xx"])  # fmt: skip


def _redrawn(hand: M.Hand, draw: st.DrawFn) -> M.Hand:
    """``hand`` with the cards of some of its card events redrawn from one of :data:`POOLS`."""
    pool = draw(st.sampled_from(POOLS))
    events: list[M.Event] = []
    for e in hand.events:
        card_event = type(e) in (M.Board, M.HoleCards, M.Show, M.Muck, M.SeatResult) and getattr(e, "cards", ())
        if card_event and draw(st.integers(0, 3)) == 0:  # (about one card event in four redrawn)
            k = draw(st.sampled_from([1, 2, 2, 2, 3, 4, 5] if type(e) is not M.Board else [1, 3]))
            cards = tuple(draw(st.lists(st.sampled_from(pool), min_size=k, max_size=k)))
            e = dataclasses.replace(e, cards=cards)  # type: ignore[call-arg]
        events.append(e)
    return dataclasses.replace(hand, events=tuple(events))


@st.composite
def redrawnparsed_hands(draw: st.DrawFn) -> M.Hand:
    if not _CARD_HANDS:
        _CARD_HANDS.extend(_cardparsed_hands())
    hand = draw(st.sampled_from(_CARD_HANDS))
    return _redrawn(hand, draw)


@settings(max_examples=300, deadline=None)
@given(hand=redrawnparsed_hands())
def test_the_pass_by_type_finds_what_the_ordered_pass_finds(hand: M.Hand) -> None:
    t = replay(hand, for_hand(hand.site, None))
    assert _as_dicts(dealt(t)) == _as_dicts(dealt_in_order(t))


@given(amount=st.integers(0, 10**12), unit=st.sampled_from([1, 5, 10, 25, 100]))
def test_one_winner_takes_the_whole_amount(amount: int, unit: int) -> None:
    assert split(amount, ["A"], unit) == [("A", amount)]


def test_remembered_description_categories_are_the_computed_ones_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(awards, "_CATEGORY_OF", {})
    monkeypatch.setattr(awards, "_CATEGORY_BOUND", 3)
    texts = ["a pair of Kings", "two pair, Aces and Fours", "HI: a flush, Ace high; LO: 8,6,4,3,2", "high card Ace",
             "a straight, Ten to Ace", "a pair of Kings"]  # fmt: skip
    for text in texts:
        assert awards.printed_category(text) == awards._category_named(text)
        assert len(awards._CATEGORY_OF) <= 3
