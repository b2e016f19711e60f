"""Property: the replay's lazy search for the player due to act (``Replay.expected_actor``, which
looks at a seat's opponents only until one settles the question) and ``Replay.call_level`` (which
stops at the first opponent who can match the bet) agree with the plain definitions they replaced,
kept here as the reference: every seat's reach computed first, then the first seat after the last
actor who needs to act, on any state of the seats (folded, all-in, capped, acted, stacks, bets).
``Replay._step`` (a step's facts) inlines both ``call_level`` and the reach test: its ``call_to``
is checked here too."""

from __future__ import annotations

from bisect import bisect_right

from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.formats import REGISTRY
from auditor.profiles import for_hand
from auditor.replay.betting import Player, Replay
from tests.handbuilder import HandBuilder


def reference_call_level(r: Replay, pl: Player) -> int:
    """What ``pl`` must match: the current bet, capped by the most any opponent still in can reach."""
    reach = 0
    for q in r.order:
        if q is not pl and not q.folded:
            reach = max(reach, q.street_bet if q.all_in or q.capped else q.street_bet + q.stack)
    return r.current_bet if reach >= r.current_bet else reach


def reference_needs_to_act(r: Replay, pl: Player) -> bool:
    if pl.folded or pl.all_in or pl.capped:
        return False
    if pl.street_bet < r.current_bet and pl.street_bet < reference_call_level(r, pl):
        return True
    if pl.acted:
        return False
    return any(q is not pl and not (q.folded or q.all_in or q.capped) for q in r.order)


def reference_expected_actor(r: Replay) -> Player | None:
    if not r.order or r.unfolded <= 1:
        return None
    start = r.last_actor.pos if r.last_actor is not None else r.anchor_seat
    first = bisect_right(r.seat_numbers, start)
    n = len(r.order)
    for k in range(n):
        pl = r.order[(first + k) % n]
        if reference_needs_to_act(r, pl):
            return pl
    return None


seat_state = st.tuples(
    st.booleans(),  # folded
    st.booleans(),  # all-in
    st.sampled_from([False, False, False, True]),  # capped
    st.booleans(),  # acted
    st.integers(0, 12),  # chips in this street
    st.integers(0, 12),  # stack
)


@settings(max_examples=400, deadline=None)
@given(
    seats=st.lists(seat_state, min_size=2, max_size=9),
    current=st.integers(0, 14),
    last=st.integers(-1, 8),
    anchor=st.integers(0, 9),
)
def test_lazy_expected_actor_and_call_level_agree_with_the_reference(
    seats: list[tuple[bool, bool, bool, bool, int, int]], current: int, last: int, anchor: int
) -> None:
    names = [f"P{i}" for i in range(len(seats))]
    hb = HandBuilder((1, 2), [(n, 100) for n in names])
    hb.post_blinds()
    for n in names[2:]:
        hb.raw(f"{n}: folds")  # (every player in the turn order; their states are set below)
    h = hb.hand()
    r = Replay(h, for_hand(h.site, None), REGISTRY.facts_for(h))
    r.run()
    assert len(r.order) == len(seats)
    for pl, (folded, all_in, capped, acted, bet, stack) in zip(r.order, seats, strict=True):
        pl.folded, pl.all_in, pl.capped, pl.acted, pl.street_bet, pl.stack = folded, all_in, capped, acted, bet, stack
    r.unfolded = sum(1 for pl in r.order if not pl.folded)
    r.current_bet = current
    r.last_actor = r.order[last] if 0 <= last < len(r.order) else None
    r.anchor_seat = float(anchor)
    assert r.expected_actor() is reference_expected_actor(r)
    for pl in r.order:
        assert r.call_level(pl) == reference_call_level(r, pl)
        assert r.needs_to_act(pl) == reference_needs_to_act(r, pl)
        # (``_step`` inlines ``call_level``: the step's ``call_to``)
        assert r.facts(pl)["call_to"] == reference_call_level(r, pl)
