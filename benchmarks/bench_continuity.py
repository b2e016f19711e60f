"""The cross-hand stage (T-codes) over a large store: hands/s per core in polars, and Dask vs in-process.

The input is synthesised store rows (the columns of :data:`auditor.continuity.INPUT`, as the batch
store's ``hands`` table holds them): ``--tables`` cash tables of ``--hands-per-table`` hands, six
players each, the button moving one seat a hand, a minute between hands, and one rathole (a stack
$5 lower than the previous final) in every hundredth table, so the result is not empty.  The rows
are written to Parquet once (not timed), in store layout 2 (a ``hands`` file with ``n_seats`` and a flat
``seats`` file, one row per seat) and in the older nested layout; then ``continuity.check`` is timed
(best of ``--repeat``, wall and CPU seconds) on both Parquet layouts, as the store's pass reads them,
and on the same frames in memory (the flat form is what ``hhaudit audit`` checks:
``auditor.crosshand_audit.check_rows`` builds it with ``continuity.flat_frames`` and runs
``check(hands, seats=seats)``, one bucket of tables at a time, in a child process), with polars
limited to ``--threads`` threads (default 1: hands/s per core).  ``--baseline FILE`` times another
version of ``auditor/continuity.py`` (e.g. ``git show main:auditor/continuity.py``) on the same
nested input in the same run; every result is compared with the first.  Finally the check runs as Dask tasks
on a local cluster of 2 workers (partitions by table, ``auditor.batch.crosshand.check_partitioned``)
and its result is compared with the in-process one.

    .venv/bin/python benchmarks/bench_continuity.py                       # 1,000,000 hands, 1 thread
    .venv/bin/python benchmarks/bench_continuity.py --threads 2 --json out/bench_continuity.json
    git show main:auditor/continuity.py > /tmp/old_continuity.py
    .venv/bin/python benchmarks/bench_continuity.py --baseline /tmp/old_continuity.py --dask-workers 0
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import common


def synthesise(tables: int, per_table: int) -> Any:
    import polars as pl

    from auditor import continuity as C

    n = tables * per_table
    hands = pl.DataFrame({"i": pl.int_range(n, eager=True)}).with_columns(
        t=pl.col("i") // per_table, j=pl.col("i") % per_table
    )
    seats = hands.join(pl.DataFrame({"seat": list(range(1, 7))}), how="cross")
    rathole = (pl.col("t") % 100 == 0) & (pl.col("j") >= per_table // 2) & (pl.col("seat") == 3)
    # a rathole: seat 3 of every hundredth table starts $5 lower from the middle of the session on
    seats = seats.with_columns(
        player=pl.format("p{}-{}", pl.col("t"), pl.col("seat")),
        stack=pl.lit(10_000) - pl.when(rathole).then(500).otherwise(0),
    ).with_columns(final=pl.col("stack"))
    seat_struct = pl.struct(
        pl.col("seat").cast(pl.Int64), "player", pl.col("stack").cast(pl.Int64), pl.col("final").cast(pl.Int64),
        sitting_out=pl.lit(False), active=pl.lit(True), added=pl.lit(False), line=pl.col("seat").cast(pl.Int64) + 1,
        collected=pl.lit(0, pl.Int64),
    )  # fmt: skip
    lists = seats.group_by("i").agg(seats=seat_struct.sort_by("seat"))
    base = pl.datetime(2026, 1, 1, time_zone="UTC")
    df = hands.join(lists, on="i").sort("i").select(
        site=pl.lit("pokerstars"), hand_id=(pl.col("i") + 300_000_000_000).cast(pl.String),
        path=pl.format("t{}.txt", pl.col("t")), first_line=pl.col("j") * 30 + 1,
        small_blind=pl.lit(50), big_blind=pl.lit(100), ante=pl.lit(None, pl.Int64),
        button=(pl.col("j") % 6 + 1).cast(pl.Int16), table=pl.format("T{}", pl.col("t")),
        tournament_id=pl.lit(None, pl.String), level=pl.lit(None, pl.String), complete=pl.lit(True),
        cancelled=pl.lit(False), decimals=pl.lit(2, pl.Int8), game=pl.lit("holdem"), structure=pl.lit("NL"),
        start_utc=base + pl.duration(minutes=pl.col("j"), hours=pl.col("t") % 24), seats="seats",
        fingerprint=pl.lit("0" * 24), chips_ok=pl.lit(True), pool=pl.lit(False), top_ups=pl.lit(True),
        button_rule=pl.lit("dead"), keeps_button=pl.lit(False),
    )  # fmt: skip
    # columns of C.INPUT not synthesised (T007's clock and flight of tournament hands): null
    df = df.with_columns(pl.lit(None, t).alias(c) for c, t in C.INPUT.items() if c not in df.columns)
    return df.select(list(C.INPUT)).cast(C.INPUT)  # type: ignore[arg-type]


def _load(path: str) -> Any:
    """Another version of ``auditor/continuity.py`` (``--baseline``), loaded as its own module."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("continuity_baseline", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["continuity_baseline"] = mod
    spec.loader.exec_module(mod)
    return mod


def _best(repeat: int, fn: Any) -> tuple[float, float, Any]:
    """Best wall and CPU seconds of ``repeat`` calls of ``fn``, and its last result."""
    wall = cpu = float("inf")
    result = None
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        result = fn()
        wall, cpu = min(wall, time.perf_counter() - t0), min(cpu, time.process_time() - c0)
    return wall, cpu, result


