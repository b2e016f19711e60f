"""Sorting more rows than memory should hold: sorted runs on disk, merged (issue 16).

:func:`sorted_frames` takes frames of rows (any number, any size each) and gives them back as one
sequence sorted by some columns, ``nulls_last`` as polars sorts, **stably** (rows with equal keys
keep their input order, as ``DataFrame.sort(..., maintain_order=True)``).  While the rows fit in
``run_rows`` nothing is written: one polars sort in memory.  Past that, each ``run_rows`` rows are
sorted by polars and written to a *run* file (compressed pickles of ``block_rows`` row tuples), and
the runs are merged by :func:`heapq.merge` (stable: on equal keys, the earlier run first) reading
one block of each run at a time; more than ``fan_in`` runs are first merged ``fan_in`` at a time
into longer runs.  What is held at once is therefore ``run_rows`` rows while runs are made and
``fan_in * block_rows`` while they are merged, whatever the number of rows; the disk holds every
row once (twice during an intermediate merge).

Keys compare in Python as polars compares them: integers by value, strings by code point (UTF-8
byte order, which is polars'), a null after every value.  The files are written and read only by
this module, in a folder the caller owns (the child of :mod:`auditor.crosshand_audit` uses its
private temporary folder).
"""

from __future__ import annotations

import contextlib
import heapq
import pickle
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

if TYPE_CHECKING:
    import polars as pl

#: Rows sorted in memory at once (one run).  The frames gathered for a run cost far more than
#: their rows (the cross-hand child's are a bucket's findings each, tens of rows, hundreds of
#: frames to 20,000 rows: the child's RSS rose ~10 MiB until a run was written), hence few.
RUN_ROWS = 5_000
#: Frames gathered before they are made one (a frame's fixed cost is per column, ~KiBs: the
#: child's frames are a bucket's findings each, tens of rows).
COMPACT_FRAMES = 64
#: Rows a run file holds per record (read one record per run at a time while merging).
BLOCK_ROWS = 500
#: Runs merged at once.
FAN_IN = 16

Row = tuple[Any, ...]


def dump(obj: Any, f: BinaryIO) -> None:
    """One record of a spill file: its length, then the compressed pickle."""
    data = zlib.compress(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL), 1)
    f.write(len(data).to_bytes(8, "little"))
    f.write(data)


def load_all(f: BinaryIO) -> Iterator[Any]:
    """The records :func:`dump` wrote to ``f``, in order."""
    while head := f.read(8):
        data = f.read(int.from_bytes(head, "little"))
        yield pickle.loads(zlib.decompress(data))  # written by this module's callers, in a private folder


def row_key(positions: Sequence[int]) -> Callable[[Row], tuple[tuple[bool, Any], ...]]:
    """The sort key of a row tuple by the columns at ``positions``: nulls last."""

    def key(row: Row) -> tuple[tuple[bool, Any], ...]:
        return tuple((row[i] is None, 0 if row[i] is None else row[i]) for i in positions)

    return key


class _Runs:
    """Run files in ``tmp``, numbered as they are written."""

    def __init__(self, tmp: Path, block_rows: int) -> None:
        self.tmp = tmp
        self.block_rows = block_rows
        self.made = 0

    def write(self, rows: Iterable[Row]) -> Path:
        path = self.tmp / f"run-{self.made:06d}.pickle"
        self.made += 1
        with open(path, "wb") as f:
            block: list[Row] = []
            for r in rows:
                block.append(r)
                if len(block) >= self.block_rows:
                    dump(block, f)
                    block = []
            if block:
                dump(block, f)
        return path

    def write_frame(self, df: pl.DataFrame) -> Path:
        return self.write(r for i in range(0, df.height, self.block_rows)
                          for r in df.slice(i, self.block_rows).iter_rows())  # fmt: skip

    @staticmethod
    def read(path: Path) -> Iterator[Row]:
        with open(path, "rb") as f:
            for block in load_all(f):
                yield from block


def _fewer(store: _Runs, runs: list[Path], key: Callable[[Row], Any] | None, fan_in: int) -> list[Path]:
    """At most ``fan_in`` runs: longer runs merged ``fan_in`` at a time, in order (the merge stays stable)."""
    while len(runs) > fan_in:
        longer: list[Path] = []
        for i in range(0, len(runs), fan_in):
            group = runs[i : i + fan_in]
            if len(group) == 1:
                longer.append(group[0])
                continue
            longer.append(store.write(heapq.merge(*(store.read(p) for p in group), key=key)))
            for p in group:
                p.unlink()
        runs = longer
    return runs


