"""The cross-hand stage of ``hhaudit audit`` (T-codes), lazy and in bounded memory (issue 16).

:func:`auditor.continuity.check` needs every hand of a table at once, and polars' query engine
costs ~60-75 MiB of working memory however few hands it reads.  So the stage is kept out of the
auditing process:

* :class:`FirstHandFirst` starts the stage only when a second hand arrives: every T-rule compares
  two hands of one table, so a run of zero or one hand has no cross-hand finding;
* :class:`Bounded` keeps at most :data:`ROWS_PER_BATCH` hand rows (:func:`auditor.continuity.
  base_columns` and ``hand_columns``) in memory and appends the others, pickled, to a file in a
  private temporary folder: what the auditing process holds for the stage does not grow with the
  run, and it never runs a polars query.  At the end, a run of at most :data:`IN_PROCESS` hands
  (nothing written yet) is checked in the process; a larger one in a **child process**
  (``python -m auditor.crosshand_audit``, :func:`main`), which returns the findings in a pickle;
* :func:`findings_of` (the child's work) turns the rows into the flat form of
  :func:`auditor.continuity.flat_frames` (one frame of hands, one of seats), keeps at most
  :data:`SPILL_BYTES` of frames in memory and spills the rest to Parquet files (hands and seats),
  each sorted by a hash of the hand's table key.  A run of at most :data:`HANDS_PER_PARTITION`
  hands, never spilled, is checked at once (``check(hands, seats=seats)``); a larger one one range
  of table-key hashes at a time (:data:`HANDS_PER_PARTITION` hands each, read from the spill files
  with row-group statistics, in input order), its rows sorted as
  :func:`auditor.batch.crosshand.check_partitioned` does.  A chain of hands never crosses tables
  (nor a tournament's tables: :func:`auditor.continuity.partition_key`), so the result equals
  ``check`` on the whole run (``tests/test_crosshand_audit.py``).

The temporary folders are removed at the end (or when the object is collected).  The pickles are
written and read only by this module, in a folder only the user can read (``tempfile.mkdtemp``).
"""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import weakref
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from auditor.findings import Finding

if TYPE_CHECKING:
    import polars as pl

    from auditor.audit import Audited

#: Hand rows kept in the auditing process before they are appended to the rows file (~4 KiB each).
ROWS_PER_BATCH = 500
#: Runs of at most this many hands are checked in the auditing process (no child, no file).
IN_PROCESS = 1_000
#: Frames kept in memory by :func:`findings_of` before they are spilled to disk (polars' estimate).
SPILL_BYTES = 4 * 2**20  # polars keeps ~4x the estimate for frames of 1,000 rows
#: Hands checked at once at the end of a run (one range of table-key hashes): ``check`` needs
#: about 6 KiB a hand while it runs (sorts, the seats), so 5,000 hands cost ~30 MiB.
HANDS_PER_PARTITION = 5_000
#: The sort of the partitioned result (as :func:`auditor.batch.crosshand.check_partitioned`).
ORDER = ["path", "line", "code", "player", "hand_id"]

ROWS_FILE = "rows.pickle"
FINDINGS_FILE = "findings.pickle"

Rows = list[dict[str, Any]]


