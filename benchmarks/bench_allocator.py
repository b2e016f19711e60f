"""polars' allocator settings for the cross-hand query: CPU seconds and resident memory (issue 17).

Writes the synthesised store rows of ``bench_continuity.py`` (store layout 2: ``hands`` and
``seats`` Parquet files) once, then, for each ``_RJEM_MALLOC_CONF`` value, runs
``continuity.check`` from Parquet ``--repeat`` times in a fresh process (1 polars thread) and
prints the best CPU seconds, the minor page faults per run, the peak RSS of the process, its RSS
right after the last run and after ``--idle`` seconds of doing nothing (what a long process keeps).

    .venv/bin/python benchmarks/bench_allocator.py
    .venv/bin/python benchmarks/bench_allocator.py --conf dirty_decay_ms:-1,muzzy_decay_ms:-1 --conf ""
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_CHILD = r"""
import os, resource, sys, time
sys.path.insert(0, sys.argv[1])
import polars as pl
from auditor import continuity as C
hq, sq, repeat, idle = sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
def rss():
    return int(open("/proc/self/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
best = float("inf")
f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(repeat):
    c0 = time.process_time()
    C.check(pl.scan_parquet(hq), seats=pl.scan_parquet(sq)).collect()
    best = min(best, time.process_time() - c0)
faults = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0) // repeat
after = rss()
time.sleep(idle)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(best, faults, peak, after, rss())
"""

DEFAULT_CONFS = ["", "dirty_decay_ms:-1,muzzy_decay_ms:-1", "dirty_decay_ms:10000,muzzy_decay_ms:10000"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=10_000)
    ap.add_argument("--hands-per-table", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--idle", type=float, default=15.0)
    ap.add_argument("--conf", action="append", help="a _RJEM_MALLOC_CONF value ('': polars' own); repeatable")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    import bench_continuity as B
    import polars as pl

    from auditor import continuity as C

    hands = args.tables * args.hands_per_table
    with tempfile.TemporaryDirectory() as tmp:
        hq, sq = os.path.join(tmp, "hands.parquet"), os.path.join(tmp, "seats.parquet")
        df = B.synthesise(args.tables, args.hands_per_table)
        df.with_columns(pl.col("seats").list.len().cast(pl.Int32).alias(C.N_SEATS)).drop("seats").write_parquet(hq)
        C.flat_seats(df).drop("_in").write_parquet(sq)
        del df
        print(f"continuity.check over {hands:,} hands from Parquet (layout 2), 1 polars thread, best of {args.repeat}")
        for conf in args.conf if args.conf is not None else DEFAULT_CONFS:
            env = {k: v for k, v in os.environ.items() if k != "_RJEM_MALLOC_CONF"}
            env["POLARS_MAX_THREADS"] = "1"
            if conf:
                env["_RJEM_MALLOC_CONF"] = conf
            out = subprocess.run([sys.executable, "-c", _CHILD, str(ROOT), hq, sq, str(args.repeat), str(args.idle)],
                                 env=env, capture_output=True, text=True, check=True).stdout.split()  # fmt: skip
            cpu, faults, peak, after, idle = float(out[0]), int(out[1]), float(out[2]), float(out[3]), float(out[4])
            print(f"{conf or '(polars own: dirty_decay_ms:500,muzzy_decay_ms:1000)':45s} CPU {cpu:5.2f} s "
                  f"({hands / cpu:>9,.0f} hands per CPU s), {faults:>7,} minor faults/run, peak RSS {peak:,.0f} MiB, "
                  f"after {after:,.0f} MiB, after {args.idle:.0f} s idle {idle:,.0f} MiB", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