def sorted_frames(frames: Iterable[pl.DataFrame], by: Sequence[str], schema: Mapping[str, pl.DataType],
                  tmp: Path, run_rows: int = RUN_ROWS, out_rows: int = 1_000, block_rows: int = BLOCK_ROWS,
                  fan_in: int = FAN_IN) -> Iterator[pl.DataFrame]:  # fmt: skip
    """The rows of ``frames`` (columns ``schema``), sorted by ``by`` (nulls last, stable), in frames
    of at most ``out_rows`` rows; see the module.  Run files go to ``tmp`` (created) and are
    removed once read, and ``tmp`` with them."""
    import polars as pl

    if fan_in < 2 or run_rows < 1 or block_rows < 1 or out_rows < 1:
        raise ValueError("fan_in must be at least 2, the row counts at least 1")
    cols = list(schema)

    def sort(acc: list[pl.DataFrame]) -> pl.DataFrame:
        return pl.concat(acc, how="vertical_relaxed").sort(list(by), nulls_last=True, maintain_order=True)

    runs: list[Path] = []
    store = _Runs(tmp, block_rows)
    acc: list[pl.DataFrame] = []
    held = 0
    for df in frames:
        if df.height == 0:
            continue
        acc.append(df.select(cols))
        held += df.height
        if len(acc) >= COMPACT_FRAMES:  # many small frames cost more than their rows: one frame
            acc = [pl.concat(acc, how="vertical_relaxed", rechunk=True)]
        if held >= run_rows:
            if not runs:
                tmp.mkdir(parents=True)
            runs.append(store.write_frame(sort(acc)))
            acc, held = [], 0
    if not runs:  # it all fit: sorted in memory, nothing written
        if acc:
            whole = sort(acc)
            for i in range(0, whole.height, out_rows):
                yield whole.slice(i, out_rows)
        return
    if acc:
        runs.append(store.write_frame(sort(acc)))
        acc = []
    key = row_key([cols.index(c) for c in by])
    runs = _fewer(store, runs, key, fan_in)
    out: list[Row] = []
    for row in heapq.merge(*(store.read(p) for p in runs), key=key):
        out.append(row)
        if len(out) >= out_rows:
            yield pl.DataFrame(out, schema=dict(schema), orient="row")
            out = []
    if out:
        yield pl.DataFrame(out, schema=dict(schema), orient="row")
    for p in runs:
        p.unlink()
    tmp.rmdir()  # made above, for the runs


class RowSpill:
    """Row tuples added one at a time and given back sorted by ``key``, stably, in bounded memory,
    without polars (the auditing process never imports it: the HTML report's findings, issue 16).

    Rows are held until ``run_rows`` are, then sorted (by ``key``, or with none by the row tuple
    itself) and written as a run to ``tmp`` (created on the first run); :meth:`sorted` merges the
    runs (``fan_in`` at a time, ``block_rows`` rows read per run at once) and the rows still held.
    :meth:`scan` gives every row once in no set order.
    """

    def __init__(self, tmp: Path, key: Callable[[Row], Any] | None = None, run_rows: int = 10_000,
                 block_rows: int = 200, fan_in: int = FAN_IN) -> None:  # fmt: skip
        if fan_in < 2 or run_rows < 1 or block_rows < 1:
            raise ValueError("fan_in must be at least 2, the row counts at least 1")
        self.tmp = tmp
        self.key = key
        self.run_rows = run_rows
        self.fan_in = fan_in
        self.store = _Runs(tmp, block_rows)
        self.runs: list[Path] = []
        self.held: list[Row] = []
        self.rows = 0

    def add(self, row: Row) -> None:
        self.held.append(row)
        self.rows += 1
        if len(self.held) >= self.run_rows:
            self._spill()

    def _spill(self) -> None:
        if not self.runs:
            self.tmp.mkdir(parents=True, exist_ok=True)
        self.held.sort(key=self.key)
        self.runs.append(self.store.write(self.held))
        self.held = []

    def scan(self) -> Iterator[Row]:
        """Every row added so far, run by run (each run sorted), then the rows still held."""
        for p in list(self.runs):
            yield from self.store.read(p)
        yield from self.held

    def sorted(self) -> Iterator[Row]:
        """Every row added so far, sorted by ``key`` (stable: equal keys in the order added)."""
        if self.held and self.runs:
            self._spill()
        if not self.runs:
            yield from sorted(self.held, key=self.key)
            return
        self.runs = _fewer(self.store, self.runs, self.key, self.fan_in)
        yield from heapq.merge(*(self.store.read(p) for p in self.runs), key=self.key)

    def close(self) -> None:
        """Remove the run files (and ``tmp`` if this spill made it)."""
        for p in self.runs:
            p.unlink(missing_ok=True)
        if self.runs:
            with contextlib.suppress(OSError):
                self.tmp.rmdir()
        self.runs, self.held = [], []
