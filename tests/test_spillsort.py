"""Sorting on disk (auditor/spillsort.py, issue 16): runs spilled to files and merged give exactly
the order of one stable polars sort in memory, whatever the run, block and fan-in sizes, with
nulls, ties and non-ASCII text; the run files are removed."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from tempfile import TemporaryDirectory

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.spillsort import sorted_frames

SCHEMA: dict[str, pl.DataType] = {"path": pl.String(), "line": pl.Int64(), "code": pl.String(),
                                  "n": pl.Int64()}  # fmt: skip
BY = ["path", "line", "code"]

# few distinct values, so that ties (equal keys, told apart only by ``n``) are common
text = st.one_of(st.none(), st.sampled_from(["", "a", "a b", "B", "é", "Ω", "\U0001f0a1", "z/1.txt", "zz"]))
lines = st.one_of(st.none(), st.integers(-3, 3), st.integers(-(2**62), 2**62))


def frames_of(rows: list[tuple[str | None, int | None, str | None]], cuts: list[int]) -> list[pl.DataFrame]:
    """The rows (numbered in input order) cut into frames at ``cuts``, some of them empty."""
    full = [(p, ln, c, i) for i, (p, ln, c) in enumerate(rows)]
    bounds = sorted({0, len(full), *(c % (len(full) + 1) for c in cuts)})
    parts = [full[a:b] for a, b in pairwise(bounds)] + [[]]
    return [pl.DataFrame(p, schema=SCHEMA, orient="row") for p in parts]


@settings(max_examples=150, deadline=None)
@given(
    rows=st.lists(st.tuples(text, lines, st.sampled_from(["T001", "T002", None])), max_size=120),
    cuts=st.lists(st.integers(0, 200), max_size=6),
    run_rows=st.integers(1, 40),
    block_rows=st.integers(1, 9),
    fan_in=st.integers(2, 5),
    out_rows=st.integers(1, 50),
)
def test_spilled_runs_merge_to_the_order_of_one_stable_sort(
    rows: list[tuple[str | None, int | None, str | None]], cuts: list[int], run_rows: int, block_rows: int,
    fan_in: int, out_rows: int,
) -> None:  # fmt: skip
    frames = frames_of(rows, cuts)
    whole = pl.concat(frames).sort(BY, nulls_last=True, maintain_order=True)
    with TemporaryDirectory() as tmp:
        runs = Path(tmp) / "runs"
        got = list(sorted_frames(frames, BY, SCHEMA, runs, run_rows, out_rows, block_rows, fan_in))
        assert not runs.exists()  # every run file read and removed, and their folder
    assert all(0 < df.height <= out_rows for df in got)
    together = pl.concat(got) if got else pl.DataFrame(schema=SCHEMA)
    assert together.rows() == whole.rows()


def test_rows_that_fit_are_sorted_in_memory_without_a_file(tmp_path: Path) -> None:
    df = pl.DataFrame([("b", 1, "T001", 0), ("a", None, "T002", 1), ("a", 2, None, 2)], schema=SCHEMA, orient="row")
    got = list(sorted_frames([df], BY, SCHEMA, tmp_path / "runs", run_rows=10))
    assert [r[3] for r in pl.concat(got).rows()] == [2, 1, 0]
    assert not (tmp_path / "runs").exists()


def test_many_runs_are_merged_a_few_at_a_time(tmp_path: Path) -> None:
    """More runs than ``fan_in``: intermediate merges, the same order (and ties kept in input order)."""
    rows = [(f"f{i % 7}", i % 5, "T001", i) for i in range(1_000)]
    frames = [pl.DataFrame(rows[i : i + 13], schema=SCHEMA, orient="row") for i in range(0, len(rows), 13)]
    got = pl.concat(list(sorted_frames(frames, BY, SCHEMA, tmp_path / "r", run_rows=10, block_rows=3, fan_in=2)))
    assert got.rows() == pl.concat(frames).sort(BY, nulls_last=True, maintain_order=True).rows()


def test_bad_sizes_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="fan_in"):
        list(sorted_frames([], BY, SCHEMA, tmp_path, fan_in=1))


def test_many_small_frames_are_made_one_on_the_way(tmp_path: Path) -> None:
    """More frames than ``COMPACT_FRAMES`` (the child's: one per bucket of tables): the same rows,
    in the same order, in memory and on disk."""
    from auditor.spillsort import COMPACT_FRAMES

    rows = [(f"f{i % 11}", (i * 7) % 13, None if i % 5 else "T002", i) for i in range(3 * COMPACT_FRAMES + 5)]
    frames = [pl.DataFrame([r], schema=SCHEMA, orient="row") for r in rows]
    want = pl.concat(frames).sort(BY, nulls_last=True, maintain_order=True).rows()
    for run_rows in (10**6, 2 * COMPACT_FRAMES + 1):
        got = pl.concat(list(sorted_frames(frames, BY, SCHEMA, tmp_path / f"r{run_rows}", run_rows=run_rows)))
        assert got.rows() == want, run_rows