def _canon(df: Any) -> Any:
    return df.sort(df.columns, nulls_last=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=10_000)
    ap.add_argument("--hands-per-table", type=int, default=100)
    ap.add_argument("--threads", type=int, default=1, help="polars threads (default 1: per core)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dask-workers", type=int, default=2, help="0: skip the Dask comparison")
    ap.add_argument("--partitions", type=int, default=8)
    ap.add_argument("--baseline", help="another auditor/continuity.py (e.g. main's) to time on the same input")
    ap.add_argument("--allocator", choices=("keep", "polars"), default="keep",
                    help="keep: polars' jemalloc keeps freed pages, as `hhaudit batch` sets it "
                    "(auditor/batch/allocator.py; default); polars: polars' own setting")  # fmt: skip
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    os.environ["POLARS_MAX_THREADS"] = str(args.threads)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from auditor.batch import allocator

    if args.allocator == "keep":
        allocator.keep_freed_pages()  # before polars is imported (unless _RJEM_MALLOC_CONF is set)
    import polars as pl

    from auditor import continuity as C
    from auditor.batch import crosshand as X
    from auditor.batch.dask_engine import executor as dask_executor

    hands = args.tables * args.hands_per_table
    df = synthesise(args.tables, args.hands_per_table)
    # the flat form: what ``hhaudit audit`` builds and store layout 2 holds (hands with n_seats, one row per seat)
    flat_hands = df.with_columns(pl.col("seats").list.len().cast(pl.Int32).alias(C.N_SEATS)).drop("seats")
    flat_seats = C.flat_seats(df).drop("_in")
    out: dict[str, Any] = {"hands": hands, "tables": args.tables, "polars_threads": pl.thread_pool_size(),
                           "polars": pl.__version__, "allocator": os.environ.get(allocator.ENV)}  # fmt: skip
    print(f"{allocator.ENV}={os.environ.get(allocator.ENV)}")
    runs: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        nested_pq, hands_pq, seats_pq = (
            os.path.join(tmp, f) for f in ("nested.parquet", "hands.parquet", "seats.parquet")
        )
        df.write_parquet(nested_pq)
        flat_hands.write_parquet(hands_pq)
        flat_seats.write_parquet(seats_pq)
        cases = {
            "parquet_flat": lambda m: m.check(pl.scan_parquet(hands_pq), seats=pl.scan_parquet(seats_pq)).collect(),
            "memory_flat": lambda m: m.check(flat_hands.lazy(), seats=flat_seats.lazy()).collect(),
            "parquet_nested": lambda m: m.check(pl.scan_parquet(nested_pq)).collect(),
            "memory_nested": lambda m: m.check(df.lazy()).collect(),
        }
        versions = [("new", C)] + ([("baseline", _load(args.baseline))] if args.baseline else [])
        result = None
        for label, mod in versions:
            for name, fn in cases.items():
                if label == "baseline" and name.endswith("_flat") and not hasattr(mod, "link_seats"):
                    continue  # a query older than the flat form reads the nested form only
                wall, cpu, got = _best(args.repeat, lambda fn=fn, mod=mod: fn(mod))
                result = _canon(got) if result is None else result
                same = _canon(got).equals(result)
                runs[f"{label}_{name}"] = {"seconds": wall, "cpu_seconds": cpu, "hands_per_s": hands / wall,
                                           "hands_per_cpu_s": hands / cpu, "same_findings": same}  # fmt: skip
                print(f"{label:8s} {name:15s} {wall:6.2f} s ({hands / wall:>11,.0f} hands/s), CPU {cpu:6.2f} s "
                      f"({hands / cpu:>11,.0f} hands per CPU second); same findings: {same}")  # fmt: skip
                if not same:
                    return 1
        assert result is not None
        out.update(runs=runs, findings=result.height, by_code=dict(result.group_by("code").len().iter_rows()))
        best = runs["new_parquet_flat"]
        out.update(seconds=best["seconds"], hands_per_s=best["hands_per_s"],
                   hands_per_s_per_thread=best["hands_per_s"] / pl.thread_pool_size(),
                   in_memory_seconds=runs["new_memory_flat"]["seconds"],
                   in_memory_hands_per_s=runs["new_memory_flat"]["hands_per_s"])  # fmt: skip
        print(f"continuity over {hands:,} hands ({args.tables:,} tables), polars {pl.thread_pool_size()} thread(s); "
              f"{result.height:,} finding(s) {out['by_code']}")  # fmt: skip
        if args.dask_workers:
            import distributed

            whole = result.sort(["path", "line", "code", "player", "hand_id"], nulls_last=True)
            with (
                distributed.LocalCluster(n_workers=args.dask_workers, threads_per_worker=1, processes=True,
                                         dashboard_address=None) as cluster,
                distributed.Client(cluster) as client,
            ):  # fmt: skip
                t0 = time.perf_counter()
                remote = X.check_partitioned(flat_hands, args.partitions, dask_executor(client), seats=flat_seats)
                dsec = time.perf_counter() - t0
            same = _canon(remote).equals(_canon(whole))
            out.update(dask_workers=args.dask_workers, dask_seconds=dsec, dask_same_result=same)
            print(f"Dask, {args.dask_workers} workers, {args.partitions} partitions by table: {dsec:.2f} s "
                  f"(shipping the rows included); same findings as in-process: {same}")  # fmt: skip
            if not same:
                return 1
    if args.json:
        common.write_json(args.json, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
