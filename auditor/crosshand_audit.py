"""The cross-hand stage of ``hhaudit audit`` (T-codes), lazy and in bounded memory (issue 16).

:class:`auditor.continuity.Collect` keeps one row per hand for the T-rules, as Python dictionaries
for 20,000 hands and then as polars frames (~540 bytes a hand) for the whole run, and runs
:func:`auditor.continuity.check` over all of them at the end: ~4 KiB a hand up to 20,000 hands,
then memory growing without bound (5 GiB at 10M hands).  This module wraps it twice:

* :class:`FirstHandFirst` imports polars (~0.15 s) only when a second hand arrives: every T-rule
  compares two hands of one table, so a run of zero or one hand has no cross-hand finding;
* :class:`Bounded` turns rows into frames every :data:`ROWS_PER_FRAME` hands, keeps at most
  :data:`SPILL_BYTES` of frames in memory and *spills* the rest to Parquet files in a private
  temporary folder, each file sorted by a hash of the hand's table key.  At the end, for a run of
  at most :data:`HANDS_PER_PARTITION` hands, it runs ``check`` on the frames exactly as
  ``Collect`` does; else it spills what is left and runs ``check`` on one range of table-key
  hashes at a time (:data:`HANDS_PER_PARTITION` hands each, read from
  the spill files with row-group statistics), and sorts the rows as
  :func:`auditor.batch.crosshand.check_partitioned` does.  A chain of hands never crosses tables,
  so the result equals ``check`` on the whole run (``tests/test_crosshand_audit.py``); the
  temporary folder is removed at the end (or when the object is collected).
"""

from __future__ import annotations

import shutil
import tempfile
import weakref
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from auditor.findings import Finding

if TYPE_CHECKING:
    import polars as pl

    from auditor.audit import Audited

#: Hands kept as dictionaries before they become a polars frame (~4 KiB each as dictionaries).
ROWS_PER_FRAME = 1_000
#: Frames kept in memory before they are spilled to disk (estimated polars size).
SPILL_BYTES = 4 * 2**20  # polars keeps ~4x the estimate for frames of 1,000 rows
#: Hands checked at once at the end of a run (one range of table-key hashes): ``check`` needs
#: about 6 KiB a hand while it runs (sorts, the exploded seats), so 5,000 hands cost ~30 MiB.
HANDS_PER_PARTITION = 5_000
#: The sort of the partitioned result (as :func:`auditor.batch.crosshand.check_partitioned`).
ORDER = ["path", "line", "code", "player", "hand_id"]


class Bounded:
    """The rows of :class:`auditor.continuity.Collect`, spilled to disk past a memory budget."""

    def __init__(self, rows_per_frame: int = ROWS_PER_FRAME, spill_bytes: int = SPILL_BYTES,
                 hands_per_partition: int = HANDS_PER_PARTITION) -> None:  # fmt: skip
        self.rows_per_frame = rows_per_frame
        self.spill_bytes = spill_bytes
        self.hands_per_partition = hands_per_partition
        self.rows: list[dict[str, Any]] = []
        self.frames: list[pl.DataFrame] = []
        self.in_memory = 0
        self.hands = 0
        self.spills: list[Path] = []
        self.dir: Path | None = None
        self._cleanup: weakref.finalize[Any, Any] | None = None

    def add(self, a: Audited, findings: Iterable[Finding], lines: Sequence[str]) -> None:
        from auditor.continuity import base_columns, hand_columns

        self.rows.append({**base_columns(a.hand), **hand_columns(a, findings, lines)})
        self.hands += 1
        if len(self.rows) >= self.rows_per_frame:
            self._to_frame()

    def _to_frame(self) -> None:
        from auditor.continuity import frame

        if not self.rows:
            return
        f = frame(self.rows)
        self.rows = []
        self.frames.append(f)
        self.in_memory += int(f.estimated_size())
        if self.in_memory > self.spill_bytes:
            self._spill()

    def _spill(self) -> None:
        import polars as pl

        from auditor.continuity import partition_key

        if not self.frames:
            return
        if self.dir is None:
            self.dir = Path(tempfile.mkdtemp(prefix="hhaudit-crosshand-"))
            self._cleanup = weakref.finalize(self, shutil.rmtree, str(self.dir), True)
        df = pl.concat(self.frames).with_columns(_h=partition_key().hash(seed=7)).sort("_h")
        path = self.dir / f"spill-{len(self.spills):06d}.parquet"
        df.write_parquet(path, compression="lz4", statistics=True, row_group_size=4_096)
        self.spills.append(path)
        self.frames = []
        self.in_memory = 0

    def findings(self) -> list[Finding]:
        import polars as pl

        from auditor.continuity import FINDINGS, check, to_findings

        self._to_frame()
        if not self.spills and self.hands <= self.hands_per_partition:  # small: exactly Collect.findings
            if not self.frames:
                return []
            return to_findings(check(pl.concat(self.frames).lazy()).collect())
        self._spill()  # the query needs ~6 KiB a hand while it runs: one hash range at a time
        try:
            parts = max(1, -(-self.hands // self.hands_per_partition))
            step = 2**64 // parts
            scan = pl.scan_parquet([str(p) for p in self.spills])
            results = []
            for i in range(parts):
                cond = pl.col("_h") >= pl.lit(i * step, dtype=pl.UInt64)
                if i < parts - 1:
                    cond = cond & (pl.col("_h") < pl.lit((i + 1) * step, dtype=pl.UInt64))
                results.append(check(scan.filter(cond).drop("_h")).collect().select(list(FINDINGS)))
            df = pl.concat(results, how="vertical_relaxed").sort(ORDER, nulls_last=True)
            return to_findings(df)
        finally:
            if self._cleanup is not None:
                self._cleanup()


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