class Bounded:
    """Gathers the cross-hand rows of an ``hhaudit audit`` run in bounded memory; :meth:`findings`
    runs the T-rules (in a child process for a run of more than ``in_process`` hands)."""

    def __init__(self, rows_per_batch: int = ROWS_PER_BATCH, spill_bytes: int = SPILL_BYTES,
                 hands_per_partition: int = HANDS_PER_PARTITION, in_process: int = IN_PROCESS) -> None:  # fmt: skip
        self.rows_per_batch = rows_per_batch
        self.spill_bytes = spill_bytes
        self.hands_per_partition = hands_per_partition
        self.in_process = in_process
        self.rows: Rows = []  # the hands not yet written, with their seats nested
        self.hands = 0
        self.dir: Path | None = None
        self.out: BinaryIO | None = None
        self.child: bool | None = None  # after findings(): whether a child process ran the query
        self._cleanup: weakref.finalize[Any, Any] | None = None

    def add(self, a: Audited, findings: Iterable[Finding], lines: Sequence[str]) -> None:
        from auditor.continuity import base_columns, hand_columns

        self.rows.append({**base_columns(a.hand), **hand_columns(a, findings, lines)})
        self.hands += 1
        if len(self.rows) >= self.rows_per_batch:
            self._write()

    def _write(self) -> None:
        if not self.rows:
            return
        if self.out is None:
            self.dir = Path(tempfile.mkdtemp(prefix="hhaudit-crosshand-"))
            self.out = open(self.dir / ROWS_FILE, "wb")  # noqa: SIM115 (closed in findings or cleanup)
            self._cleanup = weakref.finalize(self, _remove, self.out, str(self.dir))
        pickle.dump(self.rows, self.out, protocol=pickle.HIGHEST_PROTOCOL)
        self.rows = []

    def findings(self) -> list[Finding]:
        if self.out is None and self.hands <= self.in_process:
            self.child = False
            with tempfile.TemporaryDirectory(prefix="hhaudit-crosshand-") as tmp:
                return findings_of([self.rows] if self.rows else [], Path(tmp), self.spill_bytes,
                                   self.hands_per_partition)  # fmt: skip
        self._write()
        assert self.out is not None and self.dir is not None
        self.out.close()
        self.child = True
        try:
            return _run_child(self.dir, self.spill_bytes, self.hands_per_partition)
        finally:
            if self._cleanup is not None:
                self._cleanup()


def _remove(out: BinaryIO, directory: str) -> None:
    out.close()
    shutil.rmtree(directory, ignore_errors=True)


def _run_child(directory: Path, spill_bytes: int, per_part: int) -> list[Finding]:
    """:func:`main` in a fresh interpreter on ``directory``'s rows file; its findings."""
    argv = [sys.executable, "-m", "auditor.crosshand_audit", str(directory), str(spill_bytes), str(per_part)]
    root = str(Path(__file__).resolve().parent.parent)  # this very package, not the working directory's
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
    env = {**os.environ, "PYTHONSAFEPATH": "1", "PYTHONPATH": path}
    done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, env=env, check=False)
    if done.returncode != 0:
        err = done.stderr.decode("utf-8", "replace").strip()
        raise RuntimeError(f"the cross-hand check failed in its child process ({done.returncode}): {err}")
    with open(directory / FINDINGS_FILE, "rb") as f:
        found: list[Finding] = pickle.load(f)  # noqa: S301 (written by main, in our private folder)
    return found


def read_rows(path: Path) -> Iterator[Rows]:
    """The batches of rows :class:`Bounded` appended to ``path``."""
    with open(path, "rb") as f:
        while True:
            try:
                yield pickle.load(f)  # noqa: S301 (written by Bounded, in its private folder)
            except EOFError:
                return


