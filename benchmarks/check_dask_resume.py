"""Kill a Dask batch run (SIGKILL, ``--kills`` times), resume it with the same command, and compare
the store with an uninterrupted run's (issue 16: a run too long for one session goes in legs).

The input is generated as for ``bench_batch.py`` (``--hands`` corpus hands with fresh ids, 1,000 a
file) in a temporary folder; both stores are written by the real command::

    python -m auditor.batch batch IN --store S --engine dask --scheduler local --workers 2 --night D

Leg k is killed once about k/(kills+1) of the files are committed; the last leg runs to the end.
Prints, per table (files without the run's own columns, hands, seats, findings, crosshand), the rows
and whether they equal the uninterrupted store's, and the run log; exits 1 when a table differs.

    .venv/bin/python benchmarks/check_dask_resume.py --hands 20000 --kills 2
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import common
import polars as pl
from bench_batch import generate, hand_texts

from auditor.batch import store as S

NIGHT = "2026-12-01"
RUN_COLS = ["run_id", "run_started_at", "audited_at", "seconds"]


def command(src: Path, store: Path, workers: int) -> list[str]:
    return [sys.executable, "-m", "auditor.batch", "batch", str(src), "--store", str(store), "--engine", "dask",
            "--scheduler", "local", "--workers", str(workers), "--night", NIGHT, "--quiet",
            "--fail-on", "none"]  # fmt: skip


def committed(store: Path) -> int:
    """Files committed so far (their manifest rows, compacted or not)."""
    n = len(list(store.glob("files/night=*/f-*.parquet")))
    for m in store.glob("files/night=*/m-*.parquet"):
        with contextlib.suppress(OSError, pl.exceptions.PolarsError):  # being written
            n += pl.scan_parquet(str(m)).select(pl.len()).collect().item()
    return n


def snapshot(store: Path) -> dict[str, pl.DataFrame]:
    s = str(store)
    return {
        "files": S.scan(s, "files").collect().drop(RUN_COLS).sort("file_key"),
        "hands": S.scan(s, "hands").collect().sort("file_key", "hand_no"),
        "seats": S.scan(s, "seats").collect().sort(pl.all()),
        "findings": S.scan(s, "findings").collect().sort(pl.all()),
        "crosshand": S.scan(s, "crosshand").collect().sort(pl.all()),
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--kills", type=int, default=2)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--corpus", default=str(common.default_corpus()))
    ap.add_argument("--tmp", help="directory for the input and the stores (default: the system's)")
    args = ap.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="dask_resume_", dir=args.tmp))
    try:
        src = root / "in"
        generate(src, args.hands, 1000, hand_texts(args.corpus))
        files = len(list(src.iterdir()))
        ref, legs = root / "ref", root / "legs"
        subprocess.run(command(src, ref, args.workers), check=False)
        for k in range(args.kills):
            p = subprocess.Popen(command(src, legs, args.workers))
            target = files * (k + 1) // (args.kills + 1)
            while p.poll() is None and committed(legs) < target:
                time.sleep(0.2)
            kids = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout.split()
            p.send_signal(signal.SIGKILL)
            p.wait()
            time.sleep(3)
            alive = [k for k in kids if os.path.exists(f"/proc/{k}")]
            print(f"leg {k + 1}: killed with {committed(legs)} of {files} files committed; "
                  f"its processes still alive 3 s later: {alive or 'none'}", flush=True)  # fmt: skip
        subprocess.run(command(src, legs, args.workers), check=False)
        a, b = snapshot(ref), snapshot(legs)
        same = True
        for t in a:
            eq = a[t].equals(b[t])
            same &= eq
            print(f"{t}: {a[t].height:,} rows, equal to the uninterrupted run's: {eq}")
        log = S.scan(str(legs), "runs").collect().sort("started_at")
        by_run = S.scan(str(legs), "files").collect().group_by("run_id").agg(pl.col("hands_seen").sum())
        print(log.select("run_id", "status", "files_audited", "files_skipped", "garbage_removed")
              .join(by_run, on="run_id", how="left"))  # fmt: skip
        return 0 if same else 1
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
