"""``pots._clockwise`` (the order odd chips go) sorts by the seats' dict itself when every name is a
dealt player's, and falls back to a key that puts any other name at the unseated place: both give
the order of the plain definition (kept here as the reference) on any seats, button and names."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.replay.pots import _clockwise, _seat_keys


def reference(t: Any, names: list[str]) -> list[str]:
    button = t.hand.button if t.hand.button is not None else 0
    keys = {p.name: (p.seat - button - 1) % 1000 for p in t.order}
    unseated = (-button - 1) % 1000
    return sorted(names, key=lambda n: keys.get(n, unseated))


@settings(max_examples=300, deadline=None)
@given(
    seats=st.lists(st.integers(1, 10), min_size=1, max_size=9, unique=True),
    button=st.one_of(st.none(), st.integers(0, 10)),
    pick=st.lists(st.integers(0, 11), max_size=9),
)
def test_clockwise_agrees_with_the_reference(seats: list[int], button: int | None, pick: list[int]) -> None:
    order = [SimpleNamespace(name=f"P{s}", seat=s) for s in seats]
    t: Any = SimpleNamespace(hand=SimpleNamespace(button=button), order=order)
    names = [f"P{seats[k]}" if k < len(seats) else f"X{k}" for k in pick]  # (X: not a dealt player)
    want = reference(t, names)
    assert _clockwise(t, names) == want
    assert _clockwise(t, names, _seat_keys(t)) == want