def _flat(rows: Rows, first: int, first_seat: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The flat frames of ``rows`` (the ``first``-th hand and ``first_seat``-th seat of the run
    first) with ``_h`` (the hash of the table key), ``_i`` (the hand's place in the run) and, on
    seats, ``_j`` (the seat's)."""
    import polars as pl

    from auditor.continuity import flat_frames, link_seats, partition_key

    hf, sf = flat_frames(rows)
    hf = hf.with_columns(_h=partition_key().hash(seed=7), _i=pl.int_range(pl.len(), dtype=pl.Int64) + first)
    sf = link_seats(hf, sf)
    sf = sf.with_columns(_h=hf["_h"].gather(sf["_in"]), _i=hf["_i"].gather(sf["_in"]),
                         _j=pl.int_range(pl.len(), dtype=pl.Int64) + first_seat).drop("_in")  # fmt: skip
    return hf, sf


def findings_of(batches: Iterable[Rows], tmp: Path, spill_bytes: int = SPILL_BYTES,
                per_part: int = HANDS_PER_PARTITION) -> list[Finding]:  # fmt: skip
    """The cross-hand findings of the hand rows in ``batches`` (see the module); spills go to ``tmp``."""
    import polars as pl

    from auditor.continuity import FINDINGS, check, to_findings

    frames: list[tuple[pl.DataFrame, pl.DataFrame]] = []
    in_memory, hands, seats_seen = 0, 0, 0
    spills: list[tuple[Path, Path]] = []

    def spill() -> None:
        nonlocal in_memory
        if not frames:
            return
        hf = pl.concat([h for h, _ in frames]).sort(["_h", "_i"])
        sf = pl.concat([s for _, s in frames]).sort(["_h", "_j"])
        paths = (tmp / f"hands-{len(spills):06d}.parquet", tmp / f"seats-{len(spills):06d}.parquet")
        for df, path in zip((hf, sf), paths, strict=True):
            df.write_parquet(path, compression="lz4", statistics=True, row_group_size=4_096)
        spills.append(paths)
        frames.clear()
        in_memory = 0

    for rows in batches:
        hf, sf = _flat(rows, hands, seats_seen)
        hands += hf.height
        seats_seen += sf.height
        frames.append((hf, sf))
        in_memory += int(hf.estimated_size() + sf.estimated_size())
        if in_memory > spill_bytes:
            spill()
    if not spills and hands <= per_part:  # small: the whole run at once
        if not frames:
            return []
        hands_lf = pl.concat([h for h, _ in frames]).drop("_h", "_i").lazy()
        seats_lf = pl.concat([s for _, s in frames]).drop("_h", "_i", "_j").lazy()
        return to_findings(check(hands_lf, seats=seats_lf).collect())
    spill()  # the query needs ~6 KiB a hand while it runs: one hash range at a time
    parts = max(1, -(-hands // per_part))
    step = 2**64 // parts
    hscan = pl.scan_parquet([str(h) for h, _ in spills])
    sscan = pl.scan_parquet([str(s) for _, s in spills])
    results = []
    for i in range(parts):
        cond = pl.col("_h") >= pl.lit(i * step, dtype=pl.UInt64)
        if i < parts - 1:
            cond = cond & (pl.col("_h") < pl.lit((i + 1) * step, dtype=pl.UInt64))
        hands_lf = hscan.filter(cond).sort("_i").drop("_h", "_i")
        seats_lf = sscan.filter(cond).sort("_j").drop("_h", "_i", "_j")
        results.append(check(hands_lf, seats=seats_lf).collect().select(list(FINDINGS)))
    df = pl.concat(results, how="vertical_relaxed").sort(ORDER, nulls_last=True)
    return to_findings(df)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m auditor.crosshand_audit DIR SPILL_BYTES PER_PART``: the findings of ``DIR``'s
    rows file, pickled to ``DIR/findings.pickle`` (the child process of :class:`Bounded`)."""
    args = list(sys.argv[1:] if argv is None else argv)
    directory, spill_bytes, per_part = Path(args[0]), int(args[1]), int(args[2])
    with tempfile.TemporaryDirectory(prefix="spill-", dir=directory) as tmp:
        found = findings_of(read_rows(directory / ROWS_FILE), Path(tmp), spill_bytes, per_part)
    with open(directory / FINDINGS_FILE, "wb") as f:
        pickle.dump(found, f, protocol=pickle.HIGHEST_PROTOCOL)
    return 0


class FirstHandFirst:
    """A :class:`Bounded` collector that starts one hand late (see the module)."""

    def __init__(self) -> None:
        self.first: tuple[Audited, list[Finding], list[str]] | None = None
        self.inner: Bounded | None = None

    def add(self, a: Audited, findings: Iterable[Finding], lines: Sequence[str]) -> None:
        if self.inner is None:
            if self.first is None:
                self.first = (a, list(findings), list(lines))
                return
            self.inner = Bounded()
            self.inner.add(*self.first)
            self.first = None
        self.inner.add(a, findings, lines)

    def findings(self) -> list[Finding]:
        if self.inner is None:
            return []  # no hand, or one: no two hands to compare
        return self.inner.findings()


if __name__ == "__main__":
    sys.exit(main())
