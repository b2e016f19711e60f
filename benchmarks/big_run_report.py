"""What a long ``hhaudit batch`` run has reached, leg by leg (issue 16: the 10M-hand Dask run).

A run that outlives a session is resumed by running the same command again: the store is
incremental and crash-safe, so every leg audits the files not yet committed and skips the rest.
This adds the legs up from two sources:

* the store's manifest (``files``): the hands committed by each run (a killed leg's row in the run
  log keeps its start-up zeros, the manifest has each file's counts and the run that audited it);
* each leg's sample CSV (``benchmarks/sample_tree.py``): its wall span, CPU seconds of the whole
  process tree, peak resident set of each process and of the tree.

and projects the finish from the hands per CPU second and per wall second measured so far.

    python benchmarks/big_run_report.py --store /work/big10m/store --total 10000000 /work/big10m/leg*.csv
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
from collections.abc import Sequence
from typing import Any


def leg_figures(path: str) -> dict[str, Any]:
    """A leg's figures from its sample CSV."""
    first_t = last_t = ""
    cpu = 0.0
    elapsed = 0.0
    tree_peak = 0.0
    by_role: dict[str, float] = {}  # role -> the largest peak of a process of that role
    hands = 0
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            first_t = first_t or r["time_utc"]
            last_t = r["time_utc"]
            elapsed = float(r["elapsed_s"])
            hands = max(hands, int(r["hands"] or 0))
            rss = float(r["rss_mib"])
            if r["role"] == "tree":
                cpu = max(cpu, float(r["cpu_s"]))
                tree_peak = max(tree_peak, rss)
            else:
                by_role[r["role"]] = max(by_role.get(r["role"], 0.0), rss)
    return {"csv": path, "from": first_t, "to": last_t, "wall_s": elapsed, "cpu_s": cpu, "hands_logged": hands,
            "peak_tree_mib": tree_peak, "peak_by_role_mib": by_role}  # fmt: skip


def store_figures(store: str) -> dict[str, Any]:
    """Hands and files committed in the store, by run, and its size on disk."""
    import polars as pl

    from auditor.batch import store as S

    files = S.scan(store, "files").collect()
    by_run = (
        files.group_by("run_id")
        .agg(pl.len().alias("files"), pl.col("hands_seen").sum().alias("hands"), pl.col("audited_at").max())
        .sort("audited_at")
    )
    size = sum(os.path.getsize(os.path.join(d, n)) for d, _s, ns in os.walk(store) for n in ns)
    runs = S.scan(store, "runs").collect().sort("started_at").select("run_id", "status", "started_at", "files_audited")
    return {"files": files.height, "hands": int(files["hands_seen"].sum() or 0), "by_run": by_run.to_dicts(),
            "runs": runs.to_dicts(), "size_mib": size / 2**20}  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csvs", nargs="+", help="the legs' sample CSVs, in order")
    ap.add_argument("--store", required=True)
    ap.add_argument("--total", type=int, default=10_000_000, help="hands of the whole input (10M)")
    args = ap.parse_args(argv)
    legs = [leg_figures(p) for p in args.csvs]
    st = store_figures(args.store)
    print(f"store {args.store}: {st['files']:,} files, {st['hands']:,} hands committed, {st['size_mib']:,.0f} MiB")
    for r in st["runs"]:
        got = next((b for b in st["by_run"] if b["run_id"] == r["run_id"]), None)
        print(f"  run {r['run_id']} ({r['status']}): {got['files'] if got else 0:,} files, "
              f"{got['hands'] if got else 0:,} hands committed")  # fmt: skip
    cpu = sum(leg["cpu_s"] for leg in legs)
    wall = sum(leg["wall_s"] for leg in legs)
    for i, leg in enumerate(legs, 1):
        roles = ", ".join(f"{k} {v:,.0f}" for k, v in sorted(leg["peak_by_role_mib"].items(), key=lambda x: -x[1]))
        print(f"leg {i} ({leg['csv']}): {leg['from']} to {leg['to']}, {leg['wall_s']:,.0f} s wall, "
              f"{leg['cpu_s']:,.0f} CPU s, {leg['hands_logged']:,} hands logged; peak RSS: tree "
              f"{leg['peak_tree_mib']:,.0f} MiB, by process (MiB) {roles}")  # fmt: skip
    if cpu and wall:
        per_cpu, per_wall = st["hands"] / cpu, st["hands"] / wall
        left = args.total - st["hands"]
        print(f"all legs: {wall:,.0f} s wall, {cpu:,.0f} CPU s: {per_cpu:,.0f} hands per CPU second, "
              f"{per_wall:,.0f} hands per wall second")  # fmt: skip
        print(f"left: {left:,} hands: {left / per_cpu / 3600:,.1f} CPU h, {left / per_wall / 3600:,.1f} h wall at "
              f"this rate, {left / per_cpu / 2 / 3600:,.1f} h on two free cores (without the night pass)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
