"""The cross-hand stage's flat input (issue 17): the same findings from nested and flat seats.

``continuity.check`` takes the hands with their seats nested (an older store, ``C.frame``) or in the
flat form (hands with ``n_seats`` and one frame of seats: ``hhaudit audit`` and store layout 2, whose
``seats`` table holds one row per seat).  Both must give the same findings, and a store written
before layout 2 (seats nested in ``hands``, no ``seats`` table) must give the same cross-hand
findings as a new one, alone or with a night of each layout.
"""

from __future__ import annotations

import glob
import io
import os
import random
import shutil
from pathlib import Path

import polars as pl
import pytest

from auditor import continuity as C
from auditor.batch import crosshand as X
from auditor.batch import store as S
from auditor.batch.runner import Options, run_batch
from tests.conftest import ROOT
from tests.test_continuity_order import messy_rows

FIX = ROOT / "fixtures" / "continuity"


def _set(df: pl.DataFrame) -> pl.DataFrame:
    return df.select(list(C.FINDINGS)).sort(list(C.FINDINGS), nulls_last=True)


@pytest.mark.parametrize("seed", range(30))
def test_flat_and_nested_seats_give_the_same_findings(seed: int) -> None:
    rng = random.Random(seed)
    rows = messy_rows(rng)
    rng.shuffle(rows)
    for r in rows:
        if rng.random() < 0.05:
            r["seats"] = None  # a hand without seats (an identical copy)
    nested = _set(C.check(C.frame(rows).lazy()).collect())
    hands, seats = C.flat_frames(rows)
    assert _set(C.check(hands.lazy(), seats=seats.lazy()).collect()).equals(nested)


def test_flat_seats_must_match_their_hands() -> None:
    rows = messy_rows(random.Random(1))
    hands, seats = C.flat_frames(rows)
    with pytest.raises(ValueError, match="seats"):
        C.check(hands.lazy(), seats=seats.head(seats.height - 1).lazy())


def _batch(store: Path, sources: list[Path], night: str) -> None:
    run_batch(Options([str(p) for p in sources], str(store), night=night, progress="none"), io.StringIO(),
              io.StringIO())  # fmt: skip


def _downgrade(store: Path) -> None:
    """Rewrite a layout 2 store as an older one: seats nested in ``hands``, no ``seats`` table."""
    for path in glob.glob(str(store / "hands" / "*" / "*.parquet")):
        hands = pl.read_parquet(path)
        seats = pl.read_parquet(path.replace(os.sep + "hands" + os.sep, os.sep + "seats" + os.sep))
        nested = seats.group_by("hand_no", maintain_order=True).agg(seats=pl.struct(*C.SEAT_FIELDS))
        hands = hands.drop("seats").join(nested, on="hand_no", how="left", maintain_order="left")
        hands = hands.with_columns(
            seats=pl.when(pl.col(C.N_SEATS).is_null()).then(None).otherwise(pl.col("seats").fill_null([]))
        )
        old = {k: v for k, v in S.HANDS.items() if k != C.N_SEATS}
        hands.select(list(old)).cast(old).write_parquet(path)  # type: ignore[arg-type]
    shutil.rmtree(store / "seats")
    for path in glob.glob(str(store / "files" / "*" / "*.parquet")):
        pl.read_parquet(path).drop("seat_parts").write_parquet(path)


def _crosshand(store: Path, night: str) -> pl.DataFrame:
    X.run_night(str(store), night)
    return (
        S.scan(str(store), "crosshand").drop("data").sort("path", "line", "code", "player", nulls_last=True).collect()
    )


def test_a_store_of_layout_2_has_flat_seats(tmp_path: Path) -> None:
    store = tmp_path / "store"
    _batch(store, [FIX / "T002" / "bad.txt"], "2026-11-01")
    hands = S.scan(str(store), "hands").collect()
    seats = S.scan(str(store), "seats").collect()
    assert hands["seats"].null_count() == hands.height
    assert int(hands[C.N_SEATS].sum()) == seats.height > 0
    files = S.load_manifest(str(store))
    assert files["seat_parts"].to_list() == files["hand_parts"].to_list()


def test_an_older_store_gives_the_same_cross_hand_findings(tmp_path: Path) -> None:
    srcs = [FIX / c / "bad.txt" for c in ("T002", "T003", "T005", "T006")]
    new, old = tmp_path / "new", tmp_path / "old"
    _batch(new, srcs, "2026-11-01")
    _batch(old, srcs, "2026-11-01")
    _downgrade(old)
    want = _crosshand(new, "2026-11-01")
    assert want.filter(pl.col("code").str.starts_with("T")).height >= 2
    assert _crosshand(old, "2026-11-01").equals(want)


def test_a_night_of_each_layout_is_chained(tmp_path: Path) -> None:
    text = (FIX / "T002" / "bad.txt").read_text("utf-8").split("\n\n\n\n")
    (tmp_path / "n1.txt").write_text("\n\n\n\n".join(text[:2]) + "\n")
    (tmp_path / "n2.txt").write_text("\n\n\n\n".join(text[2:]) + "\n")
    store = tmp_path / "store"
    _batch(store, [tmp_path / "n1.txt"], "2026-11-01")
    _downgrade(store)  # the first night written by an older hhaudit
    _batch(store, [tmp_path / "n2.txt"], "2026-11-02")
    got = _crosshand(store, "2026-11-02")
    assert [(r["code"], r["hand_id"]) for r in got.iter_rows(named=True)] == [("T002", "260000000003")]


def _previous_by_sort(seats: pl.DataFrame) -> list[int | None]:
    """The definition: the row before in (pkey, _h, row) order, for the same pkey."""
    s = seats.with_row_index("_row").sort(["pkey", "_h"], maintain_order=True)
    s = s.with_columns(p=pl.when(pl.col("pkey") == pl.col("pkey").shift(1)).then(pl.col("_row").shift(1)))
    return s.sort("_row")["p"].cast(pl.Int64).to_list()


@pytest.mark.parametrize("seed", range(60))
def test_previous_seat_rows_equal_the_sort(seed: int) -> None:
    rng = random.Random(seed)
    hands = rng.randint(1, 40)
    rows = []
    for h in range(hands):
        players = rng.sample(range(8), rng.randint(0, 6))
        if players and rng.random() < 0.1:
            players.append(players[0])  # a player in two seats
        for i, p in enumerate(players):
            seat: int | None = i + 1 if rng.random() < 0.8 else rng.choice([1, 2, 9, None, 100, 63, 0])
            rows.append({"_h": h, "seat": seat, "pkey": p + (h // 10) * 100})  # a table of ten hands
    if rng.random() < 0.3:
        rng.shuffle(rows)
    seats = pl.DataFrame(rows, schema={"_h": pl.Int64, "seat": pl.Int64, "pkey": pl.UInt64})
    assert C._previous_rows(seats, hands).to_list() == _previous_by_sort(seats)


def test_previous_seat_rows_with_sparse_seat_numbers() -> None:
    # one hand numbered far apart from the others: no map of hands x seats, every row is sorted
    seats = pl.DataFrame({"_h": [0, 0, 1, 1, 2], "seat": [1, 63, 1, 63, 1], "pkey": [5, 6, 5, 6, 5]},
                         schema={"_h": pl.Int64, "seat": pl.Int64, "pkey": pl.UInt64})  # fmt: skip
    assert C._previous_rows(seats, 300_000).to_list() == _previous_by_sort(seats) == [None, None, 0, 1, 2]
