"""The cross-hand stage's fast paths (issue 17, s7-contspeed) equal their general paths.

* Each seat's previous seat of the same player (``continuity._links``): a row continues the row at
  the same position in the hand before when the key there is the same and neither hand holds a key
  twice; every other row is sorted.  On random sessions (rosters kept, seats swapped, players
  leaving, coming back after hands away, joining, sitting twice) the result is the definition: the
  row before in (key, hand, row) order.
* The whole query on hands already in table order (no sort, no lookup of places, plain ids: no
  counter regexes, no id hash) gives the findings it gives on the same hands with the tables
  interleaved (sorted, places looked up) and with the ids written as counters.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor import continuity as C
from tests.test_continuity_layout import _previous_by_sort


def _session(rng: random.Random, hands: int, table: int) -> list[list[int]]:
    """The rosters (player numbers, in seat order) of ``hands`` hands of one table."""
    roster = rng.sample(range(10), rng.randint(1, 6))
    out = []
    for _ in range(hands):
        op = rng.random()
        roster = [p for p in roster if p >= 0]
        if op < 0.55:
            pass  # the usual case: the same players in the same seats
        elif op < 0.65 and len(roster) > 1:
            i, j = rng.sample(range(len(roster)), 2)
            roster[i], roster[j] = roster[j], roster[i]  # two players change seats
        elif op < 0.75 and roster:
            roster.pop(rng.randrange(len(roster)))  # a player leaves (may come back later)
        elif op < 0.85:
            roster.insert(rng.randint(0, len(roster)), rng.randrange(10))  # a player joins or returns
        elif op < 0.92 and roster:
            roster.append(roster[0])  # a player in two seats (kept for a few hands)
        else:
            roster = rng.sample(range(10), rng.randint(0, 6))  # another roster (or none)
        out.append([p + table * 100 for p in roster])
    return out


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 4), st.integers(1, 30), st.booleans())
def test_previous_rows_fast_path_equals_the_sort(rng: random.Random, tables: int, hands: int, permute: bool) -> None:
    rosters = [r for t in range(tables) for r in _session(rng, hands, t)]
    places = list(range(len(rosters)))
    if permute:  # hands grouped, but not in table order (a store read out of order)
        rng.shuffle(places)
    rows = [{"_h": places[i], "seat": s + 1, "pkey": p} for i, r in enumerate(rosters) for s, p in enumerate(r)]
    seats = pl.DataFrame(rows, schema={"_h": pl.Int64, "seat": pl.Int64, "pkey": pl.UInt64})
    assert C._previous_rows(seats, len(rosters)).to_list() == _previous_by_sort(seats)


def _hands(rng: random.Random, tables: int, hands: int) -> list[dict[str, Any]]:
    """Hand rows of cash tables (distinct start times: the table order does not depend on the input
    order), with stacks changed between hands now and then, seats changing, players returning."""
    out = []
    for t in range(tables):
        when = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=t)
        stacks: dict[int, int] = {}
        btn = 1
        for j, roster in enumerate(_session(rng, hands, t)):
            when += timedelta(minutes=rng.choice([1, 1, 1, 2, 30]))
            seats = []
            for s, p in enumerate(roster):
                st_ = stacks.get(p, 1000) + rng.choice([0, 0, 0, 0, 0, -50, 50])
                fin = st_ + rng.choice([0, 0, -100, 100])
                stacks[p] = fin
                seats.append({"seat": s + 1, "player": f"p{p}", "stack": st_, "final": fin, "sitting_out": False,
                              "active": rng.random() < 0.9, "added": rng.random() < 0.03, "line": s + 2,
                              "collected": rng.choice([0, 0, 1000])})  # fmt: skip
            btn = btn % max(len(roster), 1) + 1 if rng.random() < 0.9 else btn
            out.append({"site": "pokerstars", "hand_id": str(1000 * t + j + 1), "path": f"t{t}.txt",
                        "first_line": j * 10 + 1, "small_blind": 50, "big_blind": 100, "ante": None, "button": btn,
                        "table": f"T{t}", "tournament_id": None, "level": None, "complete": True,
                        "cancelled": False, "decimals": 2, "game": "holdem", "structure": "NL", "start_utc": when,
                        "seats": seats, "fingerprint": "0" * 24, "chips_ok": rng.random() > 0.05,
                        "pool": False, "top_ups": rng.random() < 0.5,
                        "button_rule": rng.choice(["dead", "moving"])})  # fmt: skip
    return out


def _findings(rows: list[dict[str, Any]]) -> pl.DataFrame:
    hands, seats = C.flat_frames(rows)
    got = C.check(hands.lazy(), seats=seats.lazy()).collect()
    return got.drop("hand_id", "prev_hand_id").sort(list(got.drop("hand_id", "prev_hand_id").columns), nulls_last=True)


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 4), st.integers(1, 25))
def test_table_order_fast_paths_equal_the_general_query(rng: random.Random, tables: int, hands: int) -> None:
    rows = _hands(rng, tables, hands)
    fast = _findings(rows)  # table by table, in time order, plain numeric ids
    mixed = sorted(rows, key=lambda r: r["start_utc"])  # tables interleaved: sorted, places looked up
    assert _findings(mixed).equals(fast)
    # the same hands with counter ids ("<table>-<n>", consecutive per table): the regex path
    counted = [{**r, "hand_id": f"T{r['table']}-{int(r['hand_id']) % 1000}"} for r in mixed]
    assert _findings(counted).equals(fast)
