"""The continuity query on messy tables (issue 17, s5-contspeed): partitioned equals whole.

The query sorts, gathers and groups the hands and their seats by row number; on these messy tables
(shuffled rows, repeated hand ids, a player in two seats, hands without seats, time gaps, missing
final stacks, tournaments, counter hand ids) the partitioned run (by table, each partition keeping
the rows' input order, which breaks ties of start time and hand number) must give the same
findings as the whole query.  (The input order is meaningful: it is not a property that a shuffle
keeps the findings.)
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import polars as pl
import pytest

from auditor import continuity as C
from auditor.batch import crosshand as X


def messy_rows(rng: random.Random) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for t in range(rng.randint(1, 6)):
        tour = rng.random() < 0.3
        stacks = {f"p{t}{i}": rng.choice([1000, 2000, 500]) for i in range(rng.randint(2, 5))}
        btn = 1
        when = datetime(2026, 1, 1, tzinfo=UTC)
        for j in range(rng.randint(1, 12)):
            when += timedelta(minutes=rng.choice([1, 1, 1, 0, 30]))
            names = list(stacks)[:-1] if rng.random() < 0.1 else list(stacks)
            seats: list[dict[str, Any]] = []
            for si, nm in enumerate(names):
                st = stacks[nm] + rng.choice([0, 0, 0, 0, -5, 5, 100])
                fin = st + rng.choice([0, -50, 50]) if rng.random() < 0.9 else None
                stacks[nm] = fin if fin is not None else st
                seats.append({"seat": si + 1, "player": nm if rng.random() > 0.03 else names[0], "stack": st,
                              "final": fin, "sitting_out": False, "active": rng.random() < 0.9,
                              "added": rng.random() < 0.05, "line": si + 2,
                              "collected": rng.choice([0, 0, 1000])})  # fmt: skip
            if rng.random() < 0.05:
                seats = []
            btn = btn % len(names) + 1 if rng.random() < 0.85 else btn
            hid = str(1000 + j) if rng.random() > 0.05 else str(1000 + max(j - 1, 0))
            if rng.random() < 0.2:
                hid = f"T{t}-{j + rng.choice([0, 0, 1])}"
            out.append({"site": "pokerstars", "hand_id": hid, "path": f"f{t % 2}.txt",
                        "first_line": j * 10 + 1 + t * 1000, "small_blind": rng.choice([50, 50, 25]),
                        "big_blind": 100, "ante": None, "button": btn, "table": f"T{t}",
                        "tournament_id": "77" if tour else None, "level": rng.choice([None, "I", "II"]),
                        "complete": rng.random() > 0.05, "cancelled": rng.random() < 0.03, "decimals": 2,
                        "game": "holdem", "structure": "NL", "start_utc": when, "seats": seats,
                        "fingerprint": "0" * 24, "chips_ok": rng.random() > 0.1, "pool": False,
                        "top_ups": rng.random() < 0.5, "button_rule": rng.choice(["dead", "moving"])})  # fmt: skip
    return out


def _set(df: pl.DataFrame) -> pl.DataFrame:
    return df.select(list(C.FINDINGS)).sort(list(C.FINDINGS), nulls_last=True)


@pytest.mark.parametrize("seed", range(40))
def test_partitioned_equals_whole_on_messy_tables(seed: int) -> None:
    rng = random.Random(seed)
    rows = messy_rows(rng)
    rng.shuffle(rows)
    df = pl.DataFrame(rows, schema=C.INPUT)
    whole = _set(C.check(df.lazy()).collect())
    assert _set(X.check_partitioned(df, 3)).equals(whole)
